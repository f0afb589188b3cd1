/*
 * blktrace's binary records as a block trace. See blkparse.h. Each
 * issue, complete and insert record is turned into what the capture's
 * BPF program would have sent (struct iot_blk, with an rwbs string made
 * from the categories), and the capture's pairing does the rest.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "blk.h"
#include "blkparse.h"
#include "trace.h"
#include "../../util/error.h"
#include "../../util/strbuf.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

#define TA_ISSUE    7
#define TA_COMPLETE 8
#define TA_INSERT   12
#define TA_CGROUP   (1u << 8)

#define TC_READ	   (1u << 0)
#define TC_WRITE   (1u << 1)
#define TC_FLUSH   (1u << 2)
#define TC_SYNC	   (1u << 3)
#define TC_AHEAD   (1u << 11)
#define TC_META	   (1u << 12)
#define TC_DISCARD (1u << 13)
#define TC_FUA	   (1u << 15)

/* A u16/u32/u64 at p, little-endian, or big-endian when swap. */
static uint64_t get(const unsigned char *p, unsigned n, int swap)
{
	uint64_t v = 0;
	unsigned i;

	for (i = 0; i < n; i++)
		v |= (uint64_t)p[swap ? n - 1 - i : i] << (8 * i);
	return v;
}

/* 0: not the magic; 1: little-endian; 2: big-endian. */
static int order_of(const unsigned char *p)
{
	if ((get(p, 4, 0) & 0xffffff00u) == BLKPARSE_MAGIC)
		return 1;
	if ((get(p, 4, 1) & 0xffffff00u) == BLKPARSE_MAGIC)
		return 2;
	return 0;
}

int blkparse_detect(const void *data, size_t len)
{
	return len >= BLKPARSE_RECORD && order_of(data) != 0;
}

/* The rwbs string the kernel would give categories cat of a request of
 * bytes bytes. */
static void make_rwbs(uint32_t cat, uint32_t bytes, char *out, size_t n)
{
	size_t i = 0;

	if ((cat & TC_FLUSH) && bytes)
		out[i++] = 'F'; /* a preflush before data */
	if (cat & TC_DISCARD)
		out[i++] = 'D';
	else if (cat & TC_WRITE)
		out[i++] = 'W';
	else if (bytes && (cat & TC_READ))
		out[i++] = 'R';
	else if (cat & TC_FLUSH)
		out[i++] = 'F';
	else
		out[i++] = 'N';
	if (cat & TC_FUA)
		out[i++] = 'F';
	if (cat & TC_AHEAD)
		out[i++] = 'A';
	if (cat & TC_SYNC)
		out[i++] = 'S';
	if (cat & TC_META)
		out[i++] = 'M';
	out[i < n ? i : n - 1] = 0;
}

int blkparse_import(const void *data, size_t len, struct trace *t,
		    uint64_t *others_out, struct strbuf *err)
{
	const unsigned char *p = data;
	struct blk_tracker b;
	uint64_t others = 0, last_ns = 0, nr = 0;
	uint32_t dev = 0;
	size_t at = 0;
	int swap, ret = 0;
	char devs[32];

	*others_out = 0;
	if (!blkparse_detect(data, len))
		return err_set(err, -EINVAL,
			       "not blktrace records (no magic 0x%x)",
			       BLKPARSE_MAGIC);
	swap = order_of(p) == 2;
	blk_tracker_init(&b, NULL, 0);
	b.mem = t;
	while (at < len && !ret) {
		const unsigned char *r = p + at;
		struct iot_blk e;
		uint32_t magic, action, act, cat, pdu;

		nr++;
		if (len - at < BLKPARSE_RECORD) {
			ret = err_set(err, -EINVAL, "record %llu is cut short",
				      (unsigned long long)nr);
			break;
		}
		magic = (uint32_t)get(r, 4, swap);
		if ((magic & 0xffffff00u) != BLKPARSE_MAGIC ||
		    (magic & 0xff) != BLKPARSE_VERSION) {
			ret = err_set(err, -EINVAL,
				      "record %llu has no blktrace magic of "
				      "version %u",
				      (unsigned long long)nr, BLKPARSE_VERSION);
			break;
		}
		pdu = (uint32_t)get(r + 46, 2, swap);
		if (pdu > len - at - BLKPARSE_RECORD) {
			ret = err_set(err, -EINVAL,
				      "record %llu's payload runs past the end",
				      (unsigned long long)nr);
			break;
		}
		at += BLKPARSE_RECORD + pdu;
		if (nr > 4ull * TRACE_EVENTS_MAX) {
			ret = err_set(err, -EFBIG, "more than %llu records",
				      4ull * TRACE_EVENTS_MAX);
			break;
		}
		action = (uint32_t)get(r + 28, 4, swap);
		act = action & 0xffff & ~TA_CGROUP;
		cat = action >> 16;
		if (act != TA_ISSUE && act != TA_COMPLETE && act != TA_INSERT)
			continue;
		memset(&e, 0, sizeof(e));
		e.kind = IOT_REC_BLK;
		e.which = act == TA_ISSUE      ? IOT_BLK_ISSUE
			  : act == TA_COMPLETE ? IOT_BLK_COMPLETE
					       : IOT_BLK_INSERT;
		e.ts_ns = get(r + 8, 8, swap);
		e.sector = get(r + 16, 8, swap);
		e.bytes = (uint32_t)get(r + 24, 4, swap);
		e.nr_sector = e.bytes / 512;
		e.pid = (uint32_t)get(r + 32, 4, swap);
		e.dev = (uint32_t)get(r + 36, 4, swap);
		e.error = -(int32_t)get(r + 44, 2, swap);
		if (!dev)
			dev = e.dev;
		if (e.dev != dev) {
			others++;
			continue;
		}
		make_rwbs(cat, e.bytes, e.rwbs, sizeof(e.rwbs));
		if (e.ts_ns > last_ns)
			last_ns = e.ts_ns;
		ret = blk_tracker_event(&b, &e, err);
	}
	if (!ret)
		ret = blk_tracker_finish(&b, err);
	t->end.lost = b.lost;
	blk_tracker_release(&b);
	if (ret)
		return ret;
	if (!t->nr_events)
		return err_set(err, -EINVAL,
			       "no issued request in the blktrace records");
	snprintf(devs, sizeof(devs), "%u:%u", dev >> 20, dev & 0xfffff);
	trace_add_meta(t, "layer", "block");
	trace_add_meta(t, "imported", "blktrace");
	trace_add_meta(t, "block.dev", devs);
	t->version_minor = TRACE_VERSION_MINOR;
	t->end.nr_events = t->nr_events;
	t->end.duration_ns = last_ns;
	t->complete = 1;
	*others_out = others;
	return 0;
}

