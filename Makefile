# The two commands of the README (make demo, make test) and the developer targets around them.
JOBS ?= $(shell nproc)
RELEASE := build/release
ASAN := build/asan

.PHONY: setup build demo test test-asan bench format clean docs

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

bench: build
	@bash scripts/bench.sh $(RELEASE)

docs: build
	@$(RELEASE)/mppnet list keys --markdown > docs/config.md

format:
	@clang-format -i $$(git ls-files 'src/*.cpp' 'src/*.hpp' 'bench/*.cpp')

clean:
	@rm -rf build
