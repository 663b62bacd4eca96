# iomon: one static binary.  `make` builds ./iomon (stripped) and
# ./iomon_unstripped with musl; `make check` runs the tests (tests/t-*.sh),
# `make check-long` the long ones (tests/long/: VMs, fuzzing, new seeds).
# `make ARCH=s390x|aarch64|armhf` cross-builds build/ARCH/iomon with Debian's
# cross compilers and musl (tests/tools/setup-deps.sh installs them);
# `make check ARCH=...` runs the tests that need no live kernel under
# qemu-user; `make size` reports sizes and fails past SIZE_BUDGET.
# -Oz: GCC 12's smaller than -Os (1.2 KiB); the per-record
# functions that need speed are HOT objects or HOTFN (iomon.h), and
# cachegrind counts parse's and btt's instructions within 0.5% of -Os's.
# No loop turned into a memset or memcpy: -Oz makes those a rep
# stosb/movsb, whose start-up cost on blkparse's two or three padding
# spaces a line made parse 16% slower (5M events).
# No jump tables: a switch becomes compares, 4 KiB smaller in all (the
# hot objects keep theirs, below).
CFLAGS ?= -Oz -g -fno-tree-loop-distribute-patterns -fno-jump-tables
WARN := -Wall -Wextra -Wshadow -Wno-unused-parameter
# C without exceptions needs no unwind tables: .eh_frame was 21 KiB of the
# binary.  gdb still walks the stack from -g's debug frames.
# The binary is static and not position-independent, so its code need not
# be either (Debian's gcc makes PIE code by default): -fno-pie.
NOUNWIND := -fno-asynchronous-unwind-tables -fno-unwind-tables -fno-pie
# Link-time optimization, the whole program as one unit: 1.3 KiB smaller
# (a function used once goes into its caller across files, one copy of a
# string however many files hold it), btt's and blkparse's times the same
# on the 5M-event dump.  -ffat-lto-objects: each object holds its machine
# code too, so that make size can link them without LTO for its map.
LTO := -flto=auto -flto-partition=one -ffat-lto-objects
CPPFLAGS += -I. $(CFLAGS_EXTRA)
# noseparate-code: no page of padding between code and rodata (5 KiB).
# norelro: a static musl binary never write-protects its RELRO part (no
# loader does it, musl's start code does not), so the header only padded
# the file to align its end to a page.  common-page-size=64: ld otherwise
# starts the data on a fresh page when that saves a page of memory, which
# padded the file by up to 4 KiB; now the file grows by the byte.
LDFLAGS += -static -Wl,-z,noseparate-code -Wl,-z,norelro -Wl,-z,common-page-size=64 -Wl,--build-id=none
PREFIX ?= /usr/local
# zstd, the one optional library, built for musl from Debian's source by
# tests/tools/zstd-build.sh: ZSTD=1 builds it in, ZSTD=0 leaves it out;
# unset, it is in when that build of it is there.
ZDIR := build/zstd/$(or $(ARCH),host)
ZSTD ?= $(if $(wildcard $(ZDIR)/libzstd.a),1,0)
# the tests' own make runs (make size, print-budget) build what this one does
export ZSTD
ifeq ($(ZSTD),1)
ZCPP := -DIOMON_ZSTD -I$(ZDIR)
CPPFLAGS += $(ZCPP)
ZLIB := $(ZDIR)/libzstd.a
endif
# The stripped x86_64 binary may not grow past this (make size, t-size.sh);
# with zstd, each build's own plus 352 KiB (the library and its decoder's
# tables: 339 KB on an initramfs profile), everything's as a profile's
PZBUDGET := $(if $(filter 1,$(ZSTD)),360448,0)
ZBUDGET := $(PZBUDGET)
ifneq ($(PROFILE),)
SIZE_BUDGET ?= $(shell echo $$(($(BUDGET_$(PROFILE)) + $(PZBUDGET))))
else
SIZE_BUDGET ?= $(shell echo $$((196608 + $(ZBUDGET))))
endif
CROSS_ARCHES := s390x aarch64 armhf

