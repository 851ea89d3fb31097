package notes

import (
	"strings"
	"unicode/utf8"

	"github.com/dealspot/dealspot/internal/domain"
)

// ValidText trims s and checks it is 1 to maxRunes characters of valid UTF-8 that
// domain.CheckText accepts as multi-line or single-line text: a comment, a profile's
// fields.
func ValidText(field, s string, maxRunes int, multiLine bool) (string, error) {
	s = strings.TrimSpace(s)
	switch {
	case s == "":
		return "", domain.Errorf(domain.CodeBadUserInput, "%s must not be empty", field)
	case !utf8.ValidString(s):
		return "", domain.Errorf(domain.CodeBadUserInput, "%s must be valid UTF-8", field)
	case utf8.RuneCountInString(s) > maxRunes:
		return "", domain.Errorf(domain.CodeBadUserInput, "%s must be at most %d characters", field, maxRunes)
	}
	return s, domain.CheckText(field, s, multiLine)
}
