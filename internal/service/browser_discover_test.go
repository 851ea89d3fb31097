package service_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// screenshots is docs/screenshots, where the browser checks write the screens.
func screenshots(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs("../../docs/screenshots")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestInboxBellInTheBrowser: in Chromium, user A writes a note and waits on the shop
// list; B, in a browser of their own, likes it, and A's bell goes from 0 to 1 without a
// reload (notificationAdded); C likes it too, and A's inbox shows one notification naming
// C "and 2" people; marking all read takes the bell back to 0 and the line's unread mark
// away. The access token then runs out and a request refreshes the session (a new
// socket); B comments and the bell shows 1 again. A setting changed in the inbox's panel
// holds after a reload.
func TestInboxBellInTheBrowser(t *testing.T) {
	t.Parallel()
	node, dir := browserTools(t)
	base, _ := startServe(t, "13900000990")
	out := runNode(t, node, dir, "inbox.mjs", base, "13900000991", "13900000992", "13900000993", screenshots(t))
	var seen struct {
		Before, Badge, After, UnreadAfterBoth string
		Refreshed                             bool
		AfterComment                          string
		BadgeBefore, BadgeAfter               int
		LikerB, LikerC, Text, Href            string
		Items, UnreadItems, UnreadItemsAfter  int
		Shown                                 []string
		NotReloaded                           bool
		FollowsAfterReload, LikesAfterReload  bool
	}
	if err := json.Unmarshal(out, &seen); err != nil {
		t.Fatalf("browser answered %q: %v", out, err)
	}
	t.Logf("the bell showed %v; the inbox: %q", seen.Shown, seen.Text)
	if seen.Before != "0" || seen.BadgeBefore != 0 {
		t.Errorf("before the like the bell showed %q with %d badges, want 0 and none", seen.Before, seen.BadgeBefore)
	}
	// 0; 1 after B's like (C's joins it); 0 once read; 1 after B's comment, pushed on the
	// socket the refreshed session opened — all on one page.
	if seen.Badge != "1" || !slices.Equal(seen.Shown, []string{"0", "1", "0", "1"}) || !seen.NotReloaded {
		t.Errorf("after B's like the badge read %q; the bell showed %v (the page not reloaded: %v), want 0, 1, 0, 1 without a reload",
			seen.Badge, seen.Shown, seen.NotReloaded)
	}
	if !seen.Refreshed || seen.AfterComment != "1" {
		t.Errorf("after the session was refreshed (%v) and B commented, the bell read %q, want 1", seen.Refreshed, seen.AfterComment)
	}
	// Grouped: one unread notification for both likes, the latest liker named.
	if seen.Items != 1 || seen.UnreadItems != 1 || seen.UnreadAfterBoth != "1" {
		t.Errorf("the inbox listed %d notifications, %d unread, the bell %q; want one, unread, and 1", seen.Items, seen.UnreadItems, seen.UnreadAfterBoth)
	}
	if !strings.Contains(seen.Text, seen.LikerC) || !strings.Contains(seen.Text, "等 2 人") || !strings.Contains(seen.Text, "巷子里的小面馆") ||
		!strings.HasPrefix(seen.Href, "#/note/") {
		t.Errorf("the notification reads %q linking %q; want %s and 2 people liking the note, linking to it", seen.Text, seen.Href, seen.LikerC)
	}
	if seen.After != "0" || seen.BadgeAfter != 0 || seen.UnreadItemsAfter != 0 {
		t.Errorf("after mark all read: bell %q, %d badges, %d unread lines; want 0, none, none", seen.After, seen.BadgeAfter, seen.UnreadItemsAfter)
	}
	if seen.FollowsAfterReload || !seen.LikesAfterReload {
		t.Errorf("after turning follows off and reloading: follows %v, likes %v; want off and on", seen.FollowsAfterReload, seen.LikesAfterReload)
	}
}

// TestFavoritesInTheBrowser: in Chromium, a user marks a shop and one of its vouchers
// with the hearts on the shop's page (the shop's count goes 0 → 1), sees the shop's
// heart filled on the shop list and both in My favourites, takes the shop back there,
// and after a reload only the voucher is listed.
func TestFavoritesInTheBrowser(t *testing.T) {
	t.Parallel()
	node, dir := browserTools(t)
	base, _ := startServe(t, "13900001000")
	out := runNode(t, node, dir, "favorites.mjs", base, "13900001001", "1", screenshots(t))
	var seen struct {
		ShopBefore, CountBefore, CountAfter, ListHeart string
		VoucherTitle, VoucherShown                     string
		Listed, ListedAfter                            []string
	}
	if err := json.Unmarshal(out, &seen); err != nil {
		t.Fatalf("browser answered %q: %v", out, err)
	}
	if seen.ShopBefore != "false" || !strings.HasSuffix(seen.CountBefore, "0") || !strings.HasSuffix(seen.CountAfter, "1") {
		t.Errorf("the shop's heart: pressed %s, %q before and %q after the click; want not pressed, 0, then 1", seen.ShopBefore, seen.CountBefore, seen.CountAfter)
	}
	if seen.ListHeart != "true" {
		t.Errorf("the shop list's heart of the shop is pressed=%s, want true", seen.ListHeart)
	}
	vouchers := func(l []string) int {
		n := 0
		for _, s := range l {
			if strings.HasPrefix(s, "voucher:") {
				n++
			}
		}
		return n
	}
	if len(seen.Listed) != 2 || !slices.Contains(seen.Listed, "shop:1") || vouchers(seen.Listed) != 1 || seen.VoucherShown != seen.VoucherTitle {
		t.Errorf("My favourites listed %v (voucher %q); want shop 1 and the voucher %q", seen.Listed, seen.VoucherShown, seen.VoucherTitle)
	}
	if len(seen.ListedAfter) != 1 || vouchers(seen.ListedAfter) != 1 {
		t.Errorf("after taking the shop back My favourites lists %v; want the voucher alone", seen.ListedAfter)
	}
}

// dealShown is a deal as the deals page showed it.
type dealShown struct {
	Voucher             string
	Distance, Discount  int
	Score               int
	SecondsLeft         *int
	TimeLeft, Remaining string
}

// TestDealsNearMeInTheBrowser: in Chromium, from a point among the demo shops within
// 20 km, the deals page lists the deals in each of the four orders, page after page with
// "load more", each deal once and in the order the API gives; a sale ending within the
// hour comes first when ending soon, with its time and stock left.
func TestDealsNearMeInTheBrowser(t *testing.T) {
	t.Parallel()
	node, dir := browserTools(t)
	base, admin := startServe(t, "13900001010")
	sale := newBrowserSale(t, admin, "一小时秒杀", 5)
	const lat, lon = 30.3161, 120.1492
	out := runNode(t, node, dir, "deals.mjs", base, "30.3161", "120.1492", screenshots(t))
	var seen struct {
		Pages map[string]int
		Deals map[string][]dealShown
	}
	if err := json.Unmarshal(out, &seen); err != nil {
		t.Fatalf("browser answered %q: %v", out, err)
	}
	for _, sort := range []string{"DISTANCE", "DISCOUNT", "SCORE", "ENDING_SOON"} {
		shown := seen.Deals[sort]
		// The API's own order, every page of it.
		var want []string
		var after any
		for {
			var page struct {
				DealsNearby struct {
					Edges []struct {
						Node struct{ Voucher struct{ ID string } }
					}
					PageInfo struct {
						HasNextPage bool
						EndCursor   string
					}
				}
			}
			admin.Do(t, `query($lon: Float!, $lat: Float!, $s: DealSort, $a: String) {
				dealsNearby(longitude: $lon, latitude: $lat, radius: 20000, sort: $s, first: 20, after: $a) {
					edges { node { voucher { id } } } pageInfo { hasNextPage endCursor } } }`,
				map[string]any{"lon": lon, "lat": lat, "s": sort, "a": after}).Decode(t, &page)
			for _, e := range page.DealsNearby.Edges {
				want = append(want, e.Node.Voucher.ID)
			}
			if !page.DealsNearby.PageInfo.HasNextPage {
				break
			}
			after = page.DealsNearby.PageInfo.EndCursor
		}
		got := make([]string, len(shown))
		for i, d := range shown {
			got[i] = d.Voucher
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: the page listed %v; the API's order is %v", sort, got, want)
		}
		if seen.Pages[sort] < 2 {
			t.Errorf("%s: %d pages shown, want load more to have added some", sort, seen.Pages[sort])
		}
		for i := 1; i < len(shown); i++ {
			a, b := shown[i-1], shown[i]
			var ordered bool
			switch sort {
			case "DISTANCE":
				ordered = a.Distance <= b.Distance
			case "DISCOUNT":
				ordered = a.Discount >= b.Discount
			case "SCORE":
				ordered = a.Score >= b.Score
			case "ENDING_SOON":
				ordered = b.SecondsLeft == nil || (a.SecondsLeft != nil && *a.SecondsLeft <= *b.SecondsLeft)
			}
			if !ordered {
				t.Errorf("%s: deal %d (%+v) listed before %+v", sort, i-1, a, b)
			}
		}
	}
	if soon := seen.Deals["ENDING_SOON"]; len(soon) == 0 || soon[0].Voucher != sale || soon[0].SecondsLeft == nil ||
		*soon[0].SecondsLeft > 3600 || !strings.HasPrefix(soon[0].TimeLeft, "剩 0:") || soon[0].Remaining != "剩余 5" {
		t.Errorf("ending soon starts with %+v; want sale %s with under an hour and 5 left", soon[:min(1, len(soon))], sale)
	}
}

// TestSearchInTheBrowser: in Chromium, the header's search box finds a shop by a part
// of its name (the part marked in the result), a note by a word of its text (marked in
// its snippet) on the notes tab, a shop whose name is one character off, a person by a
// part of the nickname, and pages shops with "load more"; a note whose text holds HTML
// shows it as text.
func TestSearchInTheBrowser(t *testing.T) {
	t.Parallel()
	node, dir := browserTools(t)
	base, admin := startServe(t, "13900001020")
	admin.Do(t, `mutation($in: CreateBlogInput!) { createBlog(input: $in) { id } }`, map[string]any{"in": map[string]any{
		"shopId": "3", "title": "标签测试", "content": `<img src=x onerror="window.pwned=1"><b>香辣蟹</b>很好吃`, "images": []string{},
	}}).Decode(t, &struct{}{})
	out := runNode(t, node, dir, "search.mjs", base, "茶餐厅", "东坡肉", "新白路餐厅", "香辣蟹", "店", "吃货", screenshots(t))
	type result struct {
		Title, Snippet, Href string
		Marks                []string
	}
	var seen struct {
		Shops, Notes, Typo, Markup, Users []result
		Injected                          int
		Pwned                             bool
		PagingFirst                       int
		Paged                             []string
	}
	if err := json.Unmarshal(out, &seen); err != nil {
		t.Fatalf("browser answered %q: %v", out, err)
	}
	find := func(rs []result, title string) *result {
		for i := range rs {
			if rs[i].Title == title {
				return &rs[i]
			}
		}
		return nil
	}
	if r := find(seen.Shops, "103茶餐厅"); r == nil || !slices.Equal(r.Marks, []string{"茶餐厅"}) || r.Href != "#/shop/1" {
		t.Errorf("searching shops for 茶餐厅 showed %+v; want 103茶餐厅 with 茶餐厅 marked, linking to shop 1", seen.Shops)
	}
	if r := find(seen.Notes, "湖边的老味道"); r == nil || !slices.Contains(r.Marks, "东坡肉") || strings.Contains(r.Snippet, "<mark>") {
		t.Errorf("searching notes for 东坡肉 showed %+v; want 湖边的老味道 with 东坡肉 marked", seen.Notes)
	}
	if len(seen.Typo) == 0 || !strings.HasPrefix(seen.Typo[0].Title, "新白鹿餐厅") {
		t.Errorf("searching shops for 新白路餐厅 (a typo) showed %+v; want 新白鹿餐厅 first", seen.Typo)
	}
	if r := find(seen.Markup, "标签测试"); r == nil || !strings.Contains(r.Snippet, `<img src=x`) || !slices.Contains(r.Marks, "香辣蟹") ||
		seen.Injected != 0 || seen.Pwned {
		t.Errorf("a note holding HTML showed %+v, %d elements made from it, script ran: %v; want its text as text", seen.Markup, seen.Injected, seen.Pwned)
	}
	if seen.PagingFirst != 10 || len(seen.Paged) <= 10 || len(slices.Compact(slices.Sorted(slices.Values(seen.Paged)))) != len(seen.Paged) {
		t.Errorf("searching shops for 店: %d on the first page, then %v; want 10, then more, each once", seen.PagingFirst, seen.Paged)
	}
	if find(seen.Users, "西湖吃货") == nil {
		t.Errorf("searching people for 吃货 showed %+v; want 西湖吃货", seen.Users)
	}
}
