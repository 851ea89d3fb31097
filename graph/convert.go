package graph

import (
	"strconv"
	"strings"

	"github.com/dealspot/dealspot/graph/model"
	"github.com/dealspot/dealspot/internal/app/auth"
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
		ID:        formatID(s.ID),
		Name:      s.Name,
		TypeID:    formatID(s.TypeID),
		Images:    s.Images,
		Area:      s.Area,
		Address:   s.Address,
		Longitude: s.Longitude,
		Latitude:  s.Latitude,
		AvgPrice:  int(s.AvgPrice),
		Sold:      s.Sold,
		Comments:  s.Comments,
		Score:     s.Score,
		OpenHours: s.OpenHours,
	}
}

// userToModel shows u to viewer: the phone is whole only for its owner.
func userToModel(u domain.User, viewer auth.Principal) *model.User {
	return &model.User{
		ID:        formatID(u.ID),
		NickName:  u.NickName,
		Icon:      u.Icon,
		Phone:     auth.VisiblePhone(viewer, u),
		Role:      model.Role(u.Role),
		CreatedAt: u.CreatedAt,
	}
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
		stock := int(v.Remaining)
		out.Stock, out.BeginTime, out.EndTime = &stock, &fs.BeginTime, &fs.EndTime
	}
	return out
}

func orderToModel(o domain.VoucherOrder) *model.VoucherOrder {
	return &model.VoucherOrder{
		ID:        formatID(o.ID),
		VoucherID: formatID(o.VoucherID),
		UserID:    formatID(o.UserID),
		Status:    model.OrderStatus(o.Status),
		CreatedAt: o.CreatedAt,
	}
}

func orderEventToModel(e domain.OrderEvent) *model.OrderStatusEvent {
	out := &model.OrderStatusEvent{OrderID: formatID(e.OrderID), Status: model.OrderStatus(e.Status)}
	if e.Reason != "" {
		out.Reason = &e.Reason
	}
	return out
}
