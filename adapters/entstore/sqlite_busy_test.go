package entstore_test

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/domain"
)

// Many goroutines writing a SQLite file at once — single statements and transactions,
// mixed with reads — all succeed: the database being busy is waited out or retried in
// the store, never returned.
func TestSQLiteConcurrentWritersNeverSeeBusy(t *testing.T) {
	t.Parallel()
	url := "sqlite://" + filepath.ToSlash(filepath.Join(t.TempDir(), "busy.db"))
	s := openMigrated(t, url)
	// A second pool on the same file stands for another process (an admin command, a
	// second server) writing at the same time.
	other := openMigrated(t, url)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	const writers, rounds = 64, 15
	users := make([]int64, writers)
	for i := range users {
		u, err := s.Users().CreateUser(ctx, domain.User{Phone: fmt.Sprintf("1380000%04d", i)})
		if err != nil {
			t.Fatal(err)
		}
		users[i] = u.ID
	}
	shop, err := s.Shops().CreateShop(ctx, domain.Shop{Name: "shop", TypeID: mustShopType(t, s, "美食").ID, Longitude: 120.1, Latitude: 30.2})
	if err != nil {
		t.Fatal(err)
	}
	sale, err := s.Vouchers().CreateVoucher(ctx, domain.Voucher{ShopID: shop.ID, Title: "sale", PayValue: 1, ActualValue: 2,
		Kind: domain.VoucherFlashSale, Status: domain.VoucherOnSale,
		FlashSale: &domain.FlashSale{Stock: writers * rounds, BeginTime: time.Now().Add(-time.Hour), EndTime: time.Now().Add(time.Hour)}})
	if err != nil {
		t.Fatal(err)
	}
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		errs []error
	)
	fail := func(err error) {
		mu.Lock()
		defer mu.Unlock()
		if len(errs) < 10 {
			errs = append(errs, err)
		}
	}
	start := make(chan struct{})
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			me := users[w]
			s := s
			if w%2 == 1 {
				s = other
			}
			for r := range rounds {
				b, err := s.Blogs().CreateBlog(ctx, domain.Blog{ShopID: shop.ID, UserID: me, Title: fmt.Sprintf("b%d-%d", w, r), Content: "c", CreatedAt: time.Now()})
				if err != nil {
					fail(fmt.Errorf("create blog: %w", err))
					continue
				}
				if _, err := s.Blogs().SetLiked(ctx, b.ID, r, int64(r+1)); err != nil {
					fail(fmt.Errorf("set liked: %w", err))
				}
				if _, err := s.Follows().Follow(ctx, me, users[(w+r+1)%writers]); err != nil {
					fail(fmt.Errorf("follow: %w", err))
				}
				claim := domain.Claim{OrderID: int64(w*rounds + r + 1), UserID: me*1000 + int64(r), VoucherID: sale.ID, ClaimedAt: time.Now()}
				if _, err := s.Orders().WriteClaims(ctx, []domain.Claim{claim}, 15*time.Minute); err != nil {
					fail(fmt.Errorf("write claims: %w", err))
				}
				if _, err := s.Blogs().BlogsOfUser(ctx, me, 0, 5); err != nil {
					fail(fmt.Errorf("read blogs: %w", err))
				}
			}
		}()
	}
	close(start)
	wg.Wait()
	for _, err := range errs {
		t.Error(err)
	}
}

// A writer that holds a SQLite file longer than the busy timeout (another process, a long
// migration) delays the store's writes; they still succeed once it lets go.
func TestSQLiteWritesOutlastALongLock(t *testing.T) {
	t.Parallel()
	url := "sqlite://" + filepath.ToSlash(filepath.Join(t.TempDir(), "locked.db"))
	s := openMigrated(t, url)
	other := openMigrated(t, url)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	shop, err := s.Shops().CreateShop(ctx, domain.Shop{Name: "shop", TypeID: mustShopType(t, s, "美食").ID, Longitude: 120.1, Latitude: 30.2})
	if err != nil {
		t.Fatal(err)
	}
	sale, err := s.Vouchers().CreateVoucher(ctx, domain.Voucher{ShopID: shop.ID, Title: "sale", PayValue: 1, ActualValue: 2,
		Kind: domain.VoucherFlashSale, Status: domain.VoucherOnSale,
		FlashSale: &domain.FlashSale{Stock: 10, BeginTime: time.Now().Add(-time.Hour), EndTime: time.Now().Add(time.Hour)}})
	if err != nil {
		t.Fatal(err)
	}
	conn, err := other.DB().Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}
	const hold = 6 * time.Second // longer than the 5 s busy timeout
	released := make(chan error, 1)
	go func() {
		time.Sleep(hold)
		_, err := conn.ExecContext(ctx, "COMMIT")
		released <- err
	}()
	var wg sync.WaitGroup
	errs := make(chan error, 3)
	wg.Add(3)
	go func() {
		defer wg.Done()
		if _, err := s.Users().CreateUser(ctx, domain.User{Phone: "13811112222"}); err != nil {
			errs <- fmt.Errorf("create user: %w", err)
		}
	}()
	go func() {
		defer wg.Done()
		if _, err := s.Blogs().CreateBlog(ctx, domain.Blog{ShopID: shop.ID, UserID: 1, Title: "t", Content: "c", CreatedAt: time.Now()}); err != nil {
			errs <- fmt.Errorf("create blog: %w", err)
		}
	}()
	go func() {
		defer wg.Done()
		if _, err := s.Orders().WriteClaims(ctx, []domain.Claim{{OrderID: 1, UserID: 9, VoucherID: sale.ID, ClaimedAt: time.Now()}}, 15*time.Minute); err != nil {
			errs <- fmt.Errorf("write claims: %w", err)
		}
	}()
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if err := <-released; err != nil {
		t.Fatal(err)
	}
}
