/*
 * A trace's summary and its text (trace stats, trace show). See
 * trace_summary.h.
 */
#include <stdlib.h>
#include <string.h>
#include "trace_summary.h"
#include "../../util/strbuf.h"
#include "../../util/text.h"
#include "../../util/units.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

#define SECS_MAX (7 * 24 * 3600) /* the per-second table's bound: a week */

static unsigned size_bucket(uint64_t size)
{
	unsigned b = 0;

	while (size > 1 && b < TRACE_SIZE_BUCKETS - 1) {
		size >>= 1;
		b++;
	}
	return b;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Per thread: the time between one call's end and the next's start. */
static void think_times(const struct trace *t, struct trace_summary *s)
{
	struct last {
		uint32_t tid;
		uint64_t end_ns;
	} *last = NULL;
	size_t nr_last = 0, alloc_last = 0, i, j, nr = 0;
	uint64_t *gaps = xcalloc(t->nr_events + 1, sizeof(*gaps));

	for (i = 0; i < t->nr_events; i++) {
		const struct trace_event *e = &t->events[i];

		for (j = 0; j < nr_last; j++)
			if (last[j].tid == e->tid)
				break;
		if (j == nr_last) {
			ALLOC_GROW(last, nr_last + 1, alloc_last);
			last[nr_last].tid = e->tid;
			nr_last++;
		} else if (e->ts_ns >= last[j].end_ns) {
			gaps[nr++] = e->ts_ns - last[j].end_ns;
		}
		last[j].end_ns = e->ts_ns + e->dur_ns;
	}
	s->nr_threads = nr_last;
	if (nr) {
		qsort(gaps, nr, sizeof(*gaps), cmp_u64);
		s->think_p50_ns = gaps[nr / 2];
		s->think_p90_ns = gaps[nr * 9 / 10];
		s->think_max_ns = gaps[nr - 1];
	}
	free(gaps);
	free(last);
}

/* A block request's share of s: its bytes (when it completed without
 * error), its size, the depth it was issued at. */
static void block_request(struct trace_summary *s, const struct trace_event *e,
			  size_t sec)
{
	int ok = e->ret == 0 && !(e->flags & TEV_UNDONE);

	if (e->arg > s->blk_depth_max)
		s->blk_depth_max = e->arg;
	s->blk_depth_sum += e->arg;
	switch (e->op) {
	case TOP_BLK_READ:
		s->read_sizes[size_bucket(e->size)]++;
		if (ok)
			s->bytes_read += e->size;
		break;
	case TOP_BLK_WRITE:
		s->write_sizes[size_bucket(e->size)]++;
		if (ok)
			s->bytes_written += e->size;
		s->blk_flush_writes += !!(e->flags & TEV_PREFLUSH);
		s->blk_fua_writes += !!(e->flags & TEV_FUA);
		break;
	case TOP_BLK_DISCARD:
		s->blk_discard_bytes += e->size;
		return;
	default:
		return;
	}
	if (ok)
		s->sec_bytes[sec] += e->size;
}

/* An io_uring request's share of s: its ring, its depth, its flags. */
static void uring_request(struct trace_summary *s, const struct trace_event *e)
{
	if (e->arg > s->uring_depth_max)
		s->uring_depth_max = e->arg;
	s->uring_depth_sum += e->arg;
	if (e->file2 > s->uring_rings)
		s->uring_rings = e->file2;
	s->uring_fixed += !!(e->flags & TEV_FIXED);
	s->uring_sqpoll += !!(e->flags & TEV_SQPOLL);
	s->uring_undone += !!(e->flags & TEV_UNDONE);
}

/* The number of block requests of s. */
static uint64_t block_total(const struct trace_summary *s)
{
	return s->ops[TOP_BLK_READ] + s->ops[TOP_BLK_WRITE] +
	       s->ops[TOP_BLK_DISCARD] + s->ops[TOP_BLK_FLUSH];
}

void trace_summarize(const struct trace *t, struct trace_summary *s)
{
	size_t i;

	memset(s, 0, sizeof(*s));
	s->duration_ns = t->end.duration_ns;
	for (i = 0; i < t->nr_events; i++) {
		const struct trace_event *e = &t->events[i];
		uint64_t end = e->ts_ns + e->dur_ns;

		if (end > s->duration_ns && !t->end.duration_ns)
			s->duration_ns = end;
	}
	s->nr_secs = (size_t)(s->duration_ns / 1000000000ull) + 1;
	if (s->nr_secs > SECS_MAX)
		s->nr_secs = SECS_MAX;
	s->sec_ops = xcalloc(s->nr_secs, sizeof(*s->sec_ops));
	s->sec_bytes = xcalloc(s->nr_secs, sizeof(*s->sec_bytes));
	for (i = 0; i < t->nr_events; i++) {
		const struct trace_event *e = &t->events[i];
		size_t sec = (size_t)(e->ts_ns / 1000000000ull);

		if (e->op >= TOP__NR)
			continue;
		if (sec >= s->nr_secs)
			sec = s->nr_secs - 1;
		s->ops[e->op]++;
		s->sec_ops[sec]++;
		if (e->ret < 0)
			s->errors[e->op]++;
		if (trace_op_base(e->op) == TOP_READ ||
		    trace_op_base(e->op) == TOP_WRITE) {
			uint64_t moved = e->ret > 0 ? (uint64_t)e->ret : 0;

			if (trace_op_base(e->op) == TOP_READ) {
				s->bytes_read += moved;
				s->read_sizes[size_bucket(e->size)]++;
			} else {
				s->bytes_written += moved;
				s->write_sizes[size_bucket(e->size)]++;
			}
			s->sec_bytes[sec] += moved;
		}
		if (trace_op_is_block(e->op))
			block_request(s, e, sec);
		if (trace_op_is_uring(e->op))
			uring_request(s, e);
	}
	for (i = 0; i < t->nr_files; i++) {
		const struct trace_file *f = &t->files[i];

		s->files_regular += f->kind == TFK_REG;
		s->files_dirs += f->kind == TFK_DIR;
		if (f->kind != TFK_REG && f->kind != TFK_DIR)
			continue;
		if (f->existed) {
			s->files_existed++;
			s->existed_bytes += f->size_bytes;
		} else {
			s->files_created++;
		}
	}
	think_times(t, s);
}

void trace_summarize_layer(const struct trace *t, int block,
			   struct trace_summary *s)
{
	struct trace one = *t;
	size_t i, n = 0;

	one.events = xcalloc(t->nr_events + 1, sizeof(*one.events));
	for (i = 0; i < t->nr_events; i++)
		if (!trace_op_is_block(t->events[i].op) == !block)
			one.events[n++] = t->events[i];
	one.nr_events = n;
	trace_summarize(&one, s);
	free(one.events);
}

void trace_summary_release(struct trace_summary *s)
{
	if (!s)
		return;
	free(s->sec_ops);
	free(s->sec_bytes);
	memset(s, 0, sizeof(*s));
}

uint64_t trace_summary_name_ops(const struct trace_summary *s)
{
	uint64_t n = 0;
	unsigned op;

	for (op = 1; op < TOP__NR; op++)
		if (trace_op_is_name(op))
			n += s->ops[op];
	return n;
}

uint64_t trace_summary_total(const struct trace_summary *s)
{
	uint64_t n = 0;
	unsigned op;

	for (op = 1; op < TOP__NR; op++)
		n += s->ops[op];
	return n;
}

uint64_t trace_summary_uring(const struct trace_summary *s)
{
	return s->ops[TOP_URING_READ] + s->ops[TOP_URING_WRITE] +
	       s->ops[TOP_URING_FSYNC] + s->ops[TOP_URING_FDATASYNC];
}

static void add_bytes(struct strbuf *out, uint64_t b)
{
	units_fmt_bytes(out, b);
}

static void add_ns(struct strbuf *out, uint64_t ns)
{
	units_fmt_ns(out, (double)ns);
}

/* The sizes of one direction, as "  read   4 KiB to under 8 KiB: 123"
 * rows: each from its first size to under the next row's (the first
 * holds 0 and 1 B, the last all above). */
static void size_rows(struct strbuf *out, const char *what, const uint64_t *h)
{
	unsigned b;

	for (b = 0; b < TRACE_SIZE_BUCKETS; b++) {
		if (!h[b])
			continue;
		strbuf_addf(out, "  %-6s ", what);
		add_bytes(out, b ? (uint64_t)1 << b : 0);
		if (b == TRACE_SIZE_BUCKETS - 1)
			strbuf_addstr(out, " and over");
		else {
			strbuf_addstr(out, " to under ");
			add_bytes(out, (uint64_t)1 << (b + 1));
		}
		strbuf_addf(out, ": %llu\n", (unsigned long long)h[b]);
	}
}

/* The rate over time in at most 30 rows. */
static void rate_rows(struct strbuf *out, const struct trace_summary *s)
{
	size_t per = (s->nr_secs + 29) / 30, i, j;

	if (!per)
		return;
	strbuf_addf(out, "rate over time (%zu s a row):\n", per);
	for (i = 0; i < s->nr_secs; i += per) {
		uint64_t ops = 0, bytes = 0;
		double span = (double)per, left, bps;

		for (j = i; j < i + per && j < s->nr_secs; j++) {
			ops += s->sec_ops[j];
			bytes += s->sec_bytes[j];
		}
		/* the last row covers only what is left of the trace: its
		 * rate is over that, not over a whole row */
		left = (double)s->duration_ns / 1e9 - (double)i;
		if (left > 0 && left < span)
			span = left;
		strbuf_addf(out, "  %5zus  %10.0f ops/s  ", i,
			    (double)ops / span);
		/* a row of a few nanoseconds makes a rate past 2^64 */
		bps = (double)bytes / span;
		add_bytes(out, bps < 18e18 ? (uint64_t)bps : UINT64_MAX);
		strbuf_addstr(out, "/s");
		if (span < (double)per)
			strbuf_addf(out, "  (over its %.3g s)", span);
		strbuf_addch(out, '\n');
	}
}

/* A count the capture wrote as meta key (uring.*), 0 when absent or
 * not a whole number. */
static uint64_t meta_count(const struct trace *t, const char *key)
{
	const char *v = trace_meta_get(t, key);
	char *end;
	unsigned long long n;

	if (!v || *v < '0' || *v > '9')
		return 0;
	n = strtoull(v, &end, 10);
	return *end ? 0 : (uint64_t)n;
}

static void add_printable(struct strbuf *out, const char *s);

/* The io_uring requests: how many, on how many rings, at what depth,
 * and what the capture left out (its uring.* meta). */
static void uring_rows(const struct trace *t, const struct trace_summary *s,
		       struct strbuf *out)
{
	uint64_t n = trace_summary_uring(s);
	uint64_t unattr = meta_count(t, "uring.unattributed");
	uint64_t other = meta_count(t, "uring.other");
	uint64_t unrec = meta_count(t, "uring.unrecorded");
	const char *ops = trace_meta_get(t, "uring.other_ops");

	if (n)
		strbuf_addf(out,
			    "io_uring: %llu requests on %u ring%s, in flight "
			    "at submission max %llu, mean %.2f; %llu on "
			    "registered files, %llu submitted by a ring's "
			    "kernel thread, %llu not completed\n",
			    (unsigned long long)n, s->uring_rings,
			    s->uring_rings == 1 ? "" : "s",
			    (unsigned long long)s->uring_depth_max,
			    (double)s->uring_depth_sum / (double)n,
			    (unsigned long long)s->uring_fixed,
			    (unsigned long long)s->uring_sqpoll,
			    (unsigned long long)s->uring_undone);
	if (unattr)
		strbuf_addf(out,
			    "io_uring requests left out: %llu whose file "
			    "could not be attributed\n",
			    (unsigned long long)unattr);
	if (other) {
		strbuf_addf(out,
			    "io_uring requests left out: %llu of operations "
			    "not recorded",
			    (unsigned long long)other);
		if (ops && *ops) {
			strbuf_addstr(out, " (");
			add_printable(out, ops);
			strbuf_addch(out, ')');
		}
		strbuf_addch(out, '\n');
	}
	if (unrec)
		strbuf_addf(out,
			    "io_uring: the traced processes made %llu ring%s "
			    "whose requests the capture could not see: none "
			    "is in this trace\n",
			    (unsigned long long)unrec, unrec == 1 ? "" : "s");
}

void trace_stats_text(const struct trace *t, const struct trace_summary *s,
		      struct strbuf *out)
{
	double secs = (double)s->duration_ns / 1e9;
	uint64_t total = trace_summary_total(s);
	unsigned op;

	strbuf_addf(out, "trace: %llu events over %.3f s, %zu threads%s",
		    (unsigned long long)total, secs, s->nr_threads,
		    t->complete ? "" : " (incomplete: no end record");
	if (t->cut_bytes)
		strbuf_addf(out,
			    "; its last %zu bytes, a record cut short, "
			    "left out",
			    t->cut_bytes);
	strbuf_addstr(out, t->complete ? "\n" : ")\n");
	if (t->end.lost)
		strbuf_addf(out,
			    "lost: %llu calls were not recorded (replay "
			    "refuses this trace without --allow-lost)\n",
			    (unsigned long long)t->end.lost);
	strbuf_addstr(out, "operations:\n");
	for (op = 1; op < TOP__NR; op++) {
		if (!s->ops[op])
			continue;
		strbuf_addf(out, "  %-16s %10llu", trace_op_name(op),
			    (unsigned long long)s->ops[op]);
		if (secs > 0)
			strbuf_addf(out, "  %10.1f/s",
				    (double)s->ops[op] / secs);
		if (s->errors[op])
			strbuf_addf(out, "  (%llu failed)",
				    (unsigned long long)s->errors[op]);
		strbuf_addch(out, '\n');
	}
	strbuf_addf(out, "name operations: %llu of %llu\n",
		    (unsigned long long)trace_summary_name_ops(s),
		    (unsigned long long)total);
	strbuf_addstr(out, "bytes: read ");
	add_bytes(out, s->bytes_read);
	strbuf_addstr(out, ", written ");
	add_bytes(out, s->bytes_written);
	strbuf_addch(out, '\n');
	if (block_total(s)) {
		strbuf_addf(out,
			    "block: queue depth at issue max %llu, mean "
			    "%.2f; writes with preflush %llu, with FUA %llu",
			    (unsigned long long)s->blk_depth_max,
			    (double)s->blk_depth_sum / (double)block_total(s),
			    (unsigned long long)s->blk_flush_writes,
			    (unsigned long long)s->blk_fua_writes);
		if (s->blk_discard_bytes) {
			strbuf_addstr(out, "; discarded ");
			add_bytes(out, s->blk_discard_bytes);
		}
		strbuf_addch(out, '\n');
	}
	uring_rows(t, s, out);
	if (s->ops[TOP_READ] || s->ops[TOP_WRITE] || s->ops[TOP_BLK_READ] ||
	    s->ops[TOP_BLK_WRITE] || s->ops[TOP_URING_READ] ||
	    s->ops[TOP_URING_WRITE]) {
		strbuf_addstr(out, "sizes asked:\n");
		size_rows(out, "read", s->read_sizes);
		size_rows(out, "write", s->write_sizes);
	}
	rate_rows(out, s);
	strbuf_addf(out,
		    "files: %zu regular, %zu directories; %zu existed "
		    "before (",
		    s->files_regular, s->files_dirs, s->files_existed);
	add_bytes(out, s->existed_bytes);
	strbuf_addf(out, "), %zu made during the trace\n", s->files_created);
	strbuf_addstr(out, "think time per thread: median ");
	add_ns(out, s->think_p50_ns);
	strbuf_addstr(out, ", p90 ");
	add_ns(out, s->think_p90_ns);
	strbuf_addstr(out, ", max ");
	add_ns(out, s->think_max_ns);
	strbuf_addch(out, '\n');
	if (t->end.duration_ns && (t->end.bpf_ns || t->end.user_ns))
		strbuf_addf(out,
			    "capture cost: %.2f%% of a core in BPF (%llu "
			    "runs), %.2f%% in iotrial\n",
			    100.0 * (double)t->end.bpf_ns /
				(double)t->end.duration_ns,
			    (unsigned long long)t->end.bpf_calls,
			    100.0 * (double)t->end.user_ns /
				(double)t->end.duration_ns);
}

/* A printable copy of s, appended. */
static void add_printable(struct strbuf *out, const char *s)
{
	char *c = xstrdup(s);

	text_make_printable(c);
	strbuf_addstr(out, c);
	free(c);
}

/* A block request's depth and flags, " depth=2 preflush fua". */
static void block_flags(struct strbuf *out, const struct trace_event *e)
{
	strbuf_addf(out, " depth=%u", e->arg);
	if (e->file2)
		strbuf_addf(out, " queued=%uns", e->file2);
	if (e->flags & TEV_PREFLUSH)
		strbuf_addstr(out, " preflush");
	if (e->flags & TEV_FUA)
		strbuf_addstr(out, " fua");
	if (e->flags & TEV_SYNC)
		strbuf_addstr(out, " sync");
	if (e->flags & TEV_META)
		strbuf_addstr(out, " meta");
	if (e->flags & TEV_RAHEAD)
		strbuf_addstr(out, " ahead");
	if (e->flags & TEV_UNDONE)
		strbuf_addstr(out, " undone");
}

/* An io_uring request's ring, depth and flags, " ring=1 depth=4 fixed". */
static void uring_flags(struct strbuf *out, const struct trace_event *e)
{
	strbuf_addf(out, " ring=%u depth=%u", e->file2, e->arg);
	/* a read or write at the file's position (the sqe's offset -1) */
	if (!(e->flags & TEV_POSITIONAL) &&
	    (e->op == TOP_URING_READ || e->op == TOP_URING_WRITE))
		strbuf_addstr(out, " filepos");
	if (e->flags & TEV_VEC)
		strbuf_addstr(out, " vec");
	if (e->flags & TEV_FIXED)
		strbuf_addstr(out, " fixed");
	if (e->flags & TEV_SQPOLL)
		strbuf_addstr(out, " sqpoll");
	if (e->flags & TEV_UNDONE)
		strbuf_addstr(out, " undone");
}

void trace_show_text(const struct trace *t, size_t limit, struct strbuf *out)
{
	size_t i, n = t->nr_events;

	strbuf_addf(out, "iotrial trace, format %d.%u%s\n", TRACE_VERSION_MAJOR,
		    t->version_minor,
		    t->complete	   ? ""
		    : t->cut_bytes ? " (incomplete: cut short in a record)"
				   : " (incomplete)");
	for (i = 0; i < t->nr_meta; i++) {
		strbuf_addstr(out, "  ");
		add_printable(out, t->meta[i].key);
		strbuf_addstr(out, " = ");
		add_printable(out, t->meta[i].value);
		strbuf_addch(out, '\n');
	}
	strbuf_addf(out, "files (%zu):\n", t->nr_files);
	for (i = 0; i < t->nr_files; i++) {
		const struct trace_file *f = &t->files[i];
		static const char *const kinds[] = {"?", "file", "dir",
						    "other"};

		/* a name looked up and never there is not one the trace
		 * made: a failed open of a $PATH entry, say */
		strbuf_addf(out, "  %4u %-5s %s ", f->id,
			    kinds[f->kind <= TFK_OTHER ? f->kind : 0],
			    f->existed		     ? "existed"
			    : f->kind == TFK_UNKNOWN ? "absent "
						     : "new    ");
		if (f->existed && f->kind == TFK_REG) {
			add_bytes(out, f->size_bytes);
			strbuf_addch(out, ' ');
		}
		add_printable(out, f->path);
		strbuf_addch(out, '\n');
	}
	/* 1.3: what the page cache held of each at its first open */
	if (t->nr_cached)
		strbuf_addf(out, "page cache at the first open (%zu file%s):\n",
			    t->nr_cached, t->nr_cached == 1 ? "" : "s");
	for (i = 0; i < t->nr_files; i++) {
		const struct trace_file *f = &t->files[i];

		if (!f->have_cached)
			continue;
		strbuf_addf(out, "  %4u cached ", f->id);
		add_bytes(out, f->cached_bytes);
		strbuf_addstr(out, " of ");
		add_bytes(out, f->size_bytes);
		strbuf_addch(out, '\n');
	}
	if (limit && limit < n)
		n = limit;
	strbuf_addf(out, "events (%zu of %zu):\n", n, t->nr_events);
	strbuf_addstr(out, "  time_ns       dur_ns     tid      op"
			   "               fd  file  offset       size     "
			   "  ret\n");
	for (i = 0; i < n; i++) {
		const struct trace_event *e = &t->events[i];

		strbuf_addf(out,
			    "  %-13llu %-10llu %-8u %-16s %-3d %-5u %-12llu "
			    "%-10llu %lld",
			    (unsigned long long)e->ts_ns,
			    (unsigned long long)e->dur_ns, e->tid,
			    trace_op_name(e->op), e->fd, e->file,
			    (unsigned long long)e->offset,
			    (unsigned long long)e->size, (long long)e->ret);
		if (e->file2 && !trace_op_is_uring(e->op))
			strbuf_addf(out, " -> %u", e->file2);
		if (e->op == TOP_OPEN)
			strbuf_addf(out, " flags=0%o", e->arg);
		if (e->op == TOP_FADVISE)
			strbuf_addf(out, " advice=%s",
				    trace_fadv_name(e->arg)
					? trace_fadv_name(e->arg)
					: "?");
		if (trace_op_is_block(e->op))
			block_flags(out, e);
		if (trace_op_is_uring(e->op))
			uring_flags(out, e);
		strbuf_addch(out, '\n');
	}
	if (t->complete)
		strbuf_addf(out, "end: %llu events, %llu lost, %.3f s\n",
			    (unsigned long long)t->end.nr_events,
			    (unsigned long long)t->end.lost,
			    (double)t->end.duration_ns / 1e9);
}
