package people

import (
	"context"
	"errors"
	"time"
	"unicode/utf8"

	"github.com/dealspot/dealspot/internal/app/social/notes"
	"github.com/dealspot/dealspot/internal/domain"
)

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
	users  Users
	images notes.Images
	now    func() time.Time
}

// UpdateProfile changes the actor's profile. Errors: BAD_USER_INPUT (a field too long
// or empty where it may not be, an icon that is not an https URL or a path of this site
// where it serves an image, a birthday in the future or before 1900), UNAUTHENTICATED.
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
		if u.NickName, err = notes.ValidText("nickName", *in.NickName, maxNickRunes, false); err != nil {
			return domain.User{}, err
		}
	}
	if in.Icon != nil {
		if *in.Icon != "" && !notes.ValidImage(*in.Icon) {
			return domain.User{}, domain.Errorf(domain.CodeBadUserInput, "icon: an https URL or an uploaded image's /media/ path")
		}
		if *in.Icon != u.Icon && *in.Icon != "" {
			if err := notes.CheckImagesExist(ctx, c.images, "icon", []string{*in.Icon}); err != nil {
				return domain.User{}, err
			}
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
		s, err := notes.ValidText(field, *v, limit, multiLine)
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
