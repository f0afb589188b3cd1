/*
 * Request-queue limits in /sys/block/DISK/queue: nr_requests,
 * max_sectors_kb, wbt_lat_usec, rq_affinity, nomerges and add_random.
 * Plain numbers each, described by one table row; those with a twist
 * get a hook:
 *
 * - max_sectors_kb may move read-ahead with it on some kernels (the
 *   device's optimal I/O size feeds both), and on Linux 6.x writing
 *   add_random commits the queue's limits anew, which resets
 *   read_ahead_kb to its default: for both, save() captures
 *   read_ahead_kb too, restore() puts both back, read-ahead last, and
 *   they are applied before read-ahead (KNOB_PRIO_MAX_SECTORS).
 * - wbt_lat_usec: 0 turns writeback throttling off, -1 resets it to the
 *   device's default, which then reads back as that default.
 *
 * Whether a run reached what a knob limits (knob_ops.regime) is judged
 * for nr_requests (did the queue ever hold as many requests as it
 * allows) and wbt_lat_usec (were there buffered writes to throttle).
 * max_sectors_kb, rq_affinity and nomerges are not: the sampler sees
 * mean request sizes and merge counts, which cannot show that no
 * request met the limit, so they stay "unknown" and say nothing.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "knob-int.h"
#include "../../util/error.h"
#include "../../util/units.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* How a queue knob's value is typed. */
enum qtype {
	Q_COUNT,  /* a plain count */
	Q_KIB,	  /* a size, bare numbers in KiB */
	Q_WBT,	  /* microseconds, durations, 0 and -1 special */
	Q_CHOICE, /* a small number from min..max */
};

/* One queue knob. */
struct queue_spec {
	const char *name;
	int prio;
	enum qtype type;
	int64_t min, max;
	const char *unit, *allowed, *notes;
	int moves_ra; /* a write may reset read_ahead_kb */
};

static const struct queue_spec specs[] = {
    {"nr_requests", KNOB_PRIO_NR_REQUESTS, Q_COUNT, 4, INT32_MAX, "",
     "4 or more",
     "how many requests the scheduler may hold; switching the "
     "scheduler resets it\n"
     "with scheduler 'none' it cannot exceed the hardware queue depth"},
    {"max_sectors_kb", KNOB_PRIO_MAX_SECTORS, Q_KIB, 0, 0, "KiB",
     "one page .. max_hw_sectors_kb",
     "the largest request the block layer sends the device\n"
     "it may change read_ahead_kb on some kernels: iotrial re-reads "
     "read-ahead, saves it and restores both",
     1},
    {"wbt_lat_usec", KNOB_PRIO_QUEUE, Q_WBT, -1, INT32_MAX, "us",
     "-1 (reset), 0 (off), or a latency such as 75000 or 75ms",
     "the read latency target of writeback throttling; 0 disables it, "
     "-1 resets it to the device default"},
    {"rq_affinity", KNOB_PRIO_QUEUE, Q_CHOICE, 0, 2, "", "0 1 2",
     "where completions run: 0 any CPU, 1 the submitter's CPU group, "
     "2 the submitting CPU"},
    {"nomerges", KNOB_PRIO_QUEUE, Q_CHOICE, 0, 2, "", "0 1 2",
     "0 merges requests, 1 only simple one-hit merges, 2 never merges"},
    {"add_random", KNOB_PRIO_MAX_SECTORS, Q_CHOICE, 0, 1, "", "0 1",
     "1 feeds the timing of this device's I/O into the entropy pool\n"
     "writing it may reset read_ahead_kb: iotrial sets it first, saves "
     "read-ahead and restores both",
     1},
};

/* The table row of a knob name, or NULL. */
static const struct queue_spec *spec_of(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(specs); i++)
		if (!strcmp(specs[i].name, name))
			return &specs[i];
	return NULL;
}

/* Does /sys/block/DISK/queue/NAME exist? */
static int has_attr(const struct knob_ctx *ctx, const char *name)
{
	char *p =
	    knob_path(ctx->root, "/sys/block/%s/queue/%s", ctx->disk, name);
	int ok = !access(p, F_OK);

	free(p);
	return ok;
}

/* knob_ops.names: the knobs of this family that ctx can bind. */
static void queue_names(const struct knob_ctx *ctx, struct knob_list *out)
{
	size_t i;

	if (!ctx->disk && !ctx->anywhere)
		return;
	for (i = 0; i < ARRAY_SIZE(specs); i++)
		if (!ctx->disk || has_attr(ctx, specs[i].name))
			knob_list_add(out, specs[i].name);
}