/* One record to write: when, and what. */
struct bt_out {
	uint64_t ns;
	size_t event; /* index in t->events */
	uint32_t ta;  /* TA_ISSUE, TA_COMPLETE, TA_INSERT */
};

static int by_time(const void *a, const void *b)
{
	const struct bt_out *x = a, *y = b;

	if (x->ns != y->ns)
		return x->ns < y->ns ? -1 : 1;
	if (x->event != y->event)
		return x->event < y->event ? -1 : 1;
	return x->ta == TA_INSERT ? -1 : x->ta < y->ta ? -1 : 1;
}

/* The categories of a block event. */
static uint32_t categories(const struct trace_event *e)
{
	uint32_t c = 0;

	switch (e->op) {
	case TOP_BLK_READ:
		c |= TC_READ;
		break;
	case TOP_BLK_WRITE:
		c |= TC_WRITE;
		break;
	case TOP_BLK_DISCARD:
		c |= TC_DISCARD | TC_WRITE;
		break;
	case TOP_BLK_FLUSH:
		c |= TC_FLUSH;
		break;
	}
	if (e->flags & TEV_PREFLUSH)
		c |= TC_FLUSH;
	if (e->flags & TEV_FUA)
		c |= TC_FUA;
	if (e->flags & TEV_SYNC)
		c |= TC_SYNC;
	if (e->flags & TEV_META)
		c |= TC_META;
	if (e->flags & TEV_RAHEAD)
		c |= TC_AHEAD;
	return c;
}

/* Append v as n little-endian bytes. */
static void put(struct strbuf *out, uint64_t v, unsigned n)
{
	unsigned i;

	for (i = 0; i < n; i++)
		strbuf_addch(out, (int)(unsigned char)(v >> (8 * i)));
}

size_t blkparse_export(const struct trace *t, struct strbuf *out)
{
	const char *devs = trace_meta_get(t, "block.dev");
	struct bt_out *v = xcalloc(3 * t->nr_events + 1, sizeof(*v));
	unsigned maj = 0, min = 0;
	size_t n = 0, i, reqs = 0;
	uint32_t dev = 0;

	if (devs && sscanf(devs, "%u:%u", &maj, &min) == 2 && maj < 4096 &&
	    min < (1u << 20))
		dev = maj << 20 | min;
	for (i = 0; i < t->nr_events; i++) {
		const struct trace_event *e = &t->events[i];

		if (!trace_op_is_block(e->op))
			continue;
		reqs++;
		if (e->file2 && e->ts_ns >= e->file2)
			v[n++] =
			    (struct bt_out){e->ts_ns - e->file2, i, TA_INSERT};
		v[n++] = (struct bt_out){e->ts_ns, i, TA_ISSUE};
		if (!(e->flags & TEV_UNDONE))
			v[n++] = (struct bt_out){e->ts_ns + e->dur_ns, i,
						 TA_COMPLETE};
	}
	qsort(v, n, sizeof(*v), by_time);
	for (i = 0; i < n; i++) {
		const struct trace_event *e = &t->events[v[i].event];
		int64_t err =
		    v[i].ta == TA_COMPLETE && e->ret < 0 ? -e->ret : 0;

		put(out, BLKPARSE_MAGIC | BLKPARSE_VERSION, 4);
		put(out, i + 1, 4);
		put(out, v[i].ns, 8);
		put(out, e->op == TOP_BLK_FLUSH ? 0 : e->offset / 512, 8);
		put(out, e->size > UINT32_MAX ? UINT32_MAX : e->size, 4);
		put(out, v[i].ta | categories(e) << 16, 4);
		put(out, e->tid, 4);
		put(out, dev, 4);
		put(out, 0, 4);
		put(out, err > 0xffff ? 0xffff : (uint64_t)err, 2);
		put(out, 0, 2);
	}
	free(v);
	return reqs;
}
