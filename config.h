/* config.h: bottom: every size, pool, hash and buffer, each overridable with -D */
/* every size iomon uses.  Each one can be overridden with -D at
 * build time (make CFLAGS_EXTRA=-DPROC_MAX=16); the tests build a tiny-pool
 * variant that way to prove that exhausting any pool is counted and
 * reported, never a crash.  Nothing in iomon allocates from a heap: these
 * are the whole memory budget. */
#ifndef IOMON_CONFIG_H
#define IOMON_CONFIG_H

/* Bytes of text collected before one write(2).  Large enough that the
 * syscall cost vanishes against formatting, small enough to stay in L2. */
#ifndef OUT_BUF
#define OUT_BUF (32 * 1024)
#endif

#ifndef DUMP_BUF
#define DUMP_BUF (16 * 1024)	/* the binary dump's (-d) buffer */
#endif

/* Per input stream (one per-CPU file, or stdin): the batch of records
 * blkparse would have read ahead (BATCH_DEFAULT) and one record of the
 * largest pdu (64 + 65535 bytes).  Virtual: a batch touches what it needs. */
#ifndef STREAM_BUF
#define STREAM_BUF (256 * 1024)
#endif
/* One read(2): 8 KiB; 16 held 8 KiB more of btt (figures.md: the times). */
#ifndef STREAM_READ
#define STREAM_READ (8 * 1024)
#endif

/* Per-CPU trace files one parse reads (all devices together), sharing
 * one pool (capture.h's MERGE_POOL): STREAM_BUF each up to 64 files, less
 * past that, never less than a record of the largest payload. */
#ifndef STREAMS_MAX
#define STREAMS_MAX 256
#endif

/* zstd input (make ZSTD=1): compressed sources decoded at once, the
 * largest window a frame may ask for (8 MiB: the most the zstd CLI picks
 * at any level up to 19, and what RFC 8878 asks decoders to accept), the
 * workspace it needs, and each compressed read (at least a source's
 * first, STREAM_READ).  Decoders take workspace and buffer from one arena
 * (zsrc.c): eight of 8 MiB, or ZSTD_ZFILES files of -z's chunks (352 KiB
 * a decoder).  Virtual until used, then only the pages the frames fill. */
#ifndef ZSTD_DECODERS
#define ZSTD_DECODERS STREAMS_MAX
#endif
#ifndef ZSTD_WINDOW_LOG
#define ZSTD_WINDOW_LOG 23
#endif
#ifndef ZSTD_DWORK
#define ZSTD_DWORK ((1u << ZSTD_WINDOW_LOG) + 512 * 1024)
#endif
#ifndef ZSTD_IN_BUF
#define ZSTD_IN_BUF (64 * 1024)
#endif
#ifndef ZSTD_ZFILES	/* the profile initramfs: 0, the eight windows' room */
#define ZSTD_ZFILES STREAMS_MAX
#endif
#ifndef ZSTD_ARENA
#define ZSTD_ARENA (ZSTD_ZFILES * (352 * 1024 + ZSTD_IN_BUF) > 8 * (ZSTD_DWORK + ZSTD_IN_BUF) ? \
	ZSTD_ZFILES * (352 * 1024 + ZSTD_IN_BUF) : 8 * (ZSTD_DWORK + ZSTD_IN_BUF))
#endif
/* zstd output (trace -z): ZSTD_FILES outputs (16 devices of 256 CPUs), each
 * gathering ZSTD_CHUNK bytes, a frame's window at most, in one of ZSTD_OUTS
 * buffers (past them the fullest one's frame goes early); one context for
 * the highest level (ZSTD_getCParams for a chunk: 2.9 MB at level 19). */
#ifndef ZSTD_CHUNK
#define ZSTD_CHUNK (128 * 1024)
#endif
#ifndef ZSTD_OUTS
#define ZSTD_OUTS 64
#endif
#ifndef ZSTD_FILES
#define ZSTD_FILES 4096
#endif
#ifndef ZSTD_LEVEL_MAX
#define ZSTD_LEVEL_MAX 19
#endif
/* -z alone: level 1, zstd's fastest positive level (390 MB/s here against
 * level 3's 314, ratio 5.2 against 5.3 on traces): capture must keep up. */
