package graph

import (
	"context"
	"sync"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vikstrous/dataloadgen"

	"github.com/dealspot/dealspot/internal/app"
	"github.com/dealspot/dealspot/internal/app/seckill"
	"github.com/dealspot/dealspot/internal/app/social/notes"
	"github.com/dealspot/dealspot/internal/domain"
)

// LoaderOptions shape the per-request dataloaders.
type LoaderOptions struct {
	// Wait is how long a loader gathers keys before it fetches them in one batch.
	Wait time.Duration
	// MaxBatch bounds the keys of one fetch (0: unbounded).
	MaxBatch int
}

// loaders batch the edges of one operation: every author, shop, shop type … asked for
// while the operation resolves one level of the graph is fetched with one call, and
// each is fetched once per operation. They live as long as the operation (a
// subscription's events share them), so a value read twice in one answer is the same.
type loaders struct {
	users        *dataloadgen.Loader[int64, *domain.User]
	shops        *dataloadgen.Loader[int64, *domain.Shop]
	shopTypes    *dataloadgen.Loader[int64, *domain.ShopType]
	vouchers     *dataloadgen.Loader[int64, *seckill.VoucherView]
	shopVouchers *dataloadgen.Loader[int64, []seckill.VoucherView]
	// followerCounts, followingCounts and blogCounts count per user.
	followerCounts  *dataloadgen.Loader[int64, int]
	followingCounts *dataloadgen.Loader[int64, int]
	blogCounts      *dataloadgen.Loader[int64, int]
	// followedByMe tells, per user, whether the caller follows them.
	followedByMe *dataloadgen.Loader[int64, bool]
	// shopBlogs and userBlogs load first pages of notes.
	shopBlogs *dataloadgen.Loader[blogPageKey, []notes.BlogView]
	userBlogs *dataloadgen.Loader[blogPageKey, []notes.BlogView]
	// blogComments and replies load first pages of comments.
	blogComments *dataloadgen.Loader[firstPageKey, []domain.Comment]
	replies      *dataloadgen.Loader[firstPageKey, []domain.Comment]
	// payments loads the payments of orders, those the caller may see.
	payments *dataloadgen.Loader[orderRef, []domain.Payment]
	// comments loads comments by id (those replies answer).
	comments *dataloadgen.Loader[int64, *domain.Comment]
	// images describes the images notes and shops show, by path or URL.
	images *dataloadgen.Loader[string, domain.Image]
	// shopsMarked and vouchersMarked tell, per shop or voucher, whether the caller
	// marked it as a favourite; shopFavoriteCounts counts who did, per shop.
	shopsMarked        *dataloadgen.Loader[int64, bool]
	vouchersMarked     *dataloadgen.Loader[int64, bool]
	shopFavoriteCounts *dataloadgen.Loader[int64, int]
	// vouchersReminded tells, per voucher, whether the caller asked to be reminded of
	// its sale; reminderCounts counts who did, for the sales the caller runs.
	vouchersReminded *dataloadgen.Loader[int64, bool]
	reminderCounts   *dataloadgen.Loader[int64, *int]
}

// orderRef names an order with what says who may see its payments.
type orderRef struct {
	id, userID, shopID int64
	status             domain.OrderStatus
}

type loadersKey struct{}

