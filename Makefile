# iotrial: plain make, dependencies through pkg-config.
#
#   make          build ./iotrial (optimised)
#   make check    install missing test dependencies (root; otherwise print
#                 the apt-get line and stop), build with -Werror, build the
#                 ASan+UBSan variant, run the unit tests (cmocka), the CLI
#                 tests, and short fuzz runs; ends with "N passed, N failed"
#   make fuzz-long  each fuzz target for FUZZ_SECONDS (default 300), with
#                 its figures (FUZZ_TARGETS="export import" picks some)
#   make model-roundtrip  every run and experiment document in JSON_DIR
#                 (default: what make check kept) through the model's
#                 codec and back, byte for byte, with figures by kind
#   make demo     install missing build dependencies (root) and run the
#                 main job on its embedded defaults
#   make install  install ./iotrial, its manual and its bash and zsh completions
#                 under $(DESTDIR)$(PREFIX) (PREFIX=/usr/local by default)
#   make deb      the Debian package (debian/) into build/deb/; make check-deb
#                 also checks it (lintian, systemd-analyze verify)

# The first goal is the default: plain make builds the program, whatever
# rules (the BPF object below) come before its own.
.DEFAULT_GOAL := all

CC      ?= cc
# build in parallel unless told otherwise (-jN on the command line wins);
# only at the top: a sub-make (make demo's, make check's) shares its jobs
ifeq ($(MAKELEVEL),0)
ifeq ($(filter -j%,$(MAKEFLAGS)),)
MAKEFLAGS += -j$(shell nproc 2>/dev/null || echo 2)
endif
endif
PKGS    := liburing blkid json-c sqlite3 libbpf
CFLAGS  ?= -O2 -g
WARN    := -Wall -Wextra -Werror -Wno-sign-compare \
           -Wno-missing-field-initializers -Wshadow -Wformat=2 -Wundef
BASE    := -std=gnu11 -D_GNU_SOURCE -pthread -MMD -MP
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null)
LIBS    := $(PKG_LIBS) -lelf -lz -laio -lpthread -lm
# quiet by default, as the kernel's: V=1 shows every command
ifeq ($(V),1)
Q :=
say = @true
else
Q := @
say = @printf '  %-6s %s\n' $(1) $(2)
endif
SAN     := -fsanitize=address,undefined -fno-omit-frame-pointer \
           -fno-sanitize-recover=undefined

LIB_SRC := $(sort $(shell find src -name '*.c' ! -path src/main.c \
		! -path 'src/bpf/*'))
UNIT_SRC := $(sort $(wildcard tests/unit/test_*.c))
FUZZ_SRC := $(sort $(wildcard tests/fuzz/fuzz_*.c))

REL_OBJ := $(LIB_SRC:%.c=build/rel/%.o)

# The capture's BPF program (src/bpf/): built for the BPF target from
# hand-declared tracepoint layouts (no vmlinux.h, no BTF of the build
# host), then embedded as a libbpf skeleton that core/trace/capture.c
# includes.
BPF_CLANG ?= clang
BPFTOOL   ?= bpftool
# asm/types.h of the host's multiarch directory (clang -dumpmachine
# names no Debian directory, so ask dpkg, then gcc)
BPF_ARCH_INC := -I/usr/include/$(shell dpkg-architecture \
	-qDEB_HOST_MULTIARCH 2>/dev/null || gcc -dumpmachine 2>/dev/null)
BPF_SKEL  := build/bpf/iotrace.skel.h

build/bpf/iotrace.bpf.o: src/bpf/iotrace.bpf.c src/bpf/iotrace.h
	@mkdir -p $(dir $@)
	$(call say,BPF,$<)
	$(Q)$(BPF_CLANG) -target bpf -O2 -g $(BPF_ARCH_INC) -c -o $@ $<

$(BPF_SKEL): build/bpf/iotrace.bpf.o
	$(call say,SKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton $< name iotrace > $@.tmp && mv $@.tmp $@

CAPTURE_OBJ := $(foreach v,rel san fuzz,build/$(v)/src/core/trace/capture.o)
$(CAPTURE_OBJ): $(BPF_SKEL)
$(CAPTURE_OBJ): PKG_CFLAGS += -Ibuild/bpf
SAN_OBJ := $(LIB_SRC:%.c=build/san/%.o)
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=build/san/tests/%)
FUZZ_BIN := $(FUZZ_SRC:tests/fuzz/%.c=build/fuzz/%)