#ifndef ZSTD_LEVEL_DEFAULT
#define ZSTD_LEVEL_DEFAULT 1
#endif
#ifndef ZSTD_CWORK
#define ZSTD_CWORK (3 * 1024 * 1024)
#endif
/* The pipe to the compressing child (F_SETPIPE_SZ; the kernel's limit for
 * others than root is /proc/sys/fs/pipe-max-size, 1 MiB by default). */
#ifndef ZSTD_PIPE
#define ZSTD_PIPE (1024 * 1024)
#endif

/* Trace names monitor takes (-i); their per-CPU files (STREAMS_MAX) read
 * STREAM_BUF / REPLAY_FILES bytes at a time (a record's bound). */
#ifndef REPLAY_FILES
#define REPLAY_FILES 16
#endif

/* Devices one run can report on (-i names, or devices seen in a stream). */
#ifndef DEVS_MAX
#define DEVS_MAX 64
#endif

/* (device, cpu) statistic slots shared by all devices. */
#ifndef CPUS_MAX
#define CPUS_MAX 256
#endif

/* Records blkparse reads per batch by default (its -b); the order in which
 * process names become known follows these batches. */
#ifndef BATCH_DEFAULT
#define BATCH_DEFAULT 512
#endif

/* Pipe mode sorts each batch before printing it; this bounds the batch
 * (-b), the reorder window (blkparse holds all after a lost record). */
#ifndef PIPE_WINDOW
#define PIPE_WINDOW 1024
#endif

/* Pipe mode: records that sort after a newer one of their CPU (their time
 * lies before the trace's start) are printed at the end, as blkparse does;
 * this many, with this many payload bytes, are kept for it.  Debian's
 * blktrace -o - writes a CPU's relay buffers whole, so a short capture's
 * stream is one CPU's records, then the next's: every record another CPU
 * had before the first CPU's first is held (a real dm-linear capture's 48
 * MiB of writes, its per-CPU files one after another, held 50,000: 3.7 MiB
 * where blkparse took 7.9).  Only the pages used cost memory. */
#ifndef HOLD_MAX
#define HOLD_MAX 65536
#endif
#ifndef HOLD_BYTES
#define HOLD_BYTES 1048576
#endif

/* Sequence gaps remembered per run (pipe mode), for blkparse's Skips line. */
#ifndef SKIPS_MAX
#define SKIPS_MAX 1024
#endif

/* pid -> command name table (PROCESS notes), first name wins as in blkparse. */
#ifndef PROC_MAX
#define PROC_MAX 4096
#endif

#ifndef PPI_MAX
#define PPI_MAX 1024	/* per-process statistics for -s */
#endif

/* In-flight requests tracked by sector for -t.  blkparse keeps a request
 * until its C: one that never completes at its own sector (a Q merged into
 * another request on a dm/md major) stays for good, and so does every
 * request a stream's later CPU completes (a 3 s capture of 512 B random
 * I/O on loop, its per-CPU files one after another: more than 16,384).  When the
 * table is full the oldest goes; TRACK_GONE bytes (a power of two)
 * remember which (device, sector) keys went, so that meeting one again is
 * counted.  About 64 bytes each; only the pages used cost memory. */
#ifndef TRACK_MAX
#define TRACK_MAX 65536
#endif
#ifndef TRACK_GONE
#define TRACK_GONE (1 << 17)
#endif

/* -f / -F format strings, all of them together. */
#ifndef FMT_SPACE
#define FMT_SPACE 8192
#endif

/* Path names we build (DIR/NAME.blktrace.CPU). */
#ifndef PATH_LEN
#define PATH_LEN 512
#endif

/* "Input file X added" lines, which blkparse prints at exit. */
#ifndef NOTICE_BUF
#define NOTICE_BUF 4096
#endif

/* ---- capture ---- */

/* Devices one capture can trace, and CPUs it can follow. */
#ifndef CAP_DEVS
#define CAP_DEVS 64
#endif
#ifndef CAP_CPUS
#define CAP_CPUS 256
#endif

