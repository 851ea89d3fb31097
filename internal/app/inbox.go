package app

import "github.com/dealspot/dealspot/internal/app/inbox"

// InboxCommands mark a user's notifications read and change their settings.
type InboxCommands struct {
	Inbox *inbox.Commands
}

// InboxQueries read a user's notifications and settings, and follow new ones.
type InboxQueries struct {
	Inbox *inbox.Queries
}

// InboxOperations write the notifications of what the use cases report.
type InboxOperations struct {
	NotificationWriter *inbox.Writer
}

// Inbox sorts the inbox's use cases into what a client may call and what the server
// runs itself.
func Inbox(s *inbox.Service) (InboxCommands, InboxQueries, InboxOperations) {
	return InboxCommands{Inbox: s.Commands}, InboxQueries{Inbox: s.Queries}, InboxOperations{NotificationWriter: s.Writer}
}
