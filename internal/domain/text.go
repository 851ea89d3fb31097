package domain

import (
	"strings"
	"unicode"
)

// CheckText refuses, with BAD_USER_INPUT naming field, text people will read that holds
// a character with no place there:
//   - control characters (C0, DEL and C1): they move terminals' and logs' cursors, and
//     NUL cannot be stored in PostgreSQL's text;
//   - the bidi embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069): they
//     reorder what follows them, so that a nickname or a title reads as something else
//     ("gpj.<U+202E>exe" shows as "exe.jpg"), also in the lines shown after it;
//
// and, in single-line text (titles, names, nicknames), line breaks and tabs and the
// invisible direction marks U+200E, U+200F and U+061C, which a name has no use for and
// which make two names look alike. Multi-line text (a note's body, a comment, an
// introduction) may hold newlines, tabs and carriage returns (a CRLF line break), and
// the marks, which mixed Arabic or Hebrew and Latin text needs.
func CheckText(field, s string, multiLine bool) error {
	i := strings.IndexFunc(s, func(r rune) bool { return !allowedInText(r, multiLine) })
	if i < 0 {
		return nil
	}
	r := []rune(s[i:])[0]
	what := "control characters"
	if !unicode.IsControl(r) {
		what = "direction-changing characters"
	}
	if multiLine {
		return Errorf(CodeBadUserInput, "%s must not hold %s (U+%04X)", field, what, r)
	}
	if r == '\n' || r == '\r' || r == '\t' || r == '\u2028' || r == '\u2029' {
		what = "line breaks or tabs"
	}
	return Errorf(CodeBadUserInput, "%s must be one line without %s (U+%04X)", field, what, r)
}

func allowedInText(r rune, multiLine bool) bool {
	switch {
	case r == '\n' || r == '\t' || r == '\r':
		return multiLine
	case unicode.IsControl(r): // C0, DEL, C1
		return false
	case r >= '\u202a' && r <= '\u202e', r >= '\u2066' && r <= '\u2069':
		return false
	case r == '\u200e' || r == '\u200f' || r == '\u061c' || r == '\u2028' || r == '\u2029':
		return multiLine
	}
	return true
}
