package auth

import "github.com/dealspot/dealspot/internal/domain"

// VisiblePhone is u's phone as viewer may see it: whole for its owner, masked
// (138****0000) for everyone else.
func VisiblePhone(viewer Principal, u domain.User) string {
	if viewer.UserID > 0 && viewer.UserID == u.ID {
		return u.Phone
	}
	return domain.MaskPhone(u.Phone)
}
