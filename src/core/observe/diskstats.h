/*
 * Block device counters, as the kernel keeps them in /sys/block/DEV/stat
 * (Documentation/admin-guide/iostats.rst), and the iostat -x columns
 * derived from two readings. The formulas are the ones sysstat documents:
 * rates are counter differences over the interval, await is the time
 * requests spent divided by the requests completed, aqu-sz is the
 * weighted time in queue over the interval, %util the time the device had
 * requests in flight. Counters wrap (the tick fields at 32 bits); a
 * difference across a wrap is still right, and a counter that went back
 * to a small value (a device re-created) counts from zero.
 */
#ifndef IOTRIAL_DISKSTATS_H
#define IOTRIAL_DISKSTATS_H

#include <stddef.h>
#include <stdint.h>

/* The fields of the stat file, in the kernel's order. */
enum diskstats_field {
	DS_RD_IOS,	/* reads completed */
	DS_RD_MERGES,	/* reads merged */
	DS_RD_SECTORS,	/* 512-byte sectors read */
	DS_RD_TICKS,	/* ms spent reading */
	DS_WR_IOS,	/* writes completed */
	DS_WR_MERGES,	/* writes merged */
	DS_WR_SECTORS,	/* sectors written */
	DS_WR_TICKS,	/* ms spent writing */
	DS_IN_FLIGHT,	/* requests in flight now (not a counter) */
	DS_IO_TICKS,	/* ms with at least one request in flight */
	DS_QUEUE_TICKS, /* weighted ms: in flight x time */
	DS_DC_IOS,	/* discards completed (4.18+) */
	DS_DC_MERGES,	/* discards merged */
	DS_DC_SECTORS,	/* sectors discarded */
	DS_DC_TICKS,	/* ms spent discarding */
	DS_FL_IOS,	/* flush requests completed (5.5+) */
	DS_FL_TICKS,	/* ms spent flushing */
	DS_NR_FIELDS,
};

/* The oldest kernels we read print this many fields. */
#define DS_MIN_FIELDS 11

/* One reading of one device. */
struct diskstats {
	uint64_t v[DS_NR_FIELDS]; /* indexed by enum diskstats_field */
	unsigned nr_fields;	  /* how many the kernel printed */
};

/* What happened on one device between two readings. */
struct disk_delta {
	double seconds;		/* the interval */
	uint64_t reads, writes; /* requests completed */
	uint64_t discards, flushes;
	uint64_t read_merges, write_merges;
	uint64_t read_bytes, write_bytes, discard_bytes;
	double r_s, w_s, d_s, f_s;     /* requests per second */
	double rrqm_s, wrqm_s;	       /* merges per second */
	double rmbps, wmbps, dmbps;    /* 10^6 bytes per second */
	double r_await_ms, w_await_ms; /* mean time per request, queue incl. */
	double d_await_ms, f_await_ms;
	double rareq_kib, wareq_kib; /* mean request size, KiB */
	double aqu_sz;		     /* mean requests in the queue */
	double util_pct;	     /* time busy, capped at 100 */
	int has_discards;	     /* both readings had discard fields */
	int has_flushes;	     /* both readings had flush fields */
};

/*
 * Parse the text of a stat file: len bytes of buf, which need not be
 * NUL-terminated. Returns 0, or -EINVAL when it holds fewer than
 * DS_MIN_FIELDS numbers or anything but numbers and whitespace, -ERANGE
 * when a number does not fit in 64 bits. out is zeroed first.
 */
int diskstats_parse(const char *buf, size_t len, struct diskstats *out);

/* Read and parse the stat file open at fd (see procfile.h). */
int diskstats_read_fd(int fd, struct diskstats *out);

/*
 * How much a counter went up from before to after, across a wrap. The
 * kernel prints the tick fields (and, on 32-bit kernels, every count) as
 * 32-bit values, the rest as 64-bit: a drop from the upper half of either
 * range is a wrap at that width; any other drop is a reset (the device
 * was re-created) and the counter counts from zero.
 */
uint64_t diskstats_counter_delta(uint64_t before, uint64_t after);

/*
 * The iostat -x columns between two readings seconds apart. seconds <= 0
 * gives counts and zero rates. Never fails.
 */
void diskstats_delta(const struct diskstats *before,
		     const struct diskstats *after, double seconds,
		     struct disk_delta *out);

#endif
