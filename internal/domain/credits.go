package domain

// Credits reward taking part: signing in, writing notes, buying. Each award is keyed by
// what earned it (a reason and a reference), so it is made at most once however often
// the event that earns it is repeated, and the awards of a note or an order are taken
// back when the note is deleted or the order refunded. A user's credits are the sum of
// their awards; their level follows from the credits.

// CreditReason says what earned an award.
type CreditReason string

// Reasons for credits, with the reference each award is keyed by.
const (
	// CreditSignIn: a day signed in; the reference is the day as yyyymmdd.
	CreditSignIn CreditReason = "SIGN_IN"
	// CreditNote: a note published; the reference is the note's id.
	CreditNote CreditReason = "NOTE"
	// CreditOrder: an order paid; the reference is the order's id.
	CreditOrder CreditReason = "ORDER"
)

// The amounts of the rule.
const (
	// SignInCredits are earned by each day signed in.
	SignInCredits = 1
	// StreakBonusCredits are earned on top by every StreakBonusDays-th day in a row.
	StreakBonusCredits = 5
	StreakBonusDays    = 7
	// NoteCredits are earned by each note published.
	NoteCredits = 5
	// OrderCentsPerCredit: a paid order earns one credit per full yuan it cost.
	OrderCentsPerCredit = 100
)

// CreditAward is one award of credits to a user, keyed by (UserID, Reason, Ref).
type CreditAward struct {
	UserID int64
	Reason CreditReason
	Ref    int64
	Amount int
}

// SignInAward is what signing in on day (yyyymmdd) earns, the run of days in a row
// being streak with that day.
func SignInAward(userID int64, day int64, streak int) CreditAward {
	n := SignInCredits
	if streak > 0 && streak%StreakBonusDays == 0 {
		n += StreakBonusCredits
	}
	return CreditAward{UserID: userID, Reason: CreditSignIn, Ref: day, Amount: n}
}

// NoteAward is what publishing a note earns its author.
func NoteAward(b Blog) CreditAward {
	return CreditAward{UserID: b.UserID, Reason: CreditNote, Ref: b.ID, Amount: NoteCredits}
}

// OrderAward is what paying an order earns its buyer: one credit per full yuan.
func OrderAward(o VoucherOrder) CreditAward {
	return CreditAward{UserID: o.UserID, Reason: CreditOrder, Ref: o.ID, Amount: int(o.Amount / OrderCentsPerCredit)}
}

// LevelThresholds are the credits each level starts at: level i+1 from
// LevelThresholds[i] credits on, level 0 below the first.
var LevelThresholds = [...]int{10, 50, 150, 400, 1000, 2500, 6000}

// CreditLevel is the level credits reach: 0 below 10 credits, 1 from 10, 2 from 50, 3
// from 150, 4 from 400, 5 from 1000, 6 from 2500 and 7 from 6000.
func CreditLevel(credits int) int {
	level := 0
	for _, from := range LevelThresholds {
		if credits >= from {
			level++
		}
	}
	return level
}