/* knob_ops.resolve: bind a name of this family to ctx, or -ENOENT. */
static int queue_resolve(const struct knob_ctx *ctx, const char *name,
			 struct knob *k, struct strbuf *note,
			 struct strbuf *err)
{
	const struct queue_spec *s = spec_of(name);
	int ret;

	(void)note;
	if (!s)
		return KNOB_NOT_MINE;
	ret = knob_bind_device(ctx, k, name, name, err);
	if (ret)
		return ret;
	k->prio = s->prio;
	k->spec = s;
	if (!has_attr(ctx, name))
		return err_set(err, -ENODEV,
			       "'%s' has no '%s' (there is no '%s'); this "
			       "kernel or device does not support it",
			       ctx->disk, name, k->path);
	return 0;
}

/* knob_ops.read: the current value, canonical. */
static int queue_read(const struct knob *k, struct strbuf *value,
		      struct strbuf *err)
{
	return knob_read_file(k->path, k->name, value, err);
}

/* Read a sibling attribute of k's queue as a number. */
static int read_sibling(const struct knob *k, const char *attr, int64_t *out,
			struct strbuf *err)
{
	struct strbuf v = STRBUF_INIT;
	char *p = knob_path(k->root, "/sys/block/%s/queue/%s", k->object, attr);
	int ret = knob_read_file(p, attr, &v, err);

	if (!ret)
		*out = strtoll(v.buf, NULL, 10);
	free(p);
	strbuf_release(&v);
	return ret;
}

/* max_sectors_kb: a size; bare numbers in KiB; one page .. hardware max. */
static int parse_kib(const struct knob *k, const char *in, int64_t *out,
		     struct strbuf *err)
{
	struct strbuf why = STRBUF_INIT;
	int64_t hw = 0, page = knob_page_kib(), kib;
	uint64_t bytes;
	int ret;

	if (read_sibling(k, "max_hw_sectors_kb", &hw, NULL))
		hw = INT32_MAX;
	if (in[0] >= '0' && in[0] <= '9' && !in[strspn(in, "0123456789")]) {
		ret = knob_parse_int(k, in, page, hw,
				     "a size in KiB such as 1024", &kib, err);
		if (ret == -ERANGE)
			err_set(err, -ERANGE,
				"'%s' is out of range for 'max_sectors_kb' on "
				"'%s'; it takes %" PRId64 "..%" PRId64
				" (KiB; the upper end is max_hw_sectors_kb)",
				in, k->object, page, hw);
		if (!ret)
			*out = kib;
		return ret;
	}
	if (!knob_looks_numeric(in))
		return err_set(err, -EINVAL,
			       "'max_sectors_kb' takes a size such as 1024 "
			       "(KiB) or 1MiB, not '%s'",
			       in);
	ret = units_parse_size(in, 0, &bytes, NULL, &why);
	if (ret) {
		err_set(err, ret, "'max_sectors_kb' takes a size: %s", why.buf);
		strbuf_release(&why);
		return ret;
	}
	strbuf_release(&why);
	if (bytes % 1024)
		return err_set(err, -EINVAL,
			       "'%s' is not a whole number of KiB, which is "
			       "what 'max_sectors_kb' counts",
			       in);
	if ((int64_t)(bytes / 1024) < page || (int64_t)(bytes / 1024) > hw)
		return err_set(err, -ERANGE,
			       "'%s' is out of range for 'max_sectors_kb' on "
			       "'%s'; it takes %" PRId64 "..%" PRId64 " KiB",
			       in, k->object, page, hw);
	*out = (int64_t)(bytes / 1024);
	return 0;
}

/* knob_ops.parse: what a person typed -> the canonical value. */
static int queue_parse(const struct knob *k, const char *in,
		       struct strbuf *canon, struct strbuf *note,
		       struct strbuf *err)
{
	const struct queue_spec *s = k->spec;
	int64_t v = 0;
	int ret;

