package service_test

import (
	"testing"
)

// TestAccountsOverHTTP: phones in any usual form log in to one account; a wrong code
// says how many tries are left; ADMINs see whether a user is blocked, nobody else does.
func TestAccountsOverHTTP(t *testing.T) {
	t.Parallel()
	const adminPhone = "13300005551"
	srv := startServer(t, map[string]string{"JWT_SECRET": testSecret, "LOGIN_CODE_INTERVAL": "1ms", "ADMIN_PHONES": "+86 133-0000-5551"})
	anon, adm, usr, other := client(srv), client(srv), client(srv), client(srv)
	a := login(t, anon, adminPhone)
	adm.Token = a.AccessToken

	// One account, however the phone is written.
	u := login(t, anon, "+8613300005552")
	for _, variant := range []string{"86 133 0000 5552", "133-0000-5552"} {
		if again := login(t, anon, variant); again.User.ID != u.User.ID || again.User.Phone != "13300005552" {
			t.Fatalf("login as %q: user %+v, want %+v", variant, again.User, u.User)
		}
	}
	if a.User.Role != "ADMIN" {
		t.Fatalf("ADMIN_PHONES in another form: role %s", a.User.Role)
	}
	usr.Token = u.AccessToken
	other.Token = login(t, anon, "13300005553").AccessToken

	// A wrong code says how many tries are left.
	code := sendCode(t, anon, "133 0000 5554")
	wrong := "000000"
	if code == wrong {
		wrong = "000001"
	}
	loginQ := `mutation($p: String!, $c: String!) { login(phone: $p, code: $c) { accessToken } }`
	for want := 4; want >= 0; want-- {
		resp := anon.Do(t, loginQ, map[string]any{"p": "13300005554", "c": wrong})
		wantCode(t, "a wrong code", resp, "BAD_USER_INPUT")
		if len(resp.Errors) == 1 && resp.Errors[0].Extensions["triesLeft"] != float64(want) {
			t.Fatalf("a wrong code: extensions %v, want triesLeft %d", resp.Errors[0].Extensions, want)
		}
	}

	// blocked: ADMINs only.
	userQ := `query($u: ID!) { user(id: $u) { id blocked } }`
	vars := map[string]any{"u": u.User.ID}
	type userOut struct{ User *struct{ Blocked *bool } }
	var out userOut
	adm.Do(t, userQ, vars).Decode(t, &out)
	if out.User == nil || out.User.Blocked == nil || *out.User.Blocked {
		t.Fatalf("an ADMIN sees an active user as %+v, want blocked false", out.User)
	}
	adm.Do(t, `mutation($u: ID!) { blockUser(userId: $u) { blocked } }`, vars).Decode(t, &struct{}{})
	adm.Do(t, userQ, vars).Decode(t, &out)
	if out.User == nil || out.User.Blocked == nil || !*out.User.Blocked {
		t.Fatalf("an ADMIN sees a blocked user as %+v, want blocked true", out.User)
	}
	other.Do(t, userQ, vars).Decode(t, &out)
	if out.User == nil || out.User.Blocked != nil {
		t.Fatalf("another user sees %+v, want blocked null", out.User)
	}
	anon.Do(t, userQ, vars).Decode(t, &out)
	if out.User == nil || out.User.Blocked != nil {
		t.Fatalf("an anonymous caller sees %+v, want blocked null", out.User)
	}

	// A password beside the codes: set by the logged-in owner, then a login with it.
	var own struct{ User *struct{ HasPassword *bool } }
	hasQ := `query($u: ID!) { user(id: $u) { hasPassword } }`
	other.Do(t, `mutation { setPassword(password: "a secret pass phrase") }`, nil).Decode(t, &struct{}{})
	otherID := login(t, anon, "13300005553").User.ID
	other.Do(t, hasQ, map[string]any{"u": otherID}).Decode(t, &own)
	if own.User == nil || own.User.HasPassword == nil || !*own.User.HasPassword {
		t.Fatalf("the owner sees hasPassword %+v, want true", own.User)
	}
	adm.Do(t, hasQ, map[string]any{"u": otherID}).Decode(t, &own)
	if own.User == nil || own.User.HasPassword != nil {
		t.Fatalf("an ADMIN sees hasPassword %+v, want null", own.User)
	}
	pwQ := `mutation($p: String!, $w: String!) { loginWithPassword(phone: $p, password: $w) { user { id } } }`
	resp := anon.Do(t, pwQ, map[string]any{"p": "+86 133 0000 5553", "w": "not the pass phrase"})
	wantCode(t, "a wrong password", resp, "BAD_USER_INPUT")
	if len(resp.Errors) == 1 && resp.Errors[0].Extensions["triesLeft"] != float64(4) {
		t.Fatalf("a wrong password: extensions %v, want triesLeft 4", resp.Errors[0].Extensions)
	}
	var pw struct {
		LoginWithPassword struct{ User struct{ ID string } }
	}
	anon.Do(t, pwQ, map[string]any{"p": "133-0000-5553", "w": "a secret pass phrase"}).Decode(t, &pw)
	if pw.LoginWithPassword.User.ID != otherID {
		t.Fatalf("loginWithPassword logged in user %s, want %s", pw.LoginWithPassword.User.ID, otherID)
	}
}
