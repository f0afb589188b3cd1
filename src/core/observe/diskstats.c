/*
 * Parsing /sys/block/DEV/stat and turning two readings into iostat -x
 * columns. The parser is strict (numbers and whitespace only, a bounded
 * length) because it is fed by a fuzzer as well as by the kernel; the
 * arithmetic follows the public sysstat definitions, with the interval
 * measured on CLOCK_MONOTONIC by the caller.
 */
#include <errno.h>
#include <string.h>
#include "diskstats.h"
#include "procfile.h"
#include "../../util/banned.h"

#define SECTOR_BYTES 512u

/* Is c the whitespace the kernel separates and pads fields with? */
static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

int diskstats_parse(const char *buf, size_t len, struct diskstats *out)
{
	size_t i = 0;

	memset(out, 0, sizeof(*out));
	for (;;) {
		uint64_t v = 0;
		size_t start;

		while (i < len && is_space(buf[i]))
			i++;
		if (i >= len || buf[i] == '\0')
			break;
		start = i;
		while (i < len && buf[i] >= '0' && buf[i] <= '9') {
			unsigned d = (unsigned)(buf[i] - '0');

			if (v > (UINT64_MAX - d) / 10)
				return -ERANGE;
			v = v * 10 + d;
			i++;
		}
		if (i == start || (i < len && !is_space(buf[i]) && buf[i]))
			return -EINVAL;
		/* newer kernels may add fields: keep the ones we know */
		if (out->nr_fields < DS_NR_FIELDS)
			out->v[out->nr_fields] = v;
		if (out->nr_fields < UINT32_MAX)
			out->nr_fields++;
	}
	if (out->nr_fields < DS_MIN_FIELDS)
		return -EINVAL;
	if (out->nr_fields > DS_NR_FIELDS)
		out->nr_fields = DS_NR_FIELDS;
	return 0;
}

int diskstats_read_fd(int fd, struct diskstats *out)
{
	char buf[512];
	ssize_t n = procfile_read(fd, buf, sizeof(buf));

	if (n < 0)
		return (int)n;
	return diskstats_parse(buf, (size_t)n, out);
}

uint64_t diskstats_counter_delta(uint64_t before, uint64_t after)
{
	if (after >= before)
		return after - before;
	if (before <= UINT32_MAX && before >= (1ull << 31))
		return after + ((1ull << 32) - before);
	if (before >= (1ull << 63))
		return after - before; /* unsigned arithmetic wraps at 2^64 */
	return after;
}

/* Field f's increase, or 0 when either reading lacks it. */
static uint64_t field_delta(const struct diskstats *a,
			    const struct diskstats *b, enum diskstats_field f)
{
	if ((unsigned)f >= a->nr_fields || (unsigned)f >= b->nr_fields)
		return 0;
	return diskstats_counter_delta(a->v[f], b->v[f]);
}

/* count per second over s seconds, 0 for an empty interval. */
static double per_s(uint64_t count, double s)
{
	return s > 0 ? (double)count / s : 0;
}

/* Mean of total over n, 0 when nothing completed. */
static double mean_of(uint64_t total, uint64_t n)
{
	return n ? (double)total / (double)n : 0;
}

void diskstats_delta(const struct diskstats *before,
		     const struct diskstats *after, double seconds,
		     struct disk_delta *out)
{
	double ms = seconds * 1000.0;
	uint64_t rd_sect, wr_sect, dc_sect;

	memset(out, 0, sizeof(*out));
	out->seconds = seconds > 0 ? seconds : 0;
	out->reads = field_delta(before, after, DS_RD_IOS);
	out->writes = field_delta(before, after, DS_WR_IOS);
	out->read_merges = field_delta(before, after, DS_RD_MERGES);
	out->write_merges = field_delta(before, after, DS_WR_MERGES);
	out->discards = field_delta(before, after, DS_DC_IOS);
	out->flushes = field_delta(before, after, DS_FL_IOS);
	out->has_discards =
	    before->nr_fields > DS_DC_TICKS && after->nr_fields > DS_DC_TICKS;
	out->has_flushes =
	    before->nr_fields > DS_FL_TICKS && after->nr_fields > DS_FL_TICKS;
	rd_sect = field_delta(before, after, DS_RD_SECTORS);
	wr_sect = field_delta(before, after, DS_WR_SECTORS);
	dc_sect = field_delta(before, after, DS_DC_SECTORS);
	out->read_bytes = rd_sect * SECTOR_BYTES;
	out->write_bytes = wr_sect * SECTOR_BYTES;
	out->discard_bytes = dc_sect * SECTOR_BYTES;

	out->r_await_ms =
	    mean_of(field_delta(before, after, DS_RD_TICKS), out->reads);
	out->w_await_ms =
	    mean_of(field_delta(before, after, DS_WR_TICKS), out->writes);
	out->d_await_ms =
	    mean_of(field_delta(before, after, DS_DC_TICKS), out->discards);
	out->f_await_ms =
	    mean_of(field_delta(before, after, DS_FL_TICKS), out->flushes);
	/* sectors per request, halved: KiB */
	out->rareq_kib = mean_of(rd_sect, out->reads) / 2.0;
	out->wareq_kib = mean_of(wr_sect, out->writes) / 2.0;
	if (seconds <= 0)
		return;
	out->r_s = per_s(out->reads, seconds);
	out->w_s = per_s(out->writes, seconds);
	out->d_s = per_s(out->discards, seconds);
	out->f_s = per_s(out->flushes, seconds);
	out->rrqm_s = per_s(out->read_merges, seconds);
	out->wrqm_s = per_s(out->write_merges, seconds);
	out->rmbps = per_s(out->read_bytes, seconds) / 1e6;
	out->wmbps = per_s(out->write_bytes, seconds) / 1e6;
	out->dmbps = per_s(out->discard_bytes, seconds) / 1e6;
	out->aqu_sz = (double)field_delta(before, after, DS_QUEUE_TICKS) / ms;
	out->util_pct =
	    (double)field_delta(before, after, DS_IO_TICKS) / ms * 100.0;
	if (out->util_pct > 100.0)
		out->util_pct = 100.0;
}
