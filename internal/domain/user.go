package domain

import "time"

// Role is what a user may do.
type Role string

// Roles.
const (
	RoleUser Role = "USER"
	// RoleMerchant runs the shops it owns: their vouchers, sales, orders and redemptions.
	RoleMerchant Role = "MERCHANT"
	RoleAdmin    Role = "ADMIN"
)

// Valid reports whether r is a known role.
func (r Role) Valid() bool { return r == RoleUser || r == RoleMerchant || r == RoleAdmin }

// rank orders the roles: each may do what the ones below it may.
func (r Role) rank() int {
	switch r {
	case RoleAdmin:
		return 2
	case RoleMerchant:
		return 1
	}
	return 0
}

// AtLeast reports whether r may do what need may: ADMIN ⊇ MERCHANT ⊇ USER.
func (r Role) AtLeast(need Role) bool { return r.rank() >= need.rank() }

// Actor is who asks for something: a logged-in user and the role the session carries.
type Actor struct {
	UserID int64
	Role   Role
}

// Operator is the server acting on its own behalf (start-up, the command line, the load
// tool): it may do what an ADMIN may.
var Operator = Actor{Role: RoleAdmin}

// Authenticated reports whether a is a logged-in user or the Operator.
func (a Actor) Authenticated() bool { return a.UserID > 0 || a == Operator }

// CanRunShop reports whether a may run the shop owned by ownerID (0: no owner): ADMIN
// runs every shop, a MERCHANT the shops it owns.
func (a Actor) CanRunShop(ownerID int64) bool {
	switch a.Role {
	case RoleAdmin:
		return true
	case RoleMerchant:
		return a.UserID > 0 && ownerID == a.UserID
	}
	return false
}

// User is a person with an account.
type User struct {
	ID       int64
	Phone    string
	NickName string
	Icon     string
	Role     Role
	Blocked  bool
	// HasPassword: the user may log in with a password too (never the password's hash).
	HasPassword bool
	CreatedAt   time.Time
	UpdatedAt   time.Time
	Profile
}

// Gender is what a user says of themselves.
type Gender string

// Genders.
const (
	GenderUnknown Gender = "UNKNOWN"
	GenderFemale  Gender = "FEMALE"
	GenderMale    Gender = "MALE"
	GenderOther   Gender = "OTHER"
)

// Valid reports whether g is one of the genders.
func (g Gender) Valid() bool {
	switch g {
	case GenderUnknown, GenderFemale, GenderMale, GenderOther:
		return true
	}
	return false
}

// Profile is what a user tells others about themselves.
type Profile struct {
	City         string
	Introduction string
	Gender       Gender
	// Birthday is nil when not given; only its owner sees it.
	Birthday *time.Time
	// Credits are what the user earned (see credits.go); the level follows from them.
	Credits int
}

// Level is the user's level, which follows from their credits (CreditLevel).
func (p Profile) Level() int { return CreditLevel(p.Credits) }

// MaskPhone hides the middle of a phone number: 13800000000 → 138****0000.
func MaskPhone(phone string) string {
	if len(phone) < 7 {
		return "****"
	}
	return phone[:3] + "****" + phone[len(phone)-4:]
}
