package auth_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/app/auth"
	"github.com/dealspot/dealspot/internal/app/auth/authtest"
	"github.com/dealspot/dealspot/internal/domain"
)

func randomPhone() string { return fmt.Sprintf("139%08d", rand.IntN(100_000_000)) }

func TestSendLoginCode(t *testing.T) {
	t.Parallel()
	t.Run("malformed phones are bad input", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t, nil)
		for _, phone := range []string{"", "1380000000", "138000000001", "12800000000", "10000000000",
			"+8513800000000", "1380000000a", "+13800000000", "138.0000.0000", "１３８００００００００"} {
			_, err := e.svc.SendLoginCode.Handle(context.Background(), phone, "")
			wantCode(t, err, domain.CodeBadUserInput)
		}
	})
	t.Run("dev mode returns the code", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t, func(c *auth.Config) { c.DevMode = true })
		phone := randomPhone()
		res, err := e.svc.SendLoginCode.Handle(context.Background(), phone, "")
		if err != nil {
			t.Fatal(err)
		}
		sent := e.sender.Sent(phone)
		if !res.Sent || res.RetryAfterSeconds != 60 || len(sent) != 1 || res.DevCode != sent[0] {
			t.Fatalf("result %+v, sent %v", res, sent)
		}
		if !regexp.MustCompile(`^[0-9]{6}$`).MatchString(res.DevCode) {
			t.Fatalf("code %q is not 6 digits", res.DevCode)
		}
	})
	t.Run("production hides the code", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t, nil)
		res, err := e.svc.SendLoginCode.Handle(context.Background(), randomPhone(), "")
		if err != nil || !res.Sent || res.DevCode != "" {
			t.Fatalf("result %+v, %v", res, err)
		}
	})
	t.Run("a second code within a minute is rate limited", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t, nil)
		phone := randomPhone()
		e.code(t, phone)
		e.clock.Advance(20 * time.Second)
		_, err := e.svc.SendLoginCode.Handle(context.Background(), phone, "")
		wantRetryAfter(t, err, 40)
		e.clock.Advance(40 * time.Second)
		e.code(t, phone)
		if n := len(e.sender.Sent(phone)); n != 2 {
			t.Fatalf("%d codes sent, want 2", n)
		}
	})
	t.Run("codes are random", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t, nil)
		seen := map[string]bool{}
		for range 20 {
			seen[e.code(t, randomPhone())] = true
		}
		if len(seen) < 15 {
			t.Fatalf("only %d distinct codes in 20", len(seen))
		}
	})
	t.Run("a failed delivery is an internal error", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t, func(c *auth.Config) { c.DevMode = true })
		e.sender.Fail(errors.New("gateway down"))
		res, err := e.svc.SendLoginCode.Handle(context.Background(), randomPhone(), "")
		wantCode(t, err, domain.CodeInternal)
		if res.DevCode != "" {
			t.Fatalf("code %q returned although not delivered", res.DevCode)
		}
	})
}

func TestSendLoginCodeConcurrently(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	phone := randomPhone()
	var limited int
	results := run(50, func(int) error {
		_, err := e.svc.SendLoginCode.Handle(context.Background(), phone, "")
		return err
	})
	for _, err := range results {
		if err != nil {
			wantCode(t, err, domain.CodeRateLimited)
			limited++
		}
	}
	if sent := e.sender.Sent(phone); len(sent) != 1 || limited != 49 {
		t.Fatalf("%d codes sent and %d requests limited, want 1 and 49", len(sent), limited)
	}
}

