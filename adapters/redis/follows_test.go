package redis_test

import (
	"context"
	"slices"
	"testing"

	"github.com/dealspot/dealspot/adapters/redis"
	"github.com/dealspot/dealspot/adapters/redis/redistest"
	"github.com/dealspot/dealspot/internal/domain"
)

func TestFollowSetsMirrorAndIntersect(t *testing.T) {
	t.Parallel()
	redistest.Each(t, func(t *testing.T, conn *redis.Conn) {
		ctx := context.Background()
		f := redis.NewFollowSets(conn.Client)
		if ok, err := f.Loaded(ctx); err != nil || ok {
			t.Fatalf("Loaded on an empty Redis = %v, %v", ok, err)
		}
		if err := f.AddAll(ctx, []domain.Follow{
			{UserID: 1, FollowUserID: 10}, {UserID: 1, FollowUserID: 11}, {UserID: 1, FollowUserID: 12},
			{UserID: 2, FollowUserID: 11}, {UserID: 2, FollowUserID: 12}, {UserID: 2, FollowUserID: 13},
		}); err != nil {
			t.Fatal(err)
		}
		if err := f.MarkLoaded(ctx); err != nil {
			t.Fatal(err)
		}
		if ok, _ := f.Loaded(ctx); !ok {
			t.Fatal("Loaded after MarkLoaded = false")
		}
		if err := f.Add(ctx, 2, 10); err != nil {
			t.Fatal(err)
		}
		if err := f.Remove(ctx, 2, 12); err != nil {
			t.Fatal(err)
		}
		common, err := f.Common(ctx, 1, 2)
		slices.Sort(common)
		if err != nil || !slices.Equal(common, []int64{10, 11}) {
			t.Fatalf("Common = %v, %v; want [10 11]", common, err)
		}
		for _, c := range []struct {
			user, target int64
			want         bool
		}{{1, 10, true}, {2, 12, false}, {2, 13, true}, {3, 10, false}} {
			if ok, err := f.Contains(ctx, c.user, c.target); err != nil || ok != c.want {
				t.Errorf("Contains(%d, %d) = %v, %v", c.user, c.target, ok, err)
			}
		}
		if many, err := f.FollowsMany(ctx, 2, []int64{10, 12, 13, 99}); err != nil || !slices.Equal(many, []bool{true, false, true, false}) {
			t.Errorf("FollowsMany(2, 10 12 13 99) = %v, %v", many, err)
		}
		if none, err := f.Common(ctx, 1, 99); err != nil || len(none) != 0 {
			t.Fatalf("Common with a user who follows nobody = %v, %v", none, err)
		}
	})
}
