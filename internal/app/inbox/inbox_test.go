package inbox_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/app/inbox"
	"github.com/dealspot/dealspot/internal/app/inbox/inboxtest"
	"github.com/dealspot/dealspot/internal/app/social/notes"
	"github.com/dealspot/dealspot/internal/domain"
)

// Users of the tests: A writes the notes, the others act on them.
const (
	userA int64 = 1
	userB int64 = 2
	userC int64 = 3
	userD int64 = 4
)

// fakeBlogs, fakeUsers and fakeOrders answer from maps.
type fakeBlogs map[int64]domain.Blog

func (f fakeBlogs) BlogViews(_ context.Context, _ int64, ids []int64) ([]notes.BlogView, error) {
	var out []notes.BlogView
	for _, id := range ids {
		if b, ok := f[id]; ok {
			out = append(out, notes.BlogView{Blog: b})
		}
	}
	return out, nil
}

type fakeUsers map[int64]domain.User

func (f fakeUsers) UsersByIDs(_ context.Context, ids []int64) ([]domain.User, error) {
	var out []domain.User
	for _, id := range ids {
		if u, ok := f[id]; ok {
			out = append(out, u)
		}
	}
	return out, nil
}

type fakeOrders map[int64]domain.VoucherOrder

func (f fakeOrders) OrdersByIDs(_ context.Context, ids []int64) ([]domain.VoucherOrder, error) {
	var out []domain.VoucherOrder
	for _, id := range ids {
		if o, ok := f[id]; ok {
			out = append(out, o)
		}
	}
	return out, nil
}

// fakeAudience: followers by author, fans by shop, each ascending; reads counts the
// users read.
type fakeAudience struct {
	followers, fans map[int64][]int64
	reads           *int
}

func page(ids []int64, after int64, limit int) []int64 {
	var out []int64
	for _, id := range ids {
		if id > after && len(out) < limit {
			out = append(out, id)
		}
	}
	return out
}

func (f fakeAudience) FollowerIDs(_ context.Context, authorID, after int64, limit int) ([]int64, error) {
	out := page(f.followers[authorID], after, limit)
	*f.reads += len(out)
	return out, nil
}

func (f fakeAudience) Fans(_ context.Context, shopID, after int64, limit int) ([]int64, error) {
	out := page(f.fans[shopID], after, limit)
	*f.reads += len(out)
	return out, nil
}

// fakeSales: sale 70 "Half-price hotpot" of shop 7 "Hotpot King".
type fakeSales struct{}

func (fakeSales) VouchersByIDs(_ context.Context, ids []int64) ([]domain.Voucher, error) {
	if slices.Contains(ids, 70) {
		return []domain.Voucher{{ID: 70, ShopID: 7, Title: "Half-price hotpot"}}, nil
	}
	return nil, nil
}

func (fakeSales) ShopsByIDs(_ context.Context, ids []int64) ([]domain.Shop, error) {
	if slices.Contains(ids, 7) {
		return []domain.Shop{{ID: 7, Name: "Hotpot King"}}, nil
	}
	return nil, nil
}

// orderDeadline is the pay deadline of A's unpaid order 52.
var orderDeadline = time.Date(2030, 1, 1, 0, 15, 0, 0, time.UTC)

// fixture is an inbox on fakes: A's notes 10 ("Noodles") and 11, order 50 of A and 51
// of B.
type fixture struct {
	store    *inboxtest.MemStore
	svc      *inbox.Service
	audience fakeAudience
	// clock is the inbox's time: a test moves it.
	clock *time.Time
}

func newFixture(t *testing.T, keep int) fixture {
	t.Helper()
	return newFixtureWith(t, inbox.Config{Keep: keep}, nil)
}

