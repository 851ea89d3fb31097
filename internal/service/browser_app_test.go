package service_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/testsupport"
)

// TestWebAppClaimPayAndShowTheCode: in Chromium, a buyer opens the web app served at
// /app/ by a `dealspot serve` process on the embedded defaults, logs in with the dev-mode code, claims a live flash
// sale, sees the order go from PENDING to CREATED without reloading, pays and sees the
// redemption code. The shop list shows each shop's first photo, the shop's page its
// photos, and near me the distances. The screens are written to docs/screenshots/ at
// phone and desktop sizes, and the first contentful paint is reported.
func TestWebAppClaimPayAndShowTheCode(t *testing.T) {
	t.Parallel()
	node, dir := browserTools(t)
	const title = "浏览器秒杀"
	base, admin := startServe(t, "13900000950")
	newBrowserSale(t, admin, title, 5)
	shots, err := filepath.Abs("../../docs/screenshots")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(shots, 0o755); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "app.mjs", base, "1", title, "13900000951", shots)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		var stderr string
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = string(ee.Stderr)
		}
		t.Fatalf("browser walk: %v\n%s\n%s", err, out, stderr)
	}
	var seen struct {
		FCP            float64
		Statuses       []string
		Code           string
		Reloads        int
		Shown          []string
		Distances      []string
		ListPhotos     int
		ShopPhotos     int
		ShopPhotoSizes []string
	}
	if err := json.Unmarshal(out, &seen); err != nil {
		t.Fatalf("browser answered %q: %v", out, err)
	}
	t.Logf("first contentful paint %.0f ms; statuses shown %v; code %s; near me %v", seen.FCP, seen.Shown, seen.Code, seen.Distances)
	// The claim answers PENDING; the subscription then shows CREATED and, once the
	// provider confirms the payment, PAID — all on the page the buyer opened.
	if len(seen.Shown) != 3 || seen.Shown[0] != "PENDING" || seen.Shown[1] != "CREATED" || seen.Shown[2] != "PAID" ||
		len(seen.Code) != 12 || seen.Reloads != 1 {
		t.Errorf("the buyer saw %s", out)
	}
	if len(seen.Distances) == 0 {
		t.Errorf("near me listed no distances: %s", out)
	}
	// Every shop card shows its first photo, and the shop's page both.
	if seen.ListPhotos < 10 || seen.ShopPhotos != 2 {
		t.Errorf("%d shop photos shown on the list, %d on the shop's page; want one a shop, and its 2", seen.ListPhotos, seen.ShopPhotos)
	}
	// The shop's page sets each photo's size, as drawn, so nothing moves as they load.
	if !slices.Equal(seen.ShopPhotoSizes, []string{"480x320", "480x320"}) {
		t.Errorf("the shop's photos were given sizes %q; want 480x320 each", seen.ShopPhotoSizes)
	}
	if seen.FCP <= 0 || seen.FCP > 1000 {
		t.Errorf("first contentful paint %.0f ms, want under 1 s", seen.FCP)
	}
}

// runNode runs one of e2e's scripts and returns what it printed.
func runNode(t *testing.T, node, dir string, args ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, args...)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		var stderr string
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = string(ee.Stderr)
		}
		t.Fatalf("node %v: %v\n%s\n%s", args, err, out, stderr)
	}
	return out
}

