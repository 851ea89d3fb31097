package shop

import (
	"context"
	"errors"
	"fmt"
	"github.com/dealspot/dealspot/internal/app/social/notes"
	"strings"
	"unicode/utf8"

	"github.com/dealspot/dealspot/internal/domain"
)

// ShopInput carries the editable fields of a shop; nil fields are left as they are on
// update (and take their zero value on create).
type ShopInput struct {
	Name      *string
	TypeID    *int64
	Images    *string
	Area      *string
	Address   *string
	Longitude *float64
	Latitude  *float64
	AvgPrice  *int64
	OpenHours *string
	Score     *int
}

// Commands change shops: the database first, then the nearby index and caches.
type Commands struct {
	repo        Repository
	geo         GeoIndex
	invalidator Invalidator
	images      Images
}

// Images tells whether an image path of this site serves an image.
type Images interface {
	// Exists reports whether path (starting with "/") is an uploaded image or one that
	// comes with the server. Errors are infrastructure failures only.
	Exists(ctx context.Context, path string) (bool, error)
}

// checkPhotos refuses a shop's photo paths of this site that serve no image, by the
// rule notes and profiles follow (notes.CheckImagesExist).
func (c *Commands) checkPhotos(ctx context.Context, images *string) error {
	if c.images == nil || images == nil {
		return nil
	}
	return notes.CheckImagesExist(ctx, c.images, "images", (domain.Shop{Images: *images}).ImageList())
}

// NewCommands builds the shop commands; invalidator may be nil when nothing caches
// shops.
func NewCommands(d Deps, invalidator Invalidator) (*Commands, error) {
	if d.Repo == nil || d.Geo == nil {
		return nil, errors.New("shop commands: nil repository or geo index")
	}
	return &Commands{repo: d.Repo, geo: d.Geo, invalidator: invalidator, images: d.Images}, nil
}

// CreateShop stores a new shop and indexes it. Name, type, address and coordinates are
// required. Errors: BAD_USER_INPUT.
func (c *Commands) CreateShop(ctx context.Context, in ShopInput) (domain.Shop, error) {
	if in.Name == nil || in.TypeID == nil || in.Address == nil || in.Longitude == nil || in.Latitude == nil {
		return domain.Shop{}, domain.Errorf(domain.CodeBadUserInput, "name, typeId, address, longitude and latitude are required")
	}
	var s domain.Shop
	if err := apply(&s, in); err != nil {
		return domain.Shop{}, err
	}
	if err := c.checkPhotos(ctx, in.Images); err != nil {
		return domain.Shop{}, err
	}
	created, err := c.repo.CreateShop(ctx, s)
	if err != nil {
		return domain.Shop{}, fmt.Errorf("create shop: %w", err)
	}
	if err := c.geo.Put(ctx, position(created), 0); err != nil {
		return domain.Shop{}, fmt.Errorf("index new shop: %w", err)
	}
	if c.invalidator != nil {
		// A read of this id before it existed may have cached "not found".
		if err := c.invalidator.ShopChanged(ctx, created.ID); err != nil {
			return domain.Shop{}, fmt.Errorf("invalidate cached shop: %w", err)
		}
		if err := c.invalidator.ShopsOfTypeChanged(ctx, created.TypeID); err != nil {
			return domain.Shop{}, fmt.Errorf("invalidate cached shop lists: %w", err)
		}
	}
	return created, nil
}

