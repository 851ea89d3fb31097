package service_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"testing"

	"github.com/dealspot/dealspot/internal/testsupport"
)

// persisted is the body of an automatic persisted query: the hash, and the text unless
// it is empty.
func persisted(hash, query string) []byte {
	body := map[string]any{"extensions": map[string]any{"persistedQuery": map[string]any{"version": 1, "sha256Hash": hash}}}
	if query != "" {
		body["query"] = query
	}
	raw, _ := json.Marshal(body)
	return raw
}

// Two nodes share one database and one Redis: a query registered on node A is run by its
// hash alone on node B, which never saw its text.
func TestPersistedQueryRegisteredOnOneNodeRunsOnAnother(t *testing.T) {
	t.Parallel()
	env := map[string]string{"DATABASE_URL": testsupport.PostgresURL(t), "REDIS_URL": testsupport.RedisURL(t), "RECONCILE_INTERVAL": "0"}
	srvA, svcA := startService(t, env)
	srvB, _ := startService(t, env)
	const query = `query ShopTypeNames { shopTypes { name } }`
	sum := sha256.Sum256([]byte(query))
	hash := hex.EncodeToString(sum[:])

	if got := client(srvB).Post(t, persisted(hash, "")); len(got.Errors) != 1 || got.Errors[0].Code() != "PERSISTED_QUERY_NOT_FOUND" {
		t.Fatalf("node B before registration: %d %+v, want PERSISTED_QUERY_NOT_FOUND", got.Status, got.Errors)
	}
	var onA, onB struct{ ShopTypes []struct{ Name string } }
	client(srvA).Post(t, persisted(hash, query)).Decode(t, &onA)
	if len(onA.ShopTypes) == 0 {
		t.Fatal("no shop types on node A")
	}
	client(srvB).Post(t, persisted(hash, "")).Decode(t, &onB)
	if len(onB.ShopTypes) != len(onA.ShopTypes) {
		t.Fatalf("node B answered %+v, node A %+v", onB, onA)
	}
	if ttl := svcA.Redis.Client.TTL(context.Background(), "apq:{apq}:docs").Val(); ttl <= 0 || ttl > svcA.Config.GraphQL.APQTTL {
		t.Errorf("the persisted queries' TTL in Redis is %v, want up to APQ_TTL (%v)", ttl, svcA.Config.GraphQL.APQTTL)
	}
}
