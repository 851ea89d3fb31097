package socialtest

import (
	"errors"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/app/contracttest"
	"github.com/dealspot/dealspot/internal/app/social/people"
	"github.com/dealspot/dealspot/internal/domain"
)

// PeopleUsers is a people.Users and a way to register a user with a nickname.
type PeopleUsers struct {
	people.Users
	NewUser func(t *testing.T, nickName string) domain.User
}

// PeopleUsersContract is what every people.Users must do, as its doc comments say:
// users are read by id and by ids in the order of the ids, unknown ones left out; a
// profile update stores nickname, icon and profile, leaves the account as it is, and
// answers the user as stored; an unknown id is domain.ErrNotFound. newUsers returns the
// users (users of one test may share their database).
func PeopleUsersContract(t *testing.T, newUsers func(t *testing.T) PeopleUsers) {
	t.Helper()
	contracttest.RunCases(t, newUsers,
		contracttest.Case[PeopleUsers]{Name: "users are read by id and by ids", Run: peopleByIDs},
		contracttest.Case[PeopleUsers]{Name: "a profile is updated and read back", Run: peopleProfile},
	)
}

func peopleByIDs(t *testing.T, s PeopleUsers) {
	ctx := t.Context()
	a, b := s.NewUser(t, "a"), s.NewUser(t, "b")
	if got, err := s.User(ctx, a.ID); err != nil || got.ID != a.ID || got.NickName != "a" || got.Phone != a.Phone {
		t.Fatalf("user %d = %+v, %v; want %+v", a.ID, got, err, a)
	}
	if _, err := s.User(ctx, b.ID+1000); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("an unknown user: %v, want NOT_FOUND", err)
	}
	got, err := s.UsersByIDs(ctx, []int64{b.ID, b.ID + 1000, a.ID})
	if err != nil || len(got) != 2 || got[0].ID != b.ID || got[0].NickName != "b" || got[1].ID != a.ID {
		t.Fatalf("users by ids [b, unknown, a] = %+v, %v; want b, a", got, err)
	}
	if got, err := s.UsersByIDs(ctx, nil); err != nil || len(got) != 0 {
		t.Fatalf("users by no ids = %+v, %v; want none", got, err)
	}
}

func peopleProfile(t *testing.T, s PeopleUsers) {
	ctx := t.Context()
	u := s.NewUser(t, "before")
	birthday := time.Date(1990, 4, 5, 0, 0, 0, 0, time.UTC)
	in := u
	in.NickName, in.Icon = "小明", "/imgs/icons/1.png"
	in.Profile.City, in.Profile.Introduction, in.Profile.Gender, in.Profile.Birthday = "上海", "爱吃\n爱玩", domain.GenderFemale, &birthday
	updated, err := s.UpdateProfile(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	for name, got := range map[string]domain.User{"answered": updated, "read back": must(s.User(ctx, u.ID))(t)} {
		if got.ID != u.ID || got.Phone != u.Phone || got.Role != u.Role || got.NickName != "小明" || got.Icon != "/imgs/icons/1.png" ||
			got.City != "上海" || got.Introduction != "爱吃\n爱玩" || got.Gender != domain.GenderFemale ||
			got.Birthday == nil || !got.Birthday.Equal(birthday) {
			t.Fatalf("%s: %+v, want %+v", name, got, in)
		}
	}
	in.Profile.Birthday = nil
	if cleared, err := s.UpdateProfile(ctx, in); err != nil || cleared.Birthday != nil {
		t.Fatalf("a birthday taken back: %+v, %v", cleared.Birthday, err)
	}
	in.ID = u.ID + 1000
	if _, err := s.UpdateProfile(ctx, in); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("an unknown user's profile: %v, want NOT_FOUND", err)
	}
}

// must returns a check that fails the test on err, else gives v.
func must[V any](v V, err error) func(t *testing.T) V {
	return func(t *testing.T) V {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}
