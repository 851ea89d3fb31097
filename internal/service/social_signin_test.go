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
		// Day 8, not signed yet: the run up to yesterday still counts.
		clock.Set(day(8))
		if got := current(""); got.ConsecutiveDays != 3 {
			t.Fatalf("status on day 8 before signing = %+v, want the 3 days up to yesterday", got)
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

// TestSignInStreakCrossesMonths: the run of signed days goes on across month
// boundaries (here from May through June into July), still counts while today is not
// signed yet (ending yesterday), and breaks only when a whole day passes unsigned;
// signedToday tells whether today is signed, whatever month is asked for.
func TestSignInStreakCrossesMonths(t *testing.T) {
	t.Parallel()
	databaseBackends(t, func(t *testing.T, env map[string]string) {
		env["DEALSPOT_TIMEZONE"] = "UTC"
		at := func(m time.Month, d int) time.Time { return time.Date(2030, m, d, 12, 0, 0, 0, time.UTC) }
		clock := newTestClock(at(time.May, 20))
		srv, _, _ := startSocial(t, env, clock)
		c := as(srv, login(t, client(srv), "13700000610").AccessToken)
		type status struct {
			Month           string
			SignedDays      []int
			ConsecutiveDays int
			SignedToday     bool
		}
		const fields = `month signedDays consecutiveDays signedToday`
		signIn := func() status {
			t.Helper()
			var out struct{ SignIn status }
			c.Do(t, `mutation { signIn { `+fields+` } }`, nil).Decode(t, &out)
			return out.SignIn
		}
		read := func(month string) status {
			t.Helper()
			vars := map[string]any{}
			if month != "" {
				vars["m"] = month
			}
			var out struct{ SignInStatus status }
			c.Do(t, `query($m: String) { signInStatus(month: $m) { `+fields+` } }`, vars).Decode(t, &out)
			return out.SignInStatus
		}
		days := 0
		for d := at(time.May, 20); !d.After(at(time.July, 2)); d = d.AddDate(0, 0, 1) {
			clock.Set(d)
			days++
			if got := signIn(); got.ConsecutiveDays != days || !got.SignedToday {
				t.Fatalf("sign-in on %s = %+v, want %d in a row, signed today", d.Format(time.DateOnly), got, days)
			}
		}
		clock.Set(at(time.July, 3))
		if got := read(""); got.ConsecutiveDays != days || got.SignedToday || !slices.Equal(got.SignedDays, []int{1, 2}) {
			t.Fatalf("July 3 before signing = %+v, want the %d days up to yesterday, not signed today", got, days)
		}
		if got := read("2030-06"); got.ConsecutiveDays != days-2 || got.SignedToday || len(got.SignedDays) != 30 {
			t.Fatalf("June read on July 3 = %+v, want the %d days up to June 30", got, days-2)
		}
		if got := signIn(); got.ConsecutiveDays != days+1 || !got.SignedToday {
			t.Fatalf("sign-in on July 3 = %+v, want %d in a row", got, days+1)
		}
		if got := read("2030-05"); got.ConsecutiveDays != 12 || !got.SignedToday {
			t.Fatalf("May read on July 3 after signing = %+v, want its 12 days, signed today", got)
		}
		// July 4 passes unsigned: on July 5 the run is broken.
		clock.Set(at(time.July, 5))
		if got := read(""); got.ConsecutiveDays != 0 || got.SignedToday {
			t.Fatalf("July 5 after an unsigned day = %+v, want 0", got)
		}
		if got := signIn(); got.ConsecutiveDays != 1 || !got.SignedToday || !slices.Equal(got.SignedDays, []int{1, 2, 3, 5}) {
			t.Fatalf("sign-in on July 5 = %+v, want 1 in a row", got)
		}
	})
}