# Which applets: each is one driver (output/*.c) whose header block names
# it and the sources it needs (tests/tools/applets.sh).  APPLETS="blktrace
# blkparse" builds only those (names or links), with only their help, into
# build/custom/; PROFILE=NAME builds a profile's into build/profile-NAME/
# (build/ARCH/profile-NAME/ with ARCH).  Neither: every applet, ./iomon.
# Each profile has its budget, x86_64 stripped (make size, t-size.sh).
PROFILES := capture initramfs
PROFILE_capture := blktrace
PROFILE_initramfs := blktrace btrace blkparse blkiomon
# NO=NAME...: parts the drivers' //option: lines let a build leave out
# (NET: trace's network mode, -h and -l; EXPORT: monitor's --json and
# --prom, iomon's own beside blkiomon's reports)
NO_capture := NET
NO_initramfs := NET EXPORT
# the initramfs profile's zstd arena: the eight largest windows' 68 MiB
# (about 160 busy CPUs' -z files), not every CPU's 104 (config.h)
DEFS_initramfs := -DZSTD_ZFILES=0
BUDGET_capture := 40960
BUDGET_initramfs := 81920
ifneq ($(PROFILE),)
ifeq ($(PROFILE_$(PROFILE)),)
$(error PROFILE=$(PROFILE): one of $(PROFILES), or none for every applet)
endif
override APPLETS := $(PROFILE_$(PROFILE))
NO ?= $(NO_$(PROFILE))
CPPFLAGS += $(DEFS_$(PROFILE))
SUB := /profile-$(PROFILE)
else ifneq ($(strip $(APPLETS)),)
SUB := /custom
endif
# the generated sources (arch-independent): the table, the usage texts,
# the source list
G := build$(SUB)

ifeq ($(ARCH),)
# The product is built with musl-gcc and nothing else: a missing musl is an
# error (tests/tools/setup-deps.sh installs it), never a silent glibc build.  An
# explicit CC= builds, with a warning that it is not the product.
ifeq ($(origin CC),default)
CC := musl-gcc
else ifneq ($(CC),musl-gcc)
$(warning CC=$(CC): not the product build (static musl); size, heap and RSS checks do not hold for it)
endif
B := build$(SUB)
BIN := $(if $(SUB),$(B)/iomon,iomon)
UNSTRIPPED := $(if $(SUB),$(B)/iomon_unstripped,iomon_unstripped)
STRIP := strip
else
# gcc triplet, musl triplet, qemu-user binary
XT_s390x := s390x-linux-gnu s390x-linux-musl qemu-s390x-static
XT_aarch64 := aarch64-linux-gnu aarch64-linux-musl qemu-aarch64-static
XT_armhf := arm-linux-gnueabihf arm-linux-musleabihf qemu-arm-static
XT := $(XT_$(ARCH))
ifeq ($(XT),)
$(error ARCH=$(ARCH): one of $(CROSS_ARCHES), or none for the host)
endif
# armhf's musl may sit in a private sysroot (see tests/tools/setup-deps.sh)
SPECS = $(or $(firstword $(wildcard /usr/lib/$(word 2,$(XT))/musl-gcc.specs \
	build/sysroot/$(ARCH)/usr/lib/$(word 2,$(XT))/musl-gcc.specs)), \
	$(error no musl for $(ARCH): run tests/tools/setup-deps.sh as root))
CC = $(word 1,$(XT))-gcc -specs $(SPECS)
B := build/$(ARCH)$(SUB)
BIN := $(B)/iomon
UNSTRIPPED := $(B)/iomon_unstripped
STRIP := $(word 1,$(XT))-strip
QEMU := $(word 3,$(XT))
endif

# What every applet has; the rest is the applets' (build/srcs.mk, from
# their drivers' //sources: lines).
.DEFAULT_GOAL := all
CORE := applet.c base.c libc.c obuf.c text.c textd.c tz.c
APPLETS_C := $(G)/applets.c
include $(G)/srcs.mk
$(G)/srcs.mk: FORCE
	@sh tests/tools/applets.sh $(G) $(APPLETS)
