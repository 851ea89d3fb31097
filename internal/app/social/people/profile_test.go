package people_test

import (
	"context"
	"errors"
	"testing"

	"github.com/dealspot/dealspot/internal/app/social/people"
	"github.com/dealspot/dealspot/internal/app/social/socialtest"
	"github.com/dealspot/dealspot/internal/domain"
)

func TestProfileTextRefusesControlAndBidiCharacters(t *testing.T) {
	t.Parallel()
	ptr := func(s string) *string { return &s }
	c := people.New(domain.PageLimits{}, people.Deps{Users: socialtest.NewMemProfiles(domain.User{ID: 1, NickName: "n"})}).Commands
	actor := domain.Actor{UserID: 1}
	if _, err := c.UpdateProfile(context.Background(), actor, people.ProfileInput{NickName: ptr("小明"), City: ptr("上海"), Introduction: ptr("爱吃\n爱玩")}); err != nil {
		t.Fatalf("a plain profile: %v", err)
	}
	fields := map[string]func(s string) people.ProfileInput{
		"nickName":     func(s string) people.ProfileInput { return people.ProfileInput{NickName: &s} },
		"city":         func(s string) people.ProfileInput { return people.ProfileInput{City: &s} },
		"introduction": func(s string) people.ProfileInput { return people.ProfileInput{Introduction: &s} },
	}
	for name, s := range socialtest.HostileText {
		for field, in := range fields {
			if _, err := c.UpdateProfile(context.Background(), actor, in(s)); !errors.Is(err, domain.ErrBadInput) {
				t.Errorf("%s with %s: err = %v, want BAD_USER_INPUT", field, name, err)
			}
		}
	}
	for name, s := range socialtest.SingleLineOnly {
		for _, field := range []string{"nickName", "city"} {
			if _, err := c.UpdateProfile(context.Background(), actor, fields[field](s)); !errors.Is(err, domain.ErrBadInput) {
				t.Errorf("%s with %s: err = %v, want BAD_USER_INPUT", field, name, err)
			}
		}
	}
}

// knownImages are the paths of this site that serve an image, in the tests.
type knownImages map[string]bool

func (k knownImages) Exists(_ context.Context, path string) (bool, error) { return k[path], nil }

// TestIconMustExist: an icon that is a path of this site must serve an image; an https
// URL, an empty icon and the icon one has already are taken as they are.
func TestIconMustExist(t *testing.T) {
	t.Parallel()
	users := socialtest.NewMemProfiles(domain.User{ID: 1, NickName: "n", Icon: "/imgs/icons/old.jpg"})
	c := people.New(domain.PageLimits{}, people.Deps{Users: users, Images: knownImages{"/media/0123456789abcdef0123456789abcdef.png": true}}).Commands
	actor := domain.Actor{UserID: 1}
	ctx := context.Background()
	// The icon stored before icons were checked stays through other changes.
	nick := "m"
	if _, err := c.UpdateProfile(ctx, actor, people.ProfileInput{NickName: &nick}); err != nil {
		t.Fatalf("changing the nickname with an old icon: %v", err)
	}
	for _, icon := range []string{"/imgs/icons/old.jpg", "/media/0123456789abcdef0123456789abcdef.png", "https://cdn.example.com/a.png", ""} {
		if u, err := c.UpdateProfile(ctx, actor, people.ProfileInput{Icon: &icon}); err != nil || u.Icon != icon {
			t.Errorf("icon %q: %q, %v", icon, u.Icon, err)
		}
	}
	for _, icon := range []string{"/media/does-not-exist.png", "/imgs/icons/old.jpg"} {
		if _, err := c.UpdateProfile(ctx, actor, people.ProfileInput{Icon: &icon}); !errors.Is(err, domain.ErrBadInput) {
			t.Errorf("icon %q: err = %v, want BAD_USER_INPUT", icon, err)
		}
	}
}
