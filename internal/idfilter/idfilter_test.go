package idfilter_test

import (
	"context"
	"errors"
	"log/slog"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/idfilter"
)

var quiet = slog.New(slog.DiscardHandler)

func TestFilterKnowsWhatExists(t *testing.T) {
	ids := []int64{1, 2, 3, 500}
	release := make(chan struct{})
	building := make(chan struct{})
	slow := false
	f := idfilter.New("shop", idfilter.Config{}, func(context.Context) ([]int64, error) {
		if slow {
			close(building)
			<-release
		}
		return ids, nil
	}, quiet)
	if !f.MayExist(42) {
		t.Fatal("before its first build the filter ruled out an id")
	}
	if n, err := f.Build(context.Background()); err != nil || n != 4 {
		t.Fatalf("build: %d, %v", n, err)
	}
	for _, id := range ids {
		if !f.MayExist(id) {
			t.Fatalf("id %d exists but the filter ruled it out", id)
		}
	}
	absent := 0
	for id := int64(10_000); id < 20_000; id++ {
		if !f.MayExist(id) {
			absent++
		}
	}
	if absent < 9_900 { // 0.1 % false positives expected
		t.Fatalf("only %d of 10,000 unknown ids ruled out", absent)
	}
	if f.Filtered() != int64(absent) {
		t.Fatalf("Filtered() = %d, want %d", f.Filtered(), absent)
	}

	// Created here (Add) and announced by another process.
	f.Add(7000)
	f.Announced("shop:7001")
	f.Announced("voucher:7002") // another cache's id
	f.Announced("shop:x")
	if !f.MayExist(7000) || !f.MayExist(7001) {
		t.Fatal("added or announced ids ruled out")
	}

	// An id created while a rebuild reads the database it does not see survives it.
	slow = true
	done := make(chan error)
	go func() { _, err := f.Build(context.Background()); done <- err }()
	<-building
	f.Add(8000)
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if !f.MayExist(8000) {
		t.Fatal("an id added during a rebuild was lost by it")
	}
	if f.MayExist(7000) && f.MayExist(7001) && f.MayExist(9_999_999) {
		t.Log("ids added before the rebuild are dropped unless the database has them (false positives aside)")
	}
}

func TestFilterRebuildsWhenAnnouncementsWereMissed(t *testing.T) {
	var calls int
	ids := []int64{1}
	built := make(chan struct{}, 10)
	f := idfilter.New("voucher", idfilter.Config{}, func(context.Context) ([]int64, error) {
		calls++
		built <- struct{}{}
		if calls == 3 {
			return nil, errors.New("database away")
		}
		return ids, nil
	}, quiet)
	if _, err := f.Build(context.Background()); err != nil {
		t.Fatal(err)
	}
	<-built
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go f.Run(ctx)
	ids = []int64{1, 99} // 99 was created elsewhere and its announcement missed
	f.Announced("")
	select {
	case <-built:
	case <-time.After(10 * time.Second):
		t.Fatal("no rebuild after announcements were missed")
	}
	deadline := time.Now().Add(10 * time.Second)
	for !f.MayExist(99) {
		if time.Now().After(deadline) {
			t.Fatal("the rebuild did not learn id 99")
		}
		time.Sleep(time.Millisecond)
	}
	// A rebuild that fails keeps what the filter had.
	f.Announced("")
	<-built
	time.Sleep(50 * time.Millisecond)
	if !f.MayExist(99) || !f.MayExist(1) {
		t.Fatal("a failed rebuild lost ids")
	}
}
