package graph

import (
	"context"

	"github.com/dealspot/dealspot/graph/model"
	"github.com/dealspot/dealspot/internal/app/social/notes"
	"github.com/dealspot/dealspot/internal/domain"
)

// The graph's edges, each read through the operation's loaders (loaders.go).

// load returns the operation's loaders, or loaders of its own for a call outside an
// operation the handler set up.
func (r *Resolver) load(ctx context.Context) *loaders {
	if l := loadersFrom(ctx); l != nil {
		return l
	}
	return newLoaders(r.App, LoaderOptions{})
}

// userEdge is the user with id as the caller may see them; a user who is gone is shown
// by id alone.
func (r *Resolver) userEdge(ctx context.Context, id string) (*model.User, error) {
	uid, err := parseID("userId", id)
	if err != nil {
		return nil, err
	}
	u, err := r.load(ctx).users.Load(ctx, uid)
	if err != nil {
		return nil, err
	}
	if u == nil {
		return userToModel(domain.User{ID: uid, Role: domain.RoleUser}, viewer(ctx)), nil
	}
	return userToModel(*u, viewer(ctx)), nil
}

// shopEdge is the shop with id (through the shop cache); nil when it is gone.
func (r *Resolver) shopEdge(ctx context.Context, id string) (*model.Shop, error) {
	sid, err := parseID("shopId", id)
	if err != nil {
		return nil, err
	}
	s, err := r.load(ctx).shops.Load(ctx, sid)
	if err != nil || s == nil {
		return nil, err
	}
	return shopToModel(*s), nil
}

// shopTypeEdge is the shop type with id; nil when it is gone.
func (r *Resolver) shopTypeEdge(ctx context.Context, id string) (*model.ShopType, error) {
	tid, err := parseID("typeId", id)
	if err != nil {
		return nil, err
	}
	t, err := r.load(ctx).shopTypes.Load(ctx, tid)
	if err != nil || t == nil {
		return nil, err
	}
	m := shopTypeToModel(*t)
	return &m, nil
}

// imagesEdge is the images at refs, with the sizes and types the server knows: those of
// every note and shop of a level are read together (one look-up of the uploads).
func (r *Resolver) imagesEdge(ctx context.Context, refs []string) ([]model.Image, error) {
	l := r.load(ctx)
	thunks := make([]func() (domain.Image, error), len(refs))
	for i, ref := range refs {
		thunks[i] = l.images.LoadThunk(ctx, ref)
	}
	out := make([]model.Image, len(refs))
	for i, thunk := range thunks {
		img, err := thunk()
		if err != nil {
			return nil, err
		}
		out[i] = imageToModel(img)
	}
	return out, nil
}

// voucherEdge is the voucher with id; NOT_FOUND when it is gone.
func (r *Resolver) voucherEdge(ctx context.Context, id string) (*model.Voucher, error) {
	vid, err := parseID("voucherId", id)
	if err != nil {
		return nil, err
	}
	v, err := r.load(ctx).vouchers.Load(ctx, vid)
	if err != nil {
		return nil, err
	}
	if v == nil {
		return nil, domain.Errorf(domain.CodeNotFound, "voucher %d is gone", vid)
	}
	return voucherToModel(*v), nil
}

// shopVouchersEdge lists the shop's vouchers.
func (r *Resolver) shopVouchersEdge(ctx context.Context, shopID string) ([]model.Voucher, error) {
	sid, err := parseID("shopId", shopID)
	if err != nil {
		return nil, err
	}
	vs, err := r.load(ctx).shopVouchers.Load(ctx, sid)
	if err != nil {
		return nil, err
	}
	out := make([]model.Voucher, len(vs))
	for i, v := range vs {
		out[i] = *voucherToModel(v)
	}
	return out, nil
}

// blogsEdge pages through a shop's notes (byShop) or an author's, newest first. A first
// page comes through the operation's loaders, batched with the first pages of the
// other shops (or authors) of the answer; later pages are read one by one.
func (r *Resolver) blogsEdge(ctx context.Context, byShop bool, id string, first *int, after *string) (*model.BlogConnection, error) {
	kind, field, cursorOf := userBlogCursor, "userId", userBlogCursorOf
	if byShop {
		kind, field, cursorOf = shopBlogCursor, "shopId", shopBlogCursorOf
	}
	pid, err := parseID(field, id)
	if err != nil {
		return nil, err
	}
	before, err := decodeCursor(kind, after)
	if err != nil {
		return nil, err
	}
	p := viewer(ctx)
	var page notes.BlogPage
	switch {
	case before > 0 && byShop:
		page, err = r.App.Queries.Blogs.BlogsOfShop(ctx, p.UserID, pid, deref(first), before)
	case before > 0:
		page, err = r.App.Queries.Blogs.BlogsOfUser(ctx, p.UserID, pid, deref(first), before)
	default:
		var size int
		if size, err = r.App.Queries.Blogs.PageSize(deref(first)); err != nil {
			return nil, err
		}
		loader := r.load(ctx).userBlogs
		if byShop {
			loader = r.load(ctx).shopBlogs
		}
		var views []notes.BlogView
		if views, err = loader.Load(ctx, blogPageKey{pid, size}); err == nil {
			page.Blogs = views
			if len(views) > size {
				page.Blogs, page.HasNextPage = views[:size], true
			}
		}
	}
	if err != nil {
		return nil, err
	}
	return blogConnection(page, p, cursorOf), nil
}

// orderRef names an order for its payments' loader: its buyer, and its shop (through
// the voucher, cached, also for orders written before they recorded it).
func (r *Resolver) orderRef(ctx context.Context, o *model.VoucherOrder) (orderRef, error) {
	id, err := parseID("orderId", o.ID)
	if err != nil {
		return orderRef{}, err
	}
	uid, err := parseID("userId", o.UserID)
	if err != nil {
		return orderRef{}, err
	}
	ref := orderRef{id: id, userID: uid, status: domain.OrderStatus(o.Status)}
	if ref.status == domain.OrderPending {
		return ref, nil // no payment yet, whoever asks
	}
	v, err := r.voucherEdge(ctx, o.VoucherID)
	if err != nil {
		return orderRef{}, err
	}
	if ref.shopID, err = parseID("shopId", v.ShopID); err != nil {
		return orderRef{}, err
	}
	return ref, nil
}
