package graph

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
)

// CodeBadRequest is the extensions.code of a request the transports could not take: a
// body that is not JSON, an unsupported method or content type, a mutation over GET.
const CodeBadRequest = "BAD_REQUEST"

// codedTransportErrors gives the errors gqlgen's transports write themselves (status 400
// and above) an extensions.code, and cuts the request body some of them echo ("… body:
// <the request>"). Answers below 400 pass through untouched; websocket upgrades are not
// wrapped at all.
func codedTransportErrors(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Upgrade") != "" {
			next.ServeHTTP(w, r)
			return
		}
		ew := &errorWriter{ResponseWriter: w}
		next.ServeHTTP(ew, r)
		ew.finish()
	})
}

// errorWriter holds back an answer whose status is 400 or above, to rewrite it.
type errorWriter struct {
	http.ResponseWriter
	status int
	held   bytes.Buffer
}

func (e *errorWriter) WriteHeader(code int) {
	if e.status != 0 {
		return
	}
	e.status = code
	if code < http.StatusBadRequest {
		e.ResponseWriter.WriteHeader(code)
	}
}

func (e *errorWriter) Write(b []byte) (int, error) {
	if e.status == 0 {
		e.WriteHeader(http.StatusOK)
	}
	if e.status >= http.StatusBadRequest {
		return e.held.Write(b)
	}
	return e.ResponseWriter.Write(b)
}

// Flush passes through only answers that are not held back.
func (e *errorWriter) Flush() {
	if e.status < http.StatusBadRequest {
		if f, ok := e.ResponseWriter.(http.Flusher); ok {
			f.Flush()
		}
	}
}

func (e *errorWriter) Unwrap() http.ResponseWriter { return e.ResponseWriter }

func (e *errorWriter) finish() {
	if e.status < http.StatusBadRequest {
		return
	}
	body := codedErrorBody(e.held.Bytes())
	h := e.ResponseWriter.Header()
	h.Del("Content-Length")
	h.Set("Content-Type", "application/json")
	e.ResponseWriter.WriteHeader(e.status)
	_, _ = e.ResponseWriter.Write(body)
}

// codedErrorBody returns body with a code on every error and no echo of the request. A
// body that is not a GraphQL error answer becomes a plain BAD_REQUEST one.
func codedErrorBody(body []byte) []byte {
	var answer map[string]json.RawMessage
	var errs []map[string]any
	if json.Unmarshal(body, &answer) != nil || json.Unmarshal(answer["errors"], &errs) != nil || len(errs) == 0 {
		answer = map[string]json.RawMessage{"data": json.RawMessage("null")}
		errs = []map[string]any{{"message": "bad request"}}
	}
	for _, e := range errs {
		if msg, ok := e["message"].(string); ok {
			// The POST transport appends the whole request to decoding errors.
			msg, _, _ = strings.Cut(msg, " body:")
			e["message"] = msg
		}
		ext, _ := e["extensions"].(map[string]any)
		if ext == nil {
			ext = map[string]any{}
			e["extensions"] = ext
		}
		if _, ok := ext["code"]; !ok {
			ext["code"] = CodeBadRequest
		}
	}
	var err error
	if answer["errors"], err = json.Marshal(errs); err == nil {
		var out []byte
		if out, err = json.Marshal(answer); err == nil {
			return out
		}
	}
	return []byte(`{"errors":[{"message":"bad request","extensions":{"code":"BAD_REQUEST"}}],"data":null}`)
}