/* One read from the kernel: a relay sub-buffer (-b, 512 KiB by default)
 * is read in pieces of this size; a tracefs ring-buffer page is 4 KiB. */
#ifndef CAP_BUF
#define CAP_BUF (256 * 1024)
#endif

/* How often a quiet capture wakes to check the clock and signals, and
 * how often every CPU's buffer is read even when the kernel has not
 * finished a sub-buffer (relay) or a page (tracefs): what a quiet device
 * traced reaches its reader within this. */
#ifndef CAP_POLL_MS
#define CAP_POLL_MS 250
#endif
/* ... and with one stream out (-o -, every live applet's records) */
#ifndef CAP_LIVE_MS
#define CAP_LIVE_MS 50
#endif

/* One stream (-o -, and every live applet's records) in time order
 * across CPUs: what a round read waits here until every CPU has been read
 * past it (capture/cap.c).  Touched only as far as a round fills it; at
 * half full the capture reads every CPU at once, so it rarely fills (and
 * when it does, what it holds is written out, counted and said).
 * STAGE_RUNS: time-ordered runs it merges at once; STAGE_OUT: the bytes
 * gathered for one write. */
#ifndef CAP_STAGE
#define CAP_STAGE (2048 * 1024)
#endif
#ifndef STAGE_RUNS
#define STAGE_RUNS 1024
#endif
#ifndef STAGE_OUT
#define STAGE_OUT (64 * 1024)
#endif
/* tracefs: an event stamped before a CPU's read may still be being
 * written on that CPU (a relay reader runs on the CPU it reads, so it
 * never meets one): records that young wait for the next round. */
#ifndef TRACEFS_SLACK_NS
#define TRACEFS_SLACK_NS 2000000
#endif

/* Network capture (issue 15).  Client: each device's records are staged
 * here (tracefs's come record by record), per CPU in turn; each CPU's
 * messages then wait in a queue of NET_QUEUE bytes for their sockets, and
 * a CPU is read only while its queue has room for a read (CAP_BUF / 2 and
 * NET_ROOM for a record's rest and the headers): meanwhile the kernel's
 * buffers hold its records, and only full ones drop, as with blktrace's
 * blocking send on that CPU's thread, while the other CPUs are read on.
 * A connection that takes nothing for NET_WAIT_MS is given up. */
#ifndef NET_STAGE
#define NET_STAGE (16 * 1024)
#endif
#ifndef NET_QUEUE
#define NET_QUEUE (CAP_BUF / 2 + 128 * 1024)
#endif
#ifndef NET_ROOM
#define NET_ROOM 4096
#endif
#ifndef NET_WAIT_MS
#define NET_WAIT_MS 3000
#endif
/* Server (trace -l): connections at once (a client takes one per CPU and
 * device, or per CPU with -s), client machines at once, and devices of
 * all of them; a newcomer past a full table is refused, saying so. */
#ifndef NET_CONNS
#define NET_CONNS 256
#endif
#ifndef NET_HOSTS
#define NET_HOSTS 16
#endif
#ifndef NET_DEVS
#define NET_DEVS 64
#endif
/* Streams (parse, monitor, btt --listen): the most of a record cut
 * between two messages a connection keeps; a longer record (its payload
 * past this) drops the connection.  Payloads are at most a few hundred
 * bytes: a SCSI command, a message note. */
#ifndef NET_CARRY
#define NET_CARRY 512
#endif
/* trace -h NAME: how long one DNS question is waited for (it is asked
 * twice, for an IPv4 address and then for an IPv6 one) */
#ifndef NET_DNS_MS
#define NET_DNS_MS 1500
#endif
/* A message longer than this is taken for a lie (blktrace sends at most
 * what one poll finds in a CPU's relay buffers: -b times -n). */
#ifndef NET_MSG_MAX
#define NET_MSG_MAX (1u << 30)
#endif

/* ---- monitor ---- */

/* Devices per interval, and D or C records waiting for their partner; a
 * full pool ages out (counts) its oldest C, a D only when there is none */
#ifndef MON_DEVS
#define MON_DEVS 64
#endif
/* blkiomon -D's notes of one record's pairing, taken after it: a
 * mismatch's two and the record aged out to make room (match/dcpair.c) */
