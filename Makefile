# The two commands of the README (make demo, make test) and the developer targets around them.
JOBS ?= $(shell nproc)
RELEASE := build/release
ASAN := build/asan
FUZZ := build/fuzz
FUZZ_SECONDS ?= 30

.PHONY: setup build demo test test-asan fuzz bench format clean docs docs-check

setup:
	@bash scripts/setup.sh

build: setup
	@cmake -S . -B $(RELEASE) -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
	@cmake --build $(RELEASE) -j $(JOBS)

# The demo builds the mppnet program only, not the tests and benchmarks.
demo: setup
	@cmake -S . -B $(RELEASE) -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
	@cmake --build $(RELEASE) -j $(JOBS) --target mppnet
	@bash scripts/demo.sh $(RELEASE)/mppnet results/demo

test: build
	@cd $(RELEASE) && ctest --output-on-failure -j $(JOBS)

test-asan: setup
	@cmake -S . -B $(ASAN) -G Ninja -DCMAKE_BUILD_TYPE=Debug -DMPPNET_SANITIZE=ON -DMPPNET_BENCH=OFF >/dev/null
	@cmake --build $(ASAN) -j $(JOBS)
	@cd $(ASAN) && ctest --output-on-failure -j $(JOBS)

# The libFuzzer targets of fuzz/ (clang, ASan, UBSan with integer checks), each for FUZZ_SECONDS from
# its seed corpus; a finding fails the run and leaves its input in build/fuzz/findings/ (docs/testing.md).
fuzz:
	@bash scripts/setup.sh --fuzz
	@CXX=clang++ cmake -S . -B $(FUZZ) -G Ninja -DCMAKE_BUILD_TYPE=Release -DMPPNET_FUZZ=ON -DMPPNET_TESTS=OFF \
		-DMPPNET_BENCH=OFF >/dev/null
	@cmake --build $(FUZZ) -j $(JOBS)
	@bash scripts/fuzz.sh $(FUZZ) $(FUZZ_SECONDS)

bench: build
	@bash scripts/bench.sh $(RELEASE)

# The pages generated from the code: the key reference and the validation table (which runs every case).
docs: build
	@$(RELEASE)/mppnet list keys --markdown > docs/config.md
	@bash scripts/validation_doc.sh $(RELEASE)/mppnet

# CI: fails if a generated page is not what the code gives now.
docs-check: build
	@$(RELEASE)/mppnet list keys --markdown | diff -u docs/config.md - || \
		{ echo "docs/config.md is stale: run 'make docs' and commit it" >&2; exit 1; }
	@bash scripts/validation_doc.sh $(RELEASE)/mppnet --check

format:
	@clang-format -i $$(git ls-files 'src/*.cpp' 'src/*.hpp' 'bench/*.cpp' 'fuzz/*.cpp' 'fuzz/*.hpp')

clean:
	@rm -rf build
