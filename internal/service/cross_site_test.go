package service_test

import (
	"bytes"
	"io"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"
)

// What a page of another site can make a visitor's browser send to /graphql without
// asking first — a multipart form post, a GET — cannot send a login code; every answer
// says nosniff.
func TestCrossSiteFormCannotSendLoginCodes(t *testing.T) {
	t.Parallel()
	srv := startServer(t, nil)
	form := func(origin string, preflight bool) (int, string, http.Header) {
		var body bytes.Buffer
		mw := multipart.NewWriter(&body)
		_ = mw.WriteField("operations", `{"query":"mutation { sendLoginCode(phone: \"13800138000\") { sent } }"}`)
		_ = mw.WriteField("map", `{}`)
		_ = mw.Close()
		req, _ := http.NewRequest(http.MethodPost, srv.URL+"/graphql", &body)
		req.Header.Set("Content-Type", mw.FormDataContentType())
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		if preflight {
			req.Header.Set("GraphQL-Require-Preflight", "1")
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		raw, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(raw), resp.Header
	}
	for _, c := range []struct {
		name      string
		origin    string
		preflight bool
		status    int
	}{
		{"a form on another site", "https://evil.example", false, http.StatusForbidden},
		{"a form with no Origin", "", false, http.StatusBadRequest},
		{"a script with the header, but nothing uploaded", "", true, 0},
	} {
		status, body, h := form(c.origin, c.preflight)
		if strings.Contains(body, `"sent"`) || !strings.Contains(body, `"BAD_REQUEST"`) || (c.status != 0 && status != c.status) {
			t.Errorf("%s: %d %s, want %d BAD_REQUEST and no code sent", c.name, status, body, c.status)
		}
		if h.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("%s: no X-Content-Type-Options: nosniff", c.name)
		}
	}
	resp, err := http.Get(srv.URL + "/graphql?query=%7BshopTypes%7Bname%7D%7D")
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.Header.Get("X-Content-Type-Options") != "nosniff" {
		t.Errorf("a query over GET: %d, X-Content-Type-Options %q", resp.StatusCode, resp.Header.Get("X-Content-Type-Options"))
	}
}
