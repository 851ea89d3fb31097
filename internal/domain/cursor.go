package domain

import (
	"encoding/base64"
	"math"
	"strconv"
	"strings"
)

// Cursors are opaque to clients: base64url (no padding) of "<kind>:<field>:<field>…".
// Every list decodes its cursors here, so a cursor is either exactly what the server
// handed out — the right kind, the right number of fields, each in canonical form and
// within its bounds — or a BAD_USER_INPUT error.

// maxCursorLen bounds an encoded cursor; the longest the server makes is far shorter.
const maxCursorLen = 128

// BadCursor is the answer to a cursor the server did not make.
func BadCursor() error { return Errorf(CodeBadUserInput, "after: not a valid cursor") }

// EncodeCursor makes a cursor of kind from fields.
func EncodeCursor(kind string, fields ...string) string {
	return base64.RawURLEncoding.EncodeToString([]byte(kind + ":" + strings.Join(fields, ":")))
}

// Cursor is a decoded cursor's fields.
type Cursor []string

// ParseCursor decodes a cursor of kind with exactly n fields. ok is false (and err nil)
// for an empty cursor, which means the start of the list.
func ParseCursor(kind, raw string, n int) (c Cursor, ok bool, err error) {
	if raw == "" {
		return nil, false, nil
	}
	if len(raw) > maxCursorLen {
		return nil, false, BadCursor()
	}
	b, err := base64.RawURLEncoding.DecodeString(raw)
	if err != nil {
		return nil, false, BadCursor()
	}
	parts := strings.Split(string(b), ":")
	if len(parts) != n+1 || parts[0] != kind {
		return nil, false, BadCursor()
	}
	return Cursor(parts[1:]), true, nil
}

// Int reads field i as an integer within [lo, hi], written as the server writes it.
func (c Cursor) Int(i int, lo, hi int64) (int64, error) {
	v, err := strconv.ParseInt(c[i], 10, 64)
	if err != nil || v < lo || v > hi || strconv.FormatInt(v, 10) != c[i] {
		return 0, BadCursor()
	}
	return v, nil
}

// Float reads field i as a finite number within [lo, hi], written as the server writes
// it.
func (c Cursor) Float(i int, lo, hi float64) (float64, error) {
	v, err := strconv.ParseFloat(c[i], 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || v < lo || v > hi || strconv.FormatFloat(v, 'g', -1, 64) != c[i] {
		return 0, BadCursor()
	}
	return v, nil
}

// FormatCursorFloat writes a cursor number the way Float reads it.
func FormatCursorFloat(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// FormatCursorInt writes a cursor integer the way Int reads it.
func FormatCursorInt(v int64) string { return strconv.FormatInt(v, 10) }
