package social

import (
	"context"
	"errors"
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/dealspot/dealspot/internal/domain"
)

// PeopleQueries read users as other users see them: profiles, counts, followers.
type PeopleQueries struct {
	users   Users
	follows Follows
	blogs   Blogs
	pages   domain.PageLimits
}

// ByIDs returns the users with ids (unknown ones left out) with one query.
func (q *PeopleQueries) ByIDs(ctx context.Context, ids []int64) (map[int64]domain.User, error) {
	users, err := q.users.UsersByIDs(ctx, unique(ids))
	if err != nil {
		return nil, fmt.Errorf("load users: %w", err)
	}
	out := make(map[int64]domain.User, len(users))
	for _, u := range users {
		out[u.ID] = u
	}
	return out, nil
}

// FollowerCounts, FollowingCounts and BlogCounts count, for each of ids, with one query
// each; a user without any is missing from the map (a count of 0).
func (q *PeopleQueries) FollowerCounts(ctx context.Context, ids []int64) (map[int64]int, error) {
	return q.follows.FollowerCounts(ctx, unique(ids))
}

// FollowingCounts: see FollowerCounts.
func (q *PeopleQueries) FollowingCounts(ctx context.Context, ids []int64) (map[int64]int, error) {
	return q.follows.FollowingCounts(ctx, unique(ids))
}

// BlogCounts: see FollowerCounts.
func (q *PeopleQueries) BlogCounts(ctx context.Context, ids []int64) (map[int64]int, error) {
	return q.blogs.BlogCounts(ctx, unique(ids))
}

// FollowPage is one page of follow relations, newest first.
type FollowPage struct {
	Follows     []domain.Follow
	HasNextPage bool
}

// Followers pages through the users following userID, newest first, before the
// relation id before (0: from the newest). Relations are paged by their own ids, so
// follows and unfollows while a client pages neither repeat nor skip the others.
func (q *PeopleQueries) Followers(ctx context.Context, userID int64, first int, before int64) (FollowPage, error) {
	return q.page(ctx, userID, first, before, q.follows.Followers)
}

// Following pages through the users userID follows, as Followers does.
func (q *PeopleQueries) Following(ctx context.Context, userID int64, first int, before int64) (FollowPage, error) {
	return q.page(ctx, userID, first, before, q.follows.Following)
}

func (q *PeopleQueries) page(ctx context.Context, userID int64, first int, before int64,
	list func(ctx context.Context, id, before int64, limit int) ([]domain.Follow, error)) (FollowPage, error) {
	size, err := q.pages.Size(first)
	if err != nil {
		return FollowPage{}, err
	}
	if userID <= 0 || before < 0 {
		return FollowPage{}, domain.Errorf(domain.CodeBadUserInput, "ids must be positive")
	}
	fs, err := list(ctx, userID, before, size+1)
	if err != nil {
		return FollowPage{}, err
	}
	page := FollowPage{Follows: fs}
	if len(fs) > size {
		page.Follows, page.HasNextPage = fs[:size], true
	}
	return page, nil
}

// ProfileInput changes the caller's profile: nil fields stay as they are.
type ProfileInput struct {
	NickName     *string
	Icon         *string
	City         *string
	Introduction *string
	Gender       *domain.Gender
	// Birthday sets the birthday; ClearBirthday removes it.
	Birthday      *time.Time
	ClearBirthday bool
}

// Profile limits, in characters. Nicknames are not unique: users are told apart by id,
// as in every local-life app, and a unique nickname would let anyone probe who uses
// the service.
const (
	maxNickRunes  = 32
	maxCityRunes  = 64
	maxIntroRunes = 255
)

// PeopleCommands change the caller's own account details.
type PeopleCommands struct {
	users Users
	now   func() time.Time
}

// UpdateProfile changes the actor's profile. Errors: BAD_USER_INPUT (a field too long
// or empty where it may not be, an icon that is not an https URL or one of our paths, a
// birthday in the future or before 1900), UNAUTHENTICATED.
func (c *PeopleCommands) UpdateProfile(ctx context.Context, a domain.Actor, in ProfileInput) (domain.User, error) {
	if a.UserID <= 0 {
		return domain.User{}, domain.Errorf(domain.CodeUnauthenticated, "log in first")
	}
	u, err := c.users.User(ctx, a.UserID)
	if errors.Is(err, domain.ErrNotFound) {
		return domain.User{}, domain.Errorf(domain.CodeUnauthenticated, "log in first")
	}
	if err != nil {
		return domain.User{}, err
	}
	if in.NickName != nil {
		if u.NickName, err = validText("nickName", *in.NickName, maxNickRunes, false); err != nil {
			return domain.User{}, err
		}
	}
	if in.Icon != nil {
		if *in.Icon != "" && !ValidImage(*in.Icon) {
			return domain.User{}, domain.Errorf(domain.CodeBadUserInput, "icon: an https URL or an uploaded image's /media/ path")
		}
		u.Icon = *in.Icon
	}
	optional := func(field string, v *string, limit int, multiLine bool, into *string) error {
		if v == nil {
			return nil
		}
		if *v == "" {
			*into = ""
			return nil
		}
		s, err := validText(field, *v, limit, multiLine)
		*into = s
		return err
	}
	if err := optional("city", in.City, maxCityRunes, false, &u.City); err != nil {
		return domain.User{}, err
	}
	if err := optional("introduction", in.Introduction, maxIntroRunes, true, &u.Introduction); err != nil {
		return domain.User{}, err
	}
	if in.Gender != nil {
		if !in.Gender.Valid() {
			return domain.User{}, domain.Errorf(domain.CodeBadUserInput, "gender: unknown value %q", *in.Gender)
		}
		u.Gender = *in.Gender
	}
	switch {
	case in.ClearBirthday:
		u.Birthday = nil
	case in.Birthday != nil:
		b := in.Birthday.UTC()
		if b.After(c.now()) || b.Year() < 1900 {
			return domain.User{}, domain.Errorf(domain.CodeBadUserInput, "birthday: a day between 1900 and today")
		}
		u.Birthday = &b
	}
	if !utf8.ValidString(u.NickName) {
		return domain.User{}, domain.Errorf(domain.CodeBadUserInput, "nickName must be valid UTF-8")
	}
	return c.users.UpdateProfile(ctx, u)
}