func TestLogin(t *testing.T) {
	t.Parallel()
	nick := regexp.MustCompile(`^user_[a-z0-9]{10}$`)
	t.Run("malformed input is bad input", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t, nil)
		phone := randomPhone()
		e.code(t, phone)
		for _, tc := range []struct{ phone, code string }{
			{"", "123456"}, {"23800000000", "123456"},
			{phone, ""}, {phone, "12345"}, {phone, "1234567"}, {phone, "abcdef"}, {phone, "12345 "}, {phone, "１２３４５６"},
		} {
			_, err := e.svc.Login.Handle(context.Background(), tc.phone, tc.code, "")
			wantCode(t, err, domain.CodeBadUserInput)
		}
	})
	t.Run("a wrong code is bad input", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t, nil)
		phone := randomPhone()
		code := e.code(t, phone)
		_, err := e.svc.Login.Handle(context.Background(), phone, otherCode(code), "")
		wantCode(t, err, domain.CodeBadUserInput)
	})
	t.Run("an expired code is bad input", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t, nil)
		phone := randomPhone()
		code := e.code(t, phone)
		e.clock.Advance(2 * time.Minute)
		_, err := e.svc.Login.Handle(context.Background(), phone, code, "")
		wantCode(t, err, domain.CodeBadUserInput)
	})
	t.Run("first login creates the user", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t, nil)
		phone := randomPhone()
		s := e.login(t, phone)
		u := s.User
		if u.ID <= 0 || u.Phone != phone || u.Role != domain.RoleUser || !nick.MatchString(u.NickName) {
			t.Fatalf("new user %+v", u)
		}
		if s.AccessToken == "" || s.RefreshToken == "" || !s.ExpiresAt.Equal(e.at(30*time.Minute)) ||
			!s.RefreshExpiresAt.Equal(e.at(30*24*time.Hour)) {
			t.Fatalf("session %+v", s)
		}
		p, err := e.svc.Authenticate.Handle(context.Background(), "Bearer "+s.AccessToken)
		if err != nil || p.UserID != u.ID || p.Role != domain.RoleUser || p.FamilyID == "" {
			t.Fatalf("Authenticate = (%+v, %v)", p, err)
		}
		me, err := e.svc.CurrentUser.Handle(context.Background(), p)
		if err != nil || me.ID != u.ID {
			t.Fatalf("CurrentUser = (%+v, %v)", me, err)
		}
	})
	t.Run("later logins find the user", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t, nil)
		phone := randomPhone()
		first := e.login(t, phone)
		e.clock.Advance(time.Minute)
		second := e.login(t, phone)
		if second.User.ID != first.User.ID || e.users.Count() != 1 {
			t.Fatalf("second login user %d, first %d, %d users", second.User.ID, first.User.ID, e.users.Count())
		}
		if second.RefreshToken == first.RefreshToken || second.AccessToken == first.AccessToken {
			t.Fatal("second login reused the tokens of the first")
		}
	})
	t.Run("admin phones become admins", func(t *testing.T) {
		t.Parallel()
		newAdmin, oldUser := randomPhone(), randomPhone()
		e := newEnv(t, func(c *auth.Config) { c.AdminPhones = []string{newAdmin, oldUser} })
		if _, err := e.users.CreateUser(context.Background(), domain.User{Phone: oldUser, Role: domain.RoleUser}); err != nil {
			t.Fatal(err)
		}
		for _, phone := range []string{newAdmin, oldUser} {
			s := e.login(t, phone)
			p, err := e.svc.Authenticate.Handle(context.Background(), s.AccessToken)
			if s.User.Role != domain.RoleAdmin || err != nil || p.Role != domain.RoleAdmin || !p.Allows(domain.RoleAdmin) {
				t.Fatalf("%s: user %+v, principal %+v, %v", phone, s.User, p, err)
			}
		}
		s := e.login(t, randomPhone())
		if s.User.Role != domain.RoleUser {
			t.Fatalf("other phone got role %s", s.User.Role)
		}
	})
	t.Run("blocked users cannot log in", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t, nil)
		phone := randomPhone()
		u := e.login(t, phone).User
		e.clock.Advance(time.Minute)
		code := e.code(t, phone) // asked for before the block
		e.users.Block(u.ID)
		_, err := e.svc.Login.Handle(context.Background(), phone, code, "")
		wantCode(t, err, domain.CodeForbidden)
	})
}

