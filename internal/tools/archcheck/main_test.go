package main

import "testing"

func TestVerdicts(t *testing.T) {
	const m = module
	cases := []struct {
		name      string
		test      bool // judged as a test import (testViolation) rather than production (violation)
		from, imp string
		refused   bool
	}{
		// domain: the standard library and domain only.
		{name: "domain imports the standard library", from: "internal/domain", imp: "time"},
		{name: "domain imports domain", from: "internal/domain/geo", imp: m + "internal/domain"},
		{name: "domain refuses app", from: "internal/domain", imp: m + "internal/app/auth", refused: true},
		{name: "domain refuses a third-party library", from: "internal/domain", imp: "github.com/google/uuid", refused: true},

		// app: domain, app and pure libraries.
		{name: "app imports domain", from: "internal/app/seckill", imp: m + "internal/domain"},
		{name: "app imports another app package", from: "internal/app/auth", imp: m + "internal/app/seckill"},
		{name: "app imports a pure library", from: "internal/app/auth", imp: "github.com/golang-jwt/jwt/v5"},
		{name: "app imports a pure library's subpackage", from: "internal/app/social", imp: "golang.org/x/sync/singleflight"},
		{name: "app refuses an adapter", from: "internal/app/auth", imp: m + "adapters/redis", refused: true},
		{name: "app refuses the read cache", from: "internal/app/shop", imp: m + "internal/readcache", refused: true},
		{name: "app refuses a driver", from: "internal/app/auth", imp: "github.com/redis/go-redis/v9", refused: true},
		{name: "app imports the tracing API", from: "internal/app/seckill", imp: "go.opentelemetry.io/otel/trace"},
		{name: "app refuses the tracing SDK", from: "internal/app/seckill", imp: "go.opentelemetry.io/otel/sdk/trace", refused: true},
		{name: "app refuses a tracing exporter", from: "internal/app/seckill", imp: "go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp", refused: true},
		{name: "app refuses the global tracing entry point", from: "internal/app/seckill", imp: "go.opentelemetry.io/otel", refused: true},
		{name: "app refuses graph", from: "internal/app/auth", imp: m + "graph", refused: true},
		{name: "app refuses a name that only starts like domain", from: "internal/app/auth", imp: m + "internal/domainx", refused: true},
		{name: "app imports a library", from: "internal/app/seckill", imp: m + "internal/tracespan"},
		{name: "app refuses the configuration", from: "internal/app/seckill", imp: m + "internal/config", refused: true},

		// libraries: below the layers, the standard library and pure libraries only.
		{name: "library imports the standard library", from: "internal/tracespan", imp: "context"},
		{name: "library imports a pure library", from: "internal/tracespan", imp: "go.opentelemetry.io/otel/codes"},
		{name: "library refuses domain", from: "internal/tracespan", imp: m + "internal/domain", refused: true},
		{name: "library refuses app", from: "internal/tracespan", imp: m + "internal/app/seckill", refused: true},
		{name: "library refuses the tracing SDK", from: "internal/tracespan", imp: "go.opentelemetry.io/otel/sdk/trace", refused: true},

		// graph: never adapters.
		{name: "graph imports app", from: "graph", imp: m + "internal/app/auth"},
		{name: "graph imports its generated code", from: "graph", imp: m + "graph/generated"},
		{name: "graph refuses an adapter", from: "graph", imp: m + "adapters/entstore", refused: true},

		// adapters: no transports or composition root.
		{name: "adapter imports app ports", from: "adapters/redis", imp: m + "internal/app/seckill"},
		{name: "adapter imports domain", from: "adapters/entstore", imp: m + "internal/domain"},
		{name: "adapter imports the read cache", from: "adapters/localcache", imp: m + "internal/readcache"},
		{name: "adapter imports a driver", from: "adapters/redis", imp: "github.com/redis/go-redis/v9"},
		{name: "adapter refuses graph", from: "adapters/redis", imp: m + "graph/model", refused: true},
		{name: "adapter refuses the composition root", from: "adapters/entstore", imp: m + "internal/service", refused: true},
		{name: "adapter refuses the server", from: "adapters/redis", imp: m + "internal/server", refused: true},
		{name: "adapter refuses cmd", from: "adapters/redis", imp: m + "cmd/dealspot", refused: true},

		// adapters → internal/: domain, app ports, the read cache and the libraries; their
		// settings come from the composition root, never from internal/config.
		{name: "adapter imports a library", from: "adapters/queue", imp: m + "internal/tracespan"},
		{name: "adapter refuses the configuration", from: "adapters/queue", imp: m + "internal/config", refused: true},
		{name: "shared format refuses the configuration", from: "adapters/claimwire", imp: m + "internal/config", refused: true},
		{name: "adapter refuses the application", from: "adapters/redis", imp: m + "internal/app", refused: true},
		{name: "adapter refuses an app helper", from: "adapters/entstore", imp: m + "internal/app/batchread", refused: true},
		{name: "adapter refuses another internal package", from: "adapters/redis", imp: m + "internal/reqmeta", refused: true},
		{name: "adapter refuses the tools", from: "adapters/entstore", imp: m + "internal/tools/migrations", refused: true},
		{name: "adapter refuses a name that only starts like the read cache", from: "adapters/redis", imp: m + "internal/readcachex", refused: true},

		// adapter → adapter: only an adapter's own packages.
		{name: "adapter imports its own subpackage", from: "adapters/queue", imp: m + "adapters/queue/redisstream"},
		{name: "adapter subpackage imports its parent", from: "adapters/redis/redistest", imp: m + "adapters/redis"},
		{name: "adapter subpackage imports a sibling", from: "adapters/queue/kafka", imp: m + "adapters/queue/claims"},
		{name: "adapter refuses another adapter", from: "adapters/queue", imp: m + "adapters/redis", refused: true},
		{name: "adapter subpackage refuses another adapter", from: "adapters/queue/redisstream", imp: m + "adapters/redis", refused: true},
		{name: "adapter imports a shared format", from: "adapters/redis", imp: m + "adapters/claimwire"},
		{name: "shared format refuses an adapter", from: "adapters/claimwire", imp: m + "adapters/redis", refused: true},
		{name: "adapter refuses a name that only starts like its own", from: "adapters/redis", imp: m + "adapters/redisx", refused: true},

		// who imports adapters: cmd/ and the composition root.
		{name: "composition root imports adapters", from: "internal/service", imp: m + "adapters/redis"},
		{name: "cmd imports adapters", from: "cmd/dealspot-bench", imp: m + "adapters/entstore"},
		{name: "config refuses adapters", from: "internal/config", imp: m + "adapters/redis", refused: true},
		{name: "server refuses adapters", from: "internal/server", imp: m + "adapters/queue", refused: true},
		{name: "read cache refuses adapters", from: "internal/readcache", imp: m + "adapters/redis", refused: true},

		// test helpers: for tests only.
		{name: "test helper imports the package it helps test", from: "internal/app/seckill/seckilltest", imp: m + "internal/app/seckill"},
		{name: "test helper imports the testing package", from: "internal/app/auth/authtest", imp: "testing"},
		{name: "test helper imports another test helper", from: "internal/app/auth/authtest", imp: m + "internal/app/seckill/seckilltest"},
		{name: "production refuses a contract package", from: "internal/app/auth", imp: m + "internal/app/auth/authtest", refused: true},
		{name: "production refuses redistest", from: "internal/service", imp: m + "adapters/redis/redistest", refused: true},
		{name: "production refuses testsupport", from: "cmd/dealspot", imp: m + "internal/testsupport", refused: true},
		{name: "contract package refuses an adapter", from: "internal/app/seckill/seckilltest", imp: m + "adapters/redis", refused: true},
		{name: "contract package refuses a driver", from: "internal/app/auth/authtest", imp: "github.com/redis/go-redis/v9", refused: true},

		// tests: the layers stay apart.
		{name: "app test imports its contract package", test: true, from: "internal/app/auth", imp: m + "internal/app/auth/authtest"},
		{name: "app test imports another app's contract package", test: true, from: "internal/app/seckill", imp: m + "internal/app/auth/authtest"},
		{name: "app test imports its own package", test: true, from: "internal/app/auth", imp: m + "internal/app/auth"},
		{name: "app test refuses an adapter", test: true, from: "internal/app/seckill", imp: m + "adapters/redis", refused: true},
		{name: "app test refuses an adapter's test helper", test: true, from: "internal/app/seckill", imp: m + "adapters/redis/redistest", refused: true},
		{name: "app test refuses testsupport", test: true, from: "internal/app/social", imp: m + "internal/testsupport", refused: true},
		{name: "app test refuses a driver", test: true, from: "internal/app/social", imp: "github.com/redis/go-redis/v9", refused: true},
		{name: "domain test imports the standard library", test: true, from: "internal/domain", imp: "testing"},
		{name: "domain test refuses a contract package", test: true, from: "internal/domain", imp: m + "internal/app/auth/authtest", refused: true},
		{name: "domain test refuses app", test: true, from: "internal/domain", imp: m + "internal/app/auth", refused: true},
		{name: "adapter test imports a contract package", test: true, from: "adapters/redis", imp: m + "internal/app/seckill/seckilltest"},
		{name: "adapter test imports its own test helper", test: true, from: "adapters/redis", imp: m + "adapters/redis/redistest"},
		{name: "adapter test imports another adapter's test helper", test: true, from: "adapters/queue", imp: m + "adapters/redis/redistest"},
		{name: "adapter test imports testsupport", test: true, from: "adapters/entstore", imp: m + "internal/testsupport"},
		{name: "adapter test imports a test library", test: true, from: "adapters/queue", imp: "github.com/ThreeDotsLabs/watermill/pubsub/tests"},
		{name: "adapter test wires another adapter", test: true, from: "adapters/queue", imp: m + "adapters/redis"},
		{name: "adapter test refuses the composition root", test: true, from: "adapters/queue", imp: m + "internal/service", refused: true},
		{name: "adapter test refuses the composition root", test: true, from: "adapters/redis", imp: m + "internal/service", refused: true},
		{name: "adapter test refuses the configuration", test: true, from: "adapters/queue", imp: m + "internal/config", refused: true},
		{name: "adapter test refuses an app helper", test: true, from: "adapters/entstore", imp: m + "internal/app/batchread", refused: true},
		{name: "adapter test imports the contracts' shared helper", test: true, from: "adapters/entstore", imp: m + "internal/app/contracttest"},
		{name: "production refuses the contracts' shared helper", from: "adapters/entstore", imp: m + "internal/app/contracttest", refused: true},
		{name: "graph test refuses an adapter's test helper", test: true, from: "graph", imp: m + "adapters/redis/redistest", refused: true},
		{name: "graph test refuses an adapter", test: true, from: "graph", imp: m + "adapters/redis", refused: true},
		{name: "graph test imports testsupport", test: true, from: "graph", imp: m + "internal/testsupport"},
		{name: "read cache test imports the adapters it is built for", test: true, from: "internal/readcache", imp: m + "adapters/localcache"},
		{name: "read cache test imports an adapter's test helper", test: true, from: "internal/readcache", imp: m + "adapters/redis/redistest"},
		{name: "composition root test imports adapters and their helpers", test: true, from: "internal/service", imp: m + "adapters/redis/redistest"},
		{name: "server test imports the composition root", test: true, from: "internal/server", imp: m + "internal/service"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rule, kind := violation, "imports"
			if c.test {
				rule, kind = testViolation, "test imports"
			}
			why := rule(c.from, c.imp)
			if refused := why != ""; refused != c.refused {
				t.Errorf("%s %s %s: refused %v (%q), want refused %v", c.from, kind, c.imp, refused, why, c.refused)
			}
		})
	}
}