// newFixtureWith is newFixture with cfg (Pages and MaxFanout set when left out), and
// warnings for the expiry warner.
func newFixtureWith(t *testing.T, cfg inbox.Config, warnings inbox.ExpiryWarnings) fixture {
	t.Helper()
	store := inboxtest.NewMemStore()
	if cfg.Pages == (domain.PageLimits{}) {
		cfg.Pages = domain.PageLimits{Default: 10, Max: 50}
	}
	if cfg.MaxFanout == (inbox.Fanout{}) {
		cfg.MaxFanout = inbox.Fanout{FollowedNote: 10_000, ShopSale: 10_000}
	}
	audience := fakeAudience{followers: map[int64][]int64{}, fans: map[int64][]int64{}, reads: new(int)}
	clock := new(time.Time)
	*clock = time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	svc, err := inbox.New(cfg, inbox.Deps{
		Audience: audience, Sales: fakeSales{}, Warnings: warnings,
		Store: store, Bus: inboxtest.NewMemBus(),
		Blogs: fakeBlogs{10: {ID: 10, UserID: userA, Title: "Noodles"}, 11: {ID: 11, UserID: userA, Title: "Tea"}},
		Users: fakeUsers{userA: {ID: userA, NickName: "Ann"}, userB: {ID: userB, NickName: "Bo"}, userC: {ID: userC, NickName: "Cai"},
			userD: {ID: userD, NickName: "Dan"}},
		Orders: fakeOrders{50: {ID: 50, UserID: userA, Status: domain.OrderPaid}, 51: {ID: 51, UserID: userB},
			52: {ID: 52, UserID: userA, Status: domain.OrderCreated, PayDeadline: &orderDeadline}},
		Now: func() time.Time { return *clock },
	})
	if err != nil {
		t.Fatal(err)
	}
	return fixture{store: store, svc: svc, audience: audience, clock: clock}
}

func (f fixture) handle(t *testing.T, events ...domain.NotificationEvent) {
	t.Helper()
	if err := f.svc.Writer.Handle(t.Context(), events); err != nil {
		t.Fatal(err)
	}
}

// list returns the user's notifications, newest first.
func (f fixture) list(t *testing.T, userID int64, unreadOnly bool) []inbox.View {
	t.Helper()
	page, err := f.svc.Queries.Notifications(t.Context(), userID, 50, 0, unreadOnly)
	if err != nil {
		t.Fatal(err)
	}
	return page.Items
}

func liked(actor, blog int64) domain.NotificationEvent {
	return domain.NotificationEvent{Kind: domain.NotifyBlogLiked, ActorID: actor, RecipientID: userA, BlogID: blog}
}

func commented(actor, blog, comment, replyTo, replyToUser int64) domain.NotificationEvent {
	return domain.NotificationEvent{Kind: domain.NotifyBlogCommented, ActorID: actor, BlogID: blog, CommentID: comment,
		ReplyToID: replyTo, ReplyToUserID: replyToUser}
}

func followed(actor, target int64) domain.NotificationEvent {
	return domain.NotificationEvent{Kind: domain.NotifyFollowed, ActorID: actor, RecipientID: target}
}

// summary is what a test compares of a notification.
func summary(v inbox.View) string {
	actor := int64(0)
	if v.Actor != nil {
		actor = v.Actor.ID
	}
	return fmt.Sprintf("%s by %d (%d) read=%v: %s", v.Kind, actor, v.ActorCount, v.Read, v.Text)
}

func summaries(vs []inbox.View) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = summary(v)
	}
	return out
}

func wantList(t *testing.T, what string, got []inbox.View, want ...string) {
	t.Helper()
	if s := summaries(got); !slices.Equal(s, want) {
		t.Fatalf("%s:\n got %q\nwant %q", what, s, want)
	}
}

