package seckill

import (
	"errors"
	"testing"

	"github.com/dealspot/dealspot/internal/domain"
)

func TestVoucherTextRefusesControlAndBidiCharacters(t *testing.T) {
	t.Parallel()
	ok := VoucherInput{ShopID: 1, Title: " 双人套餐 ", SubTitle: "周末可用", Rules: "不可叠加\n\t限堂食", PayValue: 1, ActualValue: 2}
	if err := ok.validate(); err != nil {
		t.Fatalf("a plain voucher: %v", err)
	}
	for name, change := range map[string]func(*VoucherInput){
		"escape in the title":            func(in *VoucherInput) { in.Title = "a\x1b[2Jb" },
		"override in the title":          func(in *VoucherInput) { in.Title = "gpj.\u202eexe" },
		"newline in the title":           func(in *VoucherInput) { in.Title = "a\nb" },
		"isolate in the subtitle":        func(in *VoucherInput) { in.SubTitle = "a\u2067b" },
		"right-to-left mark in subtitle": func(in *VoucherInput) { in.SubTitle = "a\u200fb" },
		"NUL in the rules":               func(in *VoucherInput) { in.Rules = "a\x00b" },
		"override in the rules":          func(in *VoucherInput) { in.Rules = "a\u202db" },
	} {
		in := ok
		change(&in)
		if err := in.validate(); !errors.Is(err, domain.ErrBadInput) {
			t.Errorf("%s: err = %v, want BAD_USER_INPUT", name, err)
		}
	}
}