#ifndef DC_NOTES
#define DC_NOTES 4
#endif
#ifndef MON_PENDING
#define MON_PENDING 4096
#endif
/* -Q: a full message queue is waited for, as blkiomon waits (a record is
 * never dropped while the run goes on); once a signal ends the run, for
 * this long at most in all, then what is left is counted as not sent. */
#ifndef MON_QUEUE_WAIT_MS
#define MON_QUEUE_WAIT_MS 5000
#endif
/* --json and --prom: failed completions counted by device, direction
 * and errno, a row each kept for the run (Prometheus' totals); a failure
 * that needs a row past them is counted and said at the end. */
#ifndef MON_FAILS
#define MON_FAILS 64
#endif

/* ---- top ---- */

/* Rows (process, direction, device) per interval, and requests in flight.
 * A full request pool ages its oldest entries out (counted): requests
 * whose completion never comes must not stop the counting. */
#ifndef TOP_ROWS
#define TOP_ROWS 1024
#endif
#ifndef TOP_REQS
#define TOP_REQS 4096
#endif
/* Live: a round of reads is merged by time across its per-CPU runs, this
 * many at once (a run per CPU, and one more where a buffer filled). */
#ifndef TOP_RUNS
#define TOP_RUNS 512
#endif
/* Tags a --tag-helper may announce, and the bytes of a label kept (a
 * row's COMM column; biotop's is 16 wide, labels may be a little longer). */
#ifndef TOP_TAGS
#define TOP_TAGS 256
#endif
#ifndef TOP_LABEL
#define TOP_LABEL 24
#endif
/* A helper that has not answered a record within this long is stuck. */
#ifndef TOP_HELPER_MS
#define TOP_HELPER_MS 10000
#endif

/* ---- lat (biolatency) ---- */

/* Requests in flight (aged out, oldest of a few, when full), histograms
 * in one table (a disk each with -D, a flag set each with -F), and -P's
 * series (disk and direction; 11 KiB each), per interval. */
#ifndef LAT_REQS
#define LAT_REQS 4096
#endif
#ifndef SEQ_STREAMS
#define SEQ_STREAMS 64		/* (device, CPU) streams whose lost records lat, snoop and top notice */
#endif
#ifndef LAT_HASH
#define LAT_HASH 1024
#endif
#ifndef LAT_HISTS
#define LAT_HISTS 64
#endif
#ifndef LAT_PSERIES
#define LAT_PSERIES 8
#endif
#ifndef LAT_OUT_BUF
#define LAT_OUT_BUF 8192
#endif

/* ---- snoop (biosnoop) ---- */

/* Requests in flight from queue (Q) or issue (D) to completion (aged
 * out, oldest of a few, when full), and the disks whose last completed
 * sector -P remembers (a disk past them shows '?', counted). */
#ifndef SNOOP_REQS
#define SNOOP_REQS 4096
#endif
#ifndef SNOOP_HASH
#define SNOOP_HASH 1024
#endif
#ifndef SNOOP_DEVS
#define SNOOP_DEVS 32
#endif
#ifndef SNOOP_OUT_BUF
#define SNOOP_OUT_BUF 8192
#endif

/* bitesize: process names with a histogram of their own (a name past
 * them is counted and said); biopattern: disks counted per interval */
#ifndef BITE_NAMES
#define BITE_NAMES 64
#endif
#ifndef PAT_DEVS
#define PAT_DEVS 32
#endif

/* Failed completions (biosnoop's and biolatency's closing line): the
 * errnos told apart, and the sectors listed for each before "..." (all
 * are counted; failures of an errno past FAIL_ERRNOS count as "other"). */
#ifndef FAIL_ERRNOS
#define FAIL_ERRNOS 8
#endif
#ifndef FAIL_LIST
#define FAIL_LIST 8
#endif

/* Hash sizes (buckets or open-addressing slots).  Which bucket a key lands
 * in is never output; these only trade memory for chain length. */
