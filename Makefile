# The two commands of the README (make demo, make test) and the developer targets around them.
JOBS ?= $(shell nproc)
RELEASE := build/release
SANITIZED := build/sanitized
FUZZ_SECONDS ?= 30
# Compiles go through ccache when it is installed (scripts/setup.sh installs it): a rebuild of sources the
# cache has seen, in this clone or another one, takes seconds. Paths under the clone are hashed relative
# to it, so two clones share entries; precompiled headers are cached too (clang's sloppiness settings).
CCACHE := $(shell command -v ccache 2>/dev/null)
LAUNCHER := $(if $(CCACHE),-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
export CCACHE_BASEDIR := $(CURDIR)
export CCACHE_SLOPPINESS := pch_defines,time_macros,include_file_mtime,include_file_ctime

.PHONY: setup build sanitized demo test test-asan fuzz bench format format-check clean docs docs-check

setup:
	@bash scripts/setup.sh

build: setup
	@cmake -S . -B $(RELEASE) -G Ninja -DCMAKE_BUILD_TYPE=Release $(LAUNCHER) >/dev/null
	@cmake --build $(RELEASE) -j $(JOBS)

# The demo builds the mppnet program only, not the tests and benchmarks.
demo: setup
	@cmake -S . -B $(RELEASE) -G Ninja -DCMAKE_BUILD_TYPE=Release $(LAUNCHER) >/dev/null
	@cmake --build $(RELEASE) -j $(JOBS) --target mppnet
	@bash scripts/demo.sh $(RELEASE)/mppnet results/demo

test: build
	@cd $(RELEASE) && ctest --output-on-failure -j $(JOBS)

# One sanitized build serves the suite and the fuzz targets: clang, ASan, UBSan with clang's integer checks,
# libFuzzer's instrumentation, asserts on, -O1 (CMakeLists.txt, MPPNET_FUZZ; docs/testing.md).
sanitized:
	@bash scripts/setup.sh --fuzz
	@CXX=clang++ cmake -S . -B $(SANITIZED) -G Ninja -DCMAKE_BUILD_TYPE=Debug -DMPPNET_FUZZ=ON -DMPPNET_BENCH=OFF \
		$(LAUNCHER) >/dev/null
	@cmake --build $(SANITIZED) -j $(JOBS)

test-asan: sanitized
	@cd $(SANITIZED) && ctest --output-on-failure -j $(JOBS)

# Every fuzz target for FUZZ_SECONDS from its seed corpus; a finding fails the run and leaves its input
# in build/sanitized/findings/ (docs/testing.md).
fuzz: sanitized
	@bash scripts/fuzz.sh $(SANITIZED) $(FUZZ_SECONDS)

bench: build
	@bash scripts/bench.sh $(RELEASE)

# The pages generated from the code: the key reference and the validation table (which runs every case);
# then the prose is checked against that table (scripts/doc_figures.sh).
docs: build
	@$(RELEASE)/mppnet list keys --markdown > docs/config.md
	@bash scripts/validation_doc.sh $(RELEASE)/mppnet

# CI: fails if a generated page is not what the code gives now, or if README.md or docs/ name a
# validation case that does not exist or quote a figure its table does not give (docs/testing.md,
# "What docs-check checks").
docs-check: build
	@$(RELEASE)/mppnet list keys --markdown | diff -u docs/config.md - || \
		{ echo "docs/config.md is stale: run 'make docs' and commit it" >&2; exit 1; }
	@bash scripts/validation_doc.sh $(RELEASE)/mppnet --check

FORMATTED = $$(git ls-files 'src/*.cpp' 'src/*.hpp' 'bench/*.cpp' 'fuzz/*.cpp' 'fuzz/*.hpp')

format:
	@clang-format -i $(FORMATTED)

# CI: fails on a file that clang-format (.clang-format) would change.
format-check: setup
	@clang-format --dry-run -Werror $(FORMATTED)

clean:
	@rm -rf build