// The temporary exceptions excuse exactly the imports they name, in the code they name,
// and each still excuses something the rules refuse.
func TestTemporaryExceptions(t *testing.T) {
	for _, e := range temporary {
		rule := violation
		if e.test {
			rule = testViolation
		}
		if !excepted(e.from, e.imp, e.test) {
			t.Errorf("%s → %s (test %v) not excepted", e.from, e.imp, e.test)
		}
		if rule(e.from, e.imp) == "" {
			t.Errorf("%s → %s (test %v) is allowed by the rules: remove the exception", e.from, e.imp, e.test)
		}
	}
	// The mechanism, on a list of its own: the real one may be empty.
	saved := temporary
	t.Cleanup(func() { temporary = saved })
	temporary = []exception{{from: "internal/app/auth", imp: module + "adapters/redis", test: true, why: "example"}}
	if !excepted("internal/app/auth", module+"adapters/redis", true) {
		t.Error("an import on the list was not excepted")
	}
	if excepted("internal/app/auth", module+"adapters/redis", false) {
		t.Error("a test-only exception excused production code")
	}
	if excepted("adapters/entstore", module+"adapters/redis", true) {
		t.Error("an import not on the list was excepted")
	}
	temporary = nil
	if excepted("internal/app/auth", module+"adapters/redis", true) {
		t.Error("an empty list excepted an import")
	}
	if testViolation("internal/app/auth", module+"adapters/redis") == "" {
		t.Error("with no exception, an app test importing an adapter is allowed")
	}
}