func TestLoginConcurrently(t *testing.T) {
	t.Parallel()
	t.Run("one code logs in once", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t, nil)
		phone := randomPhone()
		code := e.code(t, phone)
		results := run(50, func(int) error {
			_, err := e.svc.Login.Handle(context.Background(), phone, code, "")
			return err
		})
		ok := 0
		for _, err := range results {
			if err == nil {
				ok++
			} else if c := domain.ErrorCode(err); c != domain.CodeBadUserInput && c != domain.CodeRateLimited {
				t.Fatalf("unexpected error %v", err)
			}
		}
		if ok != 1 || e.users.Count() != 1 {
			t.Fatalf("%d logins succeeded with %d users, want 1 and 1", ok, e.users.Count())
		}
	})
	t.Run("a first login racing an admin grant makes one account", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t, nil)
		const n = 10
		phones, codes := make([]string, n), make([]string, n)
		for i := range phones {
			phones[i] = randomPhone()
			codes[i] = e.code(t, phones[i])
		}
		ids := make([]int64, 2*n)
		errs := run(2*n, func(i int) error {
			if i%2 == 0 {
				s, err := e.svc.Login.Handle(context.Background(), phones[i/2], codes[i/2], "")
				ids[i] = s.User.ID
				return err
			}
			u, err := e.svc.GrantAdmin.Handle(context.Background(), phones[i/2])
			ids[i] = u.ID
			return err
		})
		for i, err := range errs {
			if err != nil {
				t.Fatalf("call %d: %v", i, err)
			}
		}
		for i := 0; i < 2*n; i += 2 {
			if ids[i] != ids[i+1] {
				t.Fatalf("login saw user %d, grant saw user %d", ids[i], ids[i+1])
			}
		}
		if e.users.Count() != n {
			t.Fatalf("%d users, want %d", e.users.Count(), n)
		}
	})
}

func TestBruteForce(t *testing.T) {
	t.Parallel()
	t.Run("five wrong guesses kill the code and its owner gets a new one", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t, nil)
		phone := randomPhone()
		code := e.code(t, phone)
		for i := range 5 {
			_, err := e.svc.Login.Handle(context.Background(), phone, otherCode(code), "")
			wantCode(t, err, domain.CodeBadUserInput)
			if i == 4 && !strings.Contains(err.Error(), "ask for a new code") {
				t.Fatalf("the last wrong guess says %q, want it to ask for a new code", err)
			}
		}
		_, err := e.svc.Login.Handle(context.Background(), phone, code, "")
		wantCode(t, err, domain.CodeBadUserInput) // the code is dead, not locked
		e.clock.Advance(time.Minute)              // the send interval, no login lock
		e.login(t, phone)
	})
	t.Run("wrong guesses with no code issued lock nothing", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t, nil)
		phone := randomPhone()
		for range 20 {
			_, err := e.svc.Login.Handle(context.Background(), phone, "000000", "")
			wantCode(t, err, domain.CodeBadUserInput)
		}
		e.login(t, phone)
	})
	t.Run("guesses against an old code do not count against the new one", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t, nil)
		phone := randomPhone()
		old := e.code(t, phone)
		for range 4 {
			_, err := e.svc.Login.Handle(context.Background(), phone, otherCode(old), "")
			wantCode(t, err, domain.CodeBadUserInput)
		}
		e.clock.Advance(time.Minute)
		code := e.code(t, phone)
		for range 4 {
			_, err := e.svc.Login.Handle(context.Background(), phone, otherCode(code), "")
			wantCode(t, err, domain.CodeBadUserInput)
		}
		if _, err := e.svc.Login.Handle(context.Background(), phone, code, ""); err != nil {
			t.Fatalf("right code after four wrong guesses: %v", err)
		}
	})
	t.Run("twenty wrong codes at once count five against the code", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t, nil)
		phone := randomPhone()
		code := e.code(t, phone)
		results := run(20, func(int) error {
			_, err := e.svc.Login.Handle(context.Background(), phone, otherCode(code), "")
			return err
		})
		for _, err := range results {
			wantCode(t, err, domain.CodeBadUserInput)
		}
		_, err := e.svc.Login.Handle(context.Background(), phone, code, "")
		wantCode(t, err, domain.CodeBadUserInput) // killed by the fifth
	})
}

