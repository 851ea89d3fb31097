package followstest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/dealspot/dealspot/internal/app/contracttest"
	"github.com/dealspot/dealspot/internal/app/social/follows"
	"github.com/dealspot/dealspot/internal/domain"
)

// FollowsContract is what every follows.Follows must do, as its doc comments say.
// newStore returns an empty store for each case.
func FollowsContract(t *testing.T, newStore func(t *testing.T) follows.Follows) {
	t.Helper()
	contracttest.RunCases(t, newStore,
		contracttest.Case[follows.Follows]{Name: "follows are unique and page by follower", Run: followsUniqueAndPaged},
		contracttest.Case[follows.Follows]{Name: "concurrent follows of one pair: exactly one creates", Run: followsConcurrent},
	)
}

func followsUniqueAndPaged(t *testing.T, f follows.Follows) {
	ctx := context.Background()
	follow := func(u, target int64, want bool) {
		t.Helper()
		created, err := f.Follow(ctx, u, target)
		if err != nil || created != want {
			t.Fatalf("Follow(%d, %d) = %v, %v; want %v", u, target, created, err, want)
		}
	}
	for u := int64(1); u <= 7; u++ {
		follow(u+10, 100, true)
	}
	follow(11, 100, false)
	follow(11, 200, true)
	if _, err := f.Follow(ctx, 5, 5); !errors.Is(err, domain.ErrBadInput) {
		t.Fatalf("following oneself: err = %v, want BAD_USER_INPUT", err)
	}
	var followers []int64
	after := int64(0)
	for {
		page, err := f.FollowerIDs(ctx, 100, after, 3)
		if err != nil {
			t.Fatal(err)
		}
		followers = append(followers, page...)
		if len(page) < 3 {
			break
		}
		after = page[len(page)-1]
	}
	if fmt.Sprint(followers) != "[11 12 13 14 15 16 17]" {
		t.Fatalf("followers of 100 = %v", followers)
	}
	if removed, err := f.Unfollow(ctx, 13, 100); err != nil || !removed {
		t.Fatalf("Unfollow = %v, %v", removed, err)
	}
	if removed, err := f.Unfollow(ctx, 13, 100); err != nil || removed {
		t.Fatalf("second Unfollow = %v, %v; want false", removed, err)
	}
	all, err := f.Follows(ctx, 0, 100)
	if err != nil || len(all) != 7 {
		t.Fatalf("Follows = %d rows, %v; want 7", len(all), err)
	}
	rest, _ := f.Follows(ctx, all[2].ID, 100)
	if len(rest) != 4 || rest[0].ID <= all[2].ID {
		t.Fatalf("Follows after %d = %+v", all[2].ID, rest)
	}
	if following, err := f.FollowingIDs(ctx, 11, 0, 10); err != nil || fmt.Sprint(following) != "[100 200]" {
		t.Fatalf("FollowingIDs(11) = %v, %v; want [100 200]", following, err)
	}
	if following, _ := f.FollowingIDs(ctx, 11, 100, 1); fmt.Sprint(following) != "[200]" {
		t.Fatalf("FollowingIDs(11) after 100 = %v, want [200]", following)
	}
}

func followsConcurrent(t *testing.T, f follows.Follows) {
	var (
		wg      sync.WaitGroup
		mu      sync.Mutex
		created int
		errs    []error
	)
	for range 8 {
		wg.Go(func() {
			ok, err := f.Follow(context.Background(), 1, 2)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				errs = append(errs, err)
			}
			if ok {
				created++
			}
		})
	}
	wg.Wait()
	if created != 1 || len(errs) > 0 {
		t.Fatalf("%d follows created, errors %v; want exactly one and none", created, errs)
	}
}

// FollowMirrorContract is what every follows.FollowMirror must do, as its doc comments
// say. newMirror returns a mirror never filled; mirrors of one test may share their
// server, as no other case marks it loaded.
func FollowMirrorContract(t *testing.T, newMirror func(t *testing.T) follows.FollowMirror) {
	t.Helper()
	contracttest.RunCases(t, newMirror,
		contracttest.Case[follows.FollowMirror]{Name: "the mirror tests membership and intersects, once loaded", Run: mirrorMembership},
	)
}

func mirrorMembership(t *testing.T, f follows.FollowMirror) {
	ctx := context.Background()
	// Ids of this case only: a, b and c follow among t0…t3; nobody follows nobody.
	a, b, c, nobody := contracttest.NewID(), contracttest.NewID(), contracttest.NewID(), contracttest.NewID()
	t0, t1, t2, t3, stranger := contracttest.NewID(), contracttest.NewID(), contracttest.NewID(), contracttest.NewID(), contracttest.NewID()
	if ok, err := f.Loaded(ctx); err != nil || ok {
		t.Fatalf("Loaded on an empty mirror = %v, %v", ok, err)
	}
	if err := f.AddAll(ctx, []domain.Follow{
		{UserID: a, FollowUserID: t0}, {UserID: a, FollowUserID: t1}, {UserID: a, FollowUserID: t2},
		{UserID: b, FollowUserID: t1}, {UserID: b, FollowUserID: t2}, {UserID: b, FollowUserID: t3},
	}); err != nil {
		t.Fatal(err)
	}
	if err := f.MarkLoaded(ctx); err != nil {
		t.Fatal(err)
	}
	if ok, _ := f.Loaded(ctx); !ok {
		t.Fatal("Loaded after MarkLoaded = false")
	}
	if err := f.Add(ctx, b, t0); err != nil {
		t.Fatal(err)
	}
	if err := f.Remove(ctx, b, t2); err != nil {
		t.Fatal(err)
	}
	common, err := f.Common(ctx, a, b)
	slices.Sort(common)
	if err != nil || !slices.Equal(common, []int64{t0, t1}) {
		t.Fatalf("Common = %v, %v; want [%d %d]", common, err, t0, t1)
	}
	for _, cc := range []struct {
		user, target int64
		want         bool
	}{{a, t0, true}, {b, t2, false}, {b, t3, true}, {c, t0, false}} {
		if ok, err := f.Contains(ctx, cc.user, cc.target); err != nil || ok != cc.want {
			t.Errorf("Contains(%d, %d) = %v, %v", cc.user, cc.target, ok, err)
		}
	}
	if many, err := f.FollowsMany(ctx, b, []int64{t0, t2, t3, stranger}); err != nil || !slices.Equal(many, []bool{true, false, true, false}) {
		t.Errorf("FollowsMany(b, t0 t2 t3 stranger) = %v, %v", many, err)
	}
	if none, err := f.Common(ctx, a, nobody); err != nil || len(none) != 0 {
		t.Fatalf("Common with a user who follows nobody = %v, %v", none, err)
	}
}