#ifndef PROC_HASH
#define PROC_HASH (2 * PROC_MAX)	/* pid -> name, open addressing */
#endif
#ifndef TRACK_HASH
#define TRACK_HASH (2 * TRACK_MAX)	/* parse -t requests */
#endif
#ifndef PPI_HASH
#define PPI_HASH 512			/* per-process statistics */
#endif
#ifndef MON_HASH
#define MON_HASH 128			/* monitor's pending D/C: blkiomon's sector % 128 chains */
#endif
#ifndef TOP_HASH
#define TOP_HASH 1024			/* top's requests in flight */
#endif
#ifndef CAP_TASKS
#define CAP_TASKS 1024			/* tracefs: pid -> name, last device (direct-mapped) */
#endif
/* parse: CPUs below this find their per-CPU statistics without a search. */
#ifndef CPU_DIRECT
#define CPU_DIRECT 64
#endif

#ifndef DEVLIST_BUF
#define DEVLIST_BUF 4096		/* trace -I: the device list file */
#endif
#ifndef TRACEFS_FORMAT_BUF
#define TRACEFS_FORMAT_BUF 8192		/* one tracepoint's format file */
#endif
#ifndef MON_TEXT_BUF
#define MON_TEXT_BUF 8192		/* monitor -h output buffer */
#endif
#ifndef MON_BIN_BUF
#define MON_BIN_BUF 4096		/* monitor -b, -d and -D output buffers */
#endif
#ifndef MON_JSON_BUF
#define MON_JSON_BUF 8192		/* monitor --json output buffer */
#endif
#ifndef TOP_OUT_BUF
#define TOP_OUT_BUF 8192		/* top's table output buffer */
#endif

/* btt: devices, and queued requests in flight (a C removes them) */
#ifndef BTT_DEVS
#define BTT_DEVS 64
#endif
#ifndef BTT_MAPS
#define BTT_MAPS 64		/* btt -M: the map file's names of devices */
#endif
#ifndef BTT_MAPNAME
#define BTT_MAPNAME 64		/* btt -M: a name's bytes, its NUL included */
#endif
#ifndef BTT_REQS
#define BTT_REQS 8192
#endif
#ifndef BTT_SEEKS
#define BTT_SEEKS 65535		/* distinct seek distances, all devices (< 65536) */
#endif
#ifndef BTT_SEEK_HASH
#define BTT_SEEK_HASH 16384	/* chains finding a distance's node, at most (a power of 2; touched as used) */
#endif
/* btt's busy periods (I/O Active Period, -Z): its red-black trees' nodes,
 * every device's and all devices' together, 32 bytes each, touched as
 * used.  Full, the earliest node of the fullest tree goes to a tally: still
 * exact where it ended before every D waiting for its C and no span ended
 * before it began (a dump in time order), else counted and said. */
#ifndef BTT_PERIODS
#define BTT_PERIODS 4096
#endif
#ifndef BTT_PERIODS_KEEP
#define BTT_PERIODS_KEEP 64	/* a tree's nodes before its first ones go as soon as no span can reach them */
#endif
#ifndef BTT_HIST
#define BTT_HIST 24		/* btt --hist: log2 buckets of us, 0 to >2097152 */
#endif
#ifndef BTT_PROCS
#define BTT_PROCS 256		/* btt -A: process names (the pids': PROC_MAX) */
#endif
#ifndef BTT_RANGES
#define BTT_RANGES 4096		/* btt's range data (NAME.dat): busy ranges, 24 bytes each */
#endif
/* plot: PLOT_BINS columns of time per graph, PLOT_ROWS rows of offset,
 * PLOT_SERIES devices, PLOT_LAT log2 buckets of D2C (us) in the heatmap */
