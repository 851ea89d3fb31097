package graph

import (
	"context"

	"github.com/vikstrous/dataloadgen"

	"github.com/dealspot/dealspot/graph/model"
	"github.com/dealspot/dealspot/internal/app"
	"github.com/dealspot/dealspot/internal/app/favorites"
	"github.com/dealspot/dealspot/internal/domain"
)

const favoriteCursor = "fav"

// markLoader tells, per shop or voucher (kind), whether the caller marked it as a
// favourite, with one read per batch (none for an anonymous caller).
func markLoader(a *app.Application, kind domain.FavoriteKind, opts []dataloadgen.Option) *dataloadgen.Loader[int64, bool] {
	return dataloadgen.NewLoader(func(ctx context.Context, ids []int64) ([]bool, []error) {
		m, err := a.Queries.Favorites.Marked(ctx, viewer(ctx).UserID, kind, ids)
		if err != nil {
			return nil, []error{err}
		}
		out := make([]bool, len(ids))
		for i, id := range ids {
			out[i] = m[id]
		}
		return out, nil
	}, opts...)
}

// marked reads whether the caller marked the shop or voucher with id (as the schema
// writes it) through the operation's loaders.
func (r *Resolver) marked(ctx context.Context, kind domain.FavoriteKind, id string) (bool, error) {
	tid, err := parseID("id", id)
	if err != nil {
		return false, err
	}
	l := r.load(ctx).shopsMarked
	if kind == domain.FavoriteVoucher {
		l = r.load(ctx).vouchersMarked
	}
	return l.Load(ctx, tid)
}

// setFavorite marks (or, with mark false, unmarks) the caller's favourite and forgets
// what the operation's loaders read of it before, so the answer shows it as it is now.
func (r *Resolver) setFavorite(ctx context.Context, kind domain.FavoriteKind, field, rawID string, mark bool) (int64, error) {
	id, err := parseID(field, rawID)
	if err != nil {
		return 0, err
	}
	p, err := principal(ctx)
	if err != nil {
		return 0, err
	}
	t := domain.FavoriteTarget{Kind: kind, ID: id}
	if mark {
		err = r.App.Commands.Favorites.Favorite(ctx, p.UserID, t)
	} else {
		err = r.App.Commands.Favorites.Unfavorite(ctx, p.UserID, t)
	}
	if err != nil {
		return 0, err
	}
	l := r.load(ctx)
	if kind == domain.FavoriteShop {
		l.shopsMarked.Clear(id)
		l.shopFavoriteCounts.Clear(id)
	} else {
		l.vouchersMarked.Clear(id)
	}
	return id, nil
}

// favoriteConnection maps a page of the caller's favourites.
func favoriteConnection(page favorites.Page) *model.FavoriteConnection {
	es, info := edges(page.Favorites, page.HasNextPage,
		func(_ int, f domain.Favorite) string { return encodeCursor(favoriteCursor, f.ID) },
		func(c string, f domain.Favorite) model.FavoriteEdge {
			return model.FavoriteEdge{Cursor: c, Node: &model.Favorite{
				ID: formatID(f.ID), CreatedAt: f.CreatedAt,
				VoucherMark: f.Target.Kind == domain.FavoriteVoucher, TargetID: formatID(f.Target.ID),
			}}
		})
	return &model.FavoriteConnection{Edges: es, PageInfo: info}
}

// favoriteShop is the shop a favourite marks; nil for a voucher's, or a shop gone.
func (r *Resolver) favoriteShop(ctx context.Context, f *model.Favorite) (*model.Shop, error) {
	if f.VoucherMark {
		return nil, nil
	}
	return r.shopEdge(ctx, f.TargetID)
}

// favoriteVoucher is the voucher a favourite marks; nil for a shop's, or a voucher gone.
func (r *Resolver) favoriteVoucher(ctx context.Context, f *model.Favorite) (*model.Voucher, error) {
	if !f.VoucherMark {
		return nil, nil
	}
	vid, err := parseID("voucherId", f.TargetID)
	if err != nil {
		return nil, err
	}
	v, err := r.load(ctx).vouchers.Load(ctx, vid)
	if err != nil || v == nil {
		return nil, err
	}
	return voucherToModel(*v), nil
}
