// Package app gathers Dealspot's use cases. Transports (GraphQL) receive an
// *Application: the commands and queries a client may call, and nothing else. The
// server's own workers (the order writer, the reconciler, the fan-out queue) and the
// operator's command line receive *Operations.
//
// Each area of the service contributes one struct to each of Commands, Queries and
// Operations (account.go, flashsale.go, inbox.go, lifecycle.go, social.go, waitlist.go; shops are
// one field; images and uploads, media.go); their fields are promoted, so a
// resolver reads r.App.Commands.ClaimVoucher, whichever area it belongs to.
package app

import (
	"github.com/dealspot/dealspot/internal/app/deals"
	"github.com/dealspot/dealspot/internal/app/favorites"
	"github.com/dealspot/dealspot/internal/app/reminders"
	"github.com/dealspot/dealspot/internal/app/search"
	"github.com/dealspot/dealspot/internal/app/shop"
)

// Application is what a client may call.
type Application struct {
	Commands Commands
	Queries  Queries
}

// Commands change state on a client's behalf.
type Commands struct {
	AccountCommands
	FlashSaleCommands
	LifecycleCommands
	SocialCommands
	InboxCommands
	MediaCommands
	WaitlistCommands
	Shops *shop.Commands
	// Favorites marks and unmarks users' favourite shops and vouchers.
	Favorites *favorites.Commands
	// Reminders asks for and takes back reminders of flash sales.
	Reminders *reminders.Commands
}

// Queries read state for a client.
type Queries struct {
	AccountQueries
	FlashSaleQueries
	LifecycleQueries
	SocialQueries
	MediaQueries
	InboxQueries
	WaitlistQueries
	Shops *shop.Queries
	// Favorites reads users' favourites (and a shop's fans).
	Favorites *favorites.Queries
	// Reminders tells who asked to be reminded of sales, and how many did.
	Reminders *reminders.Queries
	// Deals finds the deals near a point.
	Deals *deals.Queries
	// Search finds shops, notes and people by their text.
	Search *search.Queries
}

// Operations are run by the server itself (workers, start-up and repairs) or by the
// operator's command line, never by a client.
type Operations struct {
	AccountOperations
	FlashSaleOperations
	LifecycleOperations
	SocialOperations
	InboxOperations
	WaitlistOperations
	Shops *shop.Operations
	// SaleReminders sends the due sale reminders.
	SaleReminders *reminders.Sender
}
