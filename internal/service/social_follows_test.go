package service_test

import (
	"cmp"
	"context"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
)

func TestFollowsAndCommonFollowsSurviveALostRedis(t *testing.T) {
	t.Parallel()
	socialBackends(t, func(t *testing.T, env map[string]string) {
		srv, svc, stop := startSocial(t, env, nil)
		anon := client(srv)
		phones := map[string]string{"a": "13700000501", "b": "13700000502", "x": "13700000503", "y": "13700000504", "z": "13700000505", "w": "13700000506"}
		ids := map[string]string{}
		tokens := map[string]string{}
		for name, phone := range phones {
			s := login(t, anon, phone)
			ids[name], tokens[name] = s.User.ID, s.AccessToken
		}
		for _, f := range []struct{ who, whom string }{{"a", "x"}, {"a", "y"}, {"a", "z"}, {"b", "y"}, {"b", "z"}, {"b", "w"}, {"a", "x"}} {
			follow(t, as(srv, tokens[f.who]), ids[f.whom])
		}
		check := func(srv *httptest.Server, tokenA string) {
			t.Helper()
			a := as(srv, tokenA)
			var out struct {
				IsFollowing, NotFollowing bool
				CommonFollows             []struct{ ID, Phone string }
			}
			a.Do(t, `query($x: ID!, $w: ID!, $b: ID!) { isFollowing(userId: $x) notFollowing: isFollowing(userId: $w) commonFollows(userId: $b) { id phone } }`,
				map[string]any{"x": ids["x"], "w": ids["w"], "b": ids["b"]}).Decode(t, &out)
			var common []string
			for _, u := range out.CommonFollows {
				common = append(common, u.ID)
				if !strings.Contains(u.Phone, "****") {
					t.Errorf("someone else's phone shown unmasked: %s", u.Phone)
				}
			}
			want := []string{ids["y"], ids["z"]}
			slices.SortFunc(want, func(p, q string) int { return cmp.Compare(mustID(t, p), mustID(t, q)) })
			if !out.IsFollowing || out.NotFollowing || !slices.Equal(common, want) {
				t.Fatalf("isFollowing x %v, w %v, commonFollows %v; want true, false, %v", out.IsFollowing, out.NotFollowing, common, want)
			}
		}
		check(srv, tokens["a"])

		// Redis loses everything (restarted without persistence): the follow sets are
		// rebuilt from the database at start.
		if env["REDIS_URL"] != "" {
			if err := svc.Redis.Client.FlushDB(context.Background()).Err(); err != nil {
				t.Fatal(err)
			}
		}
		stop()
		srv2, _, _ := startSocial(t, env, nil)
		check(srv2, login(t, client(srv2), phones["a"]).AccessToken)
	})
}
