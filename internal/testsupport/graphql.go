package testsupport

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"testing"
	"time"
)

// GQLError is one GraphQL error as a client sees it.
type GQLError struct {
	Message    string         `json:"message"`
	Path       []any          `json:"path"`
	Extensions map[string]any `json:"extensions"`
}

// Code returns extensions.code.
func (e GQLError) Code() string {
	s, _ := e.Extensions["code"].(string)
	return s
}

// GQLResponse is a GraphQL answer with its HTTP status.
type GQLResponse struct {
	Status int
	Data   json.RawMessage `json:"data"`
	Errors []GQLError      `json:"errors"`
}

// Codes lists the extensions.code of every error, in order.
func (r GQLResponse) Codes() []string {
	out := make([]string, len(r.Errors))
	for i, e := range r.Errors {
		out[i] = e.Code()
	}
	return out
}

// Decode unmarshals data into v, failing the test on errors in the answer.
func (r GQLResponse) Decode(t testing.TB, v any) {
	t.Helper()
	if len(r.Errors) > 0 {
		t.Fatalf("unexpected GraphQL errors: %+v", r.Errors)
	}
	if err := json.Unmarshal(r.Data, v); err != nil {
		t.Fatalf("decode data %s: %v", r.Data, err)
	}
}

// defaultHTTP is the client of a GraphQLClient without one: a request that never
// ends fails its test after two minutes instead of holding the package until go test's
// -timeout.
var defaultHTTP = &http.Client{Timeout: 2 * time.Minute}

// GraphQLClient speaks GraphQL over plain HTTP POST, as a frontend would.
type GraphQLClient struct {
	URL   string
	Token string
	HTTP  *http.Client
}

// Do posts one operation and returns the decoded answer.
func (c GraphQLClient) Do(t testing.TB, query string, vars map[string]any) GQLResponse {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"query": query, "variables": vars})
	return c.Post(t, body)
}

// Post sends a raw request body.
func (c GraphQLClient) Post(t testing.TB, body []byte) GQLResponse {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, c.URL, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if c.Token != "" {
		req.Header.Set("Authorization", "Bearer "+c.Token)
	}
	hc := c.HTTP
	if hc == nil {
		hc = defaultHTTP
	}
	resp, err := hc.Do(req)
	if err != nil {
		t.Fatalf("post graphql: %v", err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	out := GQLResponse{Status: resp.StatusCode}
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("answer is not GraphQL JSON (status %d): %s", resp.StatusCode, raw)
	}
	return out
}
