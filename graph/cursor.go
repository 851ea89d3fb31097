package graph

import (
	"errors"
	"math"
	"strconv"

	"github.com/dealspot/dealspot/internal/app/search"
	"github.com/dealspot/dealspot/internal/app/shop"
	"github.com/dealspot/dealspot/internal/app/social/follows"
	"github.com/dealspot/dealspot/internal/app/social/notes"
	"github.com/dealspot/dealspot/internal/domain"
)

// Cursors are opaque to clients; domain.ParseCursor checks their shape and bounds.
func encodeCursor(kind string, pos int64) string {
	return domain.EncodeCursor(kind, domain.FormatCursorInt(pos))
}

// decodeCursor reads a cursor of the given kind holding one id; nil or empty means the
// start (0).
func decodeCursor(kind string, raw *string) (int64, error) {
	c, ok, err := domain.ParseCursor(kind, deref(raw), 1)
	if err != nil || !ok {
		return 0, err
	}
	return c.Int(0, 1, math.MaxInt64)
}

const shopCursor = "shop"

// searchCursor is a place in a ranked list (Query.search, shops(name:)): the score and
// the id.
const searchCursor = "rank"

func encodeSearchCursor(p search.Position) string {
	return domain.EncodeCursor(searchCursor, domain.FormatCursorFloat(p.Score), formatID(p.ID))
}

// decodeSearchCursor reads a ranked position; nil or empty means the top.
func decodeSearchCursor(raw *string) (*search.Position, error) {
	c, ok, err := domain.ParseCursor(searchCursor, deref(raw), 2)
	if err != nil || !ok {
		return nil, err
	}
	score, err1 := c.Float(0, 0, search.TierPrefix+1)
	id, err2 := c.Int(1, 1, math.MaxInt64)
	if err1 != nil || err2 != nil {
		return nil, domain.BadCursor()
	}
	return &search.Position{Score: score, ID: id}, nil
}

const nearbyCursor = "near"

// encodeNearbyCursor packs a nearby page position: shops seen so far, and the last
// shop's distance and id.
func encodeNearbyCursor(c shop.NearbyCursor) string {
	return domain.EncodeCursor(nearbyCursor, strconv.Itoa(c.Seen), domain.FormatCursorFloat(c.DistanceMeters), formatID(c.ShopID))
}

// decodeNearbyCursor reads a nearby cursor; the app bounds how deep a search may page
// and how far a shop may be.
func decodeNearbyCursor(raw *string) (*shop.NearbyCursor, error) {
	c, ok, err := domain.ParseCursor(nearbyCursor, deref(raw), 3)
	if err != nil || !ok {
		return nil, err
	}
	seen, err1 := c.Int(0, 1, math.MaxInt32)
	dist, err2 := c.Float(1, 0, domain.MaxDistanceMeters)
	id, err3 := c.Int(2, 1, math.MaxInt64)
	if err := errors.Join(err1, err2, err3); err != nil {
		return nil, domain.BadCursor()
	}
	return &shop.NearbyCursor{Seen: int(seen), DistanceMeters: dist, ShopID: id}, nil
}

const orderCursor = "order"

// Cursor kinds of the social lists.
const (
	hotCursor      = "hot"
	userBlogCursor = "ublog"
	shopBlogCursor = "sblog"
	feedCursor     = "feed"
)

// encodePair packs a cursor of two numbers.
func encodePair(kind string, a, b int64) string {
	return domain.EncodeCursor(kind, domain.FormatCursorInt(a), domain.FormatCursorInt(b))
}

// decodePair reads a cursor of two numbers within [lo, hi] each; ok is false for nil or
// empty.
func decodePair(kind string, raw *string, lo, hi [2]int64) (a, b int64, ok bool, err error) {
	c, ok, err := domain.ParseCursor(kind, deref(raw), 2)
	if err != nil || !ok {
		return 0, 0, false, err
	}
	a, err1 := c.Int(0, lo[0], hi[0])
	b, err2 := c.Int(1, lo[1], hi[1])
	if err1 != nil || err2 != nil {
		return 0, 0, false, domain.BadCursor()
	}
	return a, b, true, nil
}

// decodeHotCursor reads a hot-blogs position: likes (an int32 in the store) and blog id.
func decodeHotCursor(raw *string) (*notes.HotPosition, error) {
	liked, id, ok, err := decodePair(hotCursor, raw, [2]int64{0, 1}, [2]int64{math.MaxInt32, math.MaxInt64})
	if err != nil || !ok {
		return nil, err
	}
	return &notes.HotPosition{Liked: int(liked), ID: id}, nil
}

// decodeFeedCursor reads a feed position: the last score (ms; exact in a float64) and
// how many entries of that score were seen (the app bounds it by the inbox size).
func decodeFeedCursor(raw *string) (*follows.FeedCursor, error) {
	max, offset, ok, err := decodePair(feedCursor, raw, [2]int64{0, 1}, [2]int64{1 << 53, math.MaxInt32})
	if err != nil || !ok {
		return nil, err
	}
	return &follows.FeedCursor{Max: max, Offset: int(offset)}, nil
}

func hotBlogCursor(b domain.Blog) string { return encodePair(hotCursor, int64(b.Liked), b.ID) }

func userBlogCursorOf(b domain.Blog) string { return encodeCursor(userBlogCursor, b.ID) }

func shopBlogCursorOf(b domain.Blog) string { return encodeCursor(shopBlogCursor, b.ID) }
