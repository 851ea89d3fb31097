package shop

import (
	"errors"
	"testing"

	"github.com/dealspot/dealspot/internal/domain"
)

func TestShopTextRefusesControlAndBidiCharacters(t *testing.T) {
	t.Parallel()
	ptr := func(s string) *string { return &s }
	if err := apply(&domain.Shop{}, ShopInput{Name: ptr(" 老王面馆 "), Address: ptr("南京路 1 号"), Area: ptr("黄浦"), OpenHours: ptr("10:00-22:00")}); err != nil {
		t.Fatalf("a plain shop: %v", err)
	}
	for field, in := range map[string]func(s string) ShopInput{
		"name":      func(s string) ShopInput { return ShopInput{Name: &s} },
		"address":   func(s string) ShopInput { return ShopInput{Address: &s} },
		"area":      func(s string) ShopInput { return ShopInput{Area: &s} },
		"openHours": func(s string) ShopInput { return ShopInput{OpenHours: &s} },
	} {
		for name, s := range map[string]string{
			"escape": "a\x1b[2Jb", "C1": "a\u009bb", "override": "gpj.\u202eexe", "isolate": "a\u2068b",
			"newline": "a\nb", "right-to-left mark": "a\u200fb",
		} {
			if err := apply(&domain.Shop{}, in(s)); !errors.Is(err, domain.ErrBadInput) {
				t.Errorf("%s with %s: err = %v, want BAD_USER_INPUT", field, name, err)
			}
		}
	}
}
