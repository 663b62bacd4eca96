# iomon: one static binary.  `make` builds ./iomon (stripped) and
# ./iomon_unstripped with musl; `make check` runs every test.
CC ?= cc
MUSL_CC := $(shell command -v musl-gcc 2>/dev/null)
ifeq ($(origin CC),default)
CC := $(if $(MUSL_CC),musl-gcc,cc)
endif
CFLAGS ?= -Os -g
WARN := -Wall -Wextra -Wshadow -Wno-unused-parameter
CPPFLAGS += -I. $(CFLAGS_EXTRA)
# noseparate-code: no page of padding between code and rodata (8 KiB).
LDFLAGS += -static -Wl,-z,noseparate-code -Wl,--build-id=none
PREFIX ?= /usr/local

SRCS := applet.c capture/decode.c capture/source.c capture/trace.c capture/relay.c \
	capture/tracefs.c match/procs.c match/track.c \
	stats/iostats.c stats/monitor.c stats/top.c output/out.c output/fmt.c output/parse.c
OBJS := $(SRCS:%.c=build/obj/%.o)
# The per-record path: decoding and formatting.  -Os turns every divide by
# a constant into a div instruction, which made number formatting half of
# parse's time; these few objects are built for speed instead.
HOT := build/obj/capture/decode.o build/obj/capture/source.o build/obj/output/out.o \
	build/obj/output/fmt.o build/obj/output/parse.o build/obj/stats/monitor.o
$(HOT): CFLAGS += -O2

all: iomon

build/obj/%.o: %.c iomon.h config.h capture/capture.h capture/kdefs.h
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) -ffunction-sections -fdata-sections -c -o $@ $<

iomon_unstripped: $(OBJS)
	$(CC) $(CFLAGS) $(LDFLAGS) -Wl,--gc-sections -o $@ $(OBJS)

iomon: iomon_unstripped
	strip -o $@ $<

install: iomon
	install -D -m 0755 iomon $(DESTDIR)$(PREFIX)/bin/iomon
	./iomon --install $(DESTDIR)$(PREFIX)/bin

check: iomon build/tiny/iomon tests/peakrss
	bash tests/run.sh

demo: iomon
	bash tests/demo.sh

bench: iomon tests/peakrss
	bash tests/bench.sh

tests/peakrss: tests/peakrss.c
	$(CC) -Os $(LDFLAGS) -o $@ $<

clean:
	rm -rf build iomon iomon_unstripped tests/gentrace tests/peakrss

# A build with every pool tiny: tests drive each one past its limit.
TINY := -DPROC_MAX=3 -DTRACK_MAX=4 -DPPI_MAX=2 -DCPUS_MAX=2 -DDEVS_MAX=1 \
	-DSKIPS_MAX=1 -DSTREAMS_MAX=1 -DPIPE_WINDOW=16 -DFMT_SPACE=24 \
	-DHOLD_MAX=1 -DHOLD_BYTES=8 -DMON_PENDING=2 -DMON_DEVS=1 -DTOP_TAGS=2 -DTOP_ROWS=2 -DTOP_REQS=4
build/tiny/iomon: $(SRCS) iomon.h config.h Makefile
	@mkdir -p $(dir $@)
	$(CC) -I. $(TINY) -Os $(WARN) $(LDFLAGS) -o $@ $(SRCS)

print-srcs:
	@echo $(SRCS)

.PHONY: all install check demo bench clean print-srcs
