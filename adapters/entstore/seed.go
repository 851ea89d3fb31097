package entstore

import (
	"context"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/dealspot/dealspot/ent"
	"github.com/dealspot/dealspot/internal/domain"
)

// Seed fills an empty database with demo shop types, shops and vouchers, including a
// flash sale that is live now, and the people of DemoSocialData. It does nothing when shop types already exist, and
// reports whether it wrote anything. Data is the same on every run, except the flash
// sale windows, which are relative to now.
func (s *Store) Seed(ctx context.Context) (seeded bool, err error) {
	err = s.exclusively(ctx, func(ctx context.Context) error {
		return WithTx(ctx, s.client, func(tx *ent.Tx) error {
			n, err := tx.ShopType.Query().Count(ctx)
			if err != nil {
				return fmt.Errorf("count shop types: %w", err)
			}
			if n > 0 {
				return nil
			}
			if err := seed(ctx, tx.Client(), time.Now()); err != nil {
				return err
			}
			seeded = true
			return nil
		})
	})
	if err != nil {
		return false, fmt.Errorf("seed demo data: %w", err)
	}
	return seeded, nil
}

func seed(ctx context.Context, client *ent.Client, now time.Time) error {
	typeIDs := make([]int64, len(seedShopTypes))
	for i, t := range seedShopTypes {
		row, err := client.ShopType.Create().SetName(t.name).SetIcon(t.icon).SetSort(t.sort).Save(ctx)
		if err != nil {
			return fmt.Errorf("create shop type %s: %w", t.name, err)
		}
		typeIDs[i] = row.ID
	}

	shops := seedShops()
	builders := make([]*ent.ShopCreate, len(shops))
	for i, sh := range shops {
		sh.TypeID = typeIDs[sh.TypeID-1]
		builders[i] = shopCreate(client.Shop.Create(), sh)
	}
	rows, err := client.Shop.CreateBulk(builders...).Save(ctx)
	if err != nil {
		return fmt.Errorf("create shops: %w", err)
	}

	firstOfType := map[int64]int64{}
	for i, row := range rows {
		if _, ok := firstOfType[row.TypeID]; !ok {
			firstOfType[row.TypeID] = row.ID
		}
		// Every third shop sells its category's normal voucher.
		if i%3 != 0 {
			continue
		}
		tpl := seedShopTypes[shops[i].TypeID-1].voucher
		if _, err := createVoucher(ctx, client, voucherFrom(tpl, row.ID, nil)); err != nil {
			return fmt.Errorf("create voucher of shop %d: %w", row.ID, err)
		}
	}

	live := voucherFrom(seedFlashSale, rows[0].ID, &domain.FlashSale{
		Stock:     seedFlashSaleStock,
		BeginTime: now.Add(-time.Hour),
		EndTime:   now.Add(7 * 24 * time.Hour),
	})
	if _, err := createVoucher(ctx, client, live); err != nil {
		return fmt.Errorf("create live flash sale: %w", err)
	}
	upcoming := voucherFrom(seedUpcomingFlashSale, firstOfType[typeIDs[1]], &domain.FlashSale{
		Stock:     seedUpcomingFlashSaleStock,
		BeginTime: now.Add(24 * time.Hour),
		EndTime:   now.Add(8 * 24 * time.Hour),
	})
	if _, err := createVoucher(ctx, client, upcoming); err != nil {
		return fmt.Errorf("create upcoming flash sale: %w", err)
	}
	return seedUsers(ctx, client)
}

// seedShops lists the demo shops in insertion order; TypeID holds the position of the
// category in seedShopTypes (from 1) until the real id is known. Generated shops are
// spread over seedPlaces with small deterministic offsets, so no two share a point.
func seedShops() []domain.Shop {
	var out []domain.Shop
	for _, f := range seedFeaturedShops {
		out = append(out, domain.Shop{
			Name:      f.name,
			TypeID:    int64(f.typeNo),
			Area:      f.area,
			Address:   f.address,
			Longitude: f.lon,
			Latitude:  f.lat,
			AvgPrice:  f.avgPrice * 100,
			Sold:      f.sold,
			Comments:  f.comments,
			Score:     f.score,
			OpenHours: f.openHours,
		})
	}
	k := 0 // running number of generated shops, the source of every variation
	for ti, t := range seedShopTypes {
		for i := range t.generated {
			k++
			p := seedPlaces[(ti*5+i*3)%len(seedPlaces)]
			brand := t.brands[i%len(t.brands)]
			sold := 300 + (k*7919)%25000
			address := p.address + " " + seedFloors[k%len(seedFloors)]
			if p.street {
				address = fmt.Sprintf("%s%d号", p.address, 8+(k*13)%90)
			}
			out = append(out, domain.Shop{
				Name:      fmt.Sprintf("%s(%s店)", brand, p.branch),
				TypeID:    int64(ti + 1),
				Area:      p.area,
				Address:   address,
				Longitude: round6(p.lon + float64((k*37)%11-5)*0.0003),
				Latitude:  round6(p.lat + float64((k*53)%9-4)*0.0003),
				AvgPrice:  int64(t.priceLo+(k*37)%(t.priceHi-t.priceLo+1)) * 100,
				Sold:      sold,
				Comments:  sold * (20 + k%50) / 100,
				Score:     38 + (k*7)%12,
				OpenHours: t.openHours[k%len(t.openHours)],
			})
		}
	}
	for i := range out {
		out[i].Images = fmt.Sprintf("/imgs/shops/%d-1.jpg,/imgs/shops/%d-2.jpg", i+1, i+1)
	}
	return out
}

func voucherFrom(tpl seedVoucher, shopID int64, fs *domain.FlashSale) domain.Voucher {
	v := domain.Voucher{
		ShopID:      shopID,
		Title:       tpl.title,
		SubTitle:    tpl.subTitle,
		Rules:       tpl.rules,
		PayValue:    tpl.payValue,
		ActualValue: tpl.actualValue,
		Kind:        domain.VoucherNormal,
		Status:      domain.VoucherOnSale,
		FlashSale:   fs,
	}
	if fs != nil {
		v.Kind = domain.VoucherFlashSale
	}
	return v
}

// round6 keeps six decimals (about 0.1 m), as map providers give coordinates.
func round6(x float64) float64 {
	return math.Round(x*1e6) / 1e6
}

// DemoImagePaths lists every image path the demo data refers to — the shops' photos,
// the shop types' icons and the demo users' avatars — so that the server can serve a
// picture at each.
func DemoImagePaths() []string {
	var out []string
	for _, t := range seedShopTypes {
		out = append(out, t.icon)
	}
	for _, s := range seedShops() {
		out = append(out, strings.Split(s.Images, ",")...)
	}
	for _, u := range DemoSocialData().Users {
		out = append(out, u.Icon)
	}
	return out
}
