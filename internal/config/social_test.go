package config_test

import (
	"strings"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/config"
)

func TestSocialDefaultsAndOverrides(t *testing.T) {
	t.Parallel()
	c, err := config.Load(env(nil))
	if err != nil {
		t.Fatal(err)
	}
	s := c.Social
	if s.Location.String() != "Asia/Shanghai" || s.LikersDefault != 5 || s.LikersMax != 50 || s.InboxMax != 1000 ||
		s.SyncFanoutMax != 200 || s.FollowBackfill != 20 || s.CommonFollowsMax != 100 || s.VisitorMaxDays != 366 ||
		s.VisitorRetention != 400*24*time.Hour || s.NotificationsKeep != 500 {
		t.Fatalf("social defaults differ from the documented ones: %+v", s)
	}
	c, err = config.Load(env(map[string]string{
		"DEALSPOT_TIMEZONE": "UTC", "FEED_SYNC_FANOUT_MAX": "0", "FEED_FOLLOW_BACKFILL": "0", "UV_RETENTION": "48h", "UV_MAX_RANGE_DAYS": "2",
		"NOTIFICATIONS_KEEP": "20",
	}))
	if err != nil {
		t.Fatal(err)
	}
	if c.Social.Location != time.UTC || c.Social.SyncFanoutMax != 0 || c.Social.FollowBackfill != 0 || c.Social.VisitorRetention != 48*time.Hour ||
		c.Social.NotificationsKeep != 20 {
		t.Fatalf("overrides not applied: %+v", c.Social)
	}
}

func TestSocialSettingsAreChecked(t *testing.T) {
	t.Parallel()
	for name, vars := range map[string]map[string]string{
		"DEALSPOT_TIMEZONE":    {"DEALSPOT_TIMEZONE": "Mars/Olympus"},
		"BLOG_LIKERS_DEFAULT":  {"BLOG_LIKERS_DEFAULT": "60", "BLOG_LIKERS_MAX": "50"},
		"FEED_INBOX_MAX":       {"FEED_INBOX_MAX": "0"},
		"FEED_SYNC_FANOUT_MAX": {"FEED_SYNC_FANOUT_MAX": "-1"},
		"UV_RETENTION":         {"UV_RETENTION": "24h"},
		"NOTIFICATIONS_KEEP":   {"NOTIFICATIONS_KEEP": "0"},
	} {
		_, err := config.Load(env(vars))
		if err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("%v: err = %v, want one naming %s", vars, err, name)
		}
	}
	if _, err := config.Load(env(map[string]string{"NOTIFICATIONS_KEEP": "100001"})); err == nil || !strings.Contains(err.Error(), "NOTIFICATIONS_KEEP") {
		t.Errorf("NOTIFICATIONS_KEEP past its bound: err = %v", err)
	}
}
