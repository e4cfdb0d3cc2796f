# praca: `make` builds build/praca; `make run` serves; `make check` runs every test.
PKGS      := libuv jansson sqlite3 libpq hiredis libcrypto libargon2 libcurl vips libmagic zlib
WARN      := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes
VERSION   ?= 0.1.0
CPPFLAGS  := -Isrc -Ibuild/gen -D_DEFAULT_SOURCE -D_POSIX_C_SOURCE=200809L -DPRACA_VERSION='"$(VERSION)"'
CFLAGS    ?= -O2 -g -fno-omit-frame-pointer
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS))
PKG_LIBS   = $(shell pkg-config --libs $(PKGS)) -lhttp_parser -lwslay -lpthread -lm

SRC       := $(sort $(wildcard src/*/*.c))
LIB_SRC   := $(filter-out src/main.c,$(SRC))
MIGRATIONS:= $(sort $(wildcard src/store/migrations/*.sql))
WEB_FILES := $(sort $(filter-out src/web/static/package.json,$(wildcard src/web/static/*)))
GEN       := build/gen/migrations_data.c build/gen/web_data.c build/gen/docs_data.c
UNIT_SRC  := $(sort $(wildcard tests/unit/*.c))
E2E       := $(sort $(wildcard tests/e2e/*.test.js))
# The same suites on PostgreSQL, but for the browser's and the page's own code run in Node
# (client_*: nothing below the HTTP API differs for them).
E2E_PG    := $(filter-out tests/e2e/chat%.test.js tests/e2e/web.test.js tests/e2e/client_%,$(E2E))
# And on two nodes over PostgreSQL and Redis (nodes.test.js starts its own two, in e2e-postgres;
# voice sessions are still kept by each node).
E2E_NODES := $(filter-out tests/e2e/nodes.test.js,$(E2E_PG))

OBJ       := $(patsubst src/%.c,build/obj/%.o,$(LIB_SRC) $(GEN:build/gen/%=src/%))
ASAN_OBJ  := $(patsubst src/%.c,build/asan/obj/%.o,$(LIB_SRC) $(GEN:build/gen/%=src/%))
SANITIZE  := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

.PHONY: all run check unit unit-postgres unit-redis e2e e2e-postgres e2e-nodes lint fuzz fuzz-quick bench clean deps
all: build/praca

deps:
	@scripts/install-deps.sh build

run: deps build/praca
	build/praca serve --host 127.0.0.1 --port 8080 --data ./praca.db --allow-private-endpoints

build/gen/migrations_data.c: $(MIGRATIONS) scripts/embed.sh
	@mkdir -p $(dir $@)
	scripts/embed.sh praca_migrations $(MIGRATIONS) > $@
# The pages' shared <head> lines are written once (src/web/head.html) and set in at build time.
WEB_BUILT := $(patsubst src/web/static/%.html,build/gen/web/%.html,$(WEB_FILES))
build/gen/web/%.html: src/web/static/%.html src/web/head.html
	@mkdir -p $(dir $@)
	sed -e '/<!--#include head.html-->/{r src/web/head.html' -e 'd;}' $< > $@
build/gen/web_data.c: $(WEB_BUILT) scripts/embed.sh
	@mkdir -p $(dir $@)
	scripts/embed.sh praca_web $(WEB_BUILT) > $@
build/gen/docs_data.c: docs/api.md docs/openapi.json scripts/embed.sh
	@mkdir -p $(dir $@)
	scripts/embed.sh praca_docs docs/api.md docs/openapi.json > $@

build/obj/%.o: src/%.c | $(GEN)
	@mkdir -p $(dir $@)
	$(CC) -std=c11 $(WARN) $(CPPFLAGS) $(CFLAGS) $(PKG_CFLAGS) -MMD -MP -c $< -o $@
build/obj/%.o: build/gen/%.c
	@mkdir -p $(dir $@)
	$(CC) -std=c11 $(WARN) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

build/praca: $(OBJ) build/obj/main.o
	$(CC) $(CFLAGS) -o $@ $^ $(PKG_LIBS)

# Sanitizer build used by every test.
build/asan/obj/%.o: src/%.c | $(GEN)
	@mkdir -p $(dir $@)
	$(CC) -std=c11 $(WARN) $(CPPFLAGS) -O1 -g $(SANITIZE) $(PKG_CFLAGS) -MMD -MP -c $< -o $@
build/asan/obj/%.o: build/gen/%.c
	@mkdir -p $(dir $@)
	$(CC) -std=c11 $(WARN) $(CPPFLAGS) -O1 -g -c $< -o $@

build/asan/praca: $(ASAN_OBJ) build/asan/obj/main.o
	$(CC) $(SANITIZE) -o $@ $^ $(PKG_LIBS)

build/asan/unit: $(ASAN_OBJ) $(UNIT_SRC) $(wildcard tests/unit/*.h)
	$(CC) -std=c11 $(WARN) $(CPPFLAGS) -O1 -g $(SANITIZE) $(PKG_CFLAGS) -o $@ $(UNIT_SRC) $(ASAN_OBJ) \
	  $(PKG_LIBS) -lcriterion

lint:
	scripts/check-banned.sh
	scripts/check-format.sh
	scripts/check-prefixes.py
	scripts/check-layers.py
	scripts/check-page-imports.py
	scripts/check-page-store.py
	scripts/check-css-tokens.py
	scripts/check-sizes.py

unit: build/asan/unit
	ASAN_OPTIONS=detect_leaks=1 build/asan/unit --jobs 2

node_modules/.package-lock.json: package-lock.json
	npm ci --no-audit --no-fund

e2e: build/asan/praca build/people-sim node_modules/.package-lock.json
	PRACA_BIN=build/asan/praca node --test --test-concurrency=2 $(E2E)
# The differential test of the in-memory state, on PostgreSQL.
unit-postgres: build/asan/unit
	scripts/with-postgres.sh build/asan/unit --filter '@(state|event_clock|schema|store|event_log|writer_jobs|role_order|exports)/*'
# The shared request-limit window's script, against Redis.
unit-redis: build/asan/unit
	scripts/with-redis.sh build/asan/unit --filter '@(ratelimit_shared|redis_uv)/*'
e2e-postgres: build/asan/praca build/people-sim node_modules/.package-lock.json
	PRACA_BIN=build/asan/praca scripts/with-postgres.sh node --test --test-concurrency=2 $(E2E_PG)
e2e-nodes: build/asan/praca build/people-sim node_modules/.package-lock.json
	PRACA_BIN=build/asan/praca PRACA_TEST_NODES=2 PRACA_TEST_STREAMS=2 \
		scripts/with-postgres.sh scripts/with-redis.sh \
		node --test --test-concurrency=2 $(E2E_NODES)

check:
	@scripts/install-deps.sh test
	$(MAKE) lint
	$(MAKE) build/praca
	$(MAKE) build/bench-state build/bench-reach build/fanout-probe build/people-sim # the C benches keep building
	$(MAKE) unit
	$(MAKE) unit-postgres
	$(MAKE) unit-redis
	$(MAKE) fuzz-quick
	$(MAKE) e2e
	$(MAKE) e2e-postgres
	$(MAKE) e2e-nodes

# libFuzzer drivers (clang): `make fuzz` runs each for FUZZ_SECONDS (default 60).
FUZZ_SECONDS ?= 60
# The library is compiled once for every driver, instrumented for coverage.
FUZZERS := $(patsubst tests/fuzz/%.c,build/fuzz/%,$(sort $(wildcard tests/fuzz/fuzz_*.c)))
FUZZ_CFLAGS := -std=c11 $(WARN) $(CPPFLAGS) -O1 -g -fsanitize=fuzzer-no-link,address,undefined
FUZZ_OBJ := $(patsubst src/%.c,build/fuzz/obj/%.o,$(LIB_SRC) $(GEN:build/gen/%=src/%))
build/fuzz/obj/%.o: src/%.c | $(GEN)
	@mkdir -p $(dir $@)
	clang $(FUZZ_CFLAGS) $(PKG_CFLAGS) -MMD -MP -c $< -o $@
build/fuzz/obj/%.o: build/gen/%.c
	@mkdir -p $(dir $@)
	clang $(FUZZ_CFLAGS) -c $< -o $@
build/fuzz/%: tests/fuzz/%.c $(FUZZ_OBJ)
	@mkdir -p $(dir $@)
	clang $(FUZZ_CFLAGS) -fsanitize=fuzzer $(PKG_CFLAGS) -o $@ $< $(FUZZ_OBJ) $(PKG_LIBS)
fuzz: $(FUZZERS)
	@for f in $(FUZZERS); do n=$${f##*/fuzz_}; mkdir -p build/fuzz/corpus-$$n; \
	  echo "fuzzing $$n for $(FUZZ_SECONDS)s"; \
	  $$f -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 build/fuzz/corpus-$$n tests/fuzz/corpus/$$n \
	    2>build/fuzz/$$n.log || { tail -40 build/fuzz/$$n.log; exit 1; }; \
	  grep -E 'stat::number_of_executed_units|Done ' build/fuzz/$$n.log; done
fuzz-quick:
	$(MAKE) fuzz FUZZ_SECONDS=$${FUZZ_SECONDS_QUICK:-15}

# The in-memory state's load time and bytes (bench/state_footprint.c).
build/bench-state: $(OBJ) bench/state_footprint.c
	$(CC) -std=c11 $(WARN) $(CPPFLAGS) $(CFLAGS) $(PKG_CFLAGS) -o $@ bench/state_footprint.c $(OBJ) \
	  $(PKG_LIBS)

# What a connect or leave costs the kept audience lists, at three sizes (bench/reach_follow.c).
build/bench-reach: $(OBJ) bench/reach_follow.c
	$(CC) -std=c11 $(WARN) $(CPPFLAGS) $(CFLAGS) $(PKG_CFLAGS) -o $@ bench/reach_follow.c $(OBJ) \
	  $(PKG_LIBS)

# The fan-out's low-cost measuring client (bench/fanout_probe.c, run by bench/large_server.js).
build/fanout-probe: bench/fanout_probe.c bench/ws_frame.h
	@mkdir -p build
	$(CC) -std=c11 $(WARN) $(CFLAGS) -o $@ bench/fanout_probe.c -lpthread

# The people simulator (bench/people/, run by bench/people.js).
PEOPLE_SIM_SRC := $(wildcard bench/people/*.c)
build/people-sim: $(PEOPLE_SIM_SRC) bench/people/people.h bench/ws_frame.h
	@mkdir -p build
	$(CC) -std=c11 $(WARN) $(CFLAGS) -o $@ $(PEOPLE_SIM_SRC) -lm

bench: build/praca build/bench-state build/bench-reach
	build/bench-state
	build/bench-reach
	bench/http_get.sh
	bench/bot_send.sh
	bench/gateway.sh

clean:
	rm -rf build

-include $(OBJ:.o=.d) $(ASAN_OBJ:.o=.d) $(FUZZ_OBJ:.o=.d) build/obj/main.d build/asan/obj/main.d