func TestLikesOfOneNoteGroupWhileUnread(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 500)
	f.handle(t, liked(userB, 10))
	wantList(t, "B likes", f.list(t, userA, false), `BLOG_LIKED by 2 (1) read=false: Bo liked your note “Noodles”`)
	f.handle(t, liked(userC, 10))
	got := f.list(t, userA, false)
	wantList(t, "C likes too", got, `BLOG_LIKED by 3 (2) read=false: Cai and 1 other liked your note “Noodles”`)
	if got[0].Blog == nil || got[0].Blog.Blog.ID != 10 || got[0].Order != nil {
		t.Fatalf("the notification's note %+v, order %+v", got[0].Blog, got[0].Order)
	}
	// B unliked and liked again: counted once.
	f.handle(t, liked(userB, 10))
	wantList(t, "B likes again", f.list(t, userA, false), `BLOG_LIKED by 3 (2) read=false: Cai and 1 other liked your note “Noodles”`)
	// Another note is another notification, listed first.
	f.handle(t, liked(userB, 11))
	wantList(t, "B likes the other note", f.list(t, userA, false),
		`BLOG_LIKED by 2 (1) read=false: Bo liked your note “Tea”`,
		`BLOG_LIKED by 3 (2) read=false: Cai and 1 other liked your note “Noodles”`)
	// Once read, a new like starts a new notification.
	if n, err := f.svc.Commands.MarkRead(t.Context(), userA, 0); err != nil || n != 2 {
		t.Fatalf("MarkRead = %d, %v; want 2", n, err)
	}
	f.handle(t, liked(userD, 10), liked(userB, 10))
	wantList(t, "D and B like after reading", f.list(t, userA, false),
		`BLOG_LIKED by 2 (2) read=false: Bo and 1 other liked your note “Noodles”`,
		`BLOG_LIKED by 2 (1) read=true: Bo liked your note “Tea”`,
		`BLOG_LIKED by 3 (2) read=true: Cai and 1 other liked your note “Noodles”`)
}

func TestAFloodOfLikesInOneBatchIsOneWrite(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 500)
	var events []domain.NotificationEvent
	for i := range 200 {
		events = append(events, liked(int64(1000+i), 10))
	}
	f.handle(t, events...)
	got := f.list(t, userA, true)
	if len(got) != 1 || got[0].ActorCount != 200 || got[0].ActorID != 1199 || f.store.Adds() != 1 {
		t.Fatalf("after 200 likes in one batch: %q, %d writes; want one notification counting 200 by one write", summaries(got), f.store.Adds())
	}
}

func TestNobodyIsToldOfTheirOwnDoing(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 500)
	f.handle(t,
		liked(userA, 10),                      // A likes A's note
		commented(userA, 10, 100, 0, 0),       // A comments on it
		commented(userA, 10, 101, 100, userA), // and answers that comment
		followed(userA, userA),
		// Malformed: a like without a note, a follow without a target, an unknown kind.
		domain.NotificationEvent{Kind: domain.NotifyBlogLiked, ActorID: userB, RecipientID: userA},
		domain.NotificationEvent{Kind: domain.NotifyFollowed, ActorID: userB},
		domain.NotificationEvent{Kind: "WHATEVER", ActorID: userB, RecipientID: userA},
		// The server's doing: A's order was paid.
		domain.NotificationEvent{Kind: domain.NotifyOrderPaid, RecipientID: userA, OrderID: 50},
	)
	got := f.list(t, userA, false)
	wantList(t, "A's own doings", got, `ORDER_PAID by 0 (0) read=false: Your order 50 is paid: show its redemption code at the shop`)
	if got[0].Order == nil || got[0].Order.ID != 50 || got[0].Actor != nil {
		t.Fatalf("order notification's order %+v, actor %+v", got[0].Order, got[0].Actor)
	}
	// The same event again (a queue delivering twice) adds nothing.
	f.handle(t, domain.NotificationEvent{Kind: domain.NotifyOrderPaid, RecipientID: userA, OrderID: 50})
	if got := f.list(t, userA, false); len(got) != 1 {
		t.Fatalf("the payment told twice: %q", summaries(got))
	}
	// Someone else's order is not shown with A's notification.
	f.handle(t, domain.NotificationEvent{Kind: domain.NotifyOrderRefunded, RecipientID: userA, OrderID: 51})
	if got := f.list(t, userA, false); got[0].Kind != domain.NotifyOrderRefunded || got[0].Order != nil {
		t.Fatalf("refund of B's order told to A shows %+v", got[0].Order)
	}
}

