package graph

import (
	"errors"
	"math"
	"strconv"
	"strings"

	"github.com/dealspot/dealspot/graph/model"
	"github.com/dealspot/dealspot/internal/app/auth"
	"github.com/dealspot/dealspot/internal/app/seckill"
	"github.com/dealspot/dealspot/internal/app/shop"
	"github.com/dealspot/dealspot/internal/domain"
)

// parseID reads a GraphQL ID as a positive decimal id.
func parseID(field, raw string) (int64, error) {
	id, err := strconv.ParseInt(strings.TrimSpace(raw), 10, 64)
	if err != nil || id <= 0 {
		return 0, domain.Errorf(domain.CodeBadUserInput, "%s: %q is not a valid id", field, raw)
	}
	return id, nil
}

// parseOptionalID reads an optional ID; nil or empty means 0 (none).
func parseOptionalID(field string, raw *string) (int64, error) {
	if raw == nil || *raw == "" {
		return 0, nil
	}
	return parseID(field, *raw)
}

func formatID(id int64) string { return strconv.FormatInt(id, 10) }

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

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

func shopTypeToModel(t domain.ShopType) model.ShopType {
	return model.ShopType{ID: formatID(t.ID), Name: t.Name, Icon: t.Icon, Sort: t.Sort}
}

func shopToModel(s domain.Shop) *model.Shop {
	return &model.Shop{
		ID:        formatID(s.ID),
		Name:      s.Name,
		TypeID:    formatID(s.TypeID),
		Images:    s.Images,
		Area:      s.Area,
		Address:   s.Address,
		Longitude: s.Longitude,
		Latitude:  s.Latitude,
		AvgPrice:  int(s.AvgPrice),
		Sold:      s.Sold,
		Comments:  s.Comments,
		Score:     s.Score,
		OpenHours: s.OpenHours,
	}
}

const shopCursor = "shop"

func shopConnection(shops []domain.Shop, hasNext bool) *model.ShopConnection {
	conn := &model.ShopConnection{Edges: make([]model.ShopEdge, 0, len(shops))}
	for _, s := range shops {
		conn.Edges = append(conn.Edges, model.ShopEdge{Cursor: encodeCursor(shopCursor, s.ID), Node: shopToModel(s)})
	}
	conn.PageInfo = &model.PageInfo{HasNextPage: hasNext}
	if n := len(conn.Edges); n > 0 {
		conn.PageInfo.EndCursor = &conn.Edges[n-1].Cursor
	}
	return conn
}

// userToModel shows u to viewer: the phone is whole only for its owner.
func userToModel(u domain.User, viewer auth.Principal) *model.User {
	return &model.User{
		ID:        formatID(u.ID),
		NickName:  u.NickName,
		Icon:      u.Icon,
		Phone:     auth.VisiblePhone(viewer, u),
		Role:      model.Role(u.Role),
		CreatedAt: u.CreatedAt,
	}
}

// sessionToModel answers a login or refresh; the session's own user is the viewer.
func sessionToModel(s auth.Session) *model.AuthPayload {
	return &model.AuthPayload{
		AccessToken:      s.AccessToken,
		RefreshToken:     s.RefreshToken,
		ExpiresAt:        s.ExpiresAt,
		RefreshExpiresAt: s.RefreshExpiresAt,
		User:             userToModel(s.User, auth.Principal{UserID: s.User.ID}),
	}
}

func int64Ptr(p *int) *int64 {
	if p == nil {
		return nil
	}
	v := int64(*p)
	return &v
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

func nearbyConnection(page shop.NearbyPage, seen int) *model.ShopConnection {
	conn := &model.ShopConnection{Edges: make([]model.ShopEdge, 0, len(page.Shops)), PageInfo: &model.PageInfo{HasNextPage: page.HasNextPage}}
	for i, n := range page.Shops {
		d := n.DistanceMeters
		conn.Edges = append(conn.Edges, model.ShopEdge{
			Cursor:         encodeNearbyCursor(shop.NearbyCursor{Seen: seen + i + 1, DistanceMeters: d, ShopID: n.Shop.ID}),
			Node:           shopToModel(n.Shop),
			DistanceMeters: &d,
		})
	}
	if n := len(conn.Edges); n > 0 {
		conn.PageInfo.EndCursor = &conn.Edges[n-1].Cursor
	}
	return conn
}

func voucherToModel(v seckill.VoucherView) *model.Voucher {
	out := &model.Voucher{
		ID:          formatID(v.ID),
		ShopID:      formatID(v.ShopID),
		Title:       v.Title,
		SubTitle:    v.SubTitle,
		Rules:       v.Rules,
		PayValue:    int(v.PayValue),
		ActualValue: int(v.ActualValue),
		Kind:        model.VoucherKind(v.Kind),
	}
	if fs := v.FlashSale; fs != nil {
		stock := int(v.Remaining)
		out.Stock, out.BeginTime, out.EndTime = &stock, &fs.BeginTime, &fs.EndTime
	}
	return out
}

func orderToModel(o domain.VoucherOrder) *model.VoucherOrder {
	return &model.VoucherOrder{
		ID:        formatID(o.ID),
		VoucherID: formatID(o.VoucherID),
		UserID:    formatID(o.UserID),
		Status:    model.OrderStatus(o.Status),
		CreatedAt: o.CreatedAt,
	}
}

const orderCursor = "order"

func orderConnection(page seckill.OrderPage) *model.VoucherOrderConnection {
	conn := &model.VoucherOrderConnection{Edges: make([]model.VoucherOrderEdge, 0, len(page.Orders)), PageInfo: &model.PageInfo{HasNextPage: page.HasNextPage}}
	for _, o := range page.Orders {
		conn.Edges = append(conn.Edges, model.VoucherOrderEdge{Cursor: encodeCursor(orderCursor, o.ID), Node: orderToModel(o)})
	}
	if n := len(conn.Edges); n > 0 {
		conn.PageInfo.EndCursor = &conn.Edges[n-1].Cursor
	}
	return conn
}

func orderEventToModel(e domain.OrderEvent) *model.OrderStatusEvent {
	out := &model.OrderStatusEvent{OrderID: formatID(e.OrderID), Status: model.OrderStatus(e.Status)}
	if e.Reason != "" {
		out.Reason = &e.Reason
	}
	return out
}