// newLoaders builds the loaders of one operation on a's queries.
func newLoaders(a *app.Application, o LoaderOptions) *loaders {
	opts := []dataloadgen.Option{dataloadgen.WithWait(o.Wait)}
	if o.MaxBatch > 0 {
		opts = append(opts, dataloadgen.WithBatchCapacity(o.MaxBatch))
	}
	blogComments, replies := commentLoaders(a, opts)
	return &loaders{
		followedByMe: dataloadgen.NewLoader(func(ctx context.Context, ids []int64) ([]bool, []error) {
			m, err := a.Queries.Follows.FollowedBy(ctx, viewer(ctx).UserID, ids)
			if err != nil {
				return nil, []error{err}
			}
			out := make([]bool, len(ids))
			for i, id := range ids {
				out[i] = m[id]
			}
			return out, nil
		}, opts...),
		payments: dataloadgen.NewLoader(func(ctx context.Context, refs []orderRef) ([][]domain.Payment, []error) {
			os := make([]domain.VoucherOrder, len(refs))
			for i, r := range refs {
				os[i] = domain.VoucherOrder{ID: r.id, UserID: r.userID, ShopID: r.shopID, Status: r.status}
			}
			m, err := a.Queries.OrderPayments.Of(ctx, actor(viewer(ctx)), os)
			if err != nil {
				return nil, []error{err}
			}
			out := make([][]domain.Payment, len(refs))
			for i, r := range refs {
				out[i] = m[r.id]
			}
			return out, nil
		}, opts...),
		shopsMarked:        markLoader(a, domain.FavoriteShop, opts),
		vouchersMarked:     markLoader(a, domain.FavoriteVoucher, opts),
		shopFavoriteCounts: countLoader(a.Queries.Favorites.ShopCounts, opts),
		vouchersReminded:   remindedLoader(a, opts),
		reminderCounts:     reminderCountLoader(a, opts),
		shopBlogs:          blogPages(a, true, opts),
		userBlogs:          blogPages(a, false, opts),
		followerCounts:     countLoader(a.Queries.People.FollowerCounts, opts),
		followingCounts:    countLoader(a.Queries.People.FollowingCounts, opts),
		blogCounts:         countLoader(a.Queries.People.BlogCounts, opts),
		blogComments:       blogComments,
		replies:            replies,
		comments:           dataloadgen.NewLoader(byKey(a.Queries.Comments.ByIDs), opts...),
		users:              dataloadgen.NewLoader(byKey(a.Queries.People.ByIDs), opts...),
		shops:              dataloadgen.NewLoader(byKey(a.Queries.Shops.ShopsByIDs), opts...),
		shopTypes: dataloadgen.NewLoader(byKey(func(ctx context.Context, _ []int64) (map[int64]domain.ShopType, error) {
			return a.Queries.Shops.ShopTypesByID(ctx)
		}), opts...),
		vouchers: dataloadgen.NewLoader(byKey(a.Queries.Vouchers.ByIDs), opts...),
		shopVouchers: dataloadgen.NewLoader(func(ctx context.Context, shopIDs []int64) ([][]seckill.VoucherView, []error) {
			m, err := a.Queries.Vouchers.OfShops(ctx, shopIDs)
			if err != nil {
				return nil, []error{err}
			}
			out := make([][]seckill.VoucherView, len(shopIDs))
			for i, id := range shopIDs {
				out[i] = m[id]
			}
			return out, nil
		}, opts...),
		images: dataloadgen.NewLoader(func(ctx context.Context, refs []string) ([]domain.Image, []error) {
			imgs, err := a.Queries.Images.Describe(ctx, refs)
			if err != nil {
				return nil, []error{err}
			}
			return imgs, nil
		}, opts...),
	}
}

// byKey adapts a batch read returning a map to a loader's fetch: a key the map lacks
// loads as nil (not found), not as an error.
func byKey[V any](fetch func(ctx context.Context, ids []int64) (map[int64]V, error)) func(context.Context, []int64) ([]*V, []error) {
	return func(ctx context.Context, ids []int64) ([]*V, []error) {
		m, err := fetch(ctx, ids)
		if err != nil {
			return nil, []error{err}
		}
		out := make([]*V, len(ids))
		for i, id := range ids {
			if v, ok := m[id]; ok {
				out[i] = &v
			}
		}
		return out, nil
	}
}

// operationLoaders builds an operation's loaders when a resolver first asks for them,
// so operations that follow no edge (a claim) build none.
type operationLoaders struct {
	once sync.Once
	app  *app.Application
	opts LoaderOptions
	l    *loaders
}

func (o *operationLoaders) get() *loaders {
	o.once.Do(func() { o.l = newLoaders(o.app, o.opts) })
	return o.l
}

// loadersFrom returns the operation's loaders (nil outside an operation).
func loadersFrom(ctx context.Context) *loaders {
	if o, ok := ctx.Value(loadersKey{}).(*operationLoaders); ok {
		return o.get()
	}
	return nil
}

// withLoaders gives every operation its own loaders, built on first use.
func withLoaders(a *app.Application, o LoaderOptions) graphql.OperationMiddleware {
	return func(ctx context.Context, next graphql.OperationHandler) graphql.ResponseHandler {
		return next(context.WithValue(ctx, loadersKey{}, &operationLoaders{app: a, opts: o}))
	}
}

// blogPageKey asks for the first page of a shop's or an author's notes.
type blogPageKey struct {
	id    int64
	first int
}

// blogPages loads first pages of notes of shops (byShop) or authors, those of one size
// with one query.
func blogPages(a *app.Application, byShop bool, opts []dataloadgen.Option) *dataloadgen.Loader[blogPageKey, []notes.BlogView] {
	return dataloadgen.NewLoader(func(ctx context.Context, keys []blogPageKey) ([][]notes.BlogView, []error) {
		bySize := map[int][]int64{}
		for _, k := range keys {
			bySize[k.first] = append(bySize[k.first], k.id)
		}
		pages := map[blogPageKey][]notes.BlogView{}
		for first, ids := range bySize {
			m, err := a.Queries.Blogs.FirstPages(ctx, viewer(ctx).UserID, byShop, ids, first)
			if err != nil {
				return nil, []error{err}
			}
			for _, id := range ids {
				pages[blogPageKey{id, first}] = m[id]
			}
		}
		out := make([][]notes.BlogView, len(keys))
		for i, k := range keys {
			out[i] = pages[k]
		}
		return out, nil
	}, opts...)
}
