package visitors

import "testing"

func TestAVisitorIsTheUserElseTheAddress(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name     string
		userID   int64
		clientIP string
		want     string
	}{
		{"logged in", 42, "10.0.0.1", "u:42"},
		{"anonymous", 0, "10.0.0.1", "ip:10.0.0.1"},
		{"nobody known", 0, "", ""},
	}
	for _, tc := range cases {
		if got := visitorID(tc.userID, tc.clientIP); got != tc.want {
			t.Errorf("%s: visitor %q, want %q", tc.name, got, tc.want)
		}
	}
}
