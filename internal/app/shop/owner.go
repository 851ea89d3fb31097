package shop

import (
	"context"
	"errors"
	"fmt"

	"github.com/dealspot/dealspot/internal/domain"
)

// OwnerStore records who runs a shop.
type OwnerStore interface {
	// SetShopOwner makes userID the shop's owner and returns the shop and its previous
	// owner (0: none). The user's row is locked while the owner is written, so that it
	// orders with a demotion of the same user (MerchantRoles.DemoteIfNoShops). Errors:
	// domain.ErrNotFound for an unknown shop; BAD_USER_INPUT for an unknown user.
	SetShopOwner(ctx context.Context, shopID, userID int64) (s domain.Shop, previousOwner int64, err error)
}

// MerchantRoles gives and takes the MERCHANT role as shops change hands.
type MerchantRoles interface {
	// PromoteToMerchant makes a USER a MERCHANT and leaves a MERCHANT or ADMIN as they
	// are. Errors: domain.ErrNotFound for an unknown user.
	PromoteToMerchant(ctx context.Context, userID int64) (domain.User, error)
	// DemoteIfNoShops makes a MERCHANT who runs no shop a USER again, and leaves
	// everyone else as they are. Errors: domain.ErrNotFound for an unknown user.
	DemoteIfNoShops(ctx context.Context, userID int64) (domain.User, error)
}

// SetOwner makes a user the merchant who runs a shop (an administrator's command).
type SetOwner struct {
	store       OwnerStore
	users       MerchantRoles
	invalidator Invalidator
}

// NewSetOwner builds the command; invalidator may be nil when nothing caches shops.
func NewSetOwner(store OwnerStore, users MerchantRoles, invalidator Invalidator) (*SetOwner, error) {
	if store == nil || users == nil {
		return nil, errors.New("set shop owner: nil store or users")
	}
	return &SetOwner{store: store, users: users, invalidator: invalidator}, nil
}

// Handle makes userID the owner of shopID; a USER becomes a MERCHANT, and the previous
// owner, a MERCHANT whose last shop this was, a USER again (an ADMIN stays one); roles
// apply from the users' next request on. Only an ADMIN may. Errors: UNAUTHENTICATED,
// FORBIDDEN, NOT_FOUND (shop or user).
//
// The owner is written before the new owner is promoted, and a demotion checks the
// shops under a lock of the user's row that SetShopOwner takes too: so a user given a
// shop while losing their last one ends a MERCHANT, whichever finishes first.
func (c *SetOwner) Handle(ctx context.Context, a domain.Actor, shopID, userID int64) (domain.Shop, error) {
	if !a.Authenticated() {
		return domain.Shop{}, domain.Errorf(domain.CodeUnauthenticated, "log in first")
	}
	if a.Role != domain.RoleAdmin {
		return domain.Shop{}, domain.Errorf(domain.CodeForbidden, "only an administrator sets a shop's owner")
	}
	if shopID <= 0 {
		return domain.Shop{}, domain.Errorf(domain.CodeNotFound, "no shop %d", shopID)
	}
	if userID <= 0 {
		return domain.Shop{}, domain.Errorf(domain.CodeNotFound, "no user %d", userID)
	}
	s, previous, err := c.store.SetShopOwner(ctx, shopID, userID)
	switch {
	case errors.Is(err, domain.ErrNotFound):
		return domain.Shop{}, domain.Errorf(domain.CodeNotFound, "no shop %d", shopID)
	case domain.ErrorCode(err) == domain.CodeBadUserInput:
		return domain.Shop{}, domain.Errorf(domain.CodeNotFound, "no user %d", userID)
	case err != nil:
		return domain.Shop{}, fmt.Errorf("set owner of shop %d: %w", shopID, err)
	}
	if c.invalidator != nil {
		if err := c.invalidator.ShopChanged(ctx, shopID); err != nil {
			return domain.Shop{}, fmt.Errorf("invalidate cached shop: %w", err)
		}
		if err := c.invalidator.ShopsOfTypeChanged(ctx, s.TypeID); err != nil {
			return domain.Shop{}, fmt.Errorf("invalidate cached shop lists: %w", err)
		}
	}
	if _, err := c.users.PromoteToMerchant(ctx, userID); err != nil {
		return domain.Shop{}, fmt.Errorf("promote user %d to merchant: %w", userID, err)
	}
	if previous > 0 && previous != userID {
		if _, err := c.users.DemoteIfNoShops(ctx, previous); err != nil && !errors.Is(err, domain.ErrNotFound) {
			return domain.Shop{}, fmt.Errorf("demote user %d: %w", previous, err)
		}
	}
	return s, nil
}

// Lookup returns one shop through the cache without counting a visit (for a shop shown
// as part of something else, such as an order); (zero, false, nil) when there is none.
func (q *Queries) Lookup(ctx context.Context, id int64) (domain.Shop, bool, error) {
	return q.shop(ctx, id)
}