all: iotrial docs/iotrial.1

# The manual: its option lists made from the option rows by the program
# itself (iotrial help --man, src/cli/manpage.h), its prose from the
# template. Not checked in: edit docs/iotrial.1.in.
docs/iotrial.1: docs/iotrial.1.in iotrial
	$(call say,MAN,$@)
	$(Q)./iotrial help --man < $< > $@.tmp && mv $@.tmp $@

iotrial: build/rel/src/main.o build/rel/libiotrial.a
	$(call say,LINK,$@)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -pthread -o $@ $^ $(LIBS)

build/rel/%.o: %.c
	@mkdir -p $(dir $@)
	$(call say,CC,$<)
	$(Q)$(CC) $(BASE) $(WARN) $(CPPFLAGS) $(CFLAGS) $(PKG_CFLAGS) -c -o $@ $<

build/rel/libiotrial.a: $(REL_OBJ)
	@rm -f $@
	$(call say,AR,$@)
	$(Q)ar rcs $@ $^

# The sanitizer build: what the tests run.
build/san/%.o: %.c
	@mkdir -p $(dir $@)
	$(call say,CC-SAN,$<)
	$(Q)$(CC) $(BASE) $(WARN) -O1 -g $(SAN) $(PKG_CFLAGS) -c -o $@ $<

build/san/libiotrial.a: $(SAN_OBJ)
	@rm -f $@
	$(call say,AR,$@)
	$(Q)ar rcs $@ $^

build/san/iotrial: build/san/src/main.o build/san/libiotrial.a
	$(call say,LINK,$@)
	$(Q)$(CC) $(SAN) -pthread -o $@ $^ $(LIBS)

build/san/tests/%: tests/unit/%.c build/san/libiotrial.a
	@mkdir -p $(dir $@)
	$(call say,TEST,$@)
	$(Q)$(CC) $(BASE) $(WARN) -O1 -g $(SAN) $(PKG_CFLAGS) -Isrc \
		$(shell pkg-config --cflags cmocka) -o $@ $< \
		build/san/libiotrial.a $(shell pkg-config --libs cmocka) $(LIBS)

# libFuzzer targets need clang; skipped (and said so) without it.
FUZZ_CC ?= clang
FUZZ_FLAGS := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer
FUZZ_OBJ := $(LIB_SRC:%.c=build/fuzz/%.o)

build/fuzz/%.o: %.c
	@mkdir -p $(dir $@)
	$(call say,CC-FUZ,$<)
	$(Q)$(FUZZ_CC) $(BASE) $(WARN) $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link \
		$(PKG_CFLAGS) -c -o $@ $<

build/fuzz/libiotrial.a: $(FUZZ_OBJ)
	@rm -f $@
	$(call say,AR,$@)
	$(Q)ar rcs $@ $^

build/fuzz/%: tests/fuzz/%.c build/fuzz/libiotrial.a
	$(call say,FUZZ,$@)
	$(Q)$(FUZZ_CC) $(BASE) $(FUZZ_FLAGS) -fsanitize=fuzzer $(PKG_CFLAGS) \
		-Isrc -o $@ $< build/fuzz/libiotrial.a $(LIBS)

# bench/ratio-ci: the paired ratio statistics of compare, for bench/
bench/ratio-ci: bench/ratio-ci.c build/rel/libiotrial.a
	$(call say,LINK,$@)
	$(Q)$(CC) $(BASE) $(WARN) $(CFLAGS) -Isrc -o $@ $< build/rel/libiotrial.a -lm

# bench/reanalyze: an experiment analysed again, for bench/aa.py
bench/reanalyze: bench/reanalyze.c build/rel/libiotrial.a
	$(call say,LINK,$@)
	$(Q)$(CC) $(BASE) $(WARN) $(CFLAGS) $(PKG_CFLAGS) -Isrc -o $@ $< \
		build/rel/libiotrial.a $(LIBS)

# The packages first (tools/deps.txt: installed when root, else named with
# the apt-get line to run), then a new make, whose pkg-config flags see
# what was just installed.
check:
	@tools/deps.sh --install --for 'make check'
	@$(MAKE) --no-print-directory check-run