#ifndef PLOT_BINS
#define PLOT_BINS 240
#endif
#ifndef PLOT_ROWS
#define PLOT_ROWS 128
#endif
#ifndef PLOT_SERIES
#define PLOT_SERIES 4
#endif
#ifndef PLOT_LAT
#define PLOT_LAT 20
#endif
#ifndef PLOT_REQS
#define PLOT_REQS 4096		/* requests in flight, Q or D to C */
#endif
#ifndef PLOT_PROCS
#define PLOT_PROCS 8		/* -P: processes with a colour of their own */
#endif
#ifndef PLOT_BIN_NS
#define PLOT_BIN_NS 1000000	/* a column's first width: 1 ms */
#endif
#ifndef BTT_OPT_FILES
#define BTT_OPT_FILES (17 * (BTT_DEVS + 1))	/* btt -B -s -m -Q -L -P -Z: their files, 17 kinds a device and sys's (touched as made) */
#endif
#ifndef BTT_OPT_QS
#define BTT_OPT_QS 1024	/* -p -P: the Qs one D or C meets that they see */
#endif
/* Output buffers: every file btt writes as it goes (-B -s -Q -L -p -P -Z,
 * -z -l -q, -I: half a GB on the 5M-event bench dump) fills chunks of one
 * pool; a full chunk waits, and when the pool runs out the file with
 * the most waiting is written, one writev of them all.  Write calls of
 * 4 KiB were a third of btt's time; 16 KiB a file took 400 KiB; 128 KiB
 * in all 50k calls, these 64 107k in about the same time (2 KiB chunks
 * 138k: more waste in part-filled ones).  -m keeps its own (bttopt.c). */
#ifndef BTT_POOL
#define BTT_POOL 64		/* chunks */
#endif
#ifndef BTT_CHUNK
#define BTT_CHUNK 1024		/* bytes a chunk (a line asks for 512 at most) */
#endif
/* tz.c: the zoneinfo file read once for local time (the largest in
 * tzdata, with leap seconds, is under 4 KiB), and the longest TZ=NAME */
#ifndef TZ_FILE_MAX
#define TZ_FILE_MAX 8192
#endif
#ifndef TZ_NAME_MAX
#define TZ_NAME_MAX 255
#endif
/* btrecord: the devices named or found (-F) and their names' bytes, the
 * input buffer of the one trace file read at a time, and the output
 * buffers of its .replay file and -v's .rec text */
#ifndef BTREC_DEVS
#define BTREC_DEVS 64
#endif
#ifndef BTREC_NAMES
#define BTREC_NAMES 2048
#endif
#ifndef BTREC_IN_BUF
#define BTREC_IN_BUF STREAM_BUF
#endif
#ifndef BTREC_OUT_BUF
#define BTREC_OUT_BUF (32 * 1024)
#endif
#ifndef BTREC_REC_BUF
#define BTREC_REC_BUF 8192
#endif
/* btreplay: the devices named or found (-F) and their names' bytes, the
 * replay files of them all, -M's text (its maps); per replaying
 * process, the I/Os in flight (iocbs), and the largest I/O (a read and a
 * write buffer each that big, touched only as far as the I/Os go) */
#ifndef BTREPLAY_DEVS
#define BTREPLAY_DEVS 64
#endif
#ifndef BTREPLAY_NAMES
#define BTREPLAY_NAMES 2048
#endif
#ifndef BTREPLAY_FILES
#define BTREPLAY_FILES 1024
#endif
#ifndef BTREPLAY_MAP
#define BTREPLAY_MAP 4096
#endif
#ifndef BTREPLAY_AIOS
#define BTREPLAY_AIOS 64
#endif
#ifndef BTREPLAY_IO_MAX
#define BTREPLAY_IO_MAX (16 * 1024 * 1024)
#endif
/* verify_blkparse: a text line kept whole for showing it again (a
 * longer one is read back from its file, or shown cut from a pipe), and
 * the CPUs whose sequence numbers are followed. */
#ifndef VP_LINE
#define VP_LINE (64 * 1024)
#endif
#ifndef VP_CPUS
#define VP_CPUS 4096
#endif

/* extents and copy: the extents of written sectors kept per device (a
 * full pool doubles its chunk, losing no sector: stats/extset.c), the
 * devices extents follows, the CPUs whose sequence numbers it checks, and
 * copy's buffer (O_DIRECT, one read or write at a time). */
#ifndef EXT_MAX
#define EXT_MAX 32768
#endif
#ifndef EXT_DEVS
#define EXT_DEVS 8
#endif
#ifndef EXT_CPUS
#define EXT_CPUS 256
#endif
#ifndef COPY_BUF
#define COPY_BUF (1024 * 1024)
#endif

#endif
