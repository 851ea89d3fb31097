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

// SeesAccount reports whether viewer may see u's account details (role, when it was
// created): u themselves and ADMINs.
func SeesAccount(viewer Principal, u domain.User) bool {
	return (viewer.UserID > 0 && viewer.UserID == u.ID) || viewer.Role == domain.RoleAdmin
}

// SeesBlocked reports whether viewer may see whether an account is blocked: ADMINs only
// (a blocked user cannot be logged in to ask).
func SeesBlocked(viewer Principal) bool {
	return viewer.UserID > 0 && viewer.Role == domain.RoleAdmin
}

// SeesHasPassword reports whether viewer may see whether u has a password: u only.
func SeesHasPassword(viewer Principal, u domain.User) bool {
	return viewer.UserID > 0 && viewer.UserID == u.ID
}

// SeesBirthday reports whether viewer may see u's birthday: u themselves only.
func SeesBirthday(viewer Principal, u domain.User) bool {
	return viewer.UserID > 0 && viewer.UserID == u.ID
}