# check without the package step; the fuzz targets are built beside the
# tests (run-tests.sh, FUZZ_BUILD), the build at the lowest priority
check-run: iotrial docs/iotrial.1 build/san/iotrial bench/ratio-ci $(UNIT_BIN)
	@FUZZ_BUILD=$$(command -v $(FUZZ_CC) >/dev/null && echo 1) \
		tests/run-tests.sh

fuzz-build: $(FUZZ_BIN)

# the unit tests alone (no root, no devices): what the package build runs
check-unit: $(UNIT_BIN)
	@TESTS='unit/*' tests/run-tests.sh

# The Debian package (debian/), built by dpkg-buildpackage in a clean
# copy of the tracked files, as a normal user (root builds as nobody),
# into build/deb/; DEB_BUILD_OPTIONS=nocheck skips its unit tests.
# check-deb builds it and checks it: lintian, the boot unit, contents.
deb:
	@debian/build-deb build/deb

check-deb:
	@IOTRIAL_PACKAGE_TEST=1 TESTS='cli/package' tests/run-tests.sh

# The fleet over real SSH (tests/cli/fleet_ssh.sh): hosts in network
# namespaces and root file systems of the test's own; a few minutes, so
# make check skips it.
check-fleet: build/san/iotrial
	@tools/deps.sh --install --fleet --for 'make check-fleet'
	@IOTRIAL_FLEET_SSH=1 TESTS='cli/fleet_ssh' tests/run-tests.sh

# every fuzz target for FUZZ_SECONDS (300) each, with its figures
fuzz-long: fuzz-build
	@tools/fuzz-long.sh $(or $(FUZZ_SECONDS),300)

model-roundtrip: build/san/tests/test_model_json
	@build/san/tests/test_model_json --dir \
		$(or $(JSON_DIR),build/test-logs/json)

demo:
	+@tools/demo.sh

# Where make install puts things; DESTDIR stages them for a package.
PREFIX      ?= /usr/local
BINDIR      ?= $(PREFIX)/bin
MANDIR      ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR  ?= $(PREFIX)/share/zsh/vendor-completions
INSTALL     ?= install

install: iotrial docs/iotrial.1 completion/iotrial.bash completion/_iotrial
	$(Q)$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 \
		$(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR)
	$(call say,INSTALL,$(DESTDIR)$(BINDIR)/iotrial)
	$(Q)$(INSTALL) -m 755 iotrial $(DESTDIR)$(BINDIR)/iotrial
	$(call say,INSTALL,$(DESTDIR)$(MANDIR)/man1/iotrial.1)
	$(Q)$(INSTALL) -m 644 docs/iotrial.1 $(DESTDIR)$(MANDIR)/man1/iotrial.1
	$(call say,INSTALL,$(DESTDIR)$(BASHCOMPDIR)/iotrial)
	$(Q)$(INSTALL) -m 644 completion/iotrial.bash \
		$(DESTDIR)$(BASHCOMPDIR)/iotrial
	$(call say,INSTALL,$(DESTDIR)$(ZSHCOMPDIR)/_iotrial)
	$(Q)$(INSTALL) -m 644 completion/_iotrial $(DESTDIR)$(ZSHCOMPDIR)/_iotrial

uninstall:
	$(Q)rm -f $(DESTDIR)$(BINDIR)/iotrial \
		$(DESTDIR)$(MANDIR)/man1/iotrial.1 \
		$(DESTDIR)$(BASHCOMPDIR)/iotrial \
		$(DESTDIR)$(ZSHCOMPDIR)/_iotrial

.PHONY: install uninstall

clean:
	rm -rf build iotrial docs/iotrial.1 docs/iotrial.1.tmp

.PHONY: all check check-run check-fleet demo clean fuzz-build fuzz-long \
	model-roundtrip check-unit deb check-deb
.DELETE_ON_ERROR:

# the fuzz objects' only where they are built: make check builds them
# beside the tests, and a make of a test (make install) must not read a
# .d file half written
-include $(REL_OBJ:.o=.d) $(SAN_OBJ:.o=.d) \
	build/rel/src/main.d build/san/src/main.d $(UNIT_BIN:=.d) \
	$(if $(filter build/fuzz/% fuzz%,$(MAKECMDGOALS)),$(FUZZ_OBJ:.o=.d))
