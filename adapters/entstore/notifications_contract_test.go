package entstore_test

import (
	"testing"

	"github.com/dealspot/dealspot/adapters/entstore"
	"github.com/dealspot/dealspot/internal/app/inbox"
	"github.com/dealspot/dealspot/internal/app/inbox/inboxtest"
)

// The inboxes meet the inbox's store contract on every database.
func TestNotificationStoreContract(t *testing.T) {
	t.Parallel()
	onEveryStore(t, func(t *testing.T, open func(t *testing.T) *entstore.Store) {
		inboxtest.StoreContract(t, func(t *testing.T) inbox.Store { return entstore.NewNotifications(open(t)) })
	})
}