$(APPLETS_C): $(G)/srcs.mk
SRCS := $(CORE) $(filter-out $(foreach o,$(NO),$(OPTION_$(o))),$(APPLET_SRCS))
CPPFLAGS += $(NO:%=-DIOMON_NO_%)
# every header: a new one triggers rebuilds without naming it here
HDRS := $(wildcard *.h */*.h)
# The applets' USAGE() texts, packed into one generated source (iomon.h)
# (usage-z.c with zstd, from packtext -z: each has only the messages its
# code can say)
ZT := $(if $(filter 1,$(ZSTD)),-z)
USAGE_C := $(G)/usage$(ZT).c
OBJS := $(SRCS:%.c=$(B)/obj/%.o) $(B)/obj/$(USAGE_C:.c=.o) $(B)/obj/$(APPLETS_C:.c=.o)
# Objects built for speed (HOT, with HOTFLAGS): none now.  btt's per-event
# figures (stats/bttstat.o) were one: 2.3 KiB for 3 % of plain btt's time
# on the 5M-event dump (0.202 s against 0.209), which went to btt's
# files (an option file's lines copied 8 bytes a move, -p's block and
# length made once an I/O); its per-record steps that need it are HOTFN
# (ev_more: struct copies a rep movs at -Oz).  Monitor's per-request figures
# were one too until LTO: at -Oz they go into monitor's driver, 145 ms
# against 157 for the 5M-event stream.  Elsewhere the per-record
# functions that need it are HOTFN (iomon.h): number formatting (-Os made
# its divisions half of parse's time) and the decoder's record step (btt
# took 0.18 s without, 0.14 s with); blkparse's dispatch, loop and line
# formatting, the request matching and monitor's driver went to -Oz for
# plot's room (cachegrind: parse's instructions 1.5% up, monitor's the
# same).
HOT :=
# No memset calls for the few spaces of a padded field, as below; no
# vector loops (cachegrind: fewer instructions for btt and monitor without
# them, and smaller).
HOTFLAGS := -O2 -fjump-tables -fno-tree-vectorize -fno-tree-loop-distribute-patterns
$(HOT): CFLAGS += $(HOTFLAGS)
JT := $(addprefix $(B)/obj/,output/bpevent.o text.o)
$(JT): CFLAGS += -fjump-tables

all: $(BIN)

# The compiler and flags are part of the build: a different CC (musl-gcc
# installed after a build with CC=cc, another cross compiler) or other
# flags, or another set of -O2 objects (HOT), rebuild everything.  The
# stamp changes only when they do.
STAMP := $(B)/cc.stamp
$(STAMP): FORCE
	@mkdir -p $(dir $@)
	@command -v $(firstword $(CC)) >/dev/null || { \
		echo "$(firstword $(CC)) not found: iomon is built with musl." >&2; \
		echo "  as root: make deps DEPS=build   (installs musl-tools)" >&2; \
		echo "  or:      apt-get install musl-tools" >&2; \
		echo "  or:      make CC=cc   (a glibc build: not the product, larger)" >&2; \
		exit 1; }
	@{ echo '$(CC) $(CFLAGS) $(NOUNWIND) $(LTO) $(CPPFLAGS) $(LDFLAGS)'; echo 'HOT $(HOTFLAGS) $(HOT:$(B)/obj/%=%)'; command -v $(firstword $(CC)); \
		$(CC) -dumpfullversion -dumpmachine 2>&1; } >$@.new
	@if cmp -s $@ $@.new; then rm -f $@.new; else mv -f $@.new $@; fi

build/packtext: tests/tools/packtext.c
	@mkdir -p $(dir $@)
	cc -O2 -Wall -Wextra -o $@ $<
# (srcs.mk: a build dir's applets changed, so its texts and link do)
$(USAGE_C): build/packtext $(SRCS) $(G)/srcs.mk $(wildcard output/hot.ld)
	build/packtext $(ZT) $(if $(wildcard output/hot.ld),-h output/hot.ld) $@ $(SRCS)

$(B)/obj/%.o: %.c $(HDRS) $(STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) $(NOUNWIND) $(LTO) -ffunction-sections -fdata-sections -c -o $@ $<

$(ZDIR)/libzstd.a:
	bash tests/tools/zstd-build.sh $(ZDIR) $(CC)
$(B)/obj/capture/zsrc.o $(B)/obj/capture/zout.o: $(ZLIB)

# The pools' layout: LTO's one unit puts its bss in one section, in its own
# order, so a run's counters and flags lay among the tables, each on a page
# of its own beside one (btt with every output: 16 KiB).  -fdata-sections
# gives each object a section of its own, and the linker lays them out by
# alignment: the 4 KiB-aligned pools, the arrays (16 and more), then the
# scalars and small structs together, at the end.
BSSORDER := -fdata-sections -Wl,--sort-section=alignment
# The code's layout (the build of every applet, on the host): the kernel
# maps a program's text 64 KiB at a time around each page it touches, so a
# run holds each 64 KiB of the binary it touches at all.  output/hot.ld
# (make hotlist: tests/tools/hotlist.py) puts what btt runs, code and data,
# in the first 64 KiB, the ELF header's, which every run touches: btt with
# every output holds 64 KiB of the binary, not all of it (t-rss).  Each
# function a section of its own to be placed; the link's map is
# hotlist's.
HOTLD := $(if $(SUB)$(ARCH),,$(wildcard output/hot.ld))
ifneq ($(HOTLD),)
LAYOUT := -ffunction-sections -Wl,-T,$(HOTLD) -Wl,-Map=$(B)/iomon.lmap
endif
$(UNSTRIPPED): $(OBJS) $(ZLIB) $(G)/srcs.mk $(HOTLD)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(NOUNWIND) $(LTO) $(BSSORDER) $(LAYOUT) $(LDFLAGS) -Wl,--gc-sections -o $@ $(OBJS) $(ZLIB)

hotlist: $(BIN)
	bash tests/tools/hotlist.sh

# make size's table: LTO's one unit does not say which object a byte came
# from, so the same objects are linked again without it, and that link's
# map tells (build/iomon_nolto, stripped: what LTO takes out).
$(B)/iomon.map: $(OBJS) $(ZLIB) $(G)/srcs.mk
	$(CC) $(CFLAGS) $(NOUNWIND) -fno-lto $(LDFLAGS) -Wl,--gc-sections -Wl,-Map=$@ -o $(B)/iomon_nolto $(OBJS) $(ZLIB)
	$(STRIP) -R .comment $(B)/iomon_nolto

$(BIN): $(UNSTRIPPED)
	$(STRIP) -R .comment -o $@ $<

# iomon and the original tools' names (blktrace, blkparse, ...); LINKS=all
# adds the generic ones (parse, trace, top, ...).  A name that is already
# something other than a link to iomon (Debian's blkparse, procps' top) is
# left alone and listed.  The man pages (docs/man) go to share/man.
# INITRAMFS=initramfs-tools|dracut|both adds what make install-initramfs
# does.  make uninstall removes what these installed and nothing else.
MANDIR ?= $(PREFIX)/share/man
install: $(BIN)
	install -D -m 0755 $(BIN) $(DESTDIR)$(PREFIX)/bin/iomon
	$(if $(ARCH),$(QEMU) )./$(BIN) --install $(if $(filter all,$(LINKS)),--all )$(DESTDIR)$(PREFIX)/bin
	install -d $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man8
	install -m 0644 $(wildcard docs/man/*.1) $(DESTDIR)$(MANDIR)/man1
	install -m 0644 $(wildcard docs/man/*.8) $(DESTDIR)$(MANDIR)/man8
	$(if $(INITRAMFS),@$(MAKE) --no-print-directory install-initramfs)

# The initramfs-tools hook and the dracut module (initramfs/install.sh)
# that put iomon and its links into every image the distribution builds,
# and mount debugfs and tracefs there before a rescue shell starts; the
# image gets the profile given (PROFILE=, initramfs unless another is),
# kept as $(PREFIX)/lib/iomon/iomon.  INITRAMFS= says which (both unset).
IPROFILE := $(or $(PROFILE),initramfs)
install-initramfs:
	@$(MAKE) --no-print-directory PROFILE=$(IPROFILE) build/profile-$(IPROFILE)/iomon
	sh initramfs/install.sh install $(or $(INITRAMFS),both) build/profile-$(IPROFILE)/iomon \
		$(PREFIX)/lib/iomon $(if $(filter all,$(LINKS)),--all)

# iomon, every link to it in bin, each man page still as installed, and
# the initramfs files that carry iomon's mark
uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/iomon
	[ ! -d $(DESTDIR)$(PREFIX)/bin ] || find $(DESTDIR)$(PREFIX)/bin -maxdepth 1 -type l \
		\( -lname iomon -o -lname '*/iomon' \) -print -delete
	@for f in $(wildcard docs/man/*.[18]); do m=$(DESTDIR)$(MANDIR)/man$${f##*.}/$${f##*/}; \
		if cmp -s $$f $$m; then rm -f $$m && echo "removed $$m"; \
		elif [ -e $$m ]; then echo "$$m: not as make install put it; left as it is" >&2; fi; done
	sh initramfs/install.sh uninstall $(PREFIX)/lib/iomon

# What building, the demo and the tests need, from Debian's packages
# (installed as root; otherwise listed).  make demo and make check do their
# own set-up first, then build in a sub-make, which sees what was installed.
DEPS ?= all
deps:
	bash tests/tools/setup-deps.sh $(DEPS)

# make check: tests/t-*.sh, deterministic (fixed seeds), a minute and a
# half here.  make check-long: tests/long/t-*.sh, what make check leaves
# out: the VM captures (VM=1 unless VM=0 is given), a minute of fuzzing
# per target (FUZZ_SMOKE=60), generated traces and format checks on new
# random seeds (printed; SEEDS=, FMT_SEED= replay them).  Both take
# ONLY=SUBSTRING (files whose path contains it) and VERBOSE=1 (PASS lines).
ifeq ($(ARCH),)
check:
	@bash tests/tools/setup-deps.sh check
	@$(MAKE) --no-print-directory iomon build/tiny/iomon $(B)/pool/iomon $(B)/periods/iomon tests/tools/peakrss tests/tools/gentrace
	bash tests/run.sh
check-long:
	@bash tests/tools/setup-deps.sh all
	@$(MAKE) --no-print-directory iomon build/tiny/iomon build/big/iomon tests/tools/peakrss tests/tools/gentrace
	VM=$${VM-1} LONG=1 bash tests/run.sh
else
check:
	@bash tests/tools/setup-deps.sh cross
	@$(MAKE) --no-print-directory $(BIN) $(B)/tiny/iomon tests/tools/peakrss tests/tools/gentrace
	IOMON_ARCH=$(ARCH) IOMON_QEMU=$(QEMU) bash tests/run.sh
check-long:
	@echo "make check-long runs on the host build (its VM tests build and boot s390x and arm64 themselves)" >&2; exit 2
endif

# Sizes of every build there is; fails when the x86_64 one is over budget.
# Each profile is built (build/profile-NAME/) and held to its budget;
# PROFILE_BUDGETS="capture:N ..." overrides them (t-size.sh).
PROFILE_BUDGETS ?= $(foreach p,$(PROFILES),$(p):$(shell echo $$(($(BUDGET_$(p)) + $(PZBUDGET)))))
# make bloatcheck OLD=REV: REV built in a scratch worktree against this
# build, symbol by symbol (tests/tools/bloatcheck.sh)
bloatcheck: $(BIN)
	@bash tests/tools/bloatcheck.sh $(OLD)

# The cross builds there are (build/ARCH/iomon, from make ARCH=ARCH) get
# their profiles built too, printed beside the x86_64 ones.
size: iomon $(B)/iomon.map
	@for p in $(PROFILES); do $(MAKE) --no-print-directory -s PROFILE=$$p SIZE_BUDGET= build/profile-$$p/iomon || exit 1; done
	@for a in $(CROSS_ARCHES); do [ -f build/$$a/iomon ] || continue; \
		for p in $(PROFILES); do $(MAKE) --no-print-directory -s ARCH=$$a PROFILE=$$p SIZE_BUDGET= build/$$a/profile-$$p/iomon || exit 1; done; done
	@python3 tests/tools/size.py $(SIZE_BUDGET) $(PROFILE_BUDGETS)

demo:
	@bash tests/tools/setup-deps.sh demo
	@$(MAKE) --no-print-directory iomon
	@bash tests/tools/demo.sh

# libFuzzer targets with ASan and UBSan (clang-14), FUZZ_SECONDS each
FUZZ_SECONDS ?= 60
fuzz:
	bash tests/tools/fuzz.sh $(FUZZ_SECONDS)

bench: iomon tests/tools/peakrss
	bash tests/tools/bench.sh

# tools the tests run on this machine, whatever ARCH is (peakrss static:
# a dynamic loader's own pages would count in what it measures)
tests/tools/peakrss: tests/tools/peakrss.c
	$(if $(shell command -v musl-gcc),musl-gcc,cc) -Os $(LDFLAGS) -o $@ $<
tests/tools/gentrace: tests/tools/gentrace.c
	cc -O2 -Wall -Wextra -o $@ $<
# the network client's queues against socketpairs (t-net): this build's
# own objects, the tool's main for applet.c's
tests/tools/netqcheck: tests/tools/netqcheck.c $(filter-out %/applet.o,$(OBJS)) $(ZLIB)
	$(CC) $(CPPFLAGS) -Os -Wall -Wextra $(LDFLAGS) -o $@ $^

clean:
	rm -rf build/obj build/tiny build/big build/periods build/pool build/cc.stamp build/packtext build/usage.c build/usage.h build/usage-z.c build/usage-z.h build/applets.c build/srcs.mk build/iomon.map build/iomon.lmap build/iomon_nolto \
		build/custom build/profile-* $(addprefix build/,$(CROSS_ARCHES)) \
		iomon iomon_unstripped tests/tools/gentrace tests/tools/peakrss tests/tools/netqcheck

# A build with every pool tiny: tests drive each one past its limit.
TINY := -DZSTD_WINDOW_LOG=17 -DPROC_MAX=3 -DTRACK_MAX=4 -DPPI_MAX=2 -DCPUS_MAX=2 -DDEVS_MAX=1 \
	-DSKIPS_MAX=1 -DSTREAMS_MAX=1 -DPIPE_WINDOW=16 -DFMT_SPACE=24 \
	-DHOLD_MAX=1 -DHOLD_BYTES=8 -DMON_PENDING=2 -DMON_DEVS=1 -DMON_FAILS=2 -DTOP_TAGS=2 -DTOP_ROWS=2 -DTOP_REQS=4 \
	-DREPLAY_FILES=1 -DNOTICE_BUF=16 -DCAP_DEVS=1 -DCAP_CPUS=1 -DNET_CONNS=2 -DNET_HOSTS=1 -DNET_DEVS=1 -DTOP_RUNS=1 -DTOP_HELPER_MS=5000 \
	-DBTT_DEVS=1 -DBTT_REQS=4 -DBTT_PERIODS=2 -DBTT_SEEKS=8 -DBTT_PROCS=2 -DBTT_RANGES=4 -DBTT_OPT_QS=1 -DPLOT_SERIES=1 -DPLOT_REQS=2 \
	-DSNOOP_REQS=4 -DSNOOP_DEVS=1 -DFAIL_ERRNOS=1 -DFAIL_LIST=2 -DBITE_NAMES=2 -DPAT_DEVS=1 \
	-DEXT_MAX=4 -DEXT_DEVS=1 -DEXT_CPUS=1
$(B)/tiny/iomon: $(SRCS) $(USAGE_C) $(APPLETS_C) $(HDRS) Makefile $(STAMP) $(ZLIB)
	@mkdir -p $(dir $@)
	$(CC) -I. $(ZCPP) $(TINY) -Os $(WARN) $(NOUNWIND) $(LDFLAGS) -o $@ $(SRCS) $(USAGE_C) $(APPLETS_C) $(ZLIB)
# Only btt's busy-period pool small (t-bttlive: what a full pool lets go
# of, exactly or said; that a tree past 4 nodes lets go of the finished
# ones, saying how many nodes it held at most); built when that test asks
# for it
$(B)/periods/iomon: $(SRCS) $(USAGE_C) $(APPLETS_C) $(HDRS) Makefile $(STAMP) $(ZLIB)
	@mkdir -p $(dir $@)
	$(CC) -I. $(ZCPP) -DBTT_PERIODS=16 -DBTT_PERIODS_KEEP=4 -DBTT_PERIODS_SAY -Os $(WARN) $(NOUNWIND) $(LDFLAGS) -o $@ $(SRCS) $(USAGE_C) $(APPLETS_C) $(ZLIB)

# Only btt's output pool small: 3 chunks of 512 bytes, fewer than the files
# with every output on (t-btt: each file still btt's, byte for byte, when
# files give up their own chunks and write a few lines at a time); it says
# what the busy-period trees held, as build/periods does, at the product's
# sizes (t-bttlive: that one record let go of more than 8)
$(B)/pool/iomon: $(SRCS) $(USAGE_C) $(APPLETS_C) $(HDRS) Makefile $(STAMP) $(ZLIB)
	@mkdir -p $(dir $@)
	$(CC) -I. $(ZCPP) -DBTT_POOL=3 -DBTT_CHUNK=512 -DBTT_PERIODS_SAY -Os $(WARN) $(NOUNWIND) $(LDFLAGS) -o $@ $(SRCS) $(USAGE_C) $(APPLETS_C) $(ZLIB)

# Every pool blkparse's text and btt's files can outgrow, and the requests
# in flight of biolatency, biosnoop and top, as large as a whole capture's
# (t-vmdiff: where the product build says a pool ran out, this one must
# print the originals' text and files, and the references', exactly)
BIG := -DTRACK_MAX=1048576 -DTRACK_GONE=16777216 -DHOLD_MAX=4194304 -DHOLD_BYTES=268435456 -DPROC_MAX=65536 -DPPI_MAX=65536 \
	-DBTT_SEEKS=4194303 -DBTT_SEEK_HASH=1048576 -DBTT_REQS=65536 -DBTT_PERIODS=1048576 -DBTT_RANGES=1048576 -DBTT_PROCS=4096 \
	-DBTT_DEVS=256 -DBTT_MAPS=1024 -DBTT_OPT_QS=65536 \
	-DLAT_REQS=262144 -DLAT_HASH=65536 -DSNOOP_REQS=262144 -DSNOOP_HASH=65536 -DTOP_REQS=262144 -DTOP_HASH=65536
$(B)/big/iomon: $(SRCS) $(USAGE_C) $(APPLETS_C) $(HDRS) Makefile $(STAMP) $(ZLIB)
	@mkdir -p $(dir $@)
	$(CC) -I. $(ZCPP) $(BIG) -Os $(WARN) $(NOUNWIND) $(LDFLAGS) -o $@ $(SRCS) $(USAGE_C) $(APPLETS_C) $(ZLIB)

# Every warn_text compiled as the warn_msg it stands for (packtext's
# header holds the TEXT literals), so that each format's arguments are
# checked as the packed ones no longer can be.
textcheck: $(USAGE_C)
	$(CC) $(CPPFLAGS) $(ZCPP) $(WARN) -DTEXT_CHECK -include $(USAGE_C:.c=.h) -fsyntax-only -Werror=format $(SRCS)

# copy's pools alone tiny (the tiny build's CAP_CPUS 1 cannot capture on
# this machine's CPUs): t-copy builds it when it runs.
$(B)/tiny-ext/iomon: $(SRCS) $(USAGE_C) $(APPLETS_C) $(HDRS) Makefile $(STAMP) $(ZLIB)
	@mkdir -p $(dir $@)
	$(CC) -I. $(ZCPP) -DEXT_MAX=4 -Os $(WARN) $(NOUNWIND) $(LDFLAGS) -o $@ $(SRCS) $(USAGE_C) $(APPLETS_C) $(ZLIB)

print-srcs: $(USAGE_C) $(APPLETS_C)
	@echo $(SRCS) $(USAGE_C) $(APPLETS_C)

print-applets:
	@echo $(APPLETS_BUILT)

print-bin:
	@echo $(BIN)

print-budget:
	@echo $(SIZE_BUDGET)

print-cc:
	@echo $(CC)

.PHONY: hotlist all textcheck install install-initramfs uninstall deps check check-long size bloatcheck demo bench fuzz clean print-srcs print-applets print-bin print-budget print-cc FORCE