// TestTwoBrowsersClaimTheLastUnit: two people, each in a browser context of their own,
// press claim on a sale's last unit at once; exactly one gets the order, the other is
// told it is sold out, and the sale has one order.
func TestTwoBrowsersClaimTheLastUnit(t *testing.T) {
	t.Parallel()
	node, dir := browserTools(t)
	const title = "最后一件"
	base, admin := startServe(t, "13900000960")
	saleID := newBrowserSale(t, admin, title, 1)
	out := runNode(t, node, dir, "race.mjs", base, "1", title, "13900000961", "13900000962")
	var results []struct {
		Won                   bool
		Status, Answer, Stock string
	}
	if err := json.Unmarshal(out, &results); err != nil || len(results) != 2 {
		t.Fatalf("browsers answered %q: %v", out, err)
	}
	won := 0
	for _, r := range results {
		if !strings.Contains(r.Stock, "Sold out") {
			t.Errorf("a page shows the sale's stock as %q after the last unit went, want Sold out (pushed by saleProgress)", r.Stock)
		}
		switch {
		case r.Won:
			won++
		case r.Answer != "Sold out":
			t.Errorf("the loser was told %q, want Sold out", r.Answer)
		}
	}
	if won != 1 {
		t.Errorf("%d of the two got the last unit: %s", won, out)
	}
	// The sale's own numbers: one order, nothing left.
	deadline := time.Now().Add(30 * time.Second)
	for {
		var st struct {
			SaleStats struct{ Remaining, Accepted, Pending, Created int }
		}
		admin.Do(t, `query($v: ID!) { saleStats(voucherId: $v) { remaining accepted pending created } }`, map[string]any{"v": saleID}).Decode(t, &st)
		s := st.SaleStats
		if s.Pending == 0 || time.Now().After(deadline) {
			if s.Remaining != 0 || s.Accepted != 1 || s.Created != 1 {
				t.Errorf("the sale after the race: %+v, want 0 remaining and 1 order", s)
			}
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestMerchantBoardMovesDuringAFlood: a shop's merchant watches its sale's board in
// Chromium while 200 users claim it over HTTP; the accepted count on the page climbs
// through several values to the total without a reload.
func TestMerchantBoardMovesDuringAFlood(t *testing.T) {
	t.Parallel()
	node, dir := browserTools(t)
	// The merchant logs in twice (here, then in the browser) within a minute.
	base, admin := startServe(t, "13900000970", "SALE_STATS_INTERVAL=200ms", "LOGIN_CODE_INTERVAL=1s")
	// The merchant: a user made the owner of shop 1 by the admin.
	const merchantPhone = "13900000971"
	m := login(t, admin, merchantPhone)
	var owned struct{ SetShopOwner struct{ ID string } }
	admin.Do(t, `mutation($u: ID!) { setShopOwner(shopId: "1", userId: $u) { id } }`, map[string]any{"u": m.User.ID}).Decode(t, &owned)
	time.Sleep(1100 * time.Millisecond) // LOGIN_CODE_INTERVAL before the browser asks for a code
	// The buyers, logged in before the board opens.
	const users = 200
	buyers := make([]testsupport.GraphQLClient, users)
	for i := range buyers {
		buyers[i] = testsupport.GraphQLClient{URL: admin.URL}
		buyers[i].Token = login(t, buyers[i], fmt.Sprintf("1380001%04d", i)).AccessToken
	}
	shots, err := filepath.Abs("../../docs/screenshots")
	if err != nil {
		t.Fatal(err)
	}
	cctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	// The merchant publishes the sale with the board's form, its stock split in two
	// buckets.
	cmd := exec.CommandContext(cctx, node, "board.mjs", base, "new:1:看板秒杀:1000:2", merchantPhone, strconv.Itoa(users), shots)
	cmd.Dir = dir
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewScanner(stdout)
	if !lines.Scan() || !strings.HasPrefix(lines.Text(), "READY ") {
		_ = cmd.Wait()
		t.Fatalf("the board did not come up: %q\n%s", lines.Text(), stderr.String())
	}
	saleID := strings.TrimPrefix(lines.Text(), "READY ")
	var sale struct {
		Vouchers []struct {
			ID      string
			Stock   int
			Buckets *int
		}
	}
	admin.Do(t, `{ vouchers(shopId: "1") { id stock buckets } }`, nil).Decode(t, &sale)
	published := false
	for _, v := range sale.Vouchers {
		if v.ID == saleID {
			published = v.Stock == 1000 && v.Buckets != nil && *v.Buckets == 2
		}
	}
	if !published {
		t.Fatalf("the form published voucher %s as %+v; want a sale of 1000 in 2 buckets", saleID, sale.Vouchers)
	}
	// The flood over HTTP, a few claims at a time, so the board sees it grow.
	for i, b := range buyers {
		var claim claimAnswer
		b.Do(t, claimMutation, map[string]any{"v": saleID}).Decode(t, &claim)
		if (i+1)%20 == 0 {
			time.Sleep(150 * time.Millisecond)
		}
	}
	var last string
	for lines.Scan() {
		last = lines.Text()
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("board: %v\n%s", err, stderr.String())
	}
	var seen struct {
		Shown     []int
		Remaining int
		Ticks     []string
		Plotted   int
	}
	if err := json.Unmarshal([]byte(last), &seen); err != nil {
		t.Fatalf("board printed %q: %v", last, err)
	}
	// The chart has axes with labels: 0 and a top value, the time span and now, and
	// what it plots.
	for _, want := range []string{"0", "−30s", "现在", "每秒下单"} { // the board runs in Chinese
		if !slices.Contains(seen.Ticks, want) {
			t.Errorf("the board's chart labels are %q; want %q among them", seen.Ticks, want)
		}
	}
	if len(seen.Ticks) < 6 || seen.Plotted < 2 {
		t.Errorf("the board's chart: labels %q, %d points plotted; want 3 value ticks, 3 axis labels and a line", seen.Ticks, seen.Plotted)
	}
	t.Logf("accepted claims shown on the board: %v", seen.Shown)
	if len(seen.Shown) < 3 || seen.Shown[0] != 0 || seen.Shown[len(seen.Shown)-1] != users || seen.Remaining != 1000-users {
		t.Errorf("the board showed %v accepted claims and %d remaining; want 0 climbing through several values to %d, %d remaining",
			seen.Shown, seen.Remaining, users, 1000-users)
	}
}

// TestNotesInTheBrowser: in Chromium, a user writes a note with a photo (uploaded from
// the form's file input, then shown), likes it after its access token stopped holding
// (the app refreshes the session), comments on it, signs in for the day on the month's
// calendar, and logs out.
func TestNotesInTheBrowser(t *testing.T) {
	t.Parallel()
	node, dir := browserTools(t)
	base, _ := startServe(t, "13900000980")
	photo := filepath.Join(t.TempDir(), "window.png")
	if err := os.WriteFile(photo, pngOf(t, 64, 48), 0o644); err != nil {
		t.Fatal(err)
	}
	shots, err := filepath.Abs("../../docs/screenshots")
	if err != nil {
		t.Fatal(err)
	}
	out := runNode(t, node, dir, "notes.mjs", base, "13900000981", photo, shots)
	var seen struct {
		ImageWidth int
		Src, Liked string
		ImageSize  string
		Commented  bool
		Streak     int
		LoggedOut  bool
	}
	if err := json.Unmarshal(out, &seen); err != nil {
		t.Fatalf("browser answered %q: %v", out, err)
	}
	if seen.ImageWidth != 64 || seen.ImageSize != "64x48" || !strings.HasPrefix(seen.Src, "/media/") || !strings.Contains(seen.Liked, "1") || !seen.Commented || seen.Streak != 1 || !seen.LoggedOut {
		t.Errorf("the user saw %s", out)
	}
}

// startServe runs the server binary, `dealspot serve`, on the embedded defaults (dev
// mode, an admin phone) on an address of its own, as a user's first command does; it
// returns the base URL and an admin's client. The process dies with the test.
func startServe(t *testing.T, adminPhone string, extra ...string) (string, testsupport.GraphQLClient) {
	t.Helper()
	addr := freeAddr(t)
	var env []string
	for _, kv := range os.Environ() {
		// The embedded defaults: none of the external stores the test's environment names.
		if !strings.HasPrefix(kv, "DATABASE_URL=") && !strings.HasPrefix(kv, "REDIS_URL=") && !strings.HasPrefix(kv, "QUEUE=") {
			env = append(env, kv)
		}
	}
	env = append(env, "DEALSPOT_ADDR="+addr, "DEALSPOT_DATA_DIR="+t.TempDir(), "DEALSPOT_DEV=true",
		"JWT_SECRET="+testSecret, "ADMIN_PHONES="+adminPhone, "LOG_LEVEL=warn")
	env = append(env, extra...)
	logFile, err := os.Create(filepath.Join(t.TempDir(), "server.log"))
	if err != nil {
		t.Fatal(err)
	}
	p := &serverProcess{t: t, bin: buildServer(t), env: env, addr: addr, log: logFile}
	p.start()
	t.Cleanup(func() { p.kill(syscall.SIGTERM) })
	admin := testsupport.GraphQLClient{URL: "http://" + addr + "/graphql"}
	admin.Token = login(t, admin, adminPhone).AccessToken
	return "http://" + addr, admin
}

// newBrowserSale creates a flash sale of shop 1, open now, as the admin; it returns its id.
func newBrowserSale(t *testing.T, admin testsupport.GraphQLClient, title string, stock int) string {
	t.Helper()
	now := time.Now()
	var out struct{ CreateFlashSale struct{ ID string } }
	admin.Do(t, `mutation($in: CreateFlashSaleInput!) { createFlashSale(input: $in) { id } }`, map[string]any{"in": map[string]any{
		"shopId": "1", "title": title, "payValue": 990, "actualValue": 2000, "stock": stock,
		"beginTime": now.Add(-time.Minute).Format(time.RFC3339), "endTime": now.Add(time.Hour).Format(time.RFC3339),
	}}).Decode(t, &out)
	return out.CreateFlashSale.ID
}
