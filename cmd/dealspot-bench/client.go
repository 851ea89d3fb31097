package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"time"
)

// client speaks GraphQL over HTTP POST to one server. All requests share one transport
// that keeps a connection per concurrent request alive, so that the flood measures
// requests, not TCP handshakes.
type client struct {
	url  string
	http *http.Client
}

func newClient(baseURL string, concurrency int) *client {
	tr := &http.Transport{
		Proxy:               nil,
		DialContext:         (&net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		MaxIdleConns:        concurrency + 16,
		MaxIdleConnsPerHost: concurrency + 16,
		MaxConnsPerHost:     concurrency + 16,
		IdleConnTimeout:     90 * time.Second,
		DisableCompression:  true,
		ForceAttemptHTTP2:   false,
	}
	return &client{url: baseURL + "/graphql", http: &http.Client{Transport: tr, Timeout: 30 * time.Second}}
}

func (c *client) close() { c.http.CloseIdleConnections() }

// post sends a prepared body with an Authorization header value (may be empty) and
// reads the whole answer into buf, so the connection goes back to the pool.
func (c *client) post(ctx context.Context, authorization string, body []byte, buf *bytes.Buffer) (int, []byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url, bytes.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	return c.do(req, authorization, buf)
}

// do sends req with an Authorization header value (may be empty) and reads the whole
// answer into buf.
func (c *client) do(req *http.Request, authorization string, buf *bytes.Buffer) (int, []byte, error) {
	if authorization != "" {
		req.Header.Set("Authorization", authorization)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	buf.Reset()
	if _, err := buf.ReadFrom(resp.Body); err != nil {
		return resp.StatusCode, nil, err
	}
	return resp.StatusCode, buf.Bytes(), nil
}

// get sends a GET of rawURL (the operation in its query string) with an Authorization
// header value (may be empty) and reads the whole answer into buf.
func (c *client) get(ctx context.Context, authorization, rawURL string, buf *bytes.Buffer) (int, []byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, rawURL, nil)
	if err != nil {
		return 0, nil, err
	}
	return c.do(req, authorization, buf)
}

// gqlError is one GraphQL error as the server presents it.
type gqlError struct {
	Message    string `json:"message"`
	Extensions struct {
		Code string `json:"code"`
	} `json:"extensions"`
}

// callError is an operation the server refused.
type callError struct {
	Status int
	Errors []gqlError
}

func (e *callError) Error() string {
	if len(e.Errors) == 0 {
		return fmt.Sprintf("HTTP %d", e.Status)
	}
	g := e.Errors[0]
	return fmt.Sprintf("%s (%s)", g.Message, g.Extensions.Code)
}

// call runs one operation and decodes its data into out; GraphQL errors and non-200
// answers are *callError.
func (c *client) call(ctx context.Context, token, query string, vars map[string]any, out any) error {
	body, err := json.Marshal(map[string]any{"query": query, "variables": vars})
	if err != nil {
		return err
	}
	auth := ""
	if token != "" {
		auth = "Bearer " + token
	}
	var buf bytes.Buffer
	status, raw, err := c.post(ctx, auth, body, &buf)
	if err != nil {
		return err
	}
	var resp struct {
		Data   json.RawMessage `json:"data"`
		Errors []gqlError      `json:"errors"`
	}
	if err := json.Unmarshal(raw, &resp); err != nil {
		return fmt.Errorf("HTTP %d, not a GraphQL answer: %.200s", status, raw)
	}
	if len(resp.Errors) > 0 || status != http.StatusOK {
		return &callError{Status: status, Errors: resp.Errors}
	}
	if out == nil {
		return nil
	}
	return json.Unmarshal(resp.Data, out)
}