func TestWrongCodesPerIP(t *testing.T) {
	t.Parallel()
	limited := func(c *auth.Config) {
		c.IPLimits = true
		c.WrongCodesPerIP = auth.Limit{Max: 3, Window: time.Hour}
	}
	t.Run("wrong codes from one address are limited, right ones are not counted", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t, limited)
		ctx := context.Background()
		ip := fmt.Sprint("10.1.0.", rand.IntN(250))
		for range 2 {
			_, err := e.svc.Login.Handle(ctx, randomPhone(), "000000", ip)
			wantCode(t, err, domain.CodeBadUserInput)
		}
		for range 3 { // right codes leave the allowance alone
			e.loginFrom(t, randomPhone(), ip)
		}
		_, err := e.svc.Login.Handle(ctx, randomPhone(), "000000", ip)
		wantCode(t, err, domain.CodeBadUserInput)
		_, err = e.svc.Login.Handle(ctx, randomPhone(), "000000", ip)
		wantRetryAfter(t, err, 60*60)
		// Past the limit a right code is still accepted.
		e.loginFrom(t, randomPhone(), ip)
		other := ip + "1"
		_, err = e.svc.Login.Handle(ctx, randomPhone(), "000000", other)
		wantCode(t, err, domain.CodeBadUserInput) // another address has its own allowance
		e.clock.Advance(time.Hour)
		_, err = e.svc.Login.Handle(ctx, randomPhone(), "000000", ip)
		wantCode(t, err, domain.CodeBadUserInput)
	})
	t.Run("concurrent wrong codes cannot pass the limit unnoticed", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t, limited)
		ip := fmt.Sprint("10.2.0.", rand.IntN(250))
		results := run(20, func(int) error {
			_, err := e.svc.Login.Handle(context.Background(), randomPhone(), "000000", ip)
			return err
		})
		within := 0
		for _, err := range results {
			if domain.ErrorCode(err) == domain.CodeBadUserInput {
				within++
			} else {
				wantCode(t, err, domain.CodeRateLimited)
			}
		}
		if within != 3 {
			t.Fatalf("%d guesses answered within the allowance, want 3", within)
		}
	})
}

func TestPerIPLimits(t *testing.T) {
	t.Parallel()
	limited := func(c *auth.Config) {
		c.IPLimits = true
		c.SendCodePerIP = auth.Limit{Max: 2, Window: time.Minute}
		c.LoginPerIP = auth.Limit{Max: 2, Window: time.Minute}
	}
	t.Run("sendLoginCode per IP", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t, limited)
		ip := fmt.Sprint("10.0.0.", rand.IntN(250))
		ctx := context.Background()
		for range 2 {
			if _, err := e.svc.SendLoginCode.Handle(ctx, randomPhone(), ip); err != nil {
				t.Fatal(err)
			}
		}
		_, err := e.svc.SendLoginCode.Handle(ctx, randomPhone(), ip)
		wantRetryAfter(t, err, 60)
		if _, err := e.svc.SendLoginCode.Handle(ctx, randomPhone(), ip+"1"); err != nil {
			t.Fatalf("another address: %v", err)
		}
		e.clock.Advance(time.Minute)
		if _, err := e.svc.SendLoginCode.Handle(ctx, randomPhone(), ip); err != nil {
			t.Fatalf("after the window: %v", err)
		}
	})
	t.Run("login per IP", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t, limited)
		ip := fmt.Sprintf("fd00:%x::1", rand.IntN(0xffff)) // a /64 of its own
		ctx := context.Background()
		for range 2 {
			_, err := e.svc.Login.Handle(ctx, randomPhone(), "000000", ip)
			wantCode(t, err, domain.CodeBadUserInput)
		}
		_, err := e.svc.Login.Handle(ctx, randomPhone(), "000000", ip)
		wantRetryAfter(t, err, 60)
	})
	t.Run("off when disabled", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t, func(c *auth.Config) { limited(c); c.IPLimits = false })
		for range 5 {
			if _, err := e.svc.SendLoginCode.Handle(context.Background(), randomPhone(), "10.9.9.9"); err != nil {
				t.Fatal(err)
			}
		}
	})
}

func TestGrantAdmin(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t, nil)
	phone := randomPhone()
	s := e.login(t, phone)
	u, err := e.svc.GrantAdmin.Handle(ctx, phone)
	if err != nil || u.ID != s.User.ID || u.Role != domain.RoleAdmin {
		t.Fatalf("GrantAdmin existing = (%+v, %v)", u, err)
	}
	// The role reaches the session at its next refresh.
	next, err := e.svc.Refresh.Handle(ctx, s.RefreshToken)
	if err != nil {
		t.Fatal(err)
	}
	if p, err := e.svc.Authenticate.Handle(ctx, next.AccessToken); err != nil || p.Role != domain.RoleAdmin {
		t.Fatalf("after refresh: (%+v, %v)", p, err)
	}

	fresh := randomPhone()
	u, err = e.svc.GrantAdmin.Handle(ctx, fresh)
	if err != nil || u.ID <= 0 || u.Role != domain.RoleAdmin || u.Phone != fresh {
		t.Fatalf("GrantAdmin new = (%+v, %v)", u, err)
	}
	_, err = e.svc.GrantAdmin.Handle(ctx, "12345")
	wantCode(t, err, domain.CodeBadUserInput)
}

