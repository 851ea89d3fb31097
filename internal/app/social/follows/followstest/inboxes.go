package followstest

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/dealspot/dealspot/internal/app/contracttest"
	"github.com/dealspot/dealspot/internal/app/social/follows"
)

// InboxesContract is what every follows.Inboxes must do, as its doc comments say, apart
// from losing its data (the adapters' own tests wipe their server). newInboxes returns
// inboxes capped at capacity entries each; inboxes of one test may share their server,
// as every case reads the inboxes of users of its own.
func InboxesContract(t *testing.T, newInboxes func(t *testing.T, capacity int) follows.Inboxes) {
	t.Helper()
	type inboxCase struct {
		name     string
		capacity int
		run      func(t *testing.T, in follows.Inboxes)
	}
	for _, c := range []inboxCase{
		{"equal scores order by blog id and pages skip by offset", 100, inboxOrderAndOffset},
		{"an inbox keeps its newest entries", 5, inboxKeepsNewest},
		{"a push reaches many inboxes", 10, inboxPushMany},
		{"a refill marks the inbox filled, a push does not", 3, inboxRefill},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			c.run(t, newInboxes(t, c.capacity))
		})
	}
}

// Entry is a feed entry of a blog with a score.
func Entry(blogID, score int64) follows.FeedEntry {
	return follows.FeedEntry{BlogID: blogID, Score: score}
}

func inboxOrderAndOffset(t *testing.T, in follows.Inboxes) {
	ctx := context.Background()
	one, two := contracttest.NewID(), contracttest.NewID()
	// Ids chosen so that plain decimal strings would sort differently (9 > 10).
	entries := []follows.FeedEntry{
		{BlogID: 9, Score: 1000}, {BlogID: 10, Score: 1000}, {BlogID: 100, Score: 1000},
		{BlogID: 2, Score: 2000}, {BlogID: 11, Score: 500},
	}
	for _, e := range entries {
		if err := in.Push(ctx, []int64{one, two}, e); err != nil {
			t.Fatal(err)
		}
	}
	// Pushing again changes nothing.
	if err := in.Push(ctx, []int64{one}, entries[0]); err != nil {
		t.Fatal(err)
	}
	all, err := in.Page(ctx, one, nil, 0, 10)
	if err != nil {
		t.Fatal(err)
	}
	want := []follows.FeedEntry{Entry(2, 2000), Entry(100, 1000), Entry(10, 1000), Entry(9, 1000), Entry(11, 500)}
	if !slices.Equal(all, want) {
		t.Fatalf("inbox = %v, want %v", all, want)
	}
	max := int64(1000)
	page, err := in.Page(ctx, one, &max, 2, 2)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(page, want[3:5]) {
		t.Fatalf("page after two entries of score 1000 = %v, want %v", page, want[3:5])
	}
	if err := in.Remove(ctx, two, []int64{10, 11, 12345}); err != nil {
		t.Fatal(err)
	}
	rest, _ := in.Page(ctx, two, nil, 0, 10)
	if !slices.Equal(rest, []follows.FeedEntry{Entry(2, 2000), Entry(100, 1000), Entry(9, 1000)}) {
		t.Fatalf("after Remove: %v", rest)
	}
}

func inboxKeepsNewest(t *testing.T, in follows.Inboxes) {
	ctx := context.Background()
	user := contracttest.NewID()
	for i := int64(1); i <= 8; i++ {
		if err := in.Push(ctx, []int64{user}, follows.FeedEntry{BlogID: i, Score: 1000 + i}); err != nil {
			t.Fatal(err)
		}
	}
	if err := in.Add(ctx, user, []follows.FeedEntry{{BlogID: 20, Score: 1}, {BlogID: 21, Score: 5000}}); err != nil {
		t.Fatal(err)
	}
	got, _ := in.Page(ctx, user, nil, 0, 100)
	var ids []int64
	for _, e := range got {
		ids = append(ids, e.BlogID)
	}
	if fmt.Sprint(ids) != "[21 8 7 6 5]" {
		t.Fatalf("inbox = %v, want the 5 newest [21 8 7 6 5]", ids)
	}
}

func inboxPushMany(t *testing.T, in follows.Inboxes) {
	ctx := context.Background()
	users := make([]int64, 1234)
	for i := range users {
		users[i] = contracttest.NewID()
	}
	if err := in.Push(ctx, users, follows.FeedEntry{BlogID: 99, Score: 42}); err != nil {
		t.Fatal(err)
	}
	for _, i := range []int{0, 499, 500, 1233} {
		if got, _ := in.Page(ctx, users[i], nil, 0, 10); !slices.Equal(got, []follows.FeedEntry{Entry(99, 42)}) {
			t.Fatalf("inbox of user %d of %d = %v", i+1, len(users), got)
		}
	}
}

// RefillInbox begins and ends a refill of the user's inbox with entries, wanting the
// inbox not filled between the two, and returns whether the refill marked it.
func RefillInbox(t *testing.T, in follows.Inboxes, userID int64, entries []follows.FeedEntry) bool {
	t.Helper()
	ctx := context.Background()
	token, err := in.BeginRefill(ctx, userID)
	if err != nil {
		t.Fatal(err)
	}
	if ok, _ := in.Filled(ctx, userID); ok {
		t.Fatal("an inbox being refilled counts as filled")
	}
	marked, err := in.Refill(ctx, userID, token, entries)
	if err != nil {
		t.Fatal(err)
	}
	return marked
}

func inboxRefill(t *testing.T, in follows.Inboxes) {
	ctx := context.Background()
	user, empty, twice := contracttest.NewID(), contracttest.NewID(), contracttest.NewID()
	// Fan-out pushing into an inbox does not make it filled.
	if err := in.Push(ctx, []int64{user}, Entry(1, 100)); err != nil {
		t.Fatal(err)
	}
	if ok, err := in.Filled(ctx, user); err != nil || ok {
		t.Fatalf("Filled after a push only = %v, %v; want false", ok, err)
	}
	if !RefillInbox(t, in, user, []follows.FeedEntry{Entry(2, 200), Entry(3, 300), Entry(4, 50), Entry(5, 400)}) {
		t.Fatal("Refill did not mark the inbox")
	}
	if ok, err := in.Filled(ctx, user); err != nil || !ok {
		t.Fatalf("Filled after Refill = %v, %v; want true", ok, err)
	}
	got, _ := in.Page(ctx, user, nil, 0, 10)
	if want := []follows.FeedEntry{Entry(5, 400), Entry(3, 300), Entry(2, 200)}; !slices.Equal(got, want) {
		t.Fatalf("refilled inbox = %v, want the 3 newest %v", got, want)
	}
	// A user following nobody is filled with nothing.
	if !RefillInbox(t, in, empty, nil) {
		t.Fatal("an empty refill does not mark the inbox")
	}
	// Two refills at once: the later one marks it.
	first, _ := in.BeginRefill(ctx, twice)
	second, _ := in.BeginRefill(ctx, twice)
	if marked, _ := in.Refill(ctx, twice, first, []follows.FeedEntry{Entry(7, 700)}); marked {
		t.Fatal("a refill overtaken by a later one marked the inbox")
	}
	if marked, _ := in.Refill(ctx, twice, second, []follows.FeedEntry{Entry(7, 700)}); !marked {
		t.Fatal("the later refill did not mark the inbox")
	}
}
