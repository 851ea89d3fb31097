package graph

import (
	"context"

	"github.com/dealspot/dealspot/graph/model"
	"github.com/dealspot/dealspot/internal/app/auth"
	"github.com/dealspot/dealspot/internal/domain"
)

// waitlistArgs reads the caller and the voucher id of a waitlist mutation.
func (r *Resolver) waitlistArgs(ctx context.Context, voucherID string) (auth.Principal, int64, error) {
	p, err := principal(ctx)
	if err != nil {
		return auth.Principal{}, 0, err
	}
	vid, err := parseID("voucherId", voucherID)
	if err != nil {
		return auth.Principal{}, 0, err
	}
	return p, vid, nil
}

// waitlistEntryToModel is a place in line as the schema shows it.
func waitlistEntryToModel(e domain.WaitlistEntry) *model.WaitlistEntry {
	m := &model.WaitlistEntry{ID: formatID(e.ID), VoucherID: formatID(e.VoucherID), Status: model.WaitlistStatus(e.Status),
		JoinedAt: e.JoinedAt}
	if e.Status == domain.WaitlistWaiting && e.Position > 0 {
		pos := e.Position
		m.Position = &pos
	}
	if e.Offer != nil {
		m.Offer = &model.WaitlistOffer{OfferedAt: e.Offer.OfferedAt, ExpiresAt: e.Offer.ExpiresAt}
	}
	return m
}
