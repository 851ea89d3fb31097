package domain_test

import (
	"errors"
	"testing"

	"github.com/dealspot/dealspot/internal/domain"
)

func TestCheckTextRefusesControlAndBidiCharacters(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, s               string
		singleLine, multiLine bool // accepted as such
	}{
		{"plain", "探店 Café #1", true, true},
		{"emoji and joiners", "👩‍🍳 good", true, true},
		{"Arabic", "مطعم جيد", true, true},
		{"newline", "a\nb", false, true},
		{"tab", "a\tb", false, true},
		{"carriage return before a newline", "a\r\nb", false, true},
		{"NUL", "a\x00b", false, false},
		{"bell", "a\ab", false, false},
		{"escape", "a\x1b[31mb", false, false},
		{"delete", "a\x7fb", false, false},
		{"C1 next line", "a\u0085b", false, false},
		{"C1 CSI", "a\u009bb", false, false},
		{"left-to-right embedding", "a\u202ab", false, false},
		{"right-to-left embedding", "a\u202bb", false, false},
		{"pop directional formatting", "a\u202cb", false, false},
		{"left-to-right override", "a\u202db", false, false},
		{"right-to-left override", "gpj.\u202eexe", false, false},
		{"left-to-right isolate", "a\u2066b", false, false},
		{"right-to-left isolate", "a\u2067b", false, false},
		{"first strong isolate", "a\u2068b", false, false},
		{"pop directional isolate", "a\u2069b", false, false},
		{"left-to-right mark", "a\u200eb", false, true},
		{"right-to-left mark", "a\u200fb", false, true},
		{"Arabic letter mark", "a\u061cb", false, true},
		{"line separator", "a\u2028b", false, true},
		{"paragraph separator", "a\u2029b", false, true},
	} {
		for _, kind := range []struct {
			multiLine, want bool
		}{{false, tc.singleLine}, {true, tc.multiLine}} {
			err := domain.CheckText("title", tc.s, kind.multiLine)
			if kind.want && err != nil {
				t.Errorf("%s (multi-line %v): refused: %v", tc.name, kind.multiLine, err)
			}
			if !kind.want && !errors.Is(err, domain.ErrBadInput) {
				t.Errorf("%s (multi-line %v): err = %v, want BAD_USER_INPUT", tc.name, kind.multiLine, err)
			}
		}
	}
}
