package graph

import (
	"errors"
	"math"

	"github.com/dealspot/dealspot/graph/model"
	"github.com/dealspot/dealspot/internal/app/deals"
	"github.com/dealspot/dealspot/internal/domain"
)

const dealCursor = "deal"

// encodeDealCursor packs a deal's place: the order, its sort key and its voucher id.
func encodeDealCursor(c deals.Cursor) string {
	return domain.EncodeCursor(dealCursor, string(c.Sort), domain.FormatCursorInt(c.Key), formatID(c.VoucherID))
}

// decodeDealCursor reads a deal cursor; the app checks that its order is the query's.
func decodeDealCursor(raw *string) (*deals.Cursor, error) {
	c, ok, err := domain.ParseCursor(dealCursor, deref(raw), 3)
	if err != nil || !ok {
		return nil, err
	}
	key, err1 := c.Int(1, math.MinInt64, math.MaxInt64)
	id, err2 := c.Int(2, 1, math.MaxInt64)
	if err := errors.Join(err1, err2); err != nil || !deals.Sort(c[0]).Valid() {
		return nil, domain.BadCursor()
	}
	return &deals.Cursor{Sort: deals.Sort(c[0]), Key: key, VoucherID: id}, nil
}

func dealToModel(d deals.Deal) *model.Deal {
	out := &model.Deal{
		Voucher: voucherToModel(d.Voucher), Shop: shopToModel(d.Shop),
		DistanceMeters: int(math.Round(d.DistanceMeters)), Discount: int(d.Discount), Live: d.Live,
	}
	if fs := d.Voucher.FlashSale; fs != nil {
		begins, ends := fs.BeginTime, fs.EndTime
		left, remaining := int(d.SecondsLeft), int(d.Voucher.Remaining)
		out.BeginsAt, out.EndsAt, out.SecondsLeft, out.RemainingStock = &begins, &ends, &left, &remaining
	}
	return out
}

// dealConnection maps a page of deals.
func dealConnection(page deals.Page) *model.DealConnection {
	es, info := edges(page.Deals, page.HasNextPage,
		func(_ int, d deals.Deal) string { return encodeDealCursor(d.Cursor) },
		func(c string, d deals.Deal) model.DealEdge { return model.DealEdge{Cursor: c, Node: dealToModel(d)} })
	return &model.DealConnection{Edges: es, PageInfo: info}
}
