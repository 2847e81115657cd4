# bridged: the two commands a newcomer needs are `make run` and `make test`.
SWIFT ?= swift
SUDO := $(shell command -v sudo >/dev/null 2>&1 && [ "$$(id -u)" != 0 ] && echo sudo)
APT_GET := $(SUDO) apt-get
RELEASE_BIN := .build/release/bridged
DEBUG_BIN := .build/debug/bridged

# React Native 0.72.6's JavaScript packages, as an app's node_modules: the shared test data beside the repository
# (on every developer machine and in CI; never copied into it). Where it is absent the tests that need it skip.
SHARED_RN_NODE_MODULES ?= $(abspath $(CURDIR)/../shared/react-native-0.72.6/node_modules)
HAVE_SHARED_RN := $(wildcard $(SHARED_RN_NODE_MODULES)/react-native/package.json)
export BRIDGED_RN_NODE_MODULES := $(SHARED_RN_NODE_MODULES)
# React Native's renderer files for the live renderer tests: given (make test BRIDGED_RN_RENDERER=…), else the
# shared test data's.
ifneq ($(HAVE_SHARED_RN),)
BRIDGED_RN_RENDERER ?= $(SHARED_RN_NODE_MODULES)/react-native/Libraries/Renderer/implementations/ReactNativeRenderer-dev.js
BRIDGED_RN_FABRIC_RENDERER ?= $(SHARED_RN_NODE_MODULES)/react-native/Libraries/Renderer/implementations/ReactFabric-dev.js
endif
export BRIDGED_RN_RENDERER BRIDGED_RN_FABRIC_RENDERER

.PHONY: all deps deps-jest build release run install test test-js test-types lint test-example bench fuzz soak clean

all: build

# Install the system packages the build and the tests need, only when they are missing.
deps:
	@pkg-config --exists jansson || { echo "installing libjansson-dev"; \
	  $(APT_GET) update -qq && DEBIAN_FRONTEND=noninteractive $(APT_GET) install -y -qq libjansson-dev pkg-config; }
	@pkg-config --exists cairo pangocairo || { echo "installing libcairo2-dev, libpango1.0-dev (pictures and text measured with fonts)"; \
	  $(APT_GET) update -qq && DEBIAN_FRONTEND=noninteractive $(APT_GET) install -y -qq libcairo2-dev libpango1.0-dev; }
	@pkg-config --exists libjpeg || { echo "installing libjpeg-dev (JPEG images in pictures)"; \
	  $(APT_GET) update -qq && DEBIAN_FRONTEND=noninteractive $(APT_GET) install -y -qq libjpeg-dev; }
	@fc-list -q Inter && fc-list -q "DejaVu Sans" || { echo "installing fonts-inter, fonts-dejavu-core (the default text font)"; \
	  $(APT_GET) update -qq && DEBIAN_FRONTEND=noninteractive $(APT_GET) install -y -qq fonts-inter fonts-dejavu-core; }
	@fc-list -q "Noto Color Emoji" || { echo "installing fonts-noto-color-emoji (emoji, measured and drawn as a phone draws them)"; \
	  $(APT_GET) update -qq && DEBIAN_FRONTEND=noninteractive $(APT_GET) install -y -qq fonts-noto-color-emoji; }
	@command -v socat >/dev/null || { echo "installing socat"; \
	  $(APT_GET) update -qq && DEBIAN_FRONTEND=noninteractive $(APT_GET) install -y -qq socat; }
	@command -v systemd-socket-activate >/dev/null || { echo "installing systemd (systemd-socket-activate)"; \
	  $(APT_GET) update -qq && DEBIAN_FRONTEND=noninteractive $(APT_GET) install -y -qq systemd; }
	@command -v node >/dev/null || { echo "installing nodejs"; \
	  $(APT_GET) update -qq && DEBIAN_FRONTEND=noninteractive $(APT_GET) install -y -qq nodejs; }
	@command -v tsc >/dev/null || { echo "installing node-typescript (tsc, for test-types)"; \
	  $(APT_GET) update -qq && DEBIAN_FRONTEND=noninteractive $(APT_GET) install -y -qq node-typescript; }
	@[ -f /usr/share/nodejs/react/package.json ] && [ -f /usr/share/nodejs/scheduler/package.json ] \
	  && [ -d /usr/share/nodejs/@babel/preset-react ] || { \
	  echo "installing node-react, node-scheduler, node-babel7 (React for the React Native tests, Babel for the example's JSX)"; \
	  $(APT_GET) update -qq && DEBIAN_FRONTEND=noninteractive $(APT_GET) install -y -qq node-react node-scheduler node-babel7; }

