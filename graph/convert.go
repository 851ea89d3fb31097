package graph

import (
	"cmp"
	"strconv"
	"strings"
	"time"

	"github.com/dealspot/dealspot/graph/model"
	"github.com/dealspot/dealspot/internal/app/auth"
	"github.com/dealspot/dealspot/internal/app/orders"
	"github.com/dealspot/dealspot/internal/app/search"
	"github.com/dealspot/dealspot/internal/app/seckill"
	"github.com/dealspot/dealspot/internal/domain"
)

// parseID reads a GraphQL ID as a positive decimal id.
func parseID(field, raw string) (int64, error) {
	id, err := strconv.ParseInt(strings.TrimSpace(raw), 10, 64)
	if err != nil || id <= 0 {
		return 0, domain.Errorf(domain.CodeBadUserInput, "%s: %q is not a valid id", field, raw)
	}
	return id, nil
}

// parseOptionalID reads an optional ID; nil or empty means 0 (none).
func parseOptionalID(field string, raw *string) (int64, error) {
	if raw == nil || *raw == "" {
		return 0, nil
	}
	return parseID(field, *raw)
}

func formatID(id int64) string { return strconv.FormatInt(id, 10) }

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

func shopTypeToModel(t domain.ShopType) model.ShopType {
	return model.ShopType{ID: formatID(t.ID), Name: t.Name, Icon: t.Icon, Sort: t.Sort}
}

func shopToModel(s domain.Shop) *model.Shop {
	return &model.Shop{
		ID:         formatID(s.ID),
		Name:       s.Name,
		TypeID:     formatID(s.TypeID),
		ImagesText: s.Images,
		Area:       s.Area,
		Address:    s.Address,
		Longitude:  s.Longitude,
		Latitude:   s.Latitude,
		AvgPrice:   int(s.AvgPrice),
		Sold:       s.Sold,
		Comments:   s.Comments,
		Score:      s.Score,
		OpenHours:  s.OpenHours,
		OwnerID:    optionalID(s.OwnerID),
	}
}

// shopImageRefs are the paths or URLs of s's photos, in order.
func shopImageRefs(s *model.Shop) []string {
	return domain.Shop{Images: s.ImagesText}.ImageList()
}

// imageToModel shows img; its size and type are null where the server does not know
// them (an image of another site).
func imageToModel(img domain.Image) model.Image {
	out := model.Image{URL: img.URL}
	if img.Width > 0 && img.Height > 0 {
		w, h := img.Width, img.Height
		out.Width, out.Height = &w, &h
	}
	if img.ContentType != "" {
		ct := img.ContentType
		out.ContentType = &ct
	}
	return out
}

// optionalID is id as a GraphQL ID, nil for 0 (none).
func optionalID(id int64) *string {
	if id == 0 {
		return nil
	}
	s := formatID(id)
	return &s
}

// userToModel shows u to viewer: the phone is whole, and the birthday shown, only for
// its owner; role and creation time for its owner and ADMINs.
func userToModel(u domain.User, viewer auth.Principal) *model.User {
	out := &model.User{
		ID:           formatID(u.ID),
		NickName:     u.NickName,
		Icon:         u.Icon,
		Phone:        auth.VisiblePhone(viewer, u),
		City:         u.City,
		Introduction: u.Introduction,
		Gender:       model.Gender(cmp.Or(u.Gender, domain.GenderUnknown)),
		Credits:      u.Credits,
		Level:        u.Level(),
	}
	if auth.SeesAccount(viewer, u) {
		role, created := model.Role(u.Role), u.CreatedAt
		out.Role, out.CreatedAt = &role, &created
	}
	if auth.SeesHasPassword(viewer, u) {
		has := u.HasPassword
		out.HasPassword = &has
	}
	if auth.SeesBlocked(viewer) {
		blocked := u.Blocked
		out.Blocked = &blocked
	}
	if u.Birthday != nil && auth.SeesBirthday(viewer, u) {
		out.Birthday = &model.Date{Day: u.Birthday.UTC().Truncate(24 * time.Hour)}
	}
	return out
}

// sessionToModel answers a login or refresh; the session's own user is the viewer.
func sessionToModel(s auth.Session) *model.AuthPayload {
	return &model.AuthPayload{
		AccessToken:      s.AccessToken,
		RefreshToken:     s.RefreshToken,
		ExpiresAt:        s.ExpiresAt,
		RefreshExpiresAt: s.RefreshExpiresAt,
		User:             userToModel(s.User, auth.Principal{UserID: s.User.ID}),
	}
}

func int64Ptr(p *int) *int64 {
	if p == nil {
		return nil
	}
	v := int64(*p)
	return &v
}

