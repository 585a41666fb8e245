# Entry points for developers and CI. The two to know: `make run` (the whole stack in the
# foreground) and `make test` (every test against throwaway servers). See README.md.
BUILD_DIR ?= build
SANITIZE_DIR ?= build-sanitize
FUZZ_DIR ?= build-fuzz
BUILD_TYPE ?= RelWithDebInfo
# The units and the FHS layout assume /usr (configuration then goes to /etc).
PREFIX ?= /usr
JOBS ?= 2
# Extra ctest arguments for `make test`, e.g. CTEST_ARGS="-R unit".
CTEST_ARGS ?=

configure = cmake -S . -B $(1) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) -DCMAKE_INSTALL_PREFIX=$(PREFIX)

.PHONY: all deps build test run up down cluster-up cluster-down install sanitize fuzz bench chaos chaos-cluster \
	format clean

all: build

deps:
	@scripts/deps.sh

build: deps
	$(call configure,$(BUILD_DIR))
	cmake --build $(BUILD_DIR) -j$(JOBS)

test: build
	BUILD_DIR=$(BUILD_DIR) scripts/test.sh $(CTEST_ARGS)

run: build
	BUILD_DIR=$(BUILD_DIR) scripts/stack.sh run

up: build
	BUILD_DIR=$(BUILD_DIR) scripts/stack.sh up

down:
	BUILD_DIR=$(BUILD_DIR) scripts/stack.sh down

# Three Galera nodes, Redis with Sentinel, two APIs behind HAProxy, two workers, two schedulers.
cluster-up: build
	BUILD_DIR=$(BUILD_DIR) scripts/cluster.sh up

cluster-down:
	BUILD_DIR=$(BUILD_DIR) scripts/cluster.sh down

# Release build of everything, then every benchmark beside its peer: build/bench/results.md.
BENCH_DIR ?= build-release
bench: deps
	cmake -S . -B $(BENCH_DIR) -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=$(PREFIX)
	cmake --build $(BENCH_DIR) -j$(JOBS)
	BUILD_DIR=$(BENCH_DIR) scripts/bench.sh $(BENCH)

# The full chaos run (10,000 jobs under worker SIGKILLs and server restarts); CI runs a short form.
CHAOS_ARGS ?= --jobs 10000 --seconds 40
chaos: build
	BUILD_DIR=$(BUILD_DIR) scripts/with_servers.sh $(BUILD_DIR)/bin/squawk_chaos $(CHAOS_ARGS)

# The cluster chaos run (tests/chaos/cluster/): 10,000 jobs, 2,000 scheduled posts and 5,000
# webhook deliveries through HAProxy while workers, an API, the leading scheduler, a Galera node
# and the Redis primary fail; CI runs a short form. The cluster lives in a scratch folder.
CHAOS_CLUSTER_ARGS ?= --jobs 10000 --posts 2000 --deliveries 5000 --seconds 60
chaos-cluster: build
	BUILD_DIR=$(BUILD_DIR) scripts/with_servers.sh $(BUILD_DIR)/bin/squawk_chaos_cluster $(CHAOS_CLUSTER_ARGS)

# DESTDIR stages the tree for packaging: make install DESTDIR=/tmp/stage
install: build
	DESTDIR="$(DESTDIR)" cmake --install $(BUILD_DIR)

sanitize: deps
	$(call configure,$(SANITIZE_DIR)) -DSQUAWK_SANITIZE=ON
	cmake --build $(SANITIZE_DIR) -j$(JOBS)
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
		LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp \
		BUILD_DIR=$(SANITIZE_DIR) scripts/test.sh $(CTEST_ARGS)

# libFuzzer needs clang; the targets are tests/fuzz/*_fuzz.cpp. Each runs FUZZ_SECONDS on its corpus.
FUZZ_SECONDS ?= 30
fuzz: deps
	CXX=clang++ $(call configure,$(FUZZ_DIR)) -DSQUAWK_FUZZ=ON -DSQUAWK_TESTS=ON
	cmake --build $(FUZZ_DIR) -j$(JOBS) --target $$(cd tests/fuzz && ls *_fuzz.cpp | sed 's/\.cpp$$//')
	for source in tests/fuzz/*_fuzz.cpp; do \
		target=$$(basename $$source .cpp); name=$${target%_fuzz}; \
		mkdir -p $(FUZZ_DIR)/corpus/$$name; \
		$(FUZZ_DIR)/bin/$$target -max_total_time=$(FUZZ_SECONDS) $(FUZZ_DIR)/corpus/$$name tests/fuzz/corpus/$$name || exit 1; \
	done

format:
	git ls-files -z '*.cpp' '*.hpp' '*.h' | xargs -0 -r clang-format -i

clean:
	rm -rf $(BUILD_DIR) $(SANITIZE_DIR) $(FUZZ_DIR) $(BENCH_DIR)
