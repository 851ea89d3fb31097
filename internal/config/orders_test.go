package config_test

import (
	"strings"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/config"
)

func TestOrderLifecycleSettings(t *testing.T) {
	c, err := config.Load(env(nil))
	if err != nil {
		t.Fatal(err)
	}
	o, p := c.Orders, c.Payment
	if o.PayTimeout != 15*time.Minute || !o.ReclaimAfterCancel || o.MaxQuantity != 10 || o.ExpiryInterval != time.Second ||
		o.ExpiryBatch != 1000 || o.StatsInterval != 500*time.Millisecond {
		t.Errorf("order defaults %+v", o)
	}
	if p.Provider != "sim" || p.WebhookSecret != config.DevPaymentSecret || p.SimDelay != time.Second || p.NotifyURL != "" ||
		p.RefundRetryInterval != 10*time.Second || p.SignatureTolerance != 5*time.Minute {
		t.Errorf("payment defaults %+v", p)
	}
	c, err = config.Load(env(map[string]string{"ORDER_PAY_TIMEOUT": "2m", "ORDER_RECLAIM_AFTER_CANCEL": "false", "ORDER_MAX_QUANTITY": "3",
		"PAYMENT_SIM_DELAY": "0", "PAYMENT_NOTIFY_URL": "http://127.0.0.1:9/payments/notify", "PAYMENT_WEBHOOK_SECRET": "s3cret"}))
	if err != nil {
		t.Fatal(err)
	}
	if c.Orders.PayTimeout != 2*time.Minute || c.Orders.ReclaimAfterCancel || c.Orders.MaxQuantity != 3 ||
		c.Payment.SimDelay != 0 || c.Payment.WebhookSecret != "s3cret" {
		t.Errorf("set: %+v %+v", c.Orders, c.Payment)
	}
	_, err = config.Load(env(map[string]string{"PAYMENT_PROVIDER": "stripe", "SALE_STATS_INTERVAL": "10ms", "ORDER_PAY_TIMEOUT": "soon"}))
	for _, name := range []string{"PAYMENT_PROVIDER", "SALE_STATS_INTERVAL", "ORDER_PAY_TIMEOUT"} {
		if err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("bad %s not reported: %v", name, err)
		}
	}
	_, err = config.Load(env(map[string]string{"DEALSPOT_ENV": "production", "JWT_SECRET": strings.Repeat("x", 40),
		"DATABASE_URL": "postgres://u@h/db", "REDIS_URL": "redis://h:6379/0", "PAYMENT_WEBHOOK_SECRET": config.DevPaymentSecret}))
	if err == nil || !strings.Contains(err.Error(), "PAYMENT_WEBHOOK_SECRET") {
		t.Errorf("the public dev secret in production not refused: %v", err)
	}
}
