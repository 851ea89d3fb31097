package graph

import (
	"github.com/dealspot/dealspot/graph/model"
	"github.com/dealspot/dealspot/internal/app/auth"
	"github.com/dealspot/dealspot/internal/app/search"
	"github.com/dealspot/dealspot/internal/app/shop"
	"github.com/dealspot/dealspot/internal/app/social/follows"
	"github.com/dealspot/dealspot/internal/app/social/notes"
	"github.com/dealspot/dealspot/internal/domain"
)

// edges maps a page of items to a connection's edges and page info: cursor gives the
// cursor of the i-th item, edge its edge. The edges are never nil (an empty page has
// none), and endCursor is the last item's cursor (absent on an empty page).
func edges[T, E any](items []T, hasNext bool, cursor func(i int, item T) string, edge func(cursor string, item T) E) ([]E, *model.PageInfo) {
	out := make([]E, 0, len(items))
	info := &model.PageInfo{HasNextPage: hasNext}
	for i, it := range items {
		c := cursor(i, it)
		out = append(out, edge(c, it))
		if i == len(items)-1 {
			info.EndCursor = &c
		}
	}
	return out, info
}

func shopConnection(shops []domain.Shop, hasNext bool) *model.ShopConnection {
	es, info := edges(shops, hasNext,
		func(_ int, s domain.Shop) string { return encodeCursor(shopCursor, s.ID) },
		func(c string, s domain.Shop) model.ShopEdge { return model.ShopEdge{Cursor: c, Node: shopToModel(s)} })
	return &model.ShopConnection{Edges: es, PageInfo: info}
}

// rankedShopConnection maps a page of shops found by name, best first.
func rankedShopConnection(page search.Page) *model.ShopConnection {
	es, info := edges(page.Results, page.HasNextPage,
		func(_ int, r search.Result) string { return encodeSearchCursor(r.Position) },
		func(c string, r search.Result) model.ShopEdge {
			return model.ShopEdge{Cursor: c, Node: shopToModel(*r.Shop)}
		})
	return &model.ShopConnection{Edges: es, PageInfo: info}
}

// searchConnection maps a page of search results as p sees them.
func searchConnection(page search.Page, p auth.Principal) *model.SearchConnection {
	es, info := edges(page.Results, page.HasNextPage,
		func(_ int, r search.Result) string { return encodeSearchCursor(r.Position) },
		func(c string, r search.Result) model.SearchEdge {
			node := &model.SearchResult{Score: r.Score, Snippet: r.Snippet}
			switch {
			case r.Shop != nil:
				node.Shop = shopToModel(*r.Shop)
			case r.Note != nil:
				node.Note = blogToModel(*r.Note)
			case r.User != nil:
				node.User = userToModel(*r.User, p)
			}
			return model.SearchEdge{Cursor: c, Node: node}
		})
	return &model.SearchConnection{Edges: es, PageInfo: info}
}

// nearbyConnection maps a page of nearby shops; seen is how many shops earlier pages
// showed.
func nearbyConnection(page shop.NearbyPage, seen int) *model.ShopConnection {
	es, info := edges(page.Shops, page.HasNextPage,
		func(i int, n shop.NearbyShop) string {
			return encodeNearbyCursor(shop.NearbyCursor{Seen: seen + i + 1, DistanceMeters: n.DistanceMeters, ShopID: n.Shop.ID})
		},
		func(c string, n shop.NearbyShop) model.ShopEdge {
			d := n.DistanceMeters
			return model.ShopEdge{Cursor: c, Node: shopToModel(n.Shop), DistanceMeters: &d}
		})
	return &model.ShopConnection{Edges: es, PageInfo: info}
}

// orderConnection maps a page of orders as viewerID sees them.
func orderConnection(orders []domain.VoucherOrder, hasNext bool, viewerID int64) *model.VoucherOrderConnection {
	es, info := edges(orders, hasNext,
		func(_ int, o domain.VoucherOrder) string { return encodeCursor(orderCursor, o.ID) },
		func(c string, o domain.VoucherOrder) model.VoucherOrderEdge {
			return model.VoucherOrderEdge{Cursor: c, Node: orderToModel(o, viewerID)}
		})
	return &model.VoucherOrderConnection{Edges: es, PageInfo: info}
}

// blogConnection maps a page of blogs; cursor gives each blog's cursor.
func blogConnection(page notes.BlogPage, p auth.Principal, cursor func(domain.Blog) string) *model.BlogConnection {
	es, info := edges(page.Blogs, page.HasNextPage,
		func(_ int, v notes.BlogView) string { return cursor(v.Blog) },
		func(c string, v notes.BlogView) model.BlogEdge {
			return model.BlogEdge{Cursor: c, Node: blogToModel(v)}
		})
	return &model.BlogConnection{Edges: es, PageInfo: info}
}

// feedConnection maps a page of the feed. Its endCursor is the page's End, not the last
// item's cursor: entries whose blog is gone may end a page (End is then past them, and
// possibly set when no item is left).
func feedConnection(page follows.FeedPage, p auth.Principal) *model.FeedConnection {
	es, info := edges(page.Items, page.HasNextPage,
		func(_ int, it follows.FeedItem) string {
			return encodePair(feedCursor, it.Cursor.Max, int64(it.Cursor.Offset))
		},
		func(c string, it follows.FeedItem) model.FeedEdge {
			return model.FeedEdge{Cursor: c, Node: blogToModel(it.Blog)}
		})
	info.EndCursor = nil
	if page.End != nil {
		end := encodePair(feedCursor, page.End.Max, int64(page.End.Offset))
		info.EndCursor = &end
	}
	return &model.FeedConnection{Edges: es, PageInfo: info}
}
