package app

import "github.com/dealspot/dealspot/internal/app/waitlist"

// WaitlistCommands put users in and out of sold-out sales' lines and let them take or
// pass the units held for them.
type WaitlistCommands struct {
	JoinWaitlist  *waitlist.JoinWaitlist
	LeaveWaitlist *waitlist.LeaveWaitlist
	AcceptOffer   *waitlist.AcceptOffer
	DeclineOffer  *waitlist.DeclineOffer
}

// WaitlistQueries read a user's places in line.
type WaitlistQueries struct {
	MyWaitlist *waitlist.MyWaitlist
}

// WaitlistOperations are the waitlist's worker: the sweep of offers that ran out.
type WaitlistOperations struct {
	WaitlistExpiry *waitlist.Expirer
}

// Waitlist sorts the waitlist's use cases into what a client may call and what the
// server runs itself.
func Waitlist(s *waitlist.Service) (WaitlistCommands, WaitlistQueries, WaitlistOperations) {
	return WaitlistCommands{JoinWaitlist: s.Join, LeaveWaitlist: s.Leave, AcceptOffer: s.Accept, DeclineOffer: s.Decline},
		WaitlistQueries{MyWaitlist: s.Mine},
		WaitlistOperations{WaitlistExpiry: s.Expirer}
}
