package queue

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/ThreeDotsLabs/watermill/message/router/middleware"
)

func TestRetryingRetriesWithBackoffUntilItWorksOrMayNot(t *testing.T) {
	errBoom, errFinal := errors.New("boom"), errors.New("final")
	run := func(r retrying, fails int, failWith error, ctx context.Context) (attempts int, delays []time.Duration, err error) {
		var last time.Time
		h := r.middleware(func(*message.Message) ([]*message.Message, error) {
			now := time.Now()
			if attempts > 0 {
				delays = append(delays, now.Sub(last))
			}
			last = now
			attempts++
			if attempts <= fails {
				return nil, failWith
			}
			return nil, nil
		})
		msg := message.NewMessage("1", nil)
		msg.SetContext(ctx)
		_, err = h(msg)
		return attempts, delays, err
	}
	always := func(middleware.RetryParams) bool { return true }

	// Works at once: one attempt.
	r := retrying{maxRetries: 5, initial: 10 * time.Millisecond, max: 40 * time.Millisecond, shouldRetry: always}
	if n, _, err := run(r, 0, errBoom, context.Background()); n != 1 || err != nil {
		t.Fatalf("first attempt works: %d attempts, %v", n, err)
	}
	// Fails three times: four attempts, waits doubling from 10 ms, capped at 40 ms.
	n, delays, err := run(r, 3, errBoom, context.Background())
	if n != 4 || err != nil {
		t.Fatalf("three failures: %d attempts, %v", n, err)
	}
	for i, want := range []time.Duration{10 * time.Millisecond, 20 * time.Millisecond, 40 * time.Millisecond} {
		if delays[i] < want {
			t.Errorf("retry %d came after %v, want at least %v", i+1, delays[i], want)
		}
	}
	// At most maxRetries retries.
	r.maxRetries, r.max = 2, time.Millisecond
	if n, _, err := run(r, 100, errBoom, context.Background()); n != 3 || !errors.Is(err, errBoom) {
		t.Fatalf("bounded: %d attempts, %v", n, err)
	}
	// A failure shouldRetry refuses is not tried again.
	r.maxRetries = 5
	var asked []middleware.RetryParams
	r.shouldRetry = func(p middleware.RetryParams) bool { asked = append(asked, p); return !errors.Is(p.Err, errFinal) }
	if n, _, err := run(r, 100, errFinal, context.Background()); n != 1 || !errors.Is(err, errFinal) {
		t.Fatalf("refused retry: %d attempts, %v", n, err)
	}
	if len(asked) != 1 || asked[0].RetryNum != 0 {
		t.Fatalf("shouldRetry asked %+v", asked)
	}
	// A context that ends stops the waiting.
	r.shouldRetry, r.initial, r.max = always, time.Hour, time.Hour
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if n, _, err := run(r, 100, errBoom, ctx); n != 1 || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("context ended: %d attempts, %v", n, err)
	}
}
