package entstore_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"ariga.io/atlas/sql/migrate"
	atlaspg "ariga.io/atlas/sql/postgres"
	"ariga.io/atlas/sql/schema"
	atlassqlite "ariga.io/atlas/sql/sqlite"
	"entgo.io/ent/dialect"
	entsql "entgo.io/ent/dialect/sql"
	entschema "entgo.io/ent/dialect/sql/schema"

	"github.com/dealspot/dealspot/adapters/entstore"
	"github.com/dealspot/dealspot/adapters/entstore/internal/firstrelease"
	"github.com/dealspot/dealspot/adapters/entstore/internal/lastunversioned"
	entmigrate "github.com/dealspot/dealspot/ent/migrate"
	"github.com/dealspot/dealspot/internal/domain"
	"github.com/dealspot/dealspot/internal/testsupport"
)

// firstReleaseVersion is the baseline migration: the schema of the first release.
const firstReleaseVersion = "20261122024459"

// everyDatabase runs fn once per dialect on the URL of a fresh, empty database (a SQLite
// file, a PostgreSQL database), in parallel.
func everyDatabase(t *testing.T, fn func(t *testing.T, url string)) {
	t.Run("sqlite", func(t *testing.T) {
		t.Parallel()
		fn(t, "sqlite://"+filepath.ToSlash(filepath.Join(t.TempDir(), "dealspot.db")))
	})
	t.Run("postgres", func(t *testing.T) {
		t.Parallel()
		fn(t, testsupport.PostgresURL(t))
	})
}

