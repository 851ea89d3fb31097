package domain

import "strings"

// NormalizePhone returns phone in the one form Dealspot stores and limits by: a mainland
// China mobile number of 11 digits starting with 1 (13800000009). It accepts the forms
// people type or paste: a country prefix (+86, 0086 or 86), spaces and dashes between
// the digits (86 138 0000 0009, 138-0000-0009), and white space around it. ok is false
// for anything else, full-width digits and other countries included.
func NormalizePhone(phone string) (normalized string, ok bool) {
	s := strings.TrimSpace(phone)
	if len(s) > 32 {
		return "", false
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			b.WriteByte(c)
		case c == ' ' || c == '-':
		case c == '+' && i == 0:
			b.WriteByte(c)
		default:
			return "", false
		}
	}
	d := b.String()
	switch {
	case strings.HasPrefix(d, "+"):
		if d, ok = strings.CutPrefix(d, "+86"); !ok {
			return "", false
		}
	case len(d) == 15 && strings.HasPrefix(d, "0086"):
		d = d[4:]
	case len(d) == 13 && strings.HasPrefix(d, "86"):
		d = d[2:]
	}
	if !ValidPhone(d) {
		return "", false
	}
	return d, true
}

// ValidPhone reports whether phone is already in the stored form: 11 digits, 1 then 3–9.
func ValidPhone(phone string) bool {
	if len(phone) != 11 || phone[0] != '1' || phone[1] < '3' || phone[1] > '9' {
		return false
	}
	for i := 2; i < len(phone); i++ {
		if phone[i] < '0' || phone[i] > '9' {
			return false
		}
	}
	return true
}
