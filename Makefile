# Dealspot — common tasks. `make help` lists them.
GO          ?= go
PKG         := ./...
# Packages whose tests exercise concurrency run with the race detector.
TEST_FLAGS  ?= -race -count=1 -timeout 40m
# The fault scenarios take about 5 minutes on 2 quiet cores; a hang among them fails
# sooner than the default tests' limit would (internal/service's watchdog names it).
STRESS_FLAGS ?= -race -count=1 -timeout 30m
BIN         := bin/dealspot
# The load test's scenario: see `go run ./cmd/dealspot-bench -h`.
BENCH_FLAGS ?= --baseline --path sold-out

.PHONY: help run build test test-short lint generate migration migration-data migration-hash migration-check web bench bench-go bench-load tidy clean

help:
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed 's/:.*## /\t/'

run: ## run the server on the embedded defaults (SQLite file + in-process Redis, demo data)
	@echo "building: the first build compiles ~550 packages (about 3 minutes on 2 quiet cores); later runs start in seconds"
	$(GO) run ./cmd/dealspot serve

build: ## build the binaries into bin/ (pure Go, CGO_ENABLED=0)
	CGO_ENABLED=0 $(GO) build -o bin/ ./cmd/...

# The long fault scenarios (services away 10 s, the server killed 5 times, Watermill's
# full Pub/Sub contract) build with the stress tag.
STRESS_RUN  ?= Outage|ConnectionCut|Killed|WatermillContract|SessionWipeUnderLoad|PubSubKills|StrandedStream|UserFacts|RedisWiped|ClaimFate|MasterRestartedEmpty|TwoNodes

# Both halves always run; the target fails at the end if either failed.
test: ## run every test, then the long fault scenarios; real services are used when TEST_DATABASE_URL / TEST_REDIS_URL / TEST_AMQP_URL are set
	@status=0; \
	$(GO) test $(TEST_FLAGS) $(PKG) || status=1; \
	$(GO) test $(STRESS_FLAGS) -tags stress -run '$(STRESS_RUN)' ./internal/service/ ./adapters/queue/... || status=1; \
	if [ $$status -ne 0 ]; then echo "make test: FAILED (see above)"; fi; \
	exit $$status

test-short: ## the default tests only, without the long fault scenarios
	$(GO) test $(TEST_FLAGS) $(PKG)

# staticcheck runs its default checks; errcheck skips generated code and tests, and
# the calls listed in internal/tools/lint/errcheck-excludes.txt. Both are pinned as go
# tools in go.mod.
lint: ## go vet, gofmt, staticcheck, errcheck and archcheck (dependency direction, methods per type)
	$(GO) vet $(PKG)
	$(GO) vet -tags stress ./internal/service/ ./adapters/...
	@out=$$(gofmt -l $$(git ls-files '*.go' | grep -v '^ent/' ) 2>/dev/null); \
	  if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) tool staticcheck $(PKG)
	$(GO) tool errcheck -ignoregenerated -ignoretests -exclude internal/tools/lint/errcheck-excludes.txt $(PKG)
	$(GO) run ./internal/tools/archcheck

generate: ## regenerate ent and gqlgen code, and the error codes' lists (schema, README)
	$(GO) generate ./ent
	$(GO) run ./internal/tools/errorcodes
	$(GO) tool gqlgen generate

# Versioned migrations (adapters/entstore/migrations/{postgres,sqlite}, Atlas's format with
# atlas.sum) are written from ent/schema by internal/tools/migrations; no atlas CLI. The
# PostgreSQL file is computed on a scratch database created (and dropped) on this server.
MIGRATION_DEV_URL ?= postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable
MIGRATIONS        := $(GO) run ./internal/tools/migrations -dev-url '$(MIGRATION_DEV_URL)'

migration: ## after changing ent/schema and `make generate`: write the migration files, e.g. make migration name=add_shop_phone
	@test -n "$(name)" || { echo "usage: make migration name=<what_changed>"; exit 2; }
	$(MIGRATIONS) diff $(name)

migration-data: ## write empty migration files to fill in by hand (data fixes), e.g. make migration-data name=fill_shop_phone
	@test -n "$(name)" || { echo "usage: make migration-data name=<what_it_does>"; exit 2; }
	$(MIGRATIONS) new $(name)

migration-hash: ## recompute atlas.sum after editing a migration file that was never released
	$(MIGRATIONS) hash

migration-check: ## fail if the migration files lack a change of ent/schema (also a test: TestMigrationFilesMatchEntSchema)
	$(MIGRATIONS) check

web: ## rebuild the web app into web/dist (embedded in the server; commit the result)
	cd web && npm ci --no-audit --no-fund && npm run build

bench: bench-go bench-load ## run the Go benchmarks, then the claimVoucher load test

bench-go: ## run the Go benchmarks
	$(GO) test -run '^$$' -bench . -benchmem $(PKG)

bench-load: ## flood claimVoucher on an in-process server (embedded defaults; DATABASE_URL, REDIS_URL, QUEUE apply), check I1–I4; flags in BENCH_FLAGS
	$(GO) run ./cmd/dealspot-bench $(BENCH_FLAGS)

# The proxy refuses the pprof version some test dependencies ask for; the replace in
# go.mod pins one it serves, so a plain tidy works.
tidy: ## go mod tidy (a clean tree stays unchanged)
	$(GO) mod tidy

clean:
	rm -rf bin data
