package inboxtest

import (
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/app/contracttest"
	"github.com/dealspot/dealspot/internal/app/inbox"
)

// BusContract is what every inbox.Bus must do, as its doc comments say: a publish on
// one node signals the subscriptions of those users on every node, and no one else's;
// a canceled subscription hears nothing more. newNetwork returns a function making
// buses that reach one another (one per node).
func BusContract(t *testing.T, newNetwork func(t *testing.T) func() inbox.Bus) {
	t.Helper()
	t.Run("publishes reach the users' subscriptions on every node", func(t *testing.T) {
		t.Parallel()
		newBus := newNetwork(t)
		one, two := newBus(), newBus()
		ctx := t.Context()
		u, v, w := contracttest.NewID(), contracttest.NewID(), contracttest.NewID()
		subscribe := func(b inbox.Bus, userID int64) (<-chan struct{}, func()) {
			t.Helper()
			ch, cancel, err := b.Subscribe(ctx, userID)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(cancel)
			return ch, cancel
		}
		uThere, cancelU := subscribe(two, u)
		uHere, _ := subscribe(one, u)
		vThere, _ := subscribe(two, v)
		wThere, _ := subscribe(two, w)
		signalled := func(what string, ch <-chan struct{}) {
			t.Helper()
			select {
			case <-ch:
			case <-time.After(10 * time.Second):
				t.Fatalf("%s: no signal", what)
			}
		}
		quiet := func(what string, ch <-chan struct{}) {
			t.Helper()
			select {
			case <-ch:
				t.Fatalf("%s: signalled", what)
			default:
			}
		}
		if err := one.Publish(ctx, u, w); err != nil {
			t.Fatal(err)
		}
		signalled("u on the other node", uThere)
		signalled("u on the publishing node", uHere)
		signalled("w on the other node", wThere)
		quiet("v, not published", vThere)
		// Many publishes of one user: at least one signal, and none left over once
		// taken and the last publish is known to be through (v's signal after it).
		for range 5 {
			if err := one.Publish(ctx, u); err != nil {
				t.Fatal(err)
			}
		}
		if err := one.Publish(ctx, v); err != nil {
			t.Fatal(err)
		}
		signalled("v", vThere)
		signalled("u, five times published", uThere)
		signalled("u on the publishing node, five times published", uHere)
		cancelU()
		if err := one.Publish(ctx, u); err != nil {
			t.Fatal(err)
		}
		signalled("u's other subscription", uHere)
		quiet("u's canceled subscription", uThere)
	})
}
