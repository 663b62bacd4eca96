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
LDFLAGS += -static
PREFIX ?= /usr/local

SRCS := applet.c capture/decode.c capture/source.c match/procs.c match/track.c \
	stats/iostats.c output/out.c output/fmt.c output/parse.c
OBJS := $(SRCS:%.c=build/obj/%.o)

all: iomon

build/obj/%.o: %.c iomon.h config.h
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) -ffunction-sections -fdata-sections -c -o $@ $<

iomon_unstripped: $(OBJS)
	$(CC) $(CFLAGS) $(LDFLAGS) -Wl,--gc-sections -o $@ $(OBJS)

iomon: iomon_unstripped
	strip -o $@ $<

install: iomon
	install -D -m 0755 iomon $(DESTDIR)$(PREFIX)/bin/iomon
	./iomon --install $(DESTDIR)$(PREFIX)/bin

check: iomon
	bash tests/run.sh

demo: iomon
	bash tests/demo.sh

bench: iomon
	bash tests/bench.sh

clean:
	rm -rf build iomon iomon_unstripped tests/gentrace

.PHONY: all install check demo bench clean
