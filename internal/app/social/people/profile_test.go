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
