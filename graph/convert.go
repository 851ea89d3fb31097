package graph

import (
	"encoding/base64"
	"fmt"
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

// Cursors are opaque to clients: base64url of "<kind>:<position>".
func encodeCursor(kind string, pos int64) string {
	return base64.RawURLEncoding.EncodeToString([]byte(kind + ":" + strconv.FormatInt(pos, 10)))
}

// decodeCursor reads a cursor of the given kind; nil or empty means the start (0).
func decodeCursor(kind string, raw *string) (int64, error) {
	if raw == nil || *raw == "" {
		return 0, nil
	}
	b, err := base64.RawURLEncoding.DecodeString(*raw)
	rest, ok := strings.CutPrefix(string(b), kind+":")
	if err != nil || !ok {
		return 0, domain.Errorf(domain.CodeBadUserInput, "after: not a valid cursor")
	}
	pos, err := strconv.ParseInt(rest, 10, 64)
	if err != nil || pos < 0 {
		return 0, domain.Errorf(domain.CodeBadUserInput, "after: not a valid cursor")
	}
	return pos, nil
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
	raw := fmt.Sprintf("%s:%d:%s:%d", nearbyCursor, c.Seen, strconv.FormatFloat(c.DistanceMeters, 'g', -1, 64), c.ShopID)
	return base64.RawURLEncoding.EncodeToString([]byte(raw))
}

func decodeNearbyCursor(raw *string) (*shop.NearbyCursor, error) {
	if raw == nil || *raw == "" {
		return nil, nil
	}
	bad := domain.Errorf(domain.CodeBadUserInput, "after: not a valid cursor")
	b, err := base64.RawURLEncoding.DecodeString(*raw)
	if err != nil {
		return nil, bad
	}
	parts := strings.Split(string(b), ":")
	if len(parts) != 4 || parts[0] != nearbyCursor {
		return nil, bad
	}
	seen, err1 := strconv.Atoi(parts[1])
	dist, err2 := strconv.ParseFloat(parts[2], 64)
	id, err3 := strconv.ParseInt(parts[3], 10, 64)
	if err1 != nil || err2 != nil || err3 != nil || seen < 0 || id <= 0 || dist < 0 || math.IsNaN(dist) || math.IsInf(dist, 0) {
		return nil, bad
	}
	return &shop.NearbyCursor{Seen: seen, DistanceMeters: dist, ShopID: id}, nil
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