func voucherToModel(v seckill.VoucherView) *model.Voucher {
	out := &model.Voucher{
		ID:          formatID(v.ID),
		ShopID:      formatID(v.ShopID),
		Title:       v.Title,
		SubTitle:    v.SubTitle,
		Rules:       v.Rules,
		PayValue:    int(v.PayValue),
		ActualValue: int(v.ActualValue),
		Kind:        model.VoucherKind(v.Kind),
	}
	if fs := v.FlashSale; fs != nil {
		stock, buckets := int(v.Remaining), max(1, fs.Buckets)
		out.Stock, out.BeginTime, out.EndTime, out.Buckets = &stock, &fs.BeginTime, &fs.EndTime, &buckets
	}
	return out
}

// orderToModel maps an order as viewerID sees it: the redemption code is shown to the
// order's owner only, and only while it can be used (PAID).
func orderToModel(o domain.VoucherOrder, viewerID int64) *model.VoucherOrder {
	kind := o.Kind
	if kind == "" {
		kind = domain.VoucherFlashSale
	}
	out := &model.VoucherOrder{
		ID:               formatID(o.ID),
		VoucherID:        formatID(o.VoucherID),
		UserID:           formatID(o.UserID),
		Status:           model.OrderStatus(o.Status),
		CreatedAt:        o.CreatedAt,
		Kind:             model.VoucherKind(kind),
		Quantity:         max(o.Quantity, 1),
		RedeemedQuantity: o.Redeemed(),
		UnitsLeft:        o.UnitsLeft(),
		Amount:           int(o.Amount),
		PayDeadline:      o.PayDeadline,
		PaidAt:           o.PayTime,
		UsedAt:           o.UseTime,
		CanceledAt:       o.CanceledAt,
		RefundedAt:       o.RefundTime,
		CancelReason:     optString(string(o.CancelReason)),
		RefundReason:     optString(o.RefundReason),
	}
	if o.Status == domain.OrderFailed {
		out.FailureReason = optString(o.FailReason)
	}
	if o.Status == domain.OrderPaid && viewerID > 0 && viewerID == o.UserID {
		out.RedemptionCode = optString(o.RedemptionCode)
	}
	return out
}

// optString is nil for "", else a pointer to s.
func optString(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func paymentToModel(p domain.Payment) *model.Payment {
	out := &model.Payment{
		ID: formatID(p.ID), OrderID: formatID(p.OrderID), Amount: int(p.Amount), Status: model.PaymentStatus(p.Status),
		Provider: p.Provider, ProviderRef: p.ProviderRef, CreatedAt: p.CreatedAt, PaidAt: p.PaidAt, RefundedAt: p.RefundedAt,
	}
	switch p.Status {
	case domain.PaymentFailed:
		out.Reason = optString(p.FailReason)
	case domain.PaymentRefundPending, domain.PaymentRefunded:
		out.Reason = optString(p.RefundReason)
		amount := int(p.RefundAmount)
		out.RefundAmount = &amount
	}
	return out
}

func saleProgressToModel(p seckill.Progress) *model.SaleProgress {
	return &model.SaleProgress{VoucherID: formatID(p.VoucherID), Remaining: int(p.Remaining), SoldOut: p.SoldOut,
		Phase: model.SalePhase(p.Phase), BeginTime: p.BeginTime, EndTime: p.EndTime, At: p.At}
}

func saleStatsToModel(s orders.Stats) *model.SaleStats {
	return &model.SaleStats{
		VoucherID: formatID(s.VoucherID), Remaining: int(s.Remaining), Accepted: int(s.Accepted), Pending: int(s.Pending),
		Created: int(s.Created), Paid: int(s.Paid), Used: int(s.Used), Canceled: int(s.Canceled), Refunded: int(s.Refunded),
		Failed: int(s.Failed), ClaimsPerSecond: s.ClaimsPerSecond, At: s.At,
	}
}

// orderStatuses converts a status filter.
func orderStatuses(in []model.OrderStatus) []domain.OrderStatus {
	out := make([]domain.OrderStatus, len(in))
	for i, s := range in {
		out[i] = domain.OrderStatus(s)
	}
	return out
}

// actor is the caller as the use cases see it.
func actor(p auth.Principal) domain.Actor { return domain.Actor{UserID: p.UserID, Role: p.Role} }

func orderEventToModel(e domain.OrderEvent) *model.OrderStatusEvent {
	out := &model.OrderStatusEvent{OrderID: formatID(e.OrderID), Status: model.OrderStatus(e.Status)}
	if e.Reason != "" {
		out.Reason = &e.Reason
	}
	return out
}

// searchKinds maps the GraphQL kinds of search to the app's (an unknown one to 0, which
// the app refuses).
var searchKinds = map[model.SearchKind]search.Kind{
	model.SearchKindShop: search.KindShop,
	model.SearchKindNote: search.KindNote,
	model.SearchKindUser: search.KindUser,
}
