package domain_test

import (
	"testing"

	"github.com/dealspot/dealspot/internal/domain"
)

func TestNormalizePhone(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{"13800000009", "13800000009"},
		{"+8613800000009", "13800000009"},
		{"86 138 0000 0009", "13800000009"},
		{"138-0000-0009", "13800000009"},
		{"+86 138-0000-0009", "13800000009"},
		{"008613800000009", "13800000009"},
		{"+86-138 0000 0009", "13800000009"},
		{" 13800000009 ", "13800000009"},
		{"13800000009\n", "13800000009"},
		{"8619912345678", "19912345678"},
	} {
		got, ok := domain.NormalizePhone(tc.in)
		if !ok || got != tc.want {
			t.Errorf("NormalizePhone(%q) = %q, %v; want %q", tc.in, got, ok, tc.want)
		}
	}
	for _, in := range []string{
		"", "1380000000", "138000000001", "12800000000", "10000000000", "23800000000",
		"1380000000a", "１３８００００００００", "+8513800000009", "+86", "86", "+13800000009",
		"++8613800000009", "8613800000009x", "138 0000 0009 1", "(138) 0000 0009", "138.0000.0009",
		"86+13800000009", "138\t0000\t0009", "861380000000", "+0086 13800000009",
	} {
		if got, ok := domain.NormalizePhone(in); ok {
			t.Errorf("NormalizePhone(%q) = %q, accepted", in, got)
		}
	}
}
