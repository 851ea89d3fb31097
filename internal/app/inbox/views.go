package inbox

import (
	"context"
	"fmt"

	"github.com/dealspot/dealspot/internal/app/batchread"
	"github.com/dealspot/dealspot/internal/app/social/notes"
	"github.com/dealspot/dealspot/internal/domain"
)

// View is a notification as its recipient reads it.
type View struct {
	domain.Notification
	// Actor is the latest user who acted; nil for none, or a user who is gone.
	Actor *domain.User
	// Blog is the note it is about, as the recipient sees it; nil for none, or a note
	// that is gone.
	Blog *notes.BlogView
	// Order is the recipient's order it is about; nil for none.
	Order *domain.VoucherOrder
	// Sale is the flash sale it is about and Shop that sale's shop; nil for none, or
	// one that is gone.
	Sale *domain.Voucher
	Shop *domain.Shop
	// Text is a readable line saying what happened.
	Text string
}

// viewer adds to notifications what their recipient reads with them.
type viewer struct {
	blogs  Blogs
	users  Users
	orders Orders
	sales  Sales
}

// of returns the views of the user's notifications: their actors, notes and orders
// are read with one call each.
func (v *viewer) of(ctx context.Context, userID int64, ns []domain.Notification) ([]View, error) {
	if len(ns) == 0 {
		return nil, nil
	}
	var actorIDs, blogIDs, orderIDs, saleIDs []int64
	for _, n := range ns {
		actorIDs = append(actorIDs, n.ActorID)
		blogIDs = append(blogIDs, n.BlogID)
		orderIDs = append(orderIDs, n.OrderID)
		saleIDs = append(saleIDs, n.VoucherID)
	}
	actorIDs, blogIDs, orderIDs, saleIDs = batchread.PositiveIDs(actorIDs), batchread.PositiveIDs(blogIDs), batchread.PositiveIDs(orderIDs), batchread.PositiveIDs(saleIDs)
	actors := map[int64]domain.User{}
	if len(actorIDs) > 0 {
		users, err := v.users.UsersByIDs(ctx, actorIDs)
		if err != nil {
			return nil, fmt.Errorf("read the actors of notifications: %w", err)
		}
		for _, u := range users {
			actors[u.ID] = u
		}
	}
	blogs := map[int64]notes.BlogView{}
	if len(blogIDs) > 0 {
		views, err := v.blogs.BlogViews(ctx, userID, blogIDs)
		if err != nil {
			return nil, fmt.Errorf("read the notes of notifications: %w", err)
		}
		for _, b := range views {
			blogs[b.Blog.ID] = b
		}
	}
	orders := map[int64]domain.VoucherOrder{}
	if len(orderIDs) > 0 {
		os, err := v.orders.OrdersByIDs(ctx, orderIDs)
		if err != nil {
			return nil, fmt.Errorf("read the orders of notifications: %w", err)
		}
		for _, o := range os {
			if o.UserID == userID {
				orders[o.ID] = o
			}
		}
	}
	sales, shops, err := v.salesOf(ctx, saleIDs)
	if err != nil {
		return nil, err
	}
	out := make([]View, len(ns))
	for i, n := range ns {
		view := View{Notification: n}
		if u, ok := actors[n.ActorID]; ok {
			view.Actor = &u
		}
		if b, ok := blogs[n.BlogID]; ok {
			view.Blog = &b
		}
		if o, ok := orders[n.OrderID]; ok {
			view.Order = &o
		}
		if sale, ok := sales[n.VoucherID]; ok {
			view.Sale = &sale
			if shop, ok := shops[sale.ShopID]; ok {
				view.Shop = &shop
			}
		}
		view.Text = Text(view)
		out[i] = view
	}
	return out, nil
}

// salesOf reads the sales with those ids and their shops, by id.
func (v *viewer) salesOf(ctx context.Context, ids []int64) (map[int64]domain.Voucher, map[int64]domain.Shop, error) {
	sales, shops := map[int64]domain.Voucher{}, map[int64]domain.Shop{}
	if len(ids) == 0 {
		return sales, shops, nil
	}
	vs, err := v.sales.VouchersByIDs(ctx, ids)
	if err != nil {
		return nil, nil, fmt.Errorf("read the sales of notifications: %w", err)
	}
	var shopIDs []int64
	for _, s := range vs {
		sales[s.ID] = s
		shopIDs = append(shopIDs, s.ShopID)
	}
	if shopIDs = batchread.PositiveIDs(shopIDs); len(shopIDs) > 0 {
		ss, err := v.sales.ShopsByIDs(ctx, shopIDs)
		if err != nil {
			return nil, nil, fmt.Errorf("read the shops of notifications: %w", err)
		}
		for _, s := range ss {
			shops[s.ID] = s
		}
	}
	return sales, shops, nil
}