func TestNewRefusesBadSetups(t *testing.T) {
	t.Parallel()
	good := auth.Deps{
		Users:          authtest.NewMemUsers(),
		Sender:         &authtest.MemSender{},
		Codes:          authtest.NewMemCodeStore(nil),
		SessionRecords: authtest.NewMemRecords(),
		SessionCache:   authtest.NewMemSessionCache(),
		Limiter:        authtest.NewMemRateLimiter(nil),
	}
	cfg := auth.DefaultConfig()
	cfg.JWTSecret = testSecret
	cases := []struct {
		name   string
		cfg    func(*auth.Config)
		deps   func(*auth.Deps)
		wantOK bool
	}{
		{"complete", nil, nil, true},
		{"no limiter with per-IP limits off", func(c *auth.Config) { c.IPLimits = false }, func(d *auth.Deps) { d.Limiter = nil }, true},
		{"short secret", func(c *auth.Config) { c.JWTSecret = []byte("short") }, nil, false},
		{"zero code TTL", func(c *auth.Config) { c.Send.CodeTTL = 0 }, nil, false},
		{"zero wrong-code limit", func(c *auth.Config) { c.Verify.MaxWrong = 0 }, nil, false},
		{"bad wrong codes per IP", func(c *auth.Config) { c.WrongCodesPerIP.Window = 0 }, nil, false},
		{"bad admin phone", func(c *auth.Config) { c.AdminPhones = []string{"admin"} }, nil, false},
		{"bad per-IP limit", func(c *auth.Config) { c.LoginPerIP.Max = 0 }, nil, false},
		{"nil users", nil, func(d *auth.Deps) { d.Users = nil }, false},
		{"nil sender", nil, func(d *auth.Deps) { d.Sender = nil }, false},
		{"nil code store", nil, func(d *auth.Deps) { d.Codes = nil }, false},
		{"nil session records", nil, func(d *auth.Deps) { d.SessionRecords = nil }, false},
		{"nil session cache", nil, func(d *auth.Deps) { d.SessionCache = nil }, false},
		{"nil limiter with per-IP limits on", nil, func(d *auth.Deps) { d.Limiter = nil }, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c, d := cfg, good
			if tc.cfg != nil {
				tc.cfg(&c)
			}
			if tc.deps != nil {
				tc.deps(&d)
			}
			_, err := auth.New(c, d)
			if (err == nil) != tc.wantOK {
				t.Fatalf("New: %v, want ok=%v", err, tc.wantOK)
			}
		})
	}
}

// otherCode returns a valid-looking code different from code.
func otherCode(code string) string {
	if code == "000000" {
		return "000001"
	}
	return "000000"
}

// run calls fn(0..n-1) at once, released together, and returns their errors.
func run(n int, fn func(i int) error) []error {
	errs := make([]error, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			errs[i] = fn(i)
		}()
	}
	close(start)
	wg.Wait()
	return errs
}

func TestPerIPLimitsCountIPv6ByNetwork(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(c *auth.Config) {
		c.IPLimits = true
		c.SendCodePerIP = auth.Limit{Max: 2, Window: time.Minute}
		c.WrongCodesPerIP = auth.Limit{Max: 2, Window: time.Minute}
	})
	ctx := context.Background()
	net64 := fmt.Sprintf("2001:db8:%x:%x:", rand.IntN(0xffff), rand.IntN(0xffff))
	for _, ip := range []string{net64 + ":1", net64 + "ffff:1:2:3"} {
		if _, err := e.svc.SendLoginCode.Handle(ctx, randomPhone(), ip); err != nil {
			t.Fatalf("%s: %v", ip, err)
		}
		_, err := e.svc.Login.Handle(ctx, randomPhone(), "000000", ip)
		wantCode(t, err, domain.CodeBadUserInput)
	}
	// Another address of the same /64 is the same client.
	_, err := e.svc.SendLoginCode.Handle(ctx, randomPhone(), net64+"abcd::9")
	wantRetryAfter(t, err, 60)
	_, err = e.svc.Login.Handle(ctx, randomPhone(), "000000", net64+"abcd::9")
	wantRetryAfter(t, err, 60)
	// The next /64 is another client.
	other := fmt.Sprintf("2001:db9:%x::1", rand.IntN(0xffff))
	if _, err := e.svc.SendLoginCode.Handle(ctx, randomPhone(), other); err != nil {
		t.Fatalf("another network: %v", err)
	}
}