# Debian's jest 29 (for preset: 'bridged-client''s tests). Its node-jest-worker depends on node-types-node, which
# only Debian's own Node satisfies: on a machine whose Node is not Debian's (NodeSource's), an empty local package
# built with dpkg-deb provides it (nothing at run time needs Node's typings). Debian's jest then runs with
# NODE_PATH=/usr/share/nodejs:/usr/lib/nodejs and js-client/lib/jest/debian-node.cjs preloaded (JEST below).
deps-jest:
	@command -v jest >/dev/null || { echo "installing jest (Debian's, for the jest preset's tests)"; \
	  $(APT_GET) update -qq; \
	  if ! apt-get install -s -qq jest >/dev/null 2>&1; then \
	    dir=$$(mktemp -d) && mkdir -p $$dir/pkg/DEBIAN && printf '%s\n' 'Package: node-types-node' 'Version: 99.0-bridged1' \
	      'Architecture: all' 'Maintainer: bridged <bridged@localhost>' \
	      "Description: empty stand-in for Node's typings, which Debian's jest does not use at run time" > $$dir/pkg/DEBIAN/control && \
	    dpkg-deb --build $$dir/pkg $$dir/node-types-node.deb >/dev/null && $(SUDO) dpkg -i $$dir/node-types-node.deb >/dev/null; rm -rf $$dir; \
	  fi; \
	  DEBIAN_FRONTEND=noninteractive $(APT_GET) install -y -qq jest || echo "jest could not be installed: the jest preset's tests will skip"; }

# Debian's jest, as the preset's tests and the example run it.
JEST := NODE_PATH=/usr/share/nodejs:/usr/lib/nodejs NODE_OPTIONS="--require $(CURDIR)/js-client/lib/jest/debian-node.cjs" jest

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release

# Build in release mode and run the daemon in the foreground on the default socket.
run: release
	$(RELEASE_BIN) $(ARGS)

# Install for the current user: the release binary to $(BINDIR), the user units to $(UNITDIR) (their ExecStart
# and Documentation pointing at what is installed here), the docs to $(DOCDIR). Then:
#   systemctl --user daemon-reload && systemctl --user enable --now bridged.socket
# PREFIX=/usr/local UNITDIR=/etc/systemd/user installs for every user (as root). contrib/systemd/README.md.
PREFIX ?= $(HOME)/.local
BINDIR ?= $(PREFIX)/bin
DOCDIR ?= $(PREFIX)/share/doc/bridged
UNITDIR ?= $(HOME)/.config/systemd/user
UNIT_PATHS := -e 's|%h/.local/bin/bridged|$(BINDIR)/bridged|g' -e 's|file://%h/.local/share/doc/bridged|file://$(DOCDIR)|g'

install: release
	install -D -m 0755 $(RELEASE_BIN) $(DESTDIR)$(BINDIR)/bridged
	install -D -m 0644 README.md protocol.md -t $(DESTDIR)$(DOCDIR)
	install -D -m 0644 contrib/systemd/README.md $(DESTDIR)$(DOCDIR)/systemd.md
	mkdir -p $(DESTDIR)$(UNITDIR)
	for unit in bridged.socket bridged.service; do \
	  sed $(UNIT_PATHS) contrib/systemd/$$unit > $(DESTDIR)$(UNITDIR)/$$unit.tmp && chmod 0644 $(DESTDIR)$(UNITDIR)/$$unit.tmp && \
	  mv $(DESTDIR)$(UNITDIR)/$$unit.tmp $(DESTDIR)$(UNITDIR)/$$unit || exit 1; \
	done
	@echo "installed $(BINDIR)/bridged, and bridged.socket and bridged.service in $(UNITDIR); now:"
	@echo "  systemctl --user daemon-reload && systemctl --user enable --now bridged.socket"