// UpdateShop changes the given fields of a shop for a, its MERCHANT or an ADMIN, then
// re-indexes it and drops cached copies everywhere. The score is the reviews' (notes
// move it): only an ADMIN sets it by hand. Errors: UNAUTHENTICATED; FORBIDDEN for
// another's shop or a merchant setting the score; NOT_FOUND; BAD_USER_INPUT.
func (c *Commands) UpdateShop(ctx context.Context, a domain.Actor, id int64, in ShopInput) (domain.Shop, error) {
	if !a.Authenticated() {
		return domain.Shop{}, domain.Errorf(domain.CodeUnauthenticated, "log in first")
	}
	if !a.Role.AtLeast(domain.RoleMerchant) {
		return domain.Shop{}, domain.Errorf(domain.CodeForbidden, "only the shop's merchant or an administrator edits a shop")
	}
	if in.Score != nil && a.Role != domain.RoleAdmin {
		return domain.Shop{}, domain.Errorf(domain.CodeForbidden, "a shop's score comes from its reviews; only an administrator sets it")
	}
	if id <= 0 {
		return domain.Shop{}, domain.Errorf(domain.CodeNotFound, "no shop %d", id)
	}
	// Before the row is locked: a photo deleted meanwhile is refused by deleteImage
	// while the shop shows it.
	if err := c.checkPhotos(ctx, in.Images); err != nil {
		return domain.Shop{}, err
	}
	before, after, err := c.repo.UpdateShop(ctx, id, func(s *domain.Shop) error {
		// Checked on the row as locked for the change: an owner changed meanwhile wins.
		if !a.CanRunShop(s.OwnerID) {
			return domain.Errorf(domain.CodeForbidden, "only the shop's merchant or an administrator edits this shop")
		}
		return apply(s, in)
	})
	if errors.Is(err, domain.ErrNotFound) {
		return domain.Shop{}, domain.Errorf(domain.CodeNotFound, "no shop %d", id)
	}
	if err != nil {
		return domain.Shop{}, fmt.Errorf("update shop: %w", err)
	}
	if err := c.geo.Put(ctx, position(after), before.TypeID); err != nil {
		return domain.Shop{}, fmt.Errorf("re-index shop: %w", err)
	}
	if c.invalidator != nil {
		if err := c.invalidator.ShopChanged(ctx, id); err != nil {
			return domain.Shop{}, fmt.Errorf("invalidate cached shop: %w", err)
		}
		if err := c.invalidator.ShopsOfTypeChanged(ctx, before.TypeID, after.TypeID); err != nil {
			return domain.Shop{}, fmt.Errorf("invalidate cached shop lists: %w", err)
		}
	}
	return after, nil
}

func position(s domain.Shop) domain.ShopPosition {
	return domain.ShopPosition{ShopID: s.ID, TypeID: s.TypeID, Longitude: s.Longitude, Latitude: s.Latitude}
}

// Field limits.
const (
	maxNameLen    = 128
	maxAddressLen = 255
	maxTextLen    = 1024
)

// apply validates in and copies its fields onto s.
func apply(s *domain.Shop, in ShopInput) error {
	text := func(field string, v *string, limit int, required bool, dst *string) error {
		if v == nil {
			return nil
		}
		t := strings.TrimSpace(*v)
		if required && t == "" {
			return domain.Errorf(domain.CodeBadUserInput, "%s must not be empty", field)
		}
		if utf8.RuneCountInString(t) > limit {
			return domain.Errorf(domain.CodeBadUserInput, "%s must be at most %d characters", field, limit)
		}
		if err := domain.CheckText(field, t, false); err != nil {
			return err
		}
		*dst = t
		return nil
	}
	for _, err := range []error{
		text("name", in.Name, maxNameLen, true, &s.Name),
		text("address", in.Address, maxAddressLen, true, &s.Address),
		text("area", in.Area, maxNameLen, false, &s.Area),
		text("images", in.Images, maxTextLen, false, &s.Images),
		text("openHours", in.OpenHours, maxNameLen, false, &s.OpenHours),
	} {
		if err != nil {
			return err
		}
	}
	if in.TypeID != nil {
		if *in.TypeID <= 0 {
			return domain.Errorf(domain.CodeBadUserInput, "typeId must be a positive id")
		}
		s.TypeID = *in.TypeID
	}
	lon, lat := s.Longitude, s.Latitude
	if in.Longitude != nil {
		lon = *in.Longitude
	}
	if in.Latitude != nil {
		lat = *in.Latitude
	}
	if !domain.ValidCoordinates(lon, lat) {
		return domain.Errorf(domain.CodeBadUserInput, "longitude must be within ±180 and latitude within ±%.4f", domain.MaxLatitude)
	}
	s.Longitude, s.Latitude = lon, lat
	if in.AvgPrice != nil {
		if *in.AvgPrice < 0 {
			return domain.Errorf(domain.CodeBadUserInput, "avgPrice must not be negative")
		}
		s.AvgPrice = *in.AvgPrice
	}
	if in.Score != nil {
		if *in.Score < 0 || *in.Score > 50 {
			return domain.Errorf(domain.CodeBadUserInput, "score must be between 0 and 50")
		}
		s.Score = *in.Score
	}
	return nil
}
