package domain

import "time"

// Role is what a user may do.
type Role string

// Roles.
const (
	RoleUser  Role = "USER"
	RoleAdmin Role = "ADMIN"
)

// Valid reports whether r is a known role.
func (r Role) Valid() bool { return r == RoleUser || r == RoleAdmin }

// User is a person with an account.
type User struct {
	ID        int64
	Phone     string
	NickName  string
	Icon      string
	Role      Role
	Blocked   bool
	CreatedAt time.Time
	UpdatedAt time.Time
}

// MaskPhone hides the middle of a phone number: 13800000000 → 138****0000.
func MaskPhone(phone string) string {
	if len(phone) < 7 {
		return "****"
	}
	return phone[:3] + "****" + phone[len(phone)-4:]
}
