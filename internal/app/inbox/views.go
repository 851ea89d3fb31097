package inbox

import (
	"context"
	"fmt"
	"slices"

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
	// Voucher is the voucher it is about (a reminded sale); nil for none, or one gone.
	Voucher *domain.Voucher
	// Text is a readable line saying what happened.
	Text string
}

// viewer adds to notifications what their recipient reads with them.
type viewer struct {
	blogs    Blogs
	users    Users
	orders   Orders
	vouchers Vouchers // nil: none read
}

// of returns the views of the user's notifications: their actors, notes and orders
// are read with one call each.
func (v *viewer) of(ctx context.Context, userID int64, ns []domain.Notification) ([]View, error) {
	if len(ns) == 0 {
		return nil, nil
	}
	var actorIDs, blogIDs, orderIDs, voucherIDs []int64
	for _, n := range ns {
		actorIDs = append(actorIDs, n.ActorID)
		blogIDs = append(blogIDs, n.BlogID)
		orderIDs = append(orderIDs, n.OrderID)
		voucherIDs = append(voucherIDs, n.VoucherID)
	}
	actorIDs, blogIDs, orderIDs, voucherIDs = positive(actorIDs), positive(blogIDs), positive(orderIDs), positive(voucherIDs)
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
	vouchers := map[int64]domain.Voucher{}
	if len(voucherIDs) > 0 && v.vouchers != nil {
		vs, err := v.vouchers.VouchersByIDs(ctx, voucherIDs)
		if err != nil {
			return nil, fmt.Errorf("read the vouchers of notifications: %w", err)
		}
		vouchers = vs
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
		if vc, ok := vouchers[n.VoucherID]; ok {
			view.Voucher = &vc
		}
		view.Text = Text(view)
		out[i] = view
	}
	return out, nil
}

// positive returns the ids above 0 (0: none), each once, in first-seen order.
func positive(ids []int64) []int64 {
	return batchread.UniqueIDs(slices.DeleteFunc(ids, func(id int64) bool { return id <= 0 }))
}
