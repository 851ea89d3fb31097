package entstore_test

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/dealspot/dealspot/adapters/entstore"
	"github.com/dealspot/dealspot/internal/domain"
)

// A claim can arrive twice (at-least-once queues, the reconciler's republish) in one
// batch or in two, and a user can claim a sale twice: whatever the batches look like,
// one order row stands per claim and per user, and the stock is taken once (I1–I4).
func TestWriteClaimsToleratesDuplicates(t *testing.T) {
	t.Parallel()
	const stock = 10
	type batches = [][]int // each claim is an index into the test's claims
	for _, tc := range []struct {
		name    string
		batches batches
		// users[i] is the user of claim i (claims of one user share a number).
		users []int64
		// orders are the claims that end with an order row; the others have none.
		orders []int
		// duplicates[b] are the claims batch b reports as Duplicate.
		duplicates [][]int
	}{
		{name: "the same claim twice in one batch", batches: batches{{0, 0}}, users: []int64{1}, orders: []int{0}, duplicates: [][]int{nil}},
		{name: "the same claim in two batches", batches: batches{{0}, {0}}, users: []int64{1}, orders: []int{0}, duplicates: [][]int{nil, nil}},
		{name: "the same claim twice in each of two batches", batches: batches{{0, 1, 0}, {1, 0, 0}}, users: []int64{1, 2}, orders: []int{0, 1}, duplicates: [][]int{nil, nil}},
		{name: "a second claim of a user in the same batch", batches: batches{{0, 1}}, users: []int64{1, 1}, orders: []int{0}, duplicates: [][]int{{1}}},
		{name: "a second claim of a user in the next batch", batches: batches{{0}, {1}}, users: []int64{1, 1}, orders: []int{0}, duplicates: [][]int{nil, {1}}},
		{name: "a claim again beside a user's second claim and a new user", batches: batches{{0}, {0, 1, 2}}, users: []int64{1, 1, 2}, orders: []int{0, 2}, duplicates: [][]int{nil, {1}}},
	} {
		for name, open := range everyStore {
			t.Run(tc.name+"/"+name, func(t *testing.T) {
				t.Parallel()
				s := open(t)
				ctx := t.Context()
				v := newSale(t, s, stock)
				claims := make([]domain.Claim, len(tc.users))
				for i, u := range tc.users {
					claims[i] = domain.Claim{OrderID: int64(100 + i), UserID: u, VoucherID: v.ID, ClaimedAt: time.Now()}
				}
				for b, idx := range tc.batches {
					batch := make([]domain.Claim, len(idx))
					for i, k := range idx {
						batch[i] = claims[k]
					}
					res, err := s.Orders().WriteClaims(ctx, batch, 15*time.Minute)
					if err != nil {
						t.Fatalf("batch %d: %v", b, err)
					}
					var wantDup, wantCreated []int64
					for _, k := range idx {
						if slices.Contains(tc.duplicates[b], k) {
							wantDup = append(wantDup, claims[k].OrderID)
						} else {
							wantCreated = append(wantCreated, claims[k].OrderID)
						}
					}
					if got := orderIDs(res.Created); !slices.Equal(got, sorted(wantCreated)) {
						t.Fatalf("batch %d: created %v, want %v", b, got, sorted(wantCreated))
					}
					if got := orderIDs(res.Duplicate); !slices.Equal(got, sorted(wantDup)) {
						t.Fatalf("batch %d: duplicates %v, want %v", b, got, sorted(wantDup))
					}
					if len(res.NoStock)+len(res.IDTaken) != 0 {
						t.Fatalf("batch %d: no stock %v, id taken %v; want none", b, orderIDs(res.NoStock), orderIDs(res.IDTaken))
					}
				}
				for i, c := range claims {
					o, err := s.Orders().Order(ctx, c.OrderID)
					if slices.Contains(tc.orders, i) {
						if err != nil || o.UserID != c.UserID || o.VoucherID != v.ID || o.Status != domain.OrderCreated {
							t.Fatalf("order of claim %d: %+v, %v; want CREATED", i, o, err)
						}
					} else if !errors.Is(err, domain.ErrNotFound) {
						t.Fatalf("order of claim %d (a second claim of its user): %+v, %v; want none", i, o, err)
					}
				}
				counts, err := s.Orders().CountOrders(ctx, v.ID)
				if err != nil {
					t.Fatal(err)
				}
				left, err := s.Orders().SaleStock(ctx, v.ID)
				if err != nil {
					t.Fatal(err)
				}
				if want := int64(len(tc.orders)); counts.Created != want || counts.LiveUsers != want || left != stock-want {
					t.Fatalf("%d orders of %d users, stock %d; want %d orders, one per user, stock %d", counts.Created, counts.LiveUsers, left, want, stock-want)
				}
			})
		}
	}
}

