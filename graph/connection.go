package graph

import (
	"github.com/dealspot/dealspot/graph/model"
	"github.com/dealspot/dealspot/internal/app/auth"
	"github.com/dealspot/dealspot/internal/app/seckill"
	"github.com/dealspot/dealspot/internal/app/shop"
	"github.com/dealspot/dealspot/internal/app/social"
	"github.com/dealspot/dealspot/internal/domain"
)

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

// blogConnection maps a page of blogs; cursor gives each blog's cursor.
func blogConnection(page social.BlogPage, p auth.Principal, cursor func(domain.Blog) string) *model.BlogConnection {
	conn := &model.BlogConnection{Edges: make([]model.BlogEdge, 0, len(page.Blogs)), PageInfo: &model.PageInfo{HasNextPage: page.HasNextPage}}
	for _, v := range page.Blogs {
		conn.Edges = append(conn.Edges, model.BlogEdge{Cursor: cursor(v.Blog), Node: blogToModel(v, p)})
	}
	if n := len(conn.Edges); n > 0 {
		conn.PageInfo.EndCursor = &conn.Edges[n-1].Cursor
	}
	return conn
}

func feedConnection(page social.FeedPage, p auth.Principal) *model.FeedConnection {
	conn := &model.FeedConnection{Edges: make([]model.FeedEdge, 0, len(page.Items)), PageInfo: &model.PageInfo{HasNextPage: page.HasNextPage}}
	for _, it := range page.Items {
		conn.Edges = append(conn.Edges, model.FeedEdge{
			Cursor: encodePair(feedCursor, it.Cursor.Max, int64(it.Cursor.Offset)),
			Node:   blogToModel(it.Blog, p),
		})
	}
	if page.End != nil {
		end := encodePair(feedCursor, page.End.Max, int64(page.End.Offset))
		conn.PageInfo.EndCursor = &end
	}
	return conn
}
