package service_test

import (
	"testing"
	"time"
)

// Blog images are http(s) URLs or plain paths on our own site; anything a browser could run or
// that breaks out of an attribute is BAD_USER_INPUT.
func TestBlogImagesMustBeHTTPSURLsOrOwnPaths(t *testing.T) {
	t.Parallel()
	srv := startServer(t, map[string]string{"JWT_SECRET": testSecret, "RECONCILE_INTERVAL": "0"})
	anon := client(srv)
	user := client(srv)
	user.Token = login(t, anon, "13900000088").AccessToken
	const create = `mutation($in: CreateBlogInput!) { createBlog(input: $in) { id images { url } } }`
	blog := func(img string) map[string]any {
		return map[string]any{"in": map[string]any{"shopId": "1", "title": "t", "content": "c", "images": []string{img}}}
	}
	for _, img := range []string{
		"javascript:alert(1)", "JavaScript:alert(1)", "java\tscript:alert(1)", "data:image/png;base64,AAAA",
		"vbscript:msgbox(1)", "//evil.example/x.jpg", "https://", "https:evil.example", "https://user:pw@evil.example/x.jpg",
		`https://a.example/x.jpg"onerror="alert(1)`, "https://a.example/<script>", "<img src=x onerror=alert(1)>",
		"/imgs/../../etc/passwd", "/", "/imgs/x.jpg?a=b", "x.jpg", "ftp://a.example/x.jpg", `https://a.example\x.jpg`,
		"http://img.example.com/x.png", "/etc/passwd", "/graphql", "/media/../graphql",
	} {
		resp := user.Do(t, create, blog(img))
		if codes := resp.Codes(); len(codes) != 1 || codes[0] != "BAD_USER_INPUT" {
			t.Errorf("image %q: codes %v, data %s", img, codes, resp.Data)
		}
	}
	// Paths of this site must also serve an image (TestImageReferencesMustExist).
	for _, img := range []string{"https://img.example.com/a/b.jpg?w=200", "https://img.example.com/blogs/探店.jpg", "/imgs/shops/1-1.jpg"} {
		if resp := user.Do(t, create, blog(img)); len(resp.Errors) != 0 {
			t.Errorf("image %q refused: %v", img, resp.Codes())
		}
	}
}

// A voucher never costs more than it is worth.
func TestPayValueAboveActualValueIsRefused(t *testing.T) {
	t.Parallel()
	const adminPhone = "13900000099"
	srv := startServer(t, map[string]string{"JWT_SECRET": testSecret, "ADMIN_PHONES": adminPhone, "RECONCILE_INTERVAL": "0"})
	anon := client(srv)
	admin := client(srv)
	admin.Token = login(t, anon, adminPhone).AccessToken
	now := time.Now()
	for name, q := range map[string]struct {
		query string
		in    map[string]any
	}{
		"createVoucher": {`mutation($in: CreateVoucherInput!) { createVoucher(input: $in) { id } }`,
			map[string]any{"shopId": "1", "title": "券", "payValue": 10001, "actualValue": 10000}},
		"createFlashSale": {`mutation($in: CreateFlashSaleInput!) { createFlashSale(input: $in) { id } }`,
			map[string]any{"shopId": "1", "title": "券", "payValue": 10001, "actualValue": 10000, "stock": 5,
				"beginTime": now.Format(time.RFC3339), "endTime": now.Add(time.Hour).Format(time.RFC3339)}},
	} {
		resp := admin.Do(t, q.query, map[string]any{"in": q.in})
		if codes := resp.Codes(); len(codes) != 1 || codes[0] != "BAD_USER_INPUT" {
			t.Errorf("%s with payValue > actualValue: codes %v, data %s", name, codes, resp.Data)
		}
		q.in["payValue"] = 10000
		if resp := admin.Do(t, q.query, map[string]any{"in": q.in}); len(resp.Errors) != 0 {
			t.Errorf("%s with payValue = actualValue: %v", name, resp.Codes())
		}
	}
}
