package search

import (
	"html"
	"strings"
	"unicode"
)

// The snippet's window: at most snippetRunes characters of the field, starting up to
// snippetLead characters before its first match.
const (
	snippetRunes = 60
	snippetLead  = 20
)

// Snippet shows why a document matched. Of fields, in order, it takes the first that
// holds a term of q (case-insensitively), marks every term found in it and cuts a window
// of about 60 characters starting a little before the first mark, with "…" where it cut.
// When no field holds a term (the document was found by a typo), it takes name and
// marks the runs of two or more characters it shares with the query. White space is
// shown as one space; the text is HTML-escaped and each match is wrapped in
// <mark>…</mark>, so the snippet can be shown as HTML.
func Snippet(q Query, name string, fields ...string) string {
	terms := make([][]rune, 0, len(q.Terms))
	for _, t := range q.Terms {
		if t != "" {
			terms = append(terms, fold([]rune(t)))
		}
	}
	for _, f := range fields {
		text := []rune(Normalize(f))
		if marks := termMarks(fold(text), terms); len(marks) > 0 {
			return window(text, marks)
		}
	}
	text := []rune(Normalize(name))
	return window(text, pairMarks(fold(text), fold([]rune(q.Text))))
}

// span is a marked run of a text: runes [start, end).
type span struct{ start, end int }

// fold lowers each rune, keeping positions.
func fold(rs []rune) []rune {
	out := make([]rune, len(rs))
	for i, r := range rs {
		out[i] = unicode.ToLower(r)
	}
	return out
}

// termMarks returns the runs of text that are one of terms, in order, overlaps merged.
func termMarks(text []rune, terms [][]rune) []span {
	marked := make([]bool, len(text))
	found := false
	for _, t := range terms {
		for i := 0; i+len(t) <= len(text); i++ {
			if equalRunes(text[i:i+len(t)], t) {
				for j := i; j < i+len(t); j++ {
					marked[j] = true
				}
				found = true
			}
		}
	}
	if !found {
		return nil
	}
	return spans(marked)
}

// pairMarks returns the runs of text made of pairs of characters that follow each other
// in query too.
func pairMarks(text, query []rune) []span {
	pairs := map[[2]rune]bool{}
	for i := 0; i+1 < len(query); i++ {
		if query[i] != ' ' && query[i+1] != ' ' {
			pairs[[2]rune{query[i], query[i+1]}] = true
		}
	}
	marked := make([]bool, len(text))
	for i := 0; i+1 < len(text); i++ {
		if pairs[[2]rune{text[i], text[i+1]}] {
			marked[i], marked[i+1] = true, true
		}
	}
	return spans(marked)
}

func spans(marked []bool) []span {
	var out []span
	for i := 0; i < len(marked); i++ {
		if !marked[i] {
			continue
		}
		j := i
		for j < len(marked) && marked[j] {
			j++
		}
		out = append(out, span{i, j})
		i = j
	}
	return out
}

func equalRunes(a, b []rune) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// window cuts text around its first mark and writes it as HTML.
func window(text []rune, marks []span) string {
	start, end := 0, len(text)
	if len(text) > snippetRunes {
		if len(marks) > 0 {
			start = max(0, marks[0].start-snippetLead)
		}
		end = min(len(text), start+snippetRunes)
		start = max(0, end-snippetRunes)
	}
	var b strings.Builder
	if start > 0 {
		b.WriteString("…")
	}
	at := start
	for _, m := range marks {
		s, e := max(m.start, start), min(m.end, end)
		if s >= e {
			continue
		}
		b.WriteString(html.EscapeString(string(text[at:s])))
		b.WriteString("<mark>")
		b.WriteString(html.EscapeString(string(text[s:e])))
		b.WriteString("</mark>")
		at = e
	}
	b.WriteString(html.EscapeString(string(text[at:end])))
	if end < len(text) {
		b.WriteString("…")
	}
	return b.String()
}
