package entstore_test

import (
	"sync"
	"testing"
	"time"

	"github.com/dealspot/dealspot/adapters/entstore"
	"github.com/dealspot/dealspot/internal/testsupport"
)

// Sign-ins are kept in the database alike on every backend (the likes: see
// social_contract_test.go).

func TestSQLiteUserFacts(t *testing.T) {
	t.Parallel()
	runCases(t, openSQLite, userFactsCases)
}

func TestPostgresUserFacts(t *testing.T) {
	t.Parallel()
	testsupport.Require(t, testsupport.EnvPostgres)
	runCases(t, openPostgres, userFactsCases)
}

var userFactsCases = []storeCase{
	{"sign-ins add days to a month", testSignIns},
	{"concurrent sign-ins of one user keep every day", testSignInsConcurrent},
}

func testSignIns(t *testing.T, s *entstore.Store) {
	ctx := t.Context()
	r := s.SignIns()
	day := func(d int) time.Time { return time.Date(2030, time.January, d, 23, 0, 0, 0, time.UTC) }
	if m, err := r.Month(ctx, 9, day(1)); err != nil || m != 0 {
		t.Fatalf("a month never signed = %032b, %v", m, err)
	}
	var want uint32
	for _, d := range []int{1, 2, 3, 5, 31, 3} {
		want |= 1 << (d - 1)
		got, err := r.Sign(ctx, 9, day(d))
		if err != nil || got != want {
			t.Fatalf("sign day %d = %032b, %v; want %032b", d, got, err, want)
		}
	}
	if m, err := r.Month(ctx, 9, day(20)); err != nil || m != want {
		t.Fatalf("month = %032b, %v; want %032b", m, err, want)
	}
	if m, _ := r.Month(ctx, 9, time.Date(2030, time.February, 1, 0, 0, 0, 0, time.UTC)); m != 0 {
		t.Fatalf("another month = %032b", m)
	}
	if m, _ := r.Month(ctx, 10, day(1)); m != 0 {
		t.Fatalf("another user = %032b", m)
	}
}

func testSignInsConcurrent(t *testing.T, s *entstore.Store) {
	ctx := t.Context()
	r := s.SignIns()
	var wg sync.WaitGroup
	errs := make(chan error, 31)
	for d := 1; d <= 31; d++ {
		wg.Go(func() {
			_, err := r.Sign(ctx, 5, time.Date(2030, time.March, d, 8, 0, 0, 0, time.UTC))
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if m, err := r.Month(ctx, 5, time.Date(2030, time.March, 1, 0, 0, 0, 0, time.UTC)); err != nil || m != 1<<31-1 {
		t.Fatalf("month = %032b, %v; want every day", m, err)
	}
}
