package service_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/testsupport"
)

// newUpcomingSale creates a flash sale of shop 1 beginning after begins, as the admin; it
// returns its id.
func newUpcomingSale(t *testing.T, admin testsupport.GraphQLClient, title string, begins time.Duration) string {
	t.Helper()
	begin := time.Now().Add(begins)
	var out struct{ CreateFlashSale struct{ ID string } }
	admin.Do(t, `mutation($in: CreateFlashSaleInput!) { createFlashSale(input: $in) { id } }`, map[string]any{"in": map[string]any{
		"shopId": "1", "title": title, "payValue": 990, "actualValue": 2000, "stock": 10,
		"beginTime": begin.Format(time.RFC3339), "endTime": begin.Add(time.Hour).Format(time.RFC3339),
	}}).Decode(t, &out)
	return out.CreateFlashSale.ID
}

// TestSaleReminderInTheBrowser: in Chromium, a user presses Remind me on a shop's sale
// that begins within SALE_REMINDER_BEFORE; the toggle reads Reminder set, the bell goes
// from 0 to 1 without a reload, and the inbox shows the reminder naming the sale and
// linking to its shop. A reminder of a later sale is set and taken back, and after a
// reload both toggles stand as left, on the shop's page and in deals near me. The shop's
// merchant sees one reminder of the first sale and none of the other on the board's list
// of their sales and on the shop's page; the user sees no counts.
func TestSaleReminderInTheBrowser(t *testing.T) {
	t.Parallel()
	node, dir := browserTools(t)
	base, admin := startServe(t, "13900001030", "SALE_REMINDER_BEFORE=30m", "SALE_REMINDER_INTERVAL=1s")
	m := login(t, admin, "13900001031")
	var owned struct{ SetShopOwner struct{ ID string } }
	admin.Do(t, `mutation($u: ID!) { setShopOwner(shopId: "1", userId: $u) { id } }`, map[string]any{"u": m.User.ID}).Decode(t, &owned)
	m.User.Role = "MERCHANT"
	merchant, err := json.Marshal(map[string]any{"accessToken": m.AccessToken, "refreshToken": m.RefreshToken,
		"user": map[string]string{"id": m.User.ID, "nickName": m.User.NickName, "role": m.User.Role}})
	if err != nil {
		t.Fatal(err)
	}
	const title = "十分钟后开抢"
	soon := newUpcomingSale(t, admin, title, 10*time.Minute)
	later := newUpcomingSale(t, admin, "两小时后开抢", 2*time.Hour)
	out := runNode(t, node, dir, "reminders.mjs", base, "1", "30.316078", "120.149192", soon, title, later, "13900001032", string(merchant), screenshots(t))
	var seen struct {
		Before, Badge                     string
		Shown                             []string
		NotReloaded                       bool
		SoonLabelBefore, SoonLabelAfter   string
		LaterSet, LaterCanceled           string
		SoonAfterReload, LaterAfterReload string
		Reminders                         int
		Text, Href                        string
		DealSoon, DealLater               string
		BoardSoon, BoardLater, ShopSoon   string
		UserCounts                        int
	}
	if err := json.Unmarshal(out, &seen); err != nil {
		t.Fatalf("browser answered %q: %v", out, err)
	}
	t.Logf("the bell showed %v; the inbox: %q", seen.Shown, seen.Text)
	if seen.SoonLabelBefore != "开售提醒" || seen.SoonLabelAfter != "已设提醒" {
		t.Errorf("the toggle read %q, then %q after the click; want 开售提醒, then 已设提醒", seen.SoonLabelBefore, seen.SoonLabelAfter)
	}
	if seen.Before != "0" || seen.Badge != "1" || !slices.Equal(seen.Shown, []string{"0", "1"}) || !seen.NotReloaded {
		t.Errorf("the bell read %q, then %q (showing %v, not reloaded: %v); want 0, then 1 without a reload",
			seen.Before, seen.Badge, seen.Shown, seen.NotReloaded)
	}
	if seen.LaterSet != "已设提醒" || seen.LaterCanceled != "开售提醒" || seen.LaterAfterReload != "false" || seen.SoonAfterReload != "true" {
		t.Errorf("the later sale's toggle read %q, then %q after taking it back; after a reload later pressed=%s, soon pressed=%s; want it off, the first on",
			seen.LaterSet, seen.LaterCanceled, seen.LaterAfterReload, seen.SoonAfterReload)
	}
	if seen.Reminders != 1 || !strings.Contains(seen.Text, title) || seen.Href != "#/shop/1" {
		t.Errorf("the inbox listed %d reminders, reading %q and linking %q; want one naming %s, linking to shop 1", seen.Reminders, seen.Text, seen.Href, title)
	}
	if seen.DealSoon != "true" || seen.DealLater != "false" {
		t.Errorf("deals near me show the reminders pressed=%s and %s, want true and false", seen.DealSoon, seen.DealLater)
	}
	if seen.BoardSoon != "1" || seen.BoardLater != "0" || seen.ShopSoon != "1" || seen.UserCounts != 0 {
		t.Errorf("the merchant's counts: board %s and %s, shop page %s; the user sees %d counts; want 1, 0, 1 and none",
			seen.BoardSoon, seen.BoardLater, seen.ShopSoon, seen.UserCounts)
	}
}

