package people

import (
	"context"
	"errors"
	"testing"

	"github.com/dealspot/dealspot/internal/app/social/socialtest"
	"github.com/dealspot/dealspot/internal/domain"
)

// profileUsers is a Users port holding one user.
type profileUsers struct{ u domain.User }

func (p *profileUsers) User(context.Context, int64) (domain.User, error) { return p.u, nil }
func (p *profileUsers) UsersByIDs(context.Context, []int64) ([]domain.User, error) {
	return []domain.User{p.u}, nil
}
func (p *profileUsers) UpdateProfile(_ context.Context, u domain.User) (domain.User, error) {
	p.u = u
	return u, nil
}

func TestProfileTextRefusesControlAndBidiCharacters(t *testing.T) {
	t.Parallel()
	ptr := func(s string) *string { return &s }
	c := &PeopleCommands{users: &profileUsers{u: domain.User{ID: 1, NickName: "n"}}}
	actor := domain.Actor{UserID: 1}
	if _, err := c.UpdateProfile(context.Background(), actor, ProfileInput{NickName: ptr("小明"), City: ptr("上海"), Introduction: ptr("爱吃\n爱玩")}); err != nil {
		t.Fatalf("a plain profile: %v", err)
	}
	fields := map[string]func(s string) ProfileInput{
		"nickName":     func(s string) ProfileInput { return ProfileInput{NickName: &s} },
		"city":         func(s string) ProfileInput { return ProfileInput{City: &s} },
		"introduction": func(s string) ProfileInput { return ProfileInput{Introduction: &s} },
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
