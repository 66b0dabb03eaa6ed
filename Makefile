# Install git-mem, its man page and its shell completions under a prefix:
#
#   make install                      # PREFIX=/usr/local (may need sudo)
#   PREFIX=~/.local make install      # for one user; ~/.local/bin must be on PATH
#   make uninstall PREFIX=~/.local    # removes exactly what install put there
#
# DESTDIR is honoured for packaging. BIN names another binary to install (e.g. one
# of `npm run build:all`'s, dist/linux-arm64/git-mem); by default dist/git-mem,
# built with `npm run build` when missing.

PREFIX ?= /usr/local
DESTDIR ?=
BIN ?= dist/git-mem

bindir   = $(DESTDIR)$(PREFIX)/bin
man1dir  = $(DESTDIR)$(PREFIX)/share/man/man1
bashdir  = $(DESTDIR)$(PREFIX)/share/bash-completion/completions
zshdir   = $(DESTDIR)$(PREFIX)/share/zsh/site-functions
fishdir  = $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
fishconf = $(DESTDIR)$(PREFIX)/share/fish/vendor_conf.d

INSTALLED = $(bindir)/git-mem $(man1dir)/git-mem.1 $(bashdir)/git-mem $(zshdir)/_git-mem $(fishdir)/git-mem.fish $(fishconf)/git-mem.fish

.PHONY: all build install uninstall docs check-docs

all: $(BIN)

build:
	npm run --silent build

dist/git-mem:
	npm run --silent build

install: $(BIN)
	install -d $(bindir) $(man1dir) $(bashdir) $(zshdir) $(fishdir) $(fishconf)
	install -m 755 $(BIN) $(bindir)/git-mem
	install -m 644 man/git-mem.1 $(man1dir)/git-mem.1
	install -m 644 completions/git-mem.bash $(bashdir)/git-mem
	install -m 644 completions/_git-mem $(zshdir)/_git-mem
	install -m 644 completions/git-mem.fish $(fishdir)/git-mem.fish
	install -m 644 completions/git-mem.conf.fish $(fishconf)/git-mem.fish
	@echo "installed git-mem under $(DESTDIR)$(PREFIX); try: git mem --version && git mem --help"

uninstall:
	rm -f $(INSTALLED)

docs:
	npm run --silent docs

check-docs:
	npm run --silent docs:check
