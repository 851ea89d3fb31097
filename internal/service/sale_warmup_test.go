package service_test

import (
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/testsupport"
)

// TestSaleWarmupIsShownToAdmins: a sale created an hour ahead is not in Redis; an ADMIN
// sees when it will be loaded; everyone else sees null. A sale beginning within
// SALE_WARMUP_BEFORE is loaded at once. On PostgreSQL with Redis.
func TestSaleWarmupIsShownToAdmins(t *testing.T) {
	t.Parallel()
	const adminPhone = "13900000181"
	srv := startServer(t, map[string]string{"JWT_SECRET": testSecret, "ADMIN_PHONES": adminPhone,
		"DATABASE_URL": testsupport.PostgresURL(t), "REDIS_URL": testsupport.RedisURL(t), "SALE_WARMUP_BEFORE": "10m"})
	anon := client(srv)
	admin, user := client(srv), client(srv)
	admin.Token = login(t, anon, adminPhone).AccessToken
	user.Token = login(t, anon, "13900000182").AccessToken

	create := func(begin time.Time) string {
		in := saleInput("1", 500)
		in["in"].(map[string]any)["beginTime"] = begin.Format(time.RFC3339Nano)
		in["in"].(map[string]any)["endTime"] = begin.Add(time.Hour).Format(time.RFC3339Nano)
		var out struct{ CreateFlashSale struct{ ID string } }
		admin.Do(t, `mutation($in: CreateFlashSaleInput!) { createFlashSale(input: $in) { id } }`, in).Decode(t, &out)
		return out.CreateFlashSale.ID
	}
	type warmup struct {
		At     *time.Time
		Loaded bool
	}
	read := func(c testsupport.GraphQLClient, id string) *warmup {
		var out struct {
			Vouchers []struct {
				ID     string
				Warmup *warmup
			}
		}
		c.Do(t, `query { vouchers(shopId: "1") { id warmup { at loaded } } }`, nil).Decode(t, &out)
		for _, v := range out.Vouchers {
			if v.ID == id {
				return v.Warmup
			}
		}
		t.Fatalf("voucher %s not listed", id)
		return nil
	}
	begin := time.Now().Add(time.Hour).Truncate(time.Second)
	later := create(begin)
	w := read(admin, later)
	if w == nil || w.Loaded || w.At == nil || !w.At.Equal(begin.Add(-10*time.Minute)) {
		t.Fatalf("a sale an hour ahead, to an ADMIN: %+v; want not loaded, due 10 min before %v", w, begin)
	}
	for name, c := range map[string]testsupport.GraphQLClient{"anonymous": anon, "a user": user} {
		if w := read(c, later); w != nil {
			t.Fatalf("%s sees the warm-up %+v, want null", name, w)
		}
	}
	soon := create(time.Now().Add(5 * time.Minute))
	if w := read(admin, soon); w == nil || !w.Loaded {
		t.Fatalf("a sale 5 min ahead, to an ADMIN: %+v; want loaded at creation", w)
	}
	resp := user.Do(t, claimMutation, map[string]any{"v": later})
	if codes := resp.Codes(); len(codes) != 1 || codes[0] != "NOT_STARTED" {
		t.Fatalf("claim of a sale not warmed up yet: %v, want NOT_STARTED", codes)
	}
}
