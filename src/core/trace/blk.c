/*
 * The block layer of a capture. See blk.h.
 *
 * The kernel gives three moments of a request: inserted into the
 * scheduler's queue (not every request passes there), issued to the
 * driver, completed. A request is known by its sector while it is in
 * flight; requests that share a sector are paired oldest first, and a
 * flush (which completes at no sector) with the oldest flush. The number in
 * flight at an issue is the number issued and not completed, itself included:
 * the queue depth the device saw. Tables are bounded (BLK_INFLIGHT_MAX): what
 * does not fit is counted as lost, never grown without end.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include "blk.h"
#include "trace.h"
#include "../../util/error.h"
#include "../../util/strbuf.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

int blk_parse_rwbs(const char *rwbs, unsigned *op, unsigned *flags)
{
	const char *p = rwbs;

	*op = TOP_NONE;
	*flags = 0;
	/* an F before the op letter is a preflush; "F" alone (or "FF",
	 * "FN") is a flush request */
	if (p[0] == 'F' && p[1] && strchr("WRDFN", p[1])) {
		*flags |= TEV_PREFLUSH;
		p++;
	}
	switch (*p) {
	case 'W':
		*op = TOP_BLK_WRITE;
		break;
	case 'R':
		*op = TOP_BLK_READ;
		break;
	case 'D':
		*op = TOP_BLK_DISCARD;
		break;
	case 'F':
		*op = TOP_BLK_FLUSH;
		break;
	case 'N': /* no data: with a preflush, a flush */
		if (*flags & TEV_PREFLUSH) {
			*op = TOP_BLK_FLUSH;
			break;
		}
		return -EINVAL;
	default:
		return -EINVAL;
	}
	for (p++; *p; p++) {
		switch (*p) {
		case 'F':
			*flags |= TEV_FUA;
			break;
		case 'S':
			*flags |= TEV_SYNC;
			break;
		case 'M':
			*flags |= TEV_META;
			break;
		case 'A':
			*flags |= TEV_RAHEAD;
			break;
		case 'E': /* secure erase: a discard still */
			break;
		default:
			break;
		}
	}
	if (*op == TOP_BLK_FLUSH)
		*flags &= ~(unsigned)TEV_PREFLUSH;
	return 0;
}

void blk_tracker_init(struct blk_tracker *b, struct trace_writer *w,
		      uint64_t start_ns)
{
	memset(b, 0, sizeof(*b));
	b->w = w;
	b->start_ns = start_ns;
}

void blk_tracker_release(struct blk_tracker *b)
{
	if (!b)
		return;
	free(b->issued);
	free(b->inserted);
	memset(b, 0, sizeof(*b));
}

/* The index of the oldest request at sector in v[0..n), or n. */
static size_t find_sector(const struct blk_inflight *v, size_t n,
			  uint64_t sector)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (v[i].sector == sector)
			return i;
	return n;
}

/* The index of the oldest flush in v[0..n), or n. */
static size_t find_flush(const struct blk_inflight *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (v[i].op == TOP_BLK_FLUSH)
			return i;
	return n;
}

/* Take v[i] out, keeping the order. */
static void remove_at(struct blk_inflight *v, size_t *n, size_t i)
{
	memmove(v + i, v + i + 1, (*n - i - 1) * sizeof(*v));
	(*n)--;
}

/* ns since the capture's start (0 for a time before it). */
static uint64_t rel_ns(const struct blk_tracker *b, uint64_t ts)
{
	return ts > b->start_ns ? ts - b->start_ns : 0;
}

/* Write one request. */
static int emit(struct blk_tracker *b, const struct blk_inflight *q,
		uint64_t done_ns, int32_t error, unsigned extra_flags,
		struct strbuf *err)
{
	struct trace_event e = {0};
	uint64_t wait = 0;

	e.ts_ns = rel_ns(b, q->issue_ns);
	e.dur_ns = done_ns > q->issue_ns ? done_ns - q->issue_ns : 0;
	e.tid = q->pid;
	e.op = q->op;
	e.flags = (uint16_t)(q->flags | extra_flags);
	e.offset = q->sector * 512;
	e.size = q->bytes;
	e.ret = error;
	e.arg = q->depth;
	if (q->insert_ns && q->issue_ns > q->insert_ns)
		wait = q->issue_ns - q->insert_ns;
	e.file2 = wait > UINT32_MAX ? UINT32_MAX : (uint32_t)wait;
	e.fd = -1;
	b->nr_events++;
	if (!b->w) {
		if (b->mem->nr_events >= TRACE_EVENTS_MAX)
			return err_set(err, -EFBIG, "more than %u events",
				       TRACE_EVENTS_MAX);
		ALLOC_GROW(b->mem->events, b->mem->nr_events + 1,
			   b->mem->alloc_events);
		b->mem->events[b->mem->nr_events++] = e;
		return 0;
	}
	return trace_writer_event(b->w, &e, err);
}

