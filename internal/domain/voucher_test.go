package domain_test

import (
	"errors"
	"testing"

	"github.com/dealspot/dealspot/internal/domain"
)

func TestVoucherNormalize(t *testing.T) {
	sale := &domain.FlashSale{Stock: 1}
	cases := []struct {
		name       string
		in         domain.Voucher
		kind       domain.VoucherKind
		status     domain.VoucherStatus
		badRequest bool
	}{
		{name: "a flash sale's kind from its sale", in: domain.Voucher{FlashSale: sale}, kind: domain.VoucherFlashSale, status: domain.VoucherOnSale},
		{name: "no sale: a normal voucher", in: domain.Voucher{}, kind: domain.VoucherNormal, status: domain.VoucherOnSale},
		{name: "a status given is kept", in: domain.Voucher{Status: domain.VoucherOffSale}, kind: domain.VoucherNormal, status: domain.VoucherOffSale},
		{name: "a flash sale without its sale", in: domain.Voucher{Kind: domain.VoucherFlashSale}, badRequest: true},
		{name: "a normal voucher with a sale", in: domain.Voucher{Kind: domain.VoucherNormal, FlashSale: sale}, badRequest: true},
		{name: "an unknown kind", in: domain.Voucher{Kind: "RAFFLE"}, badRequest: true},
		{name: "an unknown status", in: domain.Voucher{Status: "GONE"}, badRequest: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v := c.in
			err := v.Normalize()
			var de *domain.Error
			if c.badRequest {
				if !errors.As(err, &de) || de.Code != domain.CodeBadUserInput {
					t.Fatalf("Normalize() = %v, want BAD_USER_INPUT", err)
				}
				return
			}
			if err != nil || v.Kind != c.kind || v.Status != c.status {
				t.Fatalf("Normalize() = %v, kind %q status %q; want nil, %q %q", err, v.Kind, v.Status, c.kind, c.status)
			}
		})
	}
}
