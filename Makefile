# gemline: build, install, test, demo, bench.
#
#   make                      build the four programs (release)
#   make install              programs, man pages and completions under PREFIX
#   make install DESTDIR=/tmp/stage PREFIX=/usr    staged, for packaging
#   make uninstall            removes exactly what install put there
#   make test | demo | bench  the test suite, the README demo, the benchmarks
#
# install does not build (so `sudo make install` compiles nothing as root):
# it installs the binaries in $(BUILD_DIR) and says so when one is missing.

PREFIX      ?= /usr/local
DESTDIR     ?=
CARGO       ?= cargo
PROFILE     ?= release
BUILD_DIR   ?= target/$(PROFILE)
INSTALL     ?= install

bindir      := $(PREFIX)/bin
mandir      := $(PREFIX)/share/man
bashdir     := $(PREFIX)/share/bash-completion/completions
zshdir      := $(PREFIX)/share/zsh/site-functions
fishdir     := $(PREFIX)/share/fish/vendor_completions.d

PROGRAMS    := gem-ask viz-parse viz-render topic-tag
BENCHES     ?= viz topic_tag grammar gem_ask memory

.PHONY: all build install uninstall test demo bench docs

all: build

build:
	$(CARGO) build --locked --profile $(PROFILE)

# man/ and completions/ are generated from the clap definitions and checked
# current by the test suite; this regenerates them after a flag changes.
docs:
	UPDATE_DOCS=1 $(CARGO) test --locked --test it docs_current

install:
	@for p in $(PROGRAMS); do \
	    test -x "$(BUILD_DIR)/$$p" || { echo "make install: $(BUILD_DIR)/$$p is missing: run make first" >&2; exit 1; }; \
	done
	$(INSTALL) -d "$(DESTDIR)$(bindir)" "$(DESTDIR)$(mandir)/man1" "$(DESTDIR)$(mandir)/man5" \
	    "$(DESTDIR)$(bashdir)" "$(DESTDIR)$(zshdir)" "$(DESTDIR)$(fishdir)"
	for f in man/*.1; do $(INSTALL) -m 644 "$$f" "$(DESTDIR)$(mandir)/man1/" || exit 1; done
	for p in $(PROGRAMS); do \
	    $(INSTALL) -m 755 "$(BUILD_DIR)/$$p" "$(DESTDIR)$(bindir)/$$p" && \
	    $(INSTALL) -m 644 "completions/$$p.bash" "$(DESTDIR)$(bashdir)/$$p" && \
	    $(INSTALL) -m 644 "completions/_$$p" "$(DESTDIR)$(zshdir)/_$$p" && \
	    $(INSTALL) -m 644 "completions/$$p.fish" "$(DESTDIR)$(fishdir)/$$p.fish" || exit 1; \
	done
	$(INSTALL) -m 644 man/gemline-events.5 "$(DESTDIR)$(mandir)/man5/gemline-events.5"

uninstall:
	for f in man/*.1; do rm -f "$(DESTDIR)$(mandir)/man1/$${f#man/}"; done
	for p in $(PROGRAMS); do \
	    rm -f "$(DESTDIR)$(bindir)/$$p" \
	          "$(DESTDIR)$(bashdir)/$$p" "$(DESTDIR)$(zshdir)/_$$p" "$(DESTDIR)$(fishdir)/$$p.fish"; \
	done
	rm -f "$(DESTDIR)$(mandir)/man5/gemline-events.5"

test:
	$(CARGO) test --locked

demo: build
	./demo.sh

# Each script prints its figures beside a peer tool's; BENCHES=viz picks one.
bench: build
	for b in $(BENCHES); do benches/$$b.sh || exit 1; done
