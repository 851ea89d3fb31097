package service_test

import (
	"slices"
	"testing"
	"time"
)

func TestSignInMonthWithGaps(t *testing.T) {
	t.Parallel()
	redisBackends(t, func(t *testing.T, env map[string]string) {
		env["DEALSPOT_TIMEZONE"] = "Asia/Shanghai"
		// 20:00 UTC is 04:00 the next day in Shanghai.
		day := func(d int) time.Time { return time.Date(2030, time.June, d-1, 20, 0, 0, 0, time.UTC) }
		clock := newTestClock(day(1))
		srv, _, _ := startSocial(t, env, clock)
		c := as(srv, login(t, client(srv), "13700000600").AccessToken)
		type status struct {
			Month           string
			SignedDays      []int
			ConsecutiveDays int
		}
		signIn := func() status {
			var out struct{ SignIn status }
			c.Do(t, `mutation { signIn { month signedDays consecutiveDays } }`, nil).Decode(t, &out)
			return out.SignIn
		}
		current := func(month string) status {
			var out struct{ SignInStatus status }
			vars := map[string]any{}
			if month != "" {
				vars["m"] = month
			}
			c.Do(t, `query($m: String) { signInStatus(month: $m) { month signedDays consecutiveDays } }`, vars).Decode(t, &out)
			return out.SignInStatus
		}
		for _, d := range []int{1, 2, 3, 5, 6, 7} {
			clock.Set(day(d))
			signIn()
		}
		want := status{"2030-06", []int{1, 2, 3, 5, 6, 7}, 3}
		if got := signIn(); !slices.Equal(got.SignedDays, want.SignedDays) || got.ConsecutiveDays != 3 || got.Month != want.Month {
			t.Fatalf("signing twice on day 7 = %+v, want %+v", got, want)
		}
		if got := current(""); !slices.Equal(got.SignedDays, want.SignedDays) || got.ConsecutiveDays != 3 {
			t.Fatalf("status on day 7 = %+v, want %+v", got, want)
		}
		// Day 8, not signed yet: the count back from today is 0 until the user signs.
		clock.Set(day(8))
		if got := current(""); got.ConsecutiveDays != 0 {
			t.Fatalf("status on day 8 before signing = %+v, want 0 consecutive", got)
		}
		if got := signIn(); got.ConsecutiveDays != 4 || !slices.Equal(got.SignedDays, []int{1, 2, 3, 5, 6, 7, 8}) {
			t.Fatalf("sign-in on day 8 = %+v, want 4 consecutive", got)
		}
		// 15:59 UTC is still the 9th in Shanghai, 16:00 the 10th.
		clock.Set(time.Date(2030, time.June, 9, 15, 59, 0, 0, time.UTC))
		if got := signIn(); got.ConsecutiveDays != 5 || got.SignedDays[len(got.SignedDays)-1] != 9 {
			t.Fatalf("sign-in at 23:59 on the 9th (Shanghai) = %+v", got)
		}
		clock.Set(time.Date(2030, time.June, 9, 16, 0, 0, 0, time.UTC))
		if got := signIn(); got.ConsecutiveDays != 6 || got.SignedDays[len(got.SignedDays)-1] != 10 {
			t.Fatalf("sign-in at 00:00 on the 10th (Shanghai) = %+v", got)
		}
		if got := current("2030-05"); got.Month != "2030-05" || len(got.SignedDays) != 0 || got.ConsecutiveDays != 0 {
			t.Fatalf("last month = %+v, want empty", got)
		}
		// Next month: June's run counts back from its last day (the 30th, not signed).
		clock.Set(time.Date(2030, time.July, 2, 4, 0, 0, 0, time.UTC))
		if got := current("2030-06"); got.ConsecutiveDays != 0 || len(got.SignedDays) != 9 {
			t.Fatalf("June seen in July = %+v", got)
		}
	})
}
