# bridged: the two commands a newcomer needs are `make run` and `make test`.
SWIFT ?= swift
APT_GET := $(shell command -v sudo >/dev/null 2>&1 && [ "$$(id -u)" != 0 ] && echo sudo) apt-get
RELEASE_BIN := .build/release/bridged
DEBUG_BIN := .build/debug/bridged

.PHONY: all deps build release run test test-swift test-js bench clean

all: build

# Install the system packages the build and the tests need, only when they are missing.
deps:
	@pkg-config --exists jansson || { echo "installing libjansson-dev"; \
	  $(APT_GET) update -qq && DEBIAN_FRONTEND=noninteractive $(APT_GET) install -y -qq libjansson-dev pkg-config; }
	@command -v socat >/dev/null || { echo "installing socat"; \
	  $(APT_GET) update -qq && DEBIAN_FRONTEND=noninteractive $(APT_GET) install -y -qq socat; }
	@command -v systemd-socket-activate >/dev/null || { echo "installing systemd (systemd-socket-activate)"; \
	  $(APT_GET) update -qq && DEBIAN_FRONTEND=noninteractive $(APT_GET) install -y -qq systemd; }
	@command -v node >/dev/null || { echo "installing nodejs"; \
	  $(APT_GET) update -qq && DEBIAN_FRONTEND=noninteractive $(APT_GET) install -y -qq nodejs; }

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release

# Build in release mode and run the daemon in the foreground on the default socket.
run: release
	$(RELEASE_BIN) $(ARGS)

# Every test: the Swift suites (engine, replayed sessions, daemon), then the Node client against the real binary.
test: deps
	$(SWIFT) build
	$(SWIFT) test
	$(MAKE) test-js

test-js:
	@if [ -d js-client/test ]; then BRIDGED_BIN=$(CURDIR)/$(DEBUG_BIN) node --test js-client/test/; fi

bench: release
	$(MAKE) -C bench

clean:
	rm -rf .build