func TestCommentsTellTheNoteAuthorAndTheUserAnswered(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 500)
	f.handle(t, commented(userB, 10, 100, 0, 0))
	wantList(t, "B comments on A's note", f.list(t, userA, false), `BLOG_COMMENTED by 2 (1) read=false: Bo commented on your note “Noodles”`)
	// C answers B: B hears of the reply, A of one more comment.
	f.handle(t, commented(userC, 10, 101, 100, userB))
	wantList(t, "C answers B (A)", f.list(t, userA, false), `BLOG_COMMENTED by 3 (2) read=false: Cai and 1 other commented on your note “Noodles”`)
	if got := f.list(t, userA, false); got[0].CommentID != 101 {
		t.Fatalf("grouped comment notification names comment %d, want the latest 101", got[0].CommentID)
	}
	wantList(t, "C answers B (B)", f.list(t, userB, false), `COMMENT_REPLIED by 3 (1) read=false: Cai replied to your comment on “Noodles”`)
	// D answers A's own comment: A hears of it once, as a reply.
	f.handle(t, commented(userD, 10, 103, 102, userA))
	wantList(t, "D answers A", f.list(t, userA, false),
		`COMMENT_REPLIED by 4 (1) read=false: Dan replied to your comment on “Noodles”`,
		`BLOG_COMMENTED by 3 (2) read=false: Cai and 1 other commented on your note “Noodles”`)
	// A comment on a note that is gone tells nobody.
	f.handle(t, commented(userB, 99, 104, 0, 0))
	if got := f.list(t, userA, false); len(got) != 2 {
		t.Fatalf("a comment on a deleted note was told: %q", summaries(got))
	}
}

func TestSettingsTurnKindsOff(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 500)
	ctx := t.Context()
	s, err := f.svc.Queries.Settings(ctx, userA)
	if err != nil || s != domain.DefaultNotificationSettings() || s.FollowedNotes {
		t.Fatalf("settings of a new user = %+v, %v", s, err)
	}
	off := false
	if s, err = f.svc.Commands.UpdateSettings(ctx, userA, inbox.SettingsChange{Likes: &off}); err != nil || s.Likes || !s.Follows {
		t.Fatalf("UpdateSettings(likes off) = %+v, %v", s, err)
	}
	f.handle(t, liked(userB, 10), followed(userC, userA))
	wantList(t, "likes off", f.list(t, userA, false), `FOLLOWED by 3 (1) read=false: Cai started following you`)
	f.handle(t, followed(userD, userA), followed(userB, userA))
	wantList(t, "more followers", f.list(t, userA, false), `FOLLOWED by 2 (3) read=false: Bo and 2 others started following you`)
	if _, err := f.svc.Commands.UpdateSettings(ctx, 0, inbox.SettingsChange{}); !errors.Is(err, domain.ErrUnauthenticated) {
		t.Fatalf("UpdateSettings anonymously: %v", err)
	}
}

func TestTheInboxKeepsTheNewest(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 3)
	// Each round an order of A's is paid and one more user follows A: the follows'
	// notification keeps moving to the top, the orders' fall out.
	for i := range 10 {
		f.handle(t, domain.NotificationEvent{Kind: domain.NotifyOrderPaid, RecipientID: userA, OrderID: int64(200 + i)})
		f.handle(t, followed(int64(1000+i), userA))
	}
	got := f.list(t, userA, false)
	var orders []int64
	for _, v := range got {
		orders = append(orders, v.OrderID)
	}
	if !slices.Equal(orders, []int64{0, 209, 208}) || got[0].ActorCount != 10 {
		t.Fatalf("A keeps %q; want the 3 newest: the follows (10 users), orders 209 and 208", summaries(got))
	}
}

