package subscriptions

import (
	"context"
	"testing"
	"time"
)

func TestCloseStopsAndWaitsForEverySubscription(t *testing.T) {
	s := New()
	if !s.Begin() {
		t.Fatal("Begin on an open set = false")
	}
	stopped := make(chan struct{})
	s.OnStop(context.Background(), func() { close(stopped) })
	closed := make(chan struct{})
	go func() { s.Close(); close(closed) }()
	select {
	case <-stopped:
	case <-time.After(10 * time.Second):
		t.Fatal("Close did not stop the subscription")
	}
	select {
	case <-closed:
		t.Fatal("Close returned before the subscription was done")
	case <-time.After(50 * time.Millisecond):
	}
	s.Done()
	select {
	case <-closed:
	case <-time.After(10 * time.Second):
		t.Fatal("Close did not return after Done")
	}
	if s.Begin() {
		t.Fatal("Begin after Close = true")
	}
	s.Close() // a second Close returns at once
}

func TestOnStopFiresWhenItsContextEnds(t *testing.T) {
	s := New()
	ctx, cancel := context.WithCancel(context.Background())
	stopped := make(chan struct{})
	s.OnStop(ctx, func() { close(stopped) })
	cancel()
	select {
	case <-stopped:
	case <-time.After(10 * time.Second):
		t.Fatal("OnStop did not fire when its context ended")
	}
	s.Close()
}