	switch (s->type) {
	case Q_COUNT:
		ret = knob_parse_int(k, in, s->min, s->max,
				     "a count such as 64", &v, err);
		break;
	case Q_CHOICE:
		ret =
		    knob_parse_int(k, in, s->min, s->max, "0, 1 or 2", &v, err);
		break;
	case Q_KIB:
		ret = parse_kib(k, in, &v, err);
		break;
	case Q_WBT:
	default:
		ret = knob_parse_duration(k, in, 1000, "microseconds", s->min,
					  s->max, &v, err);
		if (!ret && note && v == -1)
			strbuf_addf(note,
				    "%s-1 resets 'wbt_lat_usec' to the "
				    "device's default",
				    note->len ? "; " : "");
		if (!ret && note && v == 0)
			strbuf_addf(note, "%s0 turns writeback throttling off",
				    note->len ? "; " : "");
		break;
	}
	if (!ret)
		strbuf_addf(canon, "%" PRId64, v);
	return ret;
}

/* knob_ops.write: write the canonical value (verified by the caller). */
static int queue_write(const struct knob *k, const char *canon,
		       struct strbuf *err)
{
	return knob_write_file(k->path, k->name, canon, err);
}

/* knob_ops.verify: does the value read back satisfy canon? */
static int queue_verify(const struct knob *k, const char *canon,
			const char *now, struct strbuf *note)
{
	int64_t ra;

	if (!strcmp(k->name, "max_sectors_kb") && !strcmp(canon, now) && note &&
	    !read_sibling(k, "read_ahead_kb", &ra, NULL))
		strbuf_addf(note,
			    "%sread_ahead_kb on '%s' reads %" PRId64
			    " KiB after it (re-read; the journal restores "
			    "both)",
			    note->len ? "; " : "", k->object, ra);
	if (!strcmp(canon, now))
		return 1;
	if (!strcmp(k->name, "wbt_lat_usec") && !strcmp(canon, "-1")) {
		if (note)
			strbuf_addf(note, "%sthe device default is %s us",
				    note->len ? "; " : "", now);
		return 1;
	}
	return 0;
}

/* knob_ops.save: what restore needs, side effects included. */
static int queue_save(const struct knob *k, struct strbuf *orig,
		      struct strbuf *err)
{
	struct strbuf value = STRBUF_INIT;
	int64_t ra;
	int ret;

	ret = knob_read_file(k->path, k->name, &value, err);
	if (ret)
		goto out;
	if (!((const struct queue_spec *)k->spec)->moves_ra) {
		strbuf_addstr(orig, value.buf);
		goto out;
	}
	strbuf_addf(orig, "%s=%s", k->name, value.buf);
	if (!read_sibling(k, "read_ahead_kb", &ra, NULL))
		strbuf_addf(orig, " read_ahead_kb=%" PRId64, ra);
out:
	strbuf_release(&value);
	return ret;
}

/* Restore one pair of the snapshot of a knob that moves read-ahead. */
static int restore_pair(const char *key, const char *value, void *data)
{
	const struct knob *k = ((const struct knob **)data)[0];
	struct strbuf *err = ((struct strbuf **)data)[1];
	struct strbuf now = STRBUF_INIT;
	char *p;
	int ret;

	if (strcmp(key, k->name) && strcmp(key, "read_ahead_kb"))
		return 0;
	p = knob_path(k->root, "/sys/block/%s/queue/%s", k->object, key);
	ret = knob_write_file(p, key, value, err);
	if (!ret)
		ret = knob_read_file(p, key, &now, err);
	if (!ret && strcmp(now.buf, value))
		ret = err_set(err, -EIO,
			      "wrote '%s' to '%s' on '%s' but it reads back "
			      "as '%s'",
			      value, key, k->object, now.buf);
	free(p);
	strbuf_release(&now);
	return ret;
}

/* knob_ops.restore: bring back what save captured, verified. */
static int queue_restore(const struct knob *k, const char *orig,
			 struct strbuf *err)
{
	struct strbuf now = STRBUF_INIT;
	const void *data[2] = {k, err};
	int ret;

	if (!((const struct queue_spec *)k->spec)->moves_ra ||
	    !strchr(orig, '=')) {
		ret = knob_apply(k, orig, &now, NULL, err);
		strbuf_release(&now);
		return ret;
	}
	return knob_each_pair(orig, restore_pair, (void *)data);
}

/* knob_ops.describe: unit, allowed values and notes for listing. */
static void queue_describe(const struct knob *k, const char *value,
			   struct knob_desc *d)
{
	const struct queue_spec *s = k->spec;
	int64_t hw;

