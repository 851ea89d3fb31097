package domain

import "time"

// FavoriteKind says what a favourite points at.
type FavoriteKind string

// Kinds of favourites.
const (
	FavoriteShop    FavoriteKind = "SHOP"
	FavoriteVoucher FavoriteKind = "VOUCHER"
)

// Valid reports whether k is a known kind.
func (k FavoriteKind) Valid() bool { return k == FavoriteShop || k == FavoriteVoucher }

// FavoriteTarget is what a user marks as a favourite: a shop or a voucher, by id.
type FavoriteTarget struct {
	Kind FavoriteKind
	ID   int64
}

// Favorite is one user's mark on a shop or a voucher. A user marks a target at most
// once; a favourite taken back and given again is a new one (a new id and time).
type Favorite struct {
	ID        int64
	UserID    int64
	Target    FavoriteTarget
	CreatedAt time.Time
}