# Every test: the Swift suites (engine, replayed sessions, daemon), then the Node client against the real binary
# and its type declarations under tsc --strict (test-js runs js-client/test/types/ too).
test: deps
	$(MAKE) lint
	$(SWIFT) build
	$(SWIFT) test
	$(MAKE) test-js
	$(MAKE) test-example

# The example package (Examples/CustomComponent): a daemon of one's own with a Swift component, built against
# this checkout and driven over its socket, its recording replayed by its own binary. Then the example React
# Native app (Examples/ReactNativeApp: an app's own files over React Native's package, driven through openApp). SwiftPM keeps a path
# dependency's file list in the build description, so that is dropped first to see files added since.
EXAMPLE := Examples/CustomComponent
test-example: deps-jest
	rm -f $(EXAMPLE)/.build/debug.yaml $(EXAMPLE)/.build/debug/description.json
	$(SWIFT) build --package-path $(EXAMPLE)
	@# The examples' tests import the client as an app does, 'bridged-client' from node_modules: linked to js-client.
	for dir in $(EXAMPLE) Examples/ReactNativeApp; do mkdir -p $$dir/node_modules && ln -sfn $(CURDIR)/js-client $$dir/node_modules/bridged-client; done
	@# The React Native app's own packages (react-native, react, its Babel preset), linked one by one from the shared
	@# test data when it is there; without them its test skips and says why.
	@if [ -n "$(HAVE_SHARED_RN)" ]; then for pkg in $(SHARED_RN_NODE_MODULES)/* $(SHARED_RN_NODE_MODULES)/.bin; do \
	  [ -e "$$pkg" ] && ln -sfn "$$pkg" Examples/ReactNativeApp/node_modules/; done; true; \
	else echo "no $(SHARED_RN_NODE_MODULES): Examples/ReactNativeApp's test will skip"; fi
	NODE_PATH=/usr/share/nodejs node --test $(EXAMPLE)/test/
	@# Its test spawns the daemon it connects to (connect({spawn: true})), as an app's would: here on a socket of its
	@# own, not the user's default one (where another checkout's daemon may be listening), stopped afterwards.
	dir=$$(mktemp -d) && BRIDGED_SOCKET=$$dir/b.sock BRIDGED_BIN=$(CURDIR)/$(DEBUG_BIN) NODE_PATH=/usr/share/nodejs \
	  node --test Examples/ReactNativeApp/test/; status=$$?; pkill -TERM -f -- "--socket $$dir/b.sock"; \
	  while pgrep -f -- "--socket $$dir/b.sock" > /dev/null; do sleep 0.1; done; rm -rf $$dir; exit $$status
	@# The same app's tests as a team writes them (__tests__/, React Native Testing Library's API), under its jest
	@# config's one line, preset: 'bridged-client'. Under preset: 'react-native' too where the app has React Native
	@# Testing Library installed (jest.config.mocks.js; npm's registry is out of reach here, so it skips saying so).
	@if [ -z "$(HAVE_SHARED_RN)" ]; then echo "no $(SHARED_RN_NODE_MODULES): the example's jest tests skip"; \
	elif ! command -v jest >/dev/null; then echo "no jest: the example's jest tests skip"; \
	else cd Examples/ReactNativeApp && BRIDGED_BIN=$(CURDIR)/$(DEBUG_BIN) $(JEST) --ci || exit 1; \
	  if [ -e node_modules/@testing-library/react-native/package.json ]; then $(JEST) --ci --config jest.config.mocks.js || exit 1; \
	  else echo "no @testing-library/react-native in Examples/ReactNativeApp/node_modules: its tests under preset: 'react-native' skip"; fi; fi

# The Node client against the real binary; js-client/test/types/ (index.d.ts under tsc --strict) runs with it.
# React comes from Debian (node-react, under /usr/share/nodejs). React Native's renderer cannot be committed: the
# live React Native tests run when BRIDGED_RN_RENDERER names ReactNativeRenderer-dev.js (and
# BRIDGED_RN_FABRIC_RENDERER ReactFabric-dev.js); their recorded traces always run.
# Chromium is needed only by the DevTools page test (js-client/test/devtools.test.js), which skips itself with a
# message where it could not be installed.
test-js: deps-jest
	@command -v chromium >/dev/null || command -v chromium-browser >/dev/null || { \
	  echo "installing chromium (for the DevTools page test only)"; \
	  { $(APT_GET) update -qq && DEBIAN_FRONTEND=noninteractive $(APT_GET) install -y -qq chromium; } \
	  || echo "chromium could not be installed: the DevTools page test will be skipped"; }
	@if [ -d js-client/test ]; then BRIDGED_BIN=$(CURDIR)/$(DEBUG_BIN) NODE_PATH=/usr/share/nodejs node --test js-client/test/; fi

# The Swift sources under the repository's .swift-format (swift format ships with the toolchain): a finding fails.
# Then the JavaScript: no file over 1,000 lines, and 120 columns in the folders js-client/test-support/lint-js.mjs
# lists (STRICT).
SWIFT_FORMAT_PATHS := Package.swift Sources Tests/BridgeTests Tests/Fuzz/FuzzEngine bench/EngineBench \
  Examples/CustomComponent/Package.swift Examples/CustomComponent/Sources
lint:
	$(SWIFT) format lint --strict --configuration .swift-format -r $(SWIFT_FORMAT_PATHS)
	node js-client/test-support/lint-js.mjs

# Only index.d.ts under tsc --strict: the programs of js-client/test/types/, README's examples, must-fail.ts.
test-types:
	node --test js-client/test/types/

bench: release
	$(MAKE) -C bench

# libFuzzer over the engine's input path (Tests/Fuzz) for FUZZ_SECONDS, from a copy of the seed corpus in
# FUZZ_DIR; a crash or a broken invariant fails the target and leaves its input in $(FUZZ_DIR)/artifacts/.
# Then every input of the grown corpus is run once more with leak detection. The libFuzzer runtime comes with
# the Swift toolchain (libclang_rt.fuzzer); Tests/Fuzz/README.md says more.
FUZZ_SECONDS ?= 180
FUZZ_DIR ?= .build-fuzz/run
FUZZ_BUILD := $(SWIFT) build -c release --product FuzzEngine --scratch-path .build-fuzz \
  -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING -Xswiftc -enforce-exclusivity=checked -Xswiftc -enable-experimental-feature -Xswiftc Extern
FUZZ_BIN := $(CURDIR)/.build-fuzz/release/FuzzEngine

fuzz: deps
	$(FUZZ_BUILD)
	rm -rf $(FUZZ_DIR) && mkdir -p $(FUZZ_DIR)/corpus $(FUZZ_DIR)/artifacts && cp Tests/Fuzz/corpus/* $(FUZZ_DIR)/corpus/
	cd $(FUZZ_DIR) && { ASAN_OPTIONS=detect_leaks=0 $(FUZZ_BIN) -max_len=4096 -max_total_time=$(FUZZ_SECONDS) -timeout=10 -detect_leaks=0 \
	  -artifact_prefix=artifacts/ -print_final_stats=1 corpus 2>&1; echo $$? > status; } | tee fuzz.log \
	  | grep --line-buffered -vE '^#[0-9]+[[:space:]]+(NEW|REDUCE)'; exit $$(cat status)
	cd $(FUZZ_DIR) && LSAN_OPTIONS=suppressions=$(CURDIR)/Tests/Fuzz/lsan.supp \
	  $(FUZZ_BIN) -runs=0 -detect_leaks=1 -artifact_prefix=artifacts/ corpus > leaks.log 2>&1 \
	  || { tail -n 60 leaks.log; exit 1; }
	@echo "fuzz: no crash, no leak; log in $(FUZZ_DIR)/fuzz.log, corpus grown to $$(ls $(FUZZ_DIR)/corpus | wc -l) inputs"

# Load and faults for SOAK_SECONDS (default 180, then about 70 s for sessions to expire): 200 clients, workers
# killed with SIGKILL, connections cut mid-line, a non-reading client, the daemon restarted with SIGTERM; then
# every event owed received exactly once, every view's props as last set, the daemon alive and its RSS bounded.
# Uses the release build if there is one (make release), else the debug one; Tests/Soak/README.md says more.
soak: build
	node Tests/Soak/soak.mjs

clean:
	rm -rf .build
