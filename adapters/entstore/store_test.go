package entstore_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/dealspot/dealspot/adapters/entstore"
	"github.com/dealspot/dealspot/internal/domain"
	"github.com/dealspot/dealspot/internal/testsupport"
)

func TestSQLite(t *testing.T) {
	t.Parallel()
	runCases(t, openSQLite, storeCases)
}

func TestPostgres(t *testing.T) {
	t.Parallel()
	testsupport.Require(t, testsupport.EnvPostgres) // skip once, not once per case
	runCases(t, openPostgres, storeCases)
}

func TestSQLiteInMemory(t *testing.T) {
	t.Parallel()
	for _, u := range []string{"sqlite::memory:", "sqlite://:memory:"} {
		t.Run(u, func(t *testing.T) {
			t.Parallel()
			s := openMigrated(t, u)
			shops := s.Shops()
			typ, err := shops.CreateShopType(t.Context(), domain.ShopType{Name: "美食", Sort: 1})
			if err != nil {
				t.Fatal(err)
			}
			// The schema and the row must still be there on the next statement: the
			// in-memory database lives in its one connection.
			types, err := shops.ShopTypes(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			if len(types) != 1 || types[0].ID != typ.ID {
				t.Fatalf("types = %+v, want the one created", types)
			}
		})
	}
}

func openMigrated(t *testing.T, url string) *entstore.Store {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s, err := entstore.Open(ctx, url)
	if err != nil {
		t.Fatalf("open %s: %v", url, err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("close: %v", err)
		}
	})
	if err := s.Migrations().Migrate(ctx); err != nil {
		t.Fatalf("migrate: %v", err)
	}
	return s
}

// openSQLite opens a migrated store on a fresh SQLite file.
func openSQLite(t *testing.T) *entstore.Store {
	return openMigrated(t, "sqlite://"+filepath.ToSlash(filepath.Join(t.TempDir(), "data", "dealspot.db")))
}

// openPostgres opens a migrated store on a fresh PostgreSQL database.
func openPostgres(t *testing.T) *entstore.Store { return openMigrated(t, testsupport.PostgresURL(t)) }

// everyStore names the stores a test runs on, by their opener.
var everyStore = map[string]func(t *testing.T) *entstore.Store{"sqlite": openSQLite, "postgres": openPostgres}

// onEveryStore runs fn once per store, in parallel, with the store's opener (PostgreSQL
// skipped, with its reason, when TEST_DATABASE_URL is unset).
func onEveryStore(t *testing.T, fn func(t *testing.T, open func(t *testing.T) *entstore.Store)) {
	for name, open := range everyStore {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if name == "postgres" {
				testsupport.Require(t, testsupport.EnvPostgres)
			}
			fn(t, open)
		})
	}
}

// storeCase is one case of a suite that every store must pass.
type storeCase struct {
	name string
	run  func(t *testing.T, s *entstore.Store)
}

// runCases runs the cases in parallel, each on a store of its own.
func runCases(t *testing.T, openStore func(t *testing.T) *entstore.Store, cases []storeCase) {
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.run(t, openStore(t))
		})
	}
}

var storeCases = []storeCase{
	{"ping and dialect", testPing},
	{"shop types are ordered by sort then id", testShopTypes},
	{"shop is created and read back", testShopCreateRead},
	{"shops page by id with a type filter; names are searched", testShopPaging},
	{"concurrent orders of one user for one voucher: exactly one wins", testOrderUniqueConcurrent},
	{"migration is idempotent and keeps data", testMigrateIdempotent},
	{"seed fills an empty database once", testSeed},
	{"concurrent seeds write once", testSeedConcurrent},
	{"users are created, found and given roles", testUsers},
	{"flash-sale voucher is written with its sale and read back", testFlashSaleVoucher},
	{"voucher input is checked", testVoucherInput},
	{"a flash sale's buckets are stored (0 as 1) and read back everywhere", testFlashSaleBuckets},
	{"a claim whose order id is another user's order is not created", testClaimWithTakenOrderID},
}

func testPing(t *testing.T, s *entstore.Store) {
	if err := s.Ping(t.Context()); err != nil {
		t.Fatal(err)
	}
	if d := s.Dialect(); d != "sqlite3" && d != "postgres" {
		t.Fatalf("Dialect() = %q", d)
	}
	if s.Client() == nil {
		t.Fatal("Client() = nil")
	}
}

func testMigrateIdempotent(t *testing.T, s *entstore.Store) {
	ctx := t.Context()
	typ := mustShopType(t, s, "KTV")
	sh, err := s.Shops().CreateShop(ctx, domain.Shop{Name: "开乐迪KTV", TypeID: typ.ID, Longitude: 120.149, Latitude: 30.324})
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := s.Migrations().Migrate(ctx); err != nil {
			t.Fatalf("migrate again: %v", err)
		}
	}
	got, err := s.Shops().Shop(ctx, sh.ID)
	if err != nil || got.Name != sh.Name {
		t.Fatalf("after migrations: %+v, %v", got, err)
	}
	if _, err := s.Shops().CreateShop(ctx, domain.Shop{Name: "second", TypeID: typ.ID}); err != nil {
		t.Fatalf("write after migrations: %v", err)
	}
}

func TestSQLiteFileSettings(t *testing.T) {
	t.Parallel()
	s := openMigrated(t, "sqlite://"+filepath.ToSlash(filepath.Join(t.TempDir(), "nested", "dir", "dealspot.db")))
	for pragma, want := range map[string]string{"journal_mode": "wal", "foreign_keys": "1", "busy_timeout": "5000"} {
		var got string
		if err := s.DB().QueryRowContext(t.Context(), "PRAGMA "+pragma).Scan(&got); err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("PRAGMA %s = %s, want %s", pragma, got, want)
		}
	}
}

func TestOpenRefusesWhatItCannotUse(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for _, u := range []string{
		"mysql://root@localhost/dealspot",
		"postgres://nobody@127.0.0.1:1/dealspot?sslmode=disable&connect_timeout=5",
	} {
		if s, err := entstore.Open(ctx, u); err == nil {
			_ = s.Close()
			t.Errorf("Open(%s) succeeded, want an error", u)
		}
	}
}

// A PostgreSQL pool keeps every connection a burst opened (up to its size) instead of
// closing what it cannot keep idle: a read flood must not open and close connections.
func TestPostgresPoolKeepsItsConnectionsOpen(t *testing.T) {
	t.Parallel()
	s, err := entstore.Open(context.Background(), testsupport.PostgresURL(t), entstore.MaxConns(24))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	db := s.DB()
	ctx := context.Background()
	burst := func() {
		done := make(chan error, 24)
		for range 24 {
			go func() {
				_, err := db.ExecContext(ctx, "SELECT pg_sleep(0.2)")
				done <- err
			}()
		}
		for range 24 {
			if err := <-done; err != nil {
				t.Fatal(err)
			}
		}
	}
	burst()
	opened := db.Stats().OpenConnections
	if idle := db.Stats().Idle; idle < 20 {
		t.Fatalf("after a burst of 24 the pool keeps %d idle connections, want them all (%d open)", idle, opened)
	}
	before := db.Stats().MaxIdleClosed
	burst()
	if closed := db.Stats().MaxIdleClosed - before; closed != 0 {
		t.Fatalf("a second burst closed %d connections it could not keep idle", closed)
	}
}