// A voucher that costs nothing makes its orders PAID at once, each with a redemption
// code of its own; a priced one leaves them CREATED, due for payment, without a code.
func TestWriteClaimsPricesOrders(t *testing.T) {
	t.Parallel()
	for name, open := range everyStore {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			s := open(t)
			ctx := t.Context()
			paid := newSale(t, s, 5)
			free, err := s.Vouchers().CreateVoucher(ctx, domain.Voucher{ShopID: paid.ShopID, Title: "free", PayValue: 0, ActualValue: 2,
				Kind: domain.VoucherFlashSale, Status: domain.VoucherOnSale,
				FlashSale: &domain.FlashSale{Stock: 5, BeginTime: time.Now().Add(-time.Hour), EndTime: time.Now().Add(time.Hour)}})
			if err != nil {
				t.Fatal(err)
			}
			claimedAt := time.Now().Add(-time.Second).Truncate(time.Millisecond)
			claims := []domain.Claim{
				{OrderID: 1, UserID: 1, VoucherID: paid.ID, ClaimedAt: claimedAt},
				{OrderID: 2, UserID: 1, VoucherID: free.ID, ClaimedAt: claimedAt},
				{OrderID: 3, UserID: 2, VoucherID: free.ID, ClaimedAt: claimedAt},
			}
			res, err := s.Orders().WriteClaims(ctx, claims, 15*time.Minute)
			if err != nil || len(res.Created) != 3 {
				t.Fatalf("write: %+v, %v", res, err)
			}
			if res.Status[1] != domain.OrderCreated || res.Status[2] != domain.OrderPaid || res.Status[3] != domain.OrderPaid {
				t.Fatalf("statuses %v, want 1 CREATED, 2 and 3 PAID", res.Status)
			}
			o, err := s.Orders().Order(ctx, 1)
			if err != nil || o.Status != domain.OrderCreated || o.ShopID != paid.ShopID || o.Amount != paid.PayValue ||
				o.Kind != domain.VoucherFlashSale || o.RedemptionCode != "" || o.PayDeadline == nil ||
				!o.PayDeadline.Equal(domain.PayDeadline(claimedAt, 15*time.Minute)) || !o.CreatedAt.Equal(claimedAt) {
				t.Fatalf("priced order: %+v, %v", o, err)
			}
			codes := map[string]bool{}
			for _, id := range []int64{2, 3} {
				o, err := s.Orders().Order(ctx, id)
				if err != nil || o.Status != domain.OrderPaid || o.Amount != 0 || o.PayTime == nil || len(o.RedemptionCode) != domain.RedemptionCodeLen || o.PayDeadline != nil {
					t.Fatalf("free order %d: %+v, %v", id, o, err)
				}
				codes[o.RedemptionCode] = true
			}
			if len(codes) != 2 {
				t.Fatalf("two free orders share a redemption code")
			}
		})
	}
}

func newSale(t *testing.T, s *entstore.Store, stock int) domain.Voucher {
	t.Helper()
	ctx := t.Context()
	shop, err := s.Shops().CreateShop(ctx, domain.Shop{Name: "shop", TypeID: mustShopType(t, s, "美食").ID, Longitude: 120.1, Latitude: 30.2})
	if err != nil {
		t.Fatal(err)
	}
	v, err := s.Vouchers().CreateVoucher(ctx, domain.Voucher{ShopID: shop.ID, Title: "sale", PayValue: 1, ActualValue: 2,
		Kind: domain.VoucherFlashSale, Status: domain.VoucherOnSale,
		FlashSale: &domain.FlashSale{Stock: stock, BeginTime: time.Now().Add(-time.Hour), EndTime: time.Now().Add(time.Hour)}})
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func orderIDs(cs []domain.Claim) []int64 {
	ids := make([]int64, len(cs))
	for i, c := range cs {
		ids[i] = c.OrderID
	}
	return sorted(ids)
}

func sorted(ids []int64) []int64 {
	out := slices.Clone(ids)
	slices.Sort(out)
	return out
}