func TestMarkRead(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 500)
	ctx := t.Context()
	f.handle(t, liked(userB, 10))
	f.handle(t, liked(userB, 11))
	f.handle(t, followed(userB, userA))
	all := f.list(t, userA, false)
	if _, err := f.svc.Commands.MarkRead(ctx, userB, all[0].ID); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("B marks A's notification: %v, want NOT_FOUND", err)
	}
	if _, err := f.svc.Commands.MarkRead(ctx, 0, 0); !errors.Is(err, domain.ErrUnauthenticated) {
		t.Fatalf("marking anonymously: %v, want UNAUTHENTICATED", err)
	}
	// Up to the second: the second and the third.
	if n, err := f.svc.Commands.MarkRead(ctx, userA, all[1].ID); err != nil || n != 2 {
		t.Fatalf("MarkRead(up to the second) = %d, %v; want 2", n, err)
	}
	if n, err := f.svc.Queries.UnreadCount(ctx, userA); err != nil || n != 1 {
		t.Fatalf("UnreadCount = %d, %v; want 1", n, err)
	}
	if got := f.list(t, userA, true); len(got) != 1 || got[0].ID != all[0].ID {
		t.Fatalf("unread: %q", summaries(got))
	}
	if n, err := f.svc.Commands.MarkRead(ctx, userA, 0); err != nil || n != 1 {
		t.Fatalf("MarkRead(all) = %d, %v; want 1", n, err)
	}
}

func TestNotificationsPage(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 500)
	ctx := t.Context()
	for i := range 5 {
		f.handle(t, followed(userB, userA), domain.NotificationEvent{Kind: domain.NotifyOrderExpired, RecipientID: userA, OrderID: int64(60 + i)})
	}
	var seen []int64
	before := int64(0)
	for {
		page, err := f.svc.Queries.Notifications(ctx, userA, 2, before, false)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range page.Items {
			seen = append(seen, v.OrderID)
		}
		if !page.HasNextPage {
			break
		}
		before = page.Items[len(page.Items)-1].Seq
	}
	if !slices.Equal(seen, []int64{64, 63, 62, 61, 60, 0}) {
		t.Fatalf("pages of 2 = %v; want the orders newest first, then the follow", seen)
	}
	if _, err := f.svc.Queries.Notifications(ctx, userA, 51, 0, false); !errors.Is(err, domain.ErrBadInput) {
		t.Fatalf("a page of 51: %v, want BAD_USER_INPUT", err)
	}
	if _, err := f.svc.Queries.Notifications(ctx, 0, 0, 0, false); !errors.Is(err, domain.ErrUnauthenticated) {
		t.Fatalf("anonymous: %v, want UNAUTHENTICATED", err)
	}
}

func TestWatchPushesNewAndGrownNotifications(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 500)
	f.handle(t, liked(userB, 11)) // before the watch: not pushed
	ctx, cancel := context.WithCancel(t.Context())
	pushes, err := f.svc.Queries.Watch(ctx, userA)
	if err != nil {
		t.Fatal(err)
	}
	next := func(what string) inbox.View {
		t.Helper()
		select {
		case v := <-pushes:
			return v
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: no push", what)
			return inbox.View{}
		}
	}
	f.handle(t, liked(userB, 10), followed(userC, userB)) // B's follow is not A's
	if v := next("B's like"); summary(v) != `BLOG_LIKED by 2 (1) read=false: Bo liked your note “Noodles”` {
		t.Fatalf("first push %q", summary(v))
	}
	f.handle(t, liked(userC, 10))
	if v := next("C's like"); summary(v) != `BLOG_LIKED by 3 (2) read=false: Cai and 1 other liked your note “Noodles”` {
		t.Fatalf("second push %q", summary(v))
	}
	select {
	case v := <-pushes:
		t.Fatalf("an extra push %q", summary(v))
	case <-time.After(50 * time.Millisecond):
	}
	cancel()
	for range pushes { // closed once the watch ends
	}
	if _, err := f.svc.Queries.Watch(t.Context(), 0); !errors.Is(err, domain.ErrUnauthenticated) {
		t.Fatalf("anonymous watch: %v", err)
	}
}