	strbuf_addstr(&d->unit, s->unit);
	if (s->type == Q_KIB &&
	    !read_sibling(k, "max_hw_sectors_kb", &hw, NULL))
		strbuf_addf(&d->allowed,
			    "%u..%" PRId64 " (KiB; or a size "
			    "such as 1MiB)",
			    knob_page_kib(), hw);
	else
		strbuf_addstr(&d->allowed, s->allowed);
	strbuf_addf(&d->notes, "%s\n", s->notes);
	if (s->type == Q_KIB || s->type == Q_WBT)
		strbuf_addf(&d->shown, "%s %s", value, s->unit);
}

/* knob_ops.how: what a write does, for --dry-run. */
static void queue_how(const struct knob *k, const char *canon,
		      struct strbuf *out)
{
	(void)canon;
	strbuf_addf(out, "write '%s'", k->path);
	if (((const struct queue_spec *)k->spec)->moves_ra)
		strbuf_addstr(out, " (may change read_ahead_kb; it is saved "
				   "and restored too)");
}

/*
 * nr_requests caps the requests a queue may hold, waiting in the
 * scheduler and at the device: a run whose device never held as many
 * in flight (at a sample) nor as many on average over an interval never
 * met the cap. The sampler can miss a peak between two samples, as the
 * scheduler's hook can.
 */
static enum knob_regime nr_requests_regime(const struct knob *k,
					   const char *canon,
					   const struct knob_obs *o,
					   struct strbuf *why)
{
	const struct knob_obs_dev *d = knob_obs_dev(o, k->object);
	unsigned long long nr = strtoull(canon, NULL, 10);

	if (!d || !d->intervals || !nr)
		return KNOB_REGIME_UNKNOWN;
	if (d->max_in_flight >= nr || d->max_aqu_sz >= (double)nr) {
		strbuf_addf(why,
			    "'%s' held up to %llu request%s in flight at a "
			    "sample and up to %.2f on average over a sampling "
			    "interval, reaching the %llu nr_requests allows",
			    d->name, (unsigned long long)d->max_in_flight,
			    d->max_in_flight == 1 ? "" : "s", d->max_aqu_sz,
			    nr);
		return KNOB_REGIME_REACHED;
	}
	strbuf_addf(why,
		    "'%s' never held as many as the %llu requests it allows: "
		    "at most %llu in flight at its %u samples and %.2f on "
		    "average over any interval, so the cap held no request "
		    "back",
		    d->name, nr, (unsigned long long)d->max_in_flight,
		    d->intervals + 1, d->max_aqu_sz);
	return KNOB_REGIME_NOT_REACHED;
}

/*
 * Writeback throttling slows buffered writeback when reads on the
 * device are slower than the target; direct writes (REQ_SYNC|REQ_IDLE)
 * are never throttled (block/blk-wbt.c). A workload that wrote nothing
 * through the page cache gave it nothing of its own to throttle.
 */
static enum knob_regime wbt_regime(const struct knob *k, const char *canon,
				   const struct knob_obs *o, struct strbuf *why)
{
	(void)k;
	(void)canon;
	if (!o->have_io)
		return KNOB_REGIME_UNKNOWN;
	if (o->write_bytes && !o->direct) {
		strbuf_addstr(why, "the workload wrote ");
		units_fmt_bytes(why, o->write_bytes);
		strbuf_addstr(why, " through the page cache");
		return KNOB_REGIME_REACHED;
	}
	strbuf_addstr(why, o->write_bytes
			       ? "the workload's writes were direct, and "
				 "writeback throttling slows only buffered "
				 "writeback"
			       : "the workload wrote nothing, and writeback "
				 "throttling slows only buffered writeback");
	strbuf_addstr(why, " (other writers on the device aside)");
	return KNOB_REGIME_NOT_REACHED;
}

/* knob_ops.regime: see the top of the file for which are judged. */
static enum knob_regime queue_regime(const struct knob *k, const char *canon,
				     const struct knob_obs *o,
				     struct strbuf *why)
{
	const struct queue_spec *s = k->spec;

	if (s && !strcmp(s->name, "nr_requests"))
		return nr_requests_regime(k, canon, o, why);
	if (s && !strcmp(s->name, "wbt_lat_usec"))
		return wbt_regime(k, canon, o, why);
	return KNOB_REGIME_UNKNOWN;
}

const struct knob_ops knob_queue_ops = {
    .family = "queue",
    .names = queue_names,
    .resolve = queue_resolve,
    .read = queue_read,
    .parse = queue_parse,
    .write = queue_write,
    .verify = queue_verify,
    .save = queue_save,
    .restore = queue_restore,
    .describe = queue_describe,
    .how = queue_how,
    .regime = queue_regime,
};
