package followstest_test

import (
	"testing"

	"github.com/dealspot/dealspot/internal/app/social/follows"
	"github.com/dealspot/dealspot/internal/app/social/follows/followstest"
)

// The in-memory follows, mirror and inboxes meet the contracts the adapters meet.

func TestMemFollowsContract(t *testing.T) {
	t.Parallel()
	followstest.FollowsContract(t, func(*testing.T) follows.Follows { return followstest.NewMemFollows() })
}

func TestMemFollowMirrorContract(t *testing.T) {
	t.Parallel()
	followstest.FollowMirrorContract(t, func(*testing.T) follows.FollowMirror { return followstest.NewMemFollowMirror() })
}

func TestMemInboxesContract(t *testing.T) {
	t.Parallel()
	followstest.InboxesContract(t, func(_ *testing.T, capacity int) follows.Inboxes { return followstest.NewMemInboxes(capacity) })
}
