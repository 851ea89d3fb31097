package social

import (
	"context"

	"github.com/dealspot/dealspot/internal/app/social/follows"
	"github.com/dealspot/dealspot/internal/app/social/likes"
	"github.com/dealspot/dealspot/internal/app/social/notes"
	"github.com/dealspot/dealspot/internal/app/social/people"
	"github.com/dealspot/dealspot/internal/app/social/signins"
	"github.com/dealspot/dealspot/internal/domain"
)

// Blogs reads and writes blogs in the relational store: what each of the social
// packages reads of them.
type Blogs interface {
	notes.Blogs
	likes.Blogs
	follows.Blogs
	people.Blogs
}

// Follows keeps follow relations in the relational store: the follows package's
// relations and the people package's pages and counts.
type Follows interface {
	follows.Follows
	people.Follows
}

// Users reads user accounts and changes profiles.
type Users interface {
	likes.Users
	follows.Users
	people.Users
}

// Credits keeps the users' credit awards: the notes' awards and take-backs and the
// sign-ins' awards.
type Credits interface {
	notes.Credits
	signins.Credits
}

// Notifier hands likes, comments and follows to the users' inboxes, without waiting
// for the notifications.
type Notifier interface {
	likes.Notifier
	notes.Notifier
	follows.Notifier
}

// noNotifier tells nobody.
type noNotifier struct{}

func (noNotifier) Notify(context.Context, domain.NotificationEvent) {}