// TestWaitlistOfferInTheBrowser: user A holds the one unit of a sale. In Chromium, B
// claims it and is answered sold out, joins the waitlist and sees position 1 in My
// waitlist. A cancels the order: B's bell rises without a reload, My waitlist shows the
// offer with a countdown that runs, and the inbox's offer links there; switched to
// Chinese by the header's button, the inbox shows the offer in Chinese. B accepts and gets
// the order (listed in My orders); the place is gone, and the sale has B's order alone.
func TestWaitlistOfferInTheBrowser(t *testing.T) {
	t.Parallel()
	node, dir := browserTools(t)
	base, admin := startServe(t, "13900001040")
	const title = "只剩一件"
	sale := newBrowserSale(t, admin, title, 1)
	a := testsupport.GraphQLClient{URL: admin.URL}
	a.Token = login(t, a, "13900001041").AccessToken
	var claimed struct{ ClaimVoucher struct{ OrderID string } }
	a.Do(t, `mutation($v: ID!) { claimVoucher(voucherId: $v) { orderId } }`, map[string]any{"v": sale}).Decode(t, &claimed)
	if s := waitOrder(t, a, claimed.ClaimVoucher.OrderID); s != "CREATED" {
		t.Fatalf("A's order is %s, want CREATED", s)
	}
	out := runNode(t, node, dir, "waitlist.mjs", base, "1", sale, title, "13900001042", a.Token, claimed.ClaimVoucher.OrderID, screenshots(t))
	var seen struct {
		Answer, JoinedPosition, Position, StatusBefore string
		BellBefore, BellAfter, Canceled                string
		StatusOffered                                  string
		Countdown                                      []string
		NotReloaded                                    bool
		OfferText, OfferHref                           string
		LangZh, OfferTextZh                            string
		Order, OrderStatus                             string
		PlacesAfter                                    int
		Orders                                         []string
	}
	if err := json.Unmarshal(out, &seen); err != nil {
		t.Fatalf("browser answered %q: %v", out, err)
	}
	t.Logf("the countdown read %v; the inbox: %q; in Chinese: %q", seen.Countdown, seen.OfferText, seen.OfferTextZh)
	if seen.Answer != "Sold out" || seen.JoinedPosition != "1" || seen.Position != "1" || seen.StatusBefore != "WAITING" {
		t.Errorf("the claim was answered %q; after joining position %q, My waitlist %q (%s); want Sold out, 1, 1, WAITING",
			seen.Answer, seen.JoinedPosition, seen.Position, seen.StatusBefore)
	}
	if seen.Canceled != "CANCELED" || seen.BellBefore != "0" || seen.BellAfter != "1" || !seen.NotReloaded {
		t.Errorf("A's cancel answered %q; B's bell %q, then %q (not reloaded: %v); want 0, then 1 without a reload",
			seen.Canceled, seen.BellBefore, seen.BellAfter, seen.NotReloaded)
	}
	// WAITLIST_OFFER_TTL (2m): the countdown starts under 0:02:00 and runs.
	if seen.StatusOffered != "OFFERED" || len(seen.Countdown) != 2 || !strings.HasPrefix(seen.Countdown[0], "0:0") ||
		seen.Countdown[0] > "0:02:00" || seen.Countdown[1] >= seen.Countdown[0] {
		t.Errorf("the offer showed %s with the countdown %v; want OFFERED, under 0:02:00 and running", seen.StatusOffered, seen.Countdown)
	}
	if !strings.Contains(seen.OfferText, title) || seen.OfferHref != "#/waitlist" {
		t.Errorf("the inbox's offer reads %q linking %q; want it naming %s, linking to My waitlist", seen.OfferText, seen.OfferHref, title)
	}
	// The line is put together in the page from the notification's facts: the sale's title
	// in corner brackets, then what the offer means.
	if wantZh := "「" + title + "」有一件退回的名额为你保留"; seen.LangZh != "zh-CN" || !strings.HasPrefix(seen.OfferTextZh, wantZh) {
		t.Errorf("in Chinese (html lang %q) the inbox's offer reads %q; want it to begin %q", seen.LangZh, seen.OfferTextZh, wantZh)
	}
	if seen.Order == "" || seen.Order == claimed.ClaimVoucher.OrderID || seen.PlacesAfter != 0 {
		t.Errorf("after accepting: order %q (%s), %d places left; want a new order and no place", seen.Order, seen.OrderStatus, seen.PlacesAfter)
	}
	if !slices.ContainsFunc(seen.Orders, func(s string) bool { return strings.Contains(s, title) }) {
		t.Errorf("My orders lists %v, want the order of %s", seen.Orders, title)
	}
	if seen.OrderStatus != "CREATED" && seen.OrderStatus != "PAID" {
		t.Errorf("B's order %s is %s, want CREATED", seen.Order, seen.OrderStatus)
	}
	// The unit went to B, not back to the sale.
	var v struct{ Voucher struct{ Stock int } }
	admin.Do(t, `query($id: ID!) { voucher(id: $id) { stock } }`, map[string]any{"id": sale}).Decode(t, &v)
	if v.Voucher.Stock != 0 {
		t.Errorf("the sale has %d units left after B accepted, want 0", v.Voucher.Stock)
	}
}