/* A request issued: from the queue if it was inserted, into flight. */
static void on_issue(struct blk_tracker *b, const struct iot_blk *r,
		     unsigned op, unsigned flags)
{
	struct blk_inflight q = {0};
	size_t i = find_sector(b->inserted, b->nr_inserted, r->sector);

	if (i < b->nr_inserted) {
		q.insert_ns = b->inserted[i].insert_ns;
		remove_at(b->inserted, &b->nr_inserted, i);
	}
	if (b->nr_issued >= BLK_INFLIGHT_MAX) {
		b->lost++;
		return;
	}
	q.sector = r->sector;
	q.issue_ns = r->ts_ns;
	q.bytes = r->bytes;
	q.pid = r->pid;
	q.op = (uint16_t)op;
	q.flags = (uint16_t)flags;
	q.depth = (uint32_t)b->nr_issued + 1;
	ALLOC_GROW(b->issued, b->nr_issued + 1, b->alloc_issued);
	b->issued[b->nr_issued++] = q;
}

int blk_tracker_event(struct blk_tracker *b, const struct iot_blk *r,
		      struct strbuf *err)
{
	char rwbs[IOT_RWBS_MAX + 1];
	unsigned op, flags;
	size_t i;
	int ret;

	memcpy(rwbs, r->rwbs, IOT_RWBS_MAX);
	rwbs[IOT_RWBS_MAX] = 0;
	if (blk_parse_rwbs(rwbs, &op, &flags))
		return 0; /* a request of no kind a trace keeps ("N") */
	switch (r->which) {
	case IOT_BLK_INSERT:
		if (b->nr_inserted >= BLK_INFLIGHT_MAX) {
			b->lost++;
			return 0;
		}
		ALLOC_GROW(b->inserted, b->nr_inserted + 1, b->alloc_inserted);
		memset(&b->inserted[b->nr_inserted], 0, sizeof(*b->inserted));
		b->inserted[b->nr_inserted].sector = r->sector;
		b->inserted[b->nr_inserted].insert_ns = r->ts_ns;
		b->nr_inserted++;
		return 0;
	case IOT_BLK_ISSUE:
		on_issue(b, r, op, flags);
		return 0;
	case IOT_BLK_COMPLETE:
		/* a flush completes at no sector (all ones); a data request
		 * that carried a flush completes twice, the second time
		 * with no sectors left, which is not a request of its own */
		if (op == TOP_BLK_FLUSH)
			i = find_flush(b->issued, b->nr_issued);
		else if (!r->nr_sector && op != TOP_BLK_DISCARD)
			return 0;
		else
			i = find_sector(b->issued, b->nr_issued, r->sector);
		if (i == b->nr_issued) {
			b->unpaired++; /* issued before the capture */
			return 0;
		}
		ret = emit(b, &b->issued[i], r->ts_ns, r->error, 0, err);
		remove_at(b->issued, &b->nr_issued, i);
		return ret;
	default:
		return 0;
	}
}

int blk_tracker_finish(struct blk_tracker *b, struct strbuf *err)
{
	size_t i;
	int ret = 0;

	for (i = 0; i < b->nr_issued && !ret; i++)
		ret = emit(b, &b->issued[i], 0, 0, TEV_UNDONE, err);
	b->nr_issued = 0;
	return ret;
}

int blk_device_resolve(const char *path, uint32_t *kdev, uint64_t *rdev,
		       struct strbuf *err)
{
	char sys[128];
	struct stat st;

	if (stat(path, &st))
		return err_set(err, -errno, "cannot stat '%s': %s", path,
			       strerror(errno));
	if (!S_ISBLK(st.st_mode))
		return err_set(err, -ENOTBLK, "'%s' is not a block device",
			       path);
	snprintf(sys, sizeof(sys), "/sys/dev/block/%u:%u/partition",
		 major(st.st_rdev), minor(st.st_rdev));
	if (!access(sys, F_OK))
		return err_set(err, -EINVAL,
			       "'%s' is a partition: the block layer sees "
			       "its disk, name that",
			       path);
	*rdev = st.st_rdev;
	*kdev = (uint32_t)(major(st.st_rdev) << 20 | minor(st.st_rdev));
	return 0;
}

