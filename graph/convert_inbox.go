package graph

import (
	"github.com/dealspot/dealspot/graph/model"
	"github.com/dealspot/dealspot/internal/app/auth"
	"github.com/dealspot/dealspot/internal/app/inbox"
	"github.com/dealspot/dealspot/internal/domain"
)

// notificationCursor pages an inbox by the notifications' Seq.
const notificationCursor = "notif"

func notificationToModel(v inbox.View, p auth.Principal) *model.Notification {
	out := &model.Notification{
		ID:         formatID(v.ID),
		Kind:       model.NotificationKind(v.Kind),
		CreatedAt:  v.CreatedAt,
		UpdatedAt:  v.UpdatedAt,
		Read:       v.Read,
		ActorCount: v.ActorCount,
		Text:       v.Text,
		VoucherID:  v.VoucherID,
	}
	if v.Actor != nil {
		out.Actor = userToModel(*v.Actor, p)
	}
	if v.Blog != nil {
		out.Blog = blogToModel(*v.Blog)
	}
	if v.Order != nil {
		out.Order = orderToModel(*v.Order, p.UserID)
	}
	return out
}

func notificationConnection(page inbox.Page, p auth.Principal) *model.NotificationConnection {
	es, info := edges(page.Items, page.HasNextPage,
		func(_ int, v inbox.View) string { return encodeCursor(notificationCursor, v.Seq) },
		func(c string, v inbox.View) model.NotificationEdge {
			return model.NotificationEdge{Cursor: c, Node: notificationToModel(v, p)}
		})
	return &model.NotificationConnection{Edges: es, PageInfo: info}
}

func notificationSettingsToModel(s domain.NotificationSettings) *model.NotificationSettings {
	return &model.NotificationSettings{Likes: s.Likes, Comments: s.Comments, Follows: s.Follows, Orders: s.Orders, FollowedNotes: s.FollowedNotes}
}
