package entstore_test

import (
	"testing"

	"github.com/dealspot/dealspot/adapters/entstore"
)

func TestSeedStoresTheDemoPeopleOnce(t *testing.T) {
	t.Parallel()
	s := openMigrated(t, "sqlite::memory:")
	demo := entstore.DemoSocialData()
	for range 2 {
		if _, err := s.Seed(t.Context()); err != nil {
			t.Fatal(err)
		}
	}
	ids := make([]int64, len(demo.Users))
	for i, want := range demo.Users {
		u, err := s.Users().UserByPhone(t.Context(), want.Phone)
		if err != nil {
			t.Fatalf("demo user %s: %v", want.Phone, err)
		}
		if u.NickName != want.NickName {
			t.Errorf("demo user %s is %q, want %q", want.Phone, u.NickName, want.NickName)
		}
		ids[i] = u.ID
	}
	// The README's examples name the demo people by id: 1, 2, … in an empty database.
	for i, id := range ids {
		if id != int64(i+1) {
			t.Errorf("demo user %d has id %d, want %d", i, id, i+1)
		}
	}
	users, err := s.Users().UsersByIDs(t.Context(), []int64{1, 2, 3, 4, 5, 6})
	if err != nil {
		t.Fatal(err)
	}
	if len(users) != len(demo.Users) {
		t.Errorf("%d users after seeding twice, want the %d demo people once", len(users), len(demo.Users))
	}
	for _, b := range demo.Blogs {
		if b.Author >= len(demo.Users) {
			t.Errorf("demo note %q has no author", b.Title)
		}
		for _, l := range b.LikedBy {
			if l >= len(demo.Users) {
				t.Errorf("demo note %q is liked by an unknown demo user %d", b.Title, l)
			}
		}
	}
}