int blk_parse_format(const char *text, uint32_t off[IOT_BF__NR])
{
	static const char *const names[IOT_BF__NR] = {
	    [IOT_BF_DEV] = "dev",
	    [IOT_BF_SECTOR] = "sector",
	    [IOT_BF_NR_SECTOR] = "nr_sector",
	    [IOT_BF_BYTES] = "bytes",
	    [IOT_BF_ERROR] = "error",
	    [IOT_BF_RWBS] = "rwbs",
	};
	const char *line = text;

	memset(off, 0, IOT_BF__NR * sizeof(*off));
	while (line && *line) {
		const char *f = strstr(line, "field:"), *semi, *name, *o;
		const char *nl = strchr(line, '\n');
		unsigned offset, size, k;
		size_t len;

		if (!f || (nl && f > nl))
			goto next;
		semi = strchr(f, ';');
		if (!semi || (nl && semi > nl))
			goto next;
		for (name = semi; name > f && name[-1] != ' '; name--)
			;
		len = (size_t)(semi - name);
		if (memchr(name, '[', len))
			len = (size_t)((const char *)memchr(name, '[', len) -
				       name);
		o = strstr(semi, "offset:");
		if (!o || (nl && o > nl) ||
		    sscanf(o, "offset:%u;\tsize:%u", &offset, &size) != 2)
			goto next;
		for (k = 0; k < IOT_BF__NR; k++) {
			if (!names[k] || strlen(names[k]) != len ||
			    strncmp(names[k], name, len))
				continue;
			if (offset == 0 || offset > 256)
				break;
			/* the sizes the program reads them with */
			if ((k == IOT_BF_SECTOR && size != 8) ||
			    (k != IOT_BF_SECTOR && k != IOT_BF_RWBS &&
			     size != 4))
				break;
			off[k] = offset;
			if (k == IOT_BF_RWBS)
				off[IOT_BF_RWBS_SIZE] = size < IOT_RWBS_MAX
							    ? size
							    : IOT_RWBS_MAX - 1;
		}
	next:
		line = nl ? nl + 1 : NULL;
	}
	if (!off[IOT_BF_DEV] || !off[IOT_BF_SECTOR] || !off[IOT_BF_RWBS])
		return -ENOTSUP;
	return 0;
}

int blk_tp_offsets(unsigned tp, uint32_t off[IOT_BF__NR])
{
	static const char *const tps[IOT_BLK__NR] = {
	    "block_rq_issue", "block_rq_complete", "block_rq_insert"};
	static const char *const roots[] = {"/sys/kernel/tracing",
					    "/sys/kernel/debug/tracing"};
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	int ret = -ENOENT;
	size_t i;

	memset(off, 0, IOT_BF__NR * sizeof(*off));
	if (tp >= IOT_BLK__NR)
		return -EINVAL;
	for (i = 0; i < ARRAY_SIZE(roots) && ret == -ENOENT; i++) {
		strbuf_setf(&path, "%s/events/block/%s/format", roots[i],
			    tps[tp]);
		strbuf_reset(&text);
		if (strbuf_read_file(&text, path.buf, 65536))
			continue;
		ret = blk_parse_format(text.buf, off);
	}
	strbuf_release(&path);
	strbuf_release(&text);
	return ret;
}

/* One value of /sys/dev/block/M:m/REL as meta entry key. */
static int meta_sys(struct trace_writer *w, uint64_t rdev, const char *rel,
		    const char *key, struct strbuf *err)
{
	struct strbuf path = STRBUF_INIT, val = STRBUF_INIT;
	int ret = 0;

	strbuf_addf(&path, "/sys/dev/block/%u:%u/%s", major(rdev), minor(rdev),
		    rel);
	if (!strbuf_read_file(&val, path.buf, 4096)) {
		strbuf_trim(&val);
		if (!strcmp(rel, "queue/scheduler")) { /* the one in [] */
			char *a = strchr(val.buf, '['), *z;

			if (a && (z = strchr(a, ']'))) {
				*z = 0;
				memmove(val.buf, a + 1, strlen(a + 1) + 1);
				strbuf_setlen(&val, strlen(val.buf));
			}
		}
		if (!strcmp(rel, "size")) { /* 512-byte sectors */
			unsigned long long n = strtoull(val.buf, NULL, 10);

			strbuf_setf(&val, "%llu", n * 512ull);
		}
		ret = trace_writer_meta(w, key, val.buf, err);
	}
	strbuf_release(&path);
	strbuf_release(&val);
	return ret;
}

int blk_write_meta(struct trace_writer *w, const char *path, uint64_t rdev,
		   struct strbuf *err)
{
	static const char *const rows[][2] = {
	    {"queue/logical_block_size", "block.logical_block_size"},
	    {"queue/physical_block_size", "block.physical_block_size"},
	    {"size", "block.size_bytes"},
	    {"queue/scheduler", "block.scheduler"},
	    {"queue/nr_requests", "block.nr_requests"},
	    {"queue/read_ahead_kb", "block.read_ahead_kb"},
	    {"queue/rotational", "block.rotational"},
	};
	char dev[32];
	size_t i;
	int ret;

	snprintf(dev, sizeof(dev), "%u:%u", major(rdev), minor(rdev));
	ret = trace_writer_meta(w, "block.device", path, err);
	if (!ret)
		ret = trace_writer_meta(w, "block.dev", dev, err);
	for (i = 0; !ret && i < ARRAY_SIZE(rows); i++)
		ret = meta_sys(w, rdev, rows[i][0], rows[i][1], err);
	return ret;
}
