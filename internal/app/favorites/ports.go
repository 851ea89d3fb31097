// Package favorites holds users' favourite shops and vouchers: marking and unmarking
// them (idempotent, at most a configured number per user), listing a user's favourites
// newest first, and what a page of shops or vouchers shows of them (whether the caller
// marked each, how many users marked each shop).
//
// A shop's fans (the users who marked it) are listed by Queries.Fans: the hook for
// telling them when the shop publishes a sale.
package favorites

import (
	"context"

	"github.com/dealspot/dealspot/internal/domain"
)

// Store keeps favourites in the relational store: the only copy.
type Store interface {
	// Add records f (user, target, time) unless the user already marked the target:
	// false then, and the favourite stored before stays as it was. Before it writes a
	// new one it calls allow, in the same transaction and with the user's other adds
	// held off, with how many favourites the user holds; an error from allow aborts the
	// add and is returned as it is.
	Add(ctx context.Context, f domain.Favorite, allow func(held int) error) (bool, error)
	// Remove takes the user's favourite of t back; false when there was none.
	Remove(ctx context.Context, userID int64, t domain.FavoriteTarget) (bool, error)
	// OfUser returns up to limit of the user's favourites with id < before (0: from the
	// newest), newest (highest id) first.
	OfUser(ctx context.Context, userID, before int64, limit int) ([]domain.Favorite, error)
	// Marked returns which of ids (targets of kind) the user marked; unmarked ones are
	// left out.
	Marked(ctx context.Context, userID int64, kind domain.FavoriteKind, ids []int64) (map[int64]bool, error)
	// Counts returns how many users marked each of ids (targets of kind); targets
	// nobody marked are left out.
	Counts(ctx context.Context, kind domain.FavoriteKind, ids []int64) (map[int64]int, error)
	// Fans returns up to limit ids, greater than after and ascending, of the users who
	// marked the target.
	Fans(ctx context.Context, t domain.FavoriteTarget, after int64, limit int) ([]int64, error)
}

// Targets says whether the shops and vouchers favourites point at exist.
type Targets interface {
	// Exists reports whether t names a shop or a voucher that exists. Errors are
	// infrastructure failures only.
	Exists(ctx context.Context, t domain.FavoriteTarget) (bool, error)
}