func openStore(t *testing.T, url string) *entstore.Store {
	t.Helper()
	s, err := entstore.Open(t.Context(), url)
	if err != nil {
		t.Fatalf("open %s: %v", url, err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// exec runs a statement written with ? placeholders on either dialect.
func exec(t *testing.T, s *entstore.Store, query string, args ...any) {
	t.Helper()
	if _, err := s.DB().ExecContext(t.Context(), rebind(s, query), args...); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
}

func insertID(t *testing.T, s *entstore.Store, query string, args ...any) int64 {
	t.Helper()
	var id int64
	if err := s.DB().QueryRowContext(t.Context(), rebind(s, query+" RETURNING id"), args...).Scan(&id); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return id
}

func rebind(s *entstore.Store, q string) string {
	if s.Dialect() != dialect.Postgres {
		return q
	}
	for n := 1; strings.Contains(q, "?"); n++ {
		q = strings.Replace(q, "?", fmt.Sprintf("$%d", n), 1)
	}
	return q
}

// firstReleaseData is what a database of the first release held, inserted with the
// first release's columns.
type firstReleaseData struct{ shop, voucher, user, blog, order int64 }

func insertFirstReleaseData(t *testing.T, s *entstore.Store) firstReleaseData {
	now := time.Now().UTC().Truncate(time.Second)
	var d firstReleaseData
	typ := insertID(t, s, "INSERT INTO shop_types (created_at, updated_at, name, icon, sort) VALUES (?, ?, ?, ?, ?)", now, now, "美食", "", 1)
	d.shop = insertID(t, s, `INSERT INTO shops (created_at, updated_at, name, images, area, address, longitude, latitude, avg_price, sold, comments, score, open_hours, type_id)
		VALUES (?, ?, ?, '', '', '', ?, ?, ?, ?, ?, ?, '', ?)`, now, now, "老王烧烤", 120.1, 30.2, 80, 3, 8, 45, typ)
	d.user = insertID(t, s, "INSERT INTO users (created_at, updated_at, phone, nick_name, icon, role, blocked) VALUES (?, ?, ?, ?, '', 'USER', ?)",
		now, now, "13800000001", "老用户", false)
	d.voucher = insertID(t, s, `INSERT INTO vouchers (created_at, updated_at, title, sub_title, rules, pay_value, actual_value, kind, status, shop_id)
		VALUES (?, ?, ?, '', '', ?, ?, 'FLASH_SALE', 'ON_SALE', ?)`, now, now, "100元代金券", 8000, 10000, d.shop)
	exec(t, s, "INSERT INTO flash_sales (id, created_at, updated_at, stock, begin_time, end_time) VALUES (?, ?, ?, ?, ?, ?)",
		d.voucher, now, now, 10, now.Add(time.Hour), now.Add(2*time.Hour))
	d.order = 987654321
	exec(t, s, "INSERT INTO voucher_orders (id, created_at, updated_at, user_id, voucher_id, status) VALUES (?, ?, ?, ?, ?, 'CREATED')",
		d.order, now, now, d.user, d.voucher)
	d.blog = insertID(t, s, "INSERT INTO blogs (created_at, updated_at, shop_id, user_id, title, images, content, liked, comments) VALUES (?, ?, ?, ?, ?, '', ?, ?, ?)",
		now, now, d.shop, d.user, "好吃", "推荐烤串", 2, 0)
	return d
}

// checkFirstReleaseData checks that the first release's rows survived the upgrade and
// read back through the repositories, with the new columns' values filled in.
func checkFirstReleaseData(t *testing.T, s *entstore.Store, d firstReleaseData) {
	t.Helper()
	ctx := t.Context()
	sh, err := s.Shops().Shop(ctx, d.shop)
	if err != nil {
		t.Fatalf("shop after upgrade: %v", err)
	}
	if sh.Name != "老王烧烤" || sh.Score != 45 || sh.Comments != 8 {
		t.Errorf("shop after upgrade = %+v", sh)
	}
	var ratingCount, ratingSum int
	if err := s.DB().QueryRowContext(ctx, rebind(s, "SELECT rating_count, rating_sum FROM shops WHERE id = ?"), d.shop).Scan(&ratingCount, &ratingSum); err != nil {
		t.Fatal(err)
	}
	if ratingCount != 8 || ratingSum != 36 { // 8 reviews of 4.5 stars
		t.Errorf("shop's ratings after upgrade: count %d sum %d, want 8 and 36 (its reviews count as ratings of its score)", ratingCount, ratingSum)
	}
	v, err := s.Vouchers().Voucher(ctx, d.voucher)
	if err != nil {
		t.Fatalf("voucher after upgrade: %v", err)
	}
	if v.Title != "100元代金券" || v.FlashSale == nil || v.FlashSale.Stock != 10 || v.FlashSale.Buckets != 1 {
		t.Errorf("voucher after upgrade = %+v, sale %+v; want its sale in one bucket", v, v.FlashSale)
	}
	var status, kind string
	var qty int
	if err := s.DB().QueryRowContext(ctx, rebind(s, "SELECT status, kind, quantity FROM voucher_orders WHERE id = ?"), d.order).Scan(&status, &kind, &qty); err != nil {
		t.Fatal(err)
	}
	if status != "CREATED" || kind != "FLASH_SALE" || qty != 1 {
		t.Errorf("order after upgrade: %s %s ×%d", status, kind, qty)
	}
	var nick, gender, title string
	if err := s.DB().QueryRowContext(ctx, rebind(s, "SELECT nick_name, gender FROM users WHERE id = ?"), d.user).Scan(&nick, &gender); err != nil {
		t.Fatal(err)
	}
	if err := s.DB().QueryRowContext(ctx, rebind(s, "SELECT title FROM blogs WHERE id = ?"), d.blog).Scan(&title); err != nil {
		t.Fatal(err)
	}
	if nick != "老用户" || gender != "UNKNOWN" || title != "好吃" {
		t.Errorf("user %q (%s), blog %q after upgrade", nick, gender, title)
	}
	// New rows go after the old ones.
	if _, err := s.Shops().CreateShopType(ctx, shopType("KTV")); err != nil {
		t.Errorf("write after upgrade: %v", err)
	}
}

// schemaChanges returns what would turn got's schema into want's (nothing when equal).
func schemaChanges(t *testing.T, got, want *entstore.Store) []schema.Change {
	t.Helper()
	inspect := func(s *entstore.Store) (migrate.Driver, *schema.Schema) {
		var (
			drv migrate.Driver
			err error
		)
		if s.Dialect() == dialect.Postgres {
			drv, err = atlaspg.Open(s.DB())
		} else {
			drv, err = atlassqlite.Open(s.DB())
		}
		if err != nil {
			t.Fatal(err)
		}
		sc, err := drv.InspectSchema(t.Context(), "", nil)
		if err != nil {
			t.Fatal(err)
		}
		return drv, sc
	}
	drv, g := inspect(got)
	_, w := inspect(want)
	w.Name = g.Name
	changes, err := drv.SchemaDiff(g, w)
	if err != nil {
		t.Fatal(err)
	}
	return changes
}

// headSchema opens a fresh database of the same dialect migrated to the latest version.
func headSchema(t *testing.T, like *entstore.Store) *entstore.Store {
	url := "sqlite://" + filepath.ToSlash(filepath.Join(t.TempDir(), "head.db"))
	if like.Dialect() == dialect.Postgres {
		url = testsupport.PostgresURL(t)
	}
	s := openStore(t, url)
	if err := s.Migrations().Migrate(t.Context()); err != nil {
		t.Fatal(err)
	}
	return s
}

func TestMigrateUpgradesFirstRelease(t *testing.T) {
	t.Parallel()
	everyDatabase(t, func(t *testing.T, url string) {
		s := openStore(t, url)
		ctx := t.Context()
		if err := s.Migrations().MigrateUpTo(ctx, firstReleaseVersion); err != nil {
			t.Fatalf("migrate to the first release: %v", err)
		}
		d := insertFirstReleaseData(t, s)
		if err := s.Migrations().CheckMigrated(ctx); !errors.Is(err, entstore.ErrSchemaOutOfDate) {
			t.Fatalf("CheckMigrated at the first release = %v, want ErrSchemaOutOfDate", err)
		}
		if err := s.Migrations().Migrate(ctx); err != nil {
			t.Fatalf("migrate to the latest version: %v", err)
		}
		if err := s.Migrations().CheckMigrated(ctx); err != nil {
			t.Fatalf("CheckMigrated after migrating: %v", err)
		}
		checkFirstReleaseData(t, s, d)
		if c := schemaChanges(t, s, headSchema(t, s)); len(c) > 0 {
			t.Errorf("upgraded schema differs from a fresh one by %d changes, first %T %+v", len(c), c[0], c[0])
		}
	})
}

// entCreate serialises ent's Schema.Create: it writes to the package-level tables it is
// given while it plans.
var entCreate sync.Mutex

func createLikeOldReleases(t *testing.T, s *entstore.Store, tables ...*entschema.Table) {
	t.Helper()
	entCreate.Lock()
	defer entCreate.Unlock()
	m, err := entschema.NewMigrate(entsql.OpenDB(s.Dialect(), s.DB()))
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Create(t.Context(), tables...); err != nil {
		t.Fatalf("Schema.Create: %v", err)
	}
}

// A database the first release created with ent's Schema.Create (no revisions) is
// adopted at the baseline version, then upgraded by the later files.
func TestMigrateAdoptsFirstReleaseDatabase(t *testing.T) {
	t.Parallel()
	everyDatabase(t, func(t *testing.T, url string) {
		s := openStore(t, url)
		ctx := t.Context()
		createLikeOldReleases(t, s, firstrelease.Tables...)
		d := insertFirstReleaseData(t, s)
		st, err := s.Migrations().Status(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if !st.Unversioned || len(st.Pending()) != len(st.Files) {
			t.Fatalf("status of an unversioned database = %+v", st)
		}
		if err := s.Migrations().CheckMigrated(ctx); !errors.Is(err, entstore.ErrSchemaOutOfDate) || !strings.Contains(err.Error(), "dealspot migrate") {
			t.Fatalf("CheckMigrated = %v, want ErrSchemaOutOfDate naming dealspot migrate", err)
		}
		if err := s.Migrations().Migrate(ctx); err != nil {
			t.Fatalf("migrate: %v", err)
		}
		if st, err = s.Migrations().Status(ctx); err != nil {
			t.Fatal(err)
		}
		for i, f := range st.Files {
			if f.Applied.IsZero() || f.Adopted != (i == 0) {
				t.Errorf("file %s: applied %v adopted %v; want every file applied, only the baseline adopted", f.Version, f.Applied, f.Adopted)
			}
		}
		checkFirstReleaseData(t, s, d)
		if c := schemaChanges(t, s, headSchema(t, s)); len(c) > 0 {
			t.Errorf("upgraded schema differs from a fresh one by %d changes, first %T %+v", len(c), c[0], c[0])
		}
	})
}

// A database made before versioned migrations on a server where pg_trgm was already
// installed (in the public schema, by its administrator) is adopted too: the files are
// replayed in a scratch schema that must still see the extension's operator classes.
func TestMigrateAdoptsDatabaseWithTrigramsInstalled(t *testing.T) {
	t.Parallel()
	s := openStore(t, testsupport.PostgresURL(t))
	exec(t, s, "CREATE EXTENSION IF NOT EXISTS pg_trgm")
	createLikeOldReleases(t, s, firstrelease.Tables...)
	if err := s.Migrations().Migrate(t.Context()); err != nil {
		t.Fatalf("migrate: %v", err)
	}
	if err := s.Migrations().CheckMigrated(t.Context()); err != nil {
		t.Errorf("CheckMigrated after adoption: %v", err)
	}
}

// A database of the last release before versioned migrations (Schema.Create of today's
// ent schema, its start-up fixes already run) is adopted whole: no file runs again, so
// the rating sums its shops have moved to since are kept.
func TestMigrateAdoptsLastUnversionedDatabase(t *testing.T) {
	t.Parallel()
	everyDatabase(t, func(t *testing.T, url string) {
		s := openStore(t, url)
		ctx := t.Context()
		createLikeOldReleases(t, s, lastunversioned.Tables...)
		typ, err := s.Shops().CreateShopType(ctx, shopType("美食"))
		if err != nil {
			t.Fatal(err)
		}
		sh := insertID(t, s, `INSERT INTO shops (created_at, updated_at, name, longitude, latitude, comments, score, rating_sum, rating_count, type_id)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, time.Now(), time.Now(), "老店", 120.0, 30.0, 5, 40, 7, 2, typ.ID)
		if err := s.Migrations().Migrate(ctx); err != nil {
			t.Fatalf("migrate: %v", err)
		}
		st, err := s.Migrations().Status(ctx)
		if err != nil {
			t.Fatal(err)
		}
		checkAdoptedUpToLastUnversioned(t, st)
		var count, sum int
		if err := s.DB().QueryRowContext(ctx, rebind(s, "SELECT rating_count, rating_sum FROM shops WHERE id = ?"), sh).Scan(&count, &sum); err != nil {
			t.Fatal(err)
		}
		if count != 2 || sum != 7 {
			t.Errorf("rating count %d sum %d after adoption, want 2 and 7 (untouched)", count, sum)
		}
		if err := s.Migrations().CheckMigrated(ctx); err != nil {
			t.Errorf("CheckMigrated after adoption: %v", err)
		}
	})
}

// A database of a release between the first and the last unversioned one (here: the
// first release's schema, to which a later release's start-up added the sessions tables)
// matches no version as it is; it is brought to the last unversioned release's schema as
// that release would have (its rating fix included, the first release's follow index that
// later schemas replaced dropped), then adopted whole.
func TestMigrateAdoptsDatabaseOfAnIntermediateRelease(t *testing.T) {
	t.Parallel()
	everyDatabase(t, func(t *testing.T, url string) {
		s := openStore(t, url)
		ctx := t.Context()
		createLikeOldReleases(t, s, firstrelease.Tables...)
		d := insertFirstReleaseData(t, s)
		createLikeOldReleases(t, s, entmigrate.SessionsTable, entmigrate.SessionTokensTable)
		if err := s.Migrations().Migrate(ctx); err != nil {
			t.Fatalf("migrate: %v", err)
		}
		st, err := s.Migrations().Status(ctx)
		if err != nil {
			t.Fatal(err)
		}
		checkAdoptedUpToLastUnversioned(t, st)
		checkFirstReleaseData(t, s, d)
		if c := schemaChanges(t, s, headSchema(t, s)); len(c) > 0 {
			t.Errorf("upgraded schema differs from a fresh one by %d changes, first %T %+v", len(c), c[0], c[0])
		}
	})
}

func TestMigrateRefusesSchemaNoVersionBuilds(t *testing.T) {
	t.Parallel()
	everyDatabase(t, func(t *testing.T, url string) {
		s := openStore(t, url)
		// A table Dealspot has, with a column no release had.
		exec(t, s, "CREATE TABLE shops (id integer PRIMARY KEY, name varchar(20), loyalty_points integer)")
		err := s.Migrations().Migrate(t.Context())
		if err == nil || !strings.Contains(err.Error(), "matches no migration version") {
			t.Fatalf("Migrate = %v, want a refusal: the schema matches no version", err)
		}
		st, serr := s.Migrations().Status(t.Context())
		if serr != nil || !st.Unversioned || len(st.Pending()) != len(st.Files) {
			t.Errorf("after the refusal: status %+v, %v; want nothing recorded", st, serr)
		}
		var n int
		q := "SELECT COUNT(*) FROM sqlite_master WHERE name = ?"
		if s.Dialect() == dialect.Postgres {
			q = "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = ?"
		}
		if err := s.DB().QueryRowContext(t.Context(), rebind(s, q), entstore.RevisionsTable).Scan(&n); err != nil || n != 0 {
			t.Errorf("the refusal left a %s table (%d, %v); want the database untouched", entstore.RevisionsTable, n, err)
		}
	})
}

// Two processes migrating one empty database at once: each file is applied once, and
// both succeed.
func TestMigrateConcurrentRunsApplyOnce(t *testing.T) {
	t.Parallel()
	everyDatabase(t, func(t *testing.T, url string) {
		const runs = 4
		stores := make([]*entstore.Store, runs)
		for i := range stores {
			stores[i] = openStore(t, url)
		}
		ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
		defer cancel()
		errs := make(chan error, runs)
		for _, s := range stores {
			go func() { errs <- s.Migrations().Migrate(ctx) }()
		}
		for range runs {
			if err := <-errs; err != nil {
				t.Errorf("a concurrent migrate failed: %v", err)
			}
		}
		var n int
		if err := stores[0].DB().QueryRowContext(ctx, "SELECT COUNT(*) FROM "+entstore.RevisionsTable).Scan(&n); err != nil {
			t.Fatal(err)
		}
		st, err := stores[0].Migrations().Status(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if n != len(st.Files) || len(st.Pending()) != 0 {
			t.Errorf("%d revisions recorded for %d files (%d pending)", n, len(st.Files), len(st.Pending()))
		}
	})
}

func TestCheckMigratedOnAnEmptyDatabase(t *testing.T) {
	t.Parallel()
	s := openStore(t, "sqlite::memory:")
	err := s.Migrations().CheckMigrated(t.Context())
	if !errors.Is(err, entstore.ErrSchemaOutOfDate) || !strings.Contains(err.Error(), "dealspot migrate") {
		t.Fatalf("CheckMigrated on an empty database = %v", err)
	}
	if err := s.Migrations().Migrate(t.Context()); err != nil {
		t.Fatal(err)
	}
	if err := s.Migrations().CheckMigrated(t.Context()); err != nil {
		t.Fatalf("after Migrate: %v", err)
	}
}

func shopType(name string) domain.ShopType { return domain.ShopType{Name: name, Sort: 1} }

// lastUnversionedVersion is the migration file that brings the first release to the last
// release before versioned migrations: a database of any of those releases is adopted up
// to it, and the files after it run.
const lastUnversionedVersion = "20261127001725"

func checkAdoptedUpToLastUnversioned(t *testing.T, st entstore.MigrationStatus) {
	t.Helper()
	for _, f := range st.Files {
		switch {
		case f.Version <= lastUnversionedVersion && !f.Adopted:
			t.Errorf("file %s was run (applied %v), want it adopted", f.Version, f.Applied)
		case f.Version > lastUnversionedVersion && (f.Adopted || f.Applied.IsZero()):
			t.Errorf("file %s: applied %v adopted %v; want it run after the adoption", f.Version, f.Applied, f.Adopted)
		}
	}
}

// Replies stored before comments kept the comment they answer get it from the
// migration that fills it: the latest earlier comment of their thread by the user they
// answer, or none.
func TestMigrateFillsTheCommentsRepliesAnswer(t *testing.T) {
	t.Parallel()
	everyDatabase(t, func(t *testing.T, url string) {
		s := openStore(t, url)
		ctx := t.Context()
		// The version that added comments.reply_to_id (0 for the rows before it).
		if err := s.Migrations().MigrateUpTo(ctx, "20261127135245"); err != nil {
			t.Fatal(err)
		}
		now := time.Now().UTC().Truncate(time.Second)
		comment := func(user, parent, replyToUser int64) int64 {
			return insertID(t, s, `INSERT INTO comments (created_at, updated_at, blog_id, user_id, parent_id, reply_to_user_id, content, replies)
				VALUES (?, ?, 1, ?, ?, ?, 'c', 0)`, now, now, user, parent, replyToUser)
		}
		top := comment(1, 0, 0)
		toTop := comment(2, top, 1)            // user 2 answers the top-level comment of user 1
		toReply := comment(3, top, 2)          // user 3 answers user 2's reply
		again := comment(1, top, 3)            // user 1 answers user 3
		laterByTwo := comment(2, top, 1)       // user 2 answers user 1: the latest by user 1 is again
		unknown := comment(4, top, 9)          // user 9 wrote nothing in the thread
		otherTop := comment(3, 0, 0)           // another thread
		otherThread := comment(1, otherTop, 3) // answers user 3 of its own thread only
		if err := s.Migrations().Migrate(ctx); err != nil {
			t.Fatal(err)
		}
		want := map[int64]int64{top: 0, toTop: top, toReply: toTop, again: toReply, laterByTwo: again, unknown: 0, otherTop: 0, otherThread: otherTop}
		for id, answered := range want {
			c, err := s.Comments().Comment(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if c.ReplyToID != answered {
				t.Errorf("comment %d answers %d after the migration, want %d", id, c.ReplyToID, answered)
			}
		}
	})
}
