package main

import (
	"errors"
	"net/http"
	"testing"
)

func TestClassifyClaimAnswers(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name   string
		status int
		body   string
		err    error
		want   string
	}{
		{"accepted", 200, `{"data":{"claimVoucher":{"orderId":"123","status":"PENDING"}}}`, nil, answerAccepted},
		{"sold out", 200, `{"errors":[{"message":"sold out","path":["claimVoucher"],"extensions":{"code":"SOLD_OUT"}}],"data":null}`, nil, "SOLD_OUT"},
		{"code before message", 200, `{"errors":[{"extensions":{"code":"ALREADY_CLAIMED"},"message":"x"}],"data":null}`, nil, "ALREADY_CLAIMED"},
		{"unknown code", 200, `{"errors":[{"message":"x","extensions":{"code":"SOMETHING_NEW"}}]}`, nil, "SOMETHING_NEW"},
		{"error without code", 200, `{"errors":[{"message":"x"}]}`, nil, "GRAPHQL_ERROR"},
		{"quoted code in a message", 200, `{"errors":[{"message":"say \"code\":\"SOLD_OUT\"","extensions":{"code":"INTERNAL"}}]}`, nil, "INTERNAL"},
		{"http error", http.StatusServiceUnavailable, `busy`, nil, "HTTP_503"},
		{"graphql error with status", 422, `{"errors":[{"message":"x","extensions":{"code":"GRAPHQL_VALIDATION_FAILED"}}]}`, nil, "GRAPHQL_VALIDATION_FAILED"},
		{"no answer", 0, ``, errors.New("connection reset"), answerTransport},
		{"neither data nor errors", 200, `{"data":{"claimVoucher":null}}`, nil, answerMalformed},
	} {
		if got := classifyClaim(c.status, []byte(c.body), c.err); got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}

func TestOnlyRefusalsAreNotErrors(t *testing.T) {
	t.Parallel()
	for code, want := range map[string]bool{
		answerAccepted: false, "SOLD_OUT": false, "ALREADY_CLAIMED": false, "RATE_LIMITED": false,
		"NOT_STARTED": false, "ENDED": false,
		"INTERNAL": true, "UNAUTHENTICATED": true, "NOT_FOUND": true, answerTransport: true, answerMalformed: true, "HTTP_502": true,
	} {
		if got := isClaimError(code); got != want {
			t.Errorf("isClaimError(%s) = %v, want %v", code, got, want)
		}
	}
}

func TestClaimBudget(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		sc   scenario
		want int64
	}{
		{"duration only", scenario{Users: 10}, 0},
		{"per user", scenario{Users: 10, ClaimsPerUser: 3}, 30},
		{"total", scenario{Users: 10, Total: 7}, 7},
		{"the smaller of both", scenario{Users: 10, ClaimsPerUser: 3, Total: 50}, 30},
	} {
		if got := c.sc.claimBudget(); got != c.want {
			t.Errorf("%s: budget %d, want %d", c.name, got, c.want)
		}
	}
}
