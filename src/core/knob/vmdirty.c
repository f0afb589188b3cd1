/*
 * Dirty-page writeback thresholds (/proc/sys/vm/dirty_*): the knobs that
 * decide whether a benchmark measured the disk or the page cache ("an
 * entire dbench run can be performed and it will do no disk IO at all").
 *
 * The twin trap: vm.dirty_bytes and vm.dirty_ratio are one setting in
 * two units, and writing either zeroes the other (likewise the
 * background pair). Restoring "the original vm.dirty_bytes" (0) would be
 * refused by the kernel and would not bring the ratio back anyway. So a
 * twin's save() records which of the pair was active and its value
 * ("vm.dirty_ratio=20"), and restore() writes that one; both twins share
 * one journal group so the first original is the one kept.
 *
 * The 2.4 names (bdflush.nfract, ...) still appear in tuning advice;
 * they are translated with a note, since their base differed: 2.4
 * counted percent of physical memory, today's ratios are of available
 * (free plus reclaimable) memory.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "knob-int.h"
#include "../../util/error.h"
#include "../../util/units.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* How a vm knob's value is typed. */
enum vtype {
	V_RATIO,   /* percent 0..100 */
	V_BYTES,   /* a size */
	V_CENTI,   /* centiseconds; durations accepted */
	V_SECONDS, /* seconds; durations accepted */
};

/* One vm.dirty knob. */
struct vm_spec {
	const char *name; /* "vm.dirty_ratio" */
	const char *file; /* "dirty_ratio" */
	enum vtype type;
	const char *twin;  /* the other unit of the same setting, or NULL */
	const char *group; /* journal group */
	const char *notes;
};

static const struct vm_spec specs[] = {
    {"vm.dirty_ratio", "dirty_ratio", V_RATIO, "vm.dirty_bytes", "vm.dirty",
     "percent of available memory at which writers are "
     "throttled into writeback"},
    {"vm.dirty_background_ratio", "dirty_background_ratio", V_RATIO,
     "vm.dirty_background_bytes", "vm.dirty_background",
     "percent of available memory at which background writeback "
     "starts"},
    {"vm.dirty_bytes", "dirty_bytes", V_BYTES, "vm.dirty_ratio", "vm.dirty",
     "vm.dirty_ratio as a byte count; 0 while the ratio "
     "is in use"},
    {"vm.dirty_background_bytes", "dirty_background_bytes", V_BYTES,
     "vm.dirty_background_ratio", "vm.dirty_background",
     "vm.dirty_background_ratio as a byte count; 0 while the ratio is "
     "in use"},
    {"vm.dirty_expire_centisecs", "dirty_expire_centisecs", V_CENTI, NULL,
     "vm.dirty_expire_centisecs",
     "how old dirty data must be before writeback takes it"},
    {"vm.dirty_writeback_centisecs", "dirty_writeback_centisecs", V_CENTI, NULL,
     "vm.dirty_writeback_centisecs",
     "how often the flusher threads wake up; 0 disables periodic "
     "writeback"},
    {"vm.dirtytime_expire_seconds", "dirtytime_expire_seconds", V_SECONDS, NULL,
     "vm.dirtytime_expire_seconds",
     "how long lazytime keeps dirty timestamps in memory"},
};

/* A 2.4 bdflush field and the knob that replaced it. */
struct vm_legacy {
	const char *old, *now, *why;
};

static const struct vm_legacy legacy[] = {
    {"bdflush.nfract", "vm.dirty_background_ratio",
     "today's ratio is of available memory (free plus reclaimable), "
     "2.4's was of physical memory"},
    {"bdflush.nfract_sync", "vm.dirty_ratio",
     "today's ratio is of available memory (free plus reclaimable), "
     "2.4's was of physical memory"},
    {"bdflush.interval", "vm.dirty_writeback_centisecs",
     "2.4 counted jiffies (hundredths of a second at HZ=100); today "
     "it is centiseconds"},
    {"bdflush.age_buffer", "vm.dirty_expire_centisecs",
     "2.4 counted jiffies (hundredths of a second at HZ=100); today "
     "it is centiseconds"},
};

/* The table row of a knob name, or NULL. */
static const struct vm_spec *spec_of(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(specs); i++)
		if (!strcmp(specs[i].name, name))
			return &specs[i];
	return NULL;
}

/* knob_ops.names: the knobs of this family that ctx can bind. */
static void vm_names(const struct knob_ctx *ctx, struct knob_list *out)
{
	size_t i;

	(void)ctx;
	for (i = 0; i < ARRAY_SIZE(specs); i++)
		knob_list_add(out, specs[i].name);
}

/* knob_ops.resolve: bind a name of this family to ctx, or -ENOENT. */
static int vm_resolve(const struct knob_ctx *ctx, const char *name,
		      struct knob *k, struct strbuf *note, struct strbuf *err)
{
	const struct vm_spec *s = spec_of(name);
	char *path;
	size_t i;

	if (!s && knob_bdflush_refuse(name, err))
		return -EINVAL;
	for (i = 0; !s && i < ARRAY_SIZE(legacy); i++) {
		if (strcmp(name, legacy[i].old))
			continue;
		s = spec_of(legacy[i].now);
		if (note)
			strbuf_addf(note,
				    "%s'%s' is the Linux 2.4 name of "
				    "'%s'; %s",
				    note->len ? "; " : "", name, s->name,
				    legacy[i].why);
	}
	if (!s)
		return KNOB_NOT_MINE;
	path = knob_path("", "/proc/sys/vm/%s", s->file);
	knob_bind_system(ctx, k, s->name, path);
	free(path);
	free(k->group);
	k->group = xstrdup(s->group);
	k->spec = s;
	return 0;
}

/* knob_ops.read: the current value, canonical. */
static int vm_read(const struct knob *k, struct strbuf *value,
		   struct strbuf *err)
{
	return knob_read_file(k->path, k->name, value, err);
}

/* Read the twin's file. */
static int read_twin(const struct knob *k, const struct vm_spec *twin,
		     struct strbuf *out, struct strbuf *err)
{
	char *p = knob_path(k->root, "/proc/sys/vm/%s", twin->file);
	int ret = knob_read_file(p, twin->name, out, err);

	free(p);
	return ret;
}

/* knob_ops.parse: what a person typed -> the canonical value. */
static int vm_parse(const struct knob *k, const char *in, struct strbuf *canon,
		    struct strbuf *note, struct strbuf *err)
{
	const struct vm_spec *s = k->spec;
	struct strbuf why = STRBUF_INIT;
	uint64_t bytes, min_bytes;
	int64_t v = 0;
	int ret = 0;

	switch (s->type) {
	case V_RATIO: {
		size_t n = strlen(in);
		char *copy = xstrdup(in);

		if (n && copy[n - 1] == '%')
			copy[n - 1] = '\0';
		ret = knob_parse_int(k, copy, 0, 100,
				     "a percentage 0..100 (of available "
				     "memory)",
				     &v, err);
		free(copy);
		break;
	}
	case V_BYTES:
		/* the kernel wants two pages for dirty_bytes, 1 otherwise */
		min_bytes = strstr(s->name, "background")
				? 1
				: 2ull * knob_page_kib() * 1024;
		if (!knob_looks_numeric(in)) {
			ret = err_set(err, -EINVAL,
				      "'%s' takes a size such as 256MiB, not "
				      "'%s'",
				      k->name, in);
			break;
		}
		ret = units_parse_size(in, UNITS_ZERO_OK, &bytes, note, &why);
		if (ret) {
			err_set(err, ret, "'%s' takes a size: %s", k->name,
				why.buf);
			break;
		}
		if (bytes < min_bytes || bytes > INT64_MAX) {
			ret = err_set(err, -ERANGE,
				      "'%s' is out of range for '%s'; it takes "
				      "%" PRIu64 " bytes or more (to go back "
				      "to a ratio, set '%s' instead)",
				      in, k->name, min_bytes, s->twin);
			break;
		}
		v = (int64_t)bytes;
		break;
	case V_CENTI:
		ret = knob_parse_duration(k, in, 10000000, "centiseconds", 0,
					  INT32_MAX, &v, err);
		break;
	case V_SECONDS:
		ret = knob_parse_duration(k, in, 1000000000, "seconds", 0,
					  INT32_MAX, &v, err);
		break;
	}
	if (!ret)
		strbuf_addf(canon, "%" PRId64, v);
	strbuf_release(&why);
	return ret;
}

/* knob_ops.write: write the canonical value (verified by the caller). */
static int vm_write(const struct knob *k, const char *canon, struct strbuf *err)
{
	return knob_write_file(k->path, k->name, canon, err);
}

/*
 * Twins save the active one of the pair: "vm.dirty_ratio=20" or
 * "vm.dirty_bytes=268435456". Others save their plain value.
 */
static int vm_save(const struct knob *k, struct strbuf *orig,
		   struct strbuf *err)
{
	const struct vm_spec *s = k->spec, *bytes_spec, *ratio_spec;
	struct strbuf v = STRBUF_INIT;
	int ret;

	if (!s->twin)
		return knob_read_file(k->path, k->name, orig, err);
	bytes_spec = s->type == V_BYTES ? s : spec_of(s->twin);
	ratio_spec = s->type == V_BYTES ? spec_of(s->twin) : s;
	ret = read_twin(k, bytes_spec, &v, err);
	if (!ret && strcmp(v.buf, "0")) {
		strbuf_addf(orig, "%s=%s", bytes_spec->name, v.buf);
		goto out;
	}
	if (!ret)
		ret = read_twin(k, ratio_spec, &v, err);
	if (!ret)
		strbuf_addf(orig, "%s=%s", ratio_spec->name, v.buf);
out:
	strbuf_release(&v);
	return ret;
}

/* knob_ops.restore: bring back what save captured, verified. */
static int vm_restore(const struct knob *k, const char *orig,
		      struct strbuf *err)
{
	const struct vm_spec *s = k->spec, *which;
	struct strbuf now = STRBUF_INIT;
	const char *eq = strchr(orig, '='), *value = orig;
	char *name, *p = NULL;
	int ret;

	if (!s->twin || !eq) {
		ret = knob_apply(k, orig, &now, NULL, err);
		strbuf_release(&now);
		return ret;
	}
	name = xstrndup(orig, (size_t)(eq - orig));
	value = eq + 1;
	which = spec_of(name);
	if (!which || (which != s && which != spec_of(s->twin))) {
		ret = err_set(err, -EINVAL,
			      "the saved value '%s' of '%s' names another "
			      "knob",
			      orig, k->name);
		goto out;
	}
	p = knob_path(k->root, "/proc/sys/vm/%s", which->file);
	ret = knob_write_file(p, which->name, value, err);
	if (!ret)
		ret = knob_read_file(p, which->name, &now, err);
	if (!ret && strcmp(now.buf, value))
		ret = err_set(err, -EIO,
			      "wrote '%s' to '%s' but it reads back as '%s'",
			      value, which->name, now.buf);
out:
	free(name);
	free(p);
	strbuf_release(&now);
	return ret;
}

/* knob_ops.describe: unit, allowed values and notes for listing. */
static void vm_describe(const struct knob *k, const char *value,
			struct knob_desc *d)
{
	const struct vm_spec *s = k->spec;
	struct strbuf tv = STRBUF_INIT;
	size_t i;

	switch (s->type) {
	case V_RATIO:
		strbuf_addstr(&d->unit, "%");
		strbuf_addstr(&d->allowed, "0..100");
		break;
	case V_BYTES:
		strbuf_addstr(&d->unit, "bytes");
		strbuf_addstr(&d->allowed, "a size such as 256MiB");
		if (strcmp(value, "0")) {
			strbuf_addf(&d->shown, "%s (", value);
			units_fmt_bytes(&d->shown, strtoull(value, NULL, 10));
			strbuf_addch(&d->shown, ')');
		} else {
			strbuf_addf(&d->shown, "0 (off: '%s' applies)",
				    s->twin);
		}
		break;
	case V_CENTI:
		strbuf_addstr(&d->unit, "centiseconds");
		strbuf_addf(&d->shown, "%s centiseconds (", value);
		units_fmt_ns(&d->shown, strtod(value, NULL) * 1e7);
		strbuf_addch(&d->shown, ')');
		strbuf_addstr(&d->allowed, "0 or more; or a duration (30s)");
		break;
	case V_SECONDS:
		strbuf_addstr(&d->unit, "s");
		strbuf_addstr(&d->allowed, "0 or more; or a duration (12h)");
		break;
	}
	strbuf_addf(&d->notes, "%s\n", s->notes);
	if (s->twin) {
		strbuf_addf(&d->notes,
			    "writing it zeroes '%s'; the journal saves "
			    "whichever of the two is active and restores "
			    "that one\n",
			    s->twin);
		if (!strcmp(value, "0") &&
		    !read_twin(k, spec_of(s->twin), &tv, NULL))
			strbuf_addf(&d->notes, "inactive: '%s' (%s) applies\n",
				    s->twin, tv.buf);
	}
	for (i = 0; i < ARRAY_SIZE(legacy); i++)
		if (!strcmp(legacy[i].now, s->name))
			strbuf_addf(&d->legacy, "%s%s",
				    d->legacy.len ? " " : "", legacy[i].old);
	strbuf_release(&tv);
}

/* knob_ops.how: what a write does, for --dry-run. */
static void vm_how(const struct knob *k, const char *canon, struct strbuf *out)
{
	const struct vm_spec *s = k->spec;
	struct strbuf tv = STRBUF_INIT;

	(void)canon;
	strbuf_addf(out, "write '%s'", k->path);
	if (s->twin && !read_twin(k, spec_of(s->twin), &tv, NULL))
		strbuf_addf(out,
			    " (the kernel zeroes '%s', now %s; the "
			    "journal keeps the active one)",
			    s->twin, tv.buf);
	strbuf_release(&tv);
}

/* A size for people, in a scratch buffer (reset first). */
static const char *fmt_size(struct strbuf *sb, uint64_t bytes)
{
	strbuf_reset(sb);
	units_fmt_bytes(sb, bytes);
	return sb->buf;
}

/* a * b / c without overflow for memory sizes; 0 when c is 0. */
static uint64_t scale(uint64_t a, uint64_t b, uint64_t c)
{
	return c ? (uint64_t)((long double)a * (long double)b / (long double)c)
		 : 0;
}

/*
 * The threshold in bytes that canon of a ratio or bytes knob implies for
 * memory of dirtyable bytes (the kernel's vm.rst: a ratio is a share of
 * "available memory", free plus reclaimable pages; a byte count is that
 * count), into *limit: the lower of it and the kernel's own number (kern,
 * 0: unknown), so that "below it" never overstates. *implied gets the
 * implied number alone. Returns 0 when neither is known.
 */
static int implied_limit(const struct vm_spec *s, const char *canon,
			 uint64_t dirtyable, uint64_t kern, uint64_t *limit,
			 uint64_t *implied)
{
	uint64_t v = strtoull(canon, NULL, 10);
	int have = 0;

	*implied = 0;
	if (s->type == V_RATIO && dirtyable) {
		*implied = scale(dirtyable, v, 100);
		have = 1;
	} else if (s->type == V_BYTES && v) {
		*implied = v;
		have = 1;
	}
	if (have && kern)
		*limit = *implied < kern ? *implied : kern;
	else
		*limit = have ? *implied : kern;
	return have || kern;
}

/* ", what 10% of 22 GiB of dirtyable memory gives" (or the byte count) */
static void implied_words(const struct vm_spec *s, const char *canon,
			  uint64_t dirtyable, uint64_t implied, uint64_t kern,
			  int bg_capped, struct strbuf *out)
{
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;

	if (s->type == V_RATIO && dirtyable)
		strbuf_addf(out, " (%s%% of %s of dirtyable memory", canon,
			    fmt_size(&a, dirtyable));
	else if (implied)
		strbuf_addf(out, " (%s = %s", s->name, fmt_size(&a, implied));
	else
		strbuf_addf(out, " (%s is 0: its ratio applies", s->name);
	if (kern)
		strbuf_addf(out, "; the kernel's own: %s", fmt_size(&b, kern));
	/* mm/page-writeback.c: a background threshold at or above the
	 * throttle threshold is cut to half of it */
	if (kern && implied > 2 * kern && bg_capped)
		strbuf_addstr(out, ", half the throttle threshold, as the "
				   "kernel cuts a background threshold at or "
				   "above it");
	strbuf_addch(out, ')');
	strbuf_release(&a);
	strbuf_release(&b);
}

/*
 * vm.dirty_expire_centisecs and vm.dirty_writeback_centisecs act on dirty
 * data that has aged past the expiry (periodic writeback takes only
 * that), so a run shorter than the expiry never met them.
 */
static enum knob_regime centi_regime(const struct knob *k, const char *canon,
				     const struct knob_obs *o,
				     struct strbuf *why)
{
	const struct vm_spec *s = k->spec;
	uint64_t expire_cs = strtoull(canon, NULL, 10);
	struct strbuf now = STRBUF_INIT;
	char *p;
	int expire = !strcmp(s->name, "vm.dirty_expire_centisecs");

	if (!expire) {
		/* the expiry in force now, the run's */
		p = knob_path(k->root, "/proc/sys/vm/dirty_expire_centisecs");
		if (knob_read_file(p, "vm.dirty_expire_centisecs", &now,
				   NULL)) {
			free(p);
			strbuf_release(&now);
			return KNOB_REGIME_UNKNOWN;
		}
		free(p);
		expire_cs = strtoull(now.buf, NULL, 10);
		strbuf_release(&now);
	}
	if (o->seconds >= (double)expire_cs / 100.0) {
		strbuf_addf(why,
			    "the run lasted %.1f s, long enough for dirty "
			    "data to age past the %.1f s expiry",
			    o->seconds, (double)expire_cs / 100.0);
		return KNOB_REGIME_REACHED;
	}
	strbuf_addf(why,
		    "the run lasted %.1f s, and dirty data expires (becomes "
		    "due for periodic writeback) only after %.1f s",
		    o->seconds, (double)expire_cs / 100.0);
	if (!expire)
		strbuf_addstr(why, "; the flusher's periodic wake-ups write "
				   "only expired data");
	return KNOB_REGIME_NOT_REACHED;
}

/*
 * vm.dirtytime_expire_seconds: with lazytime, an inode whose only dirty
 * data is its timestamps stays in memory until it has been dirty this
 * long (or something else writes it). Without lazytime no inode is in
 * that state (timestamps are written with the inode), and a run shorter
 * than the expiry sees none of the inodes it dirtied age that long. 0
 * stops the periodic write-back of such inodes: how long the run was
 * does not tell whether that mattered.
 */
static enum knob_regime dirtytime_regime(const char *canon,
					 const struct knob_obs *o,
					 struct strbuf *why)
{
	unsigned long long expire_s = strtoull(canon, NULL, 10);

	if (o->have_mount && !o->lazytime) {
		strbuf_addstr(why,
			      "the target's file system was mounted "
			      "without lazytime, so no inode held only "
			      "dirty timestamps: they are written with the "
			      "inode");
		return KNOB_REGIME_NOT_REACHED;
	}
	if (!expire_s)
		return KNOB_REGIME_UNKNOWN;
	if (o->seconds >= (double)expire_s) {
		strbuf_addf(why,
			    "the run lasted %.1f s, long enough for dirty "
			    "timestamps to age past the %llu s expiry",
			    o->seconds, expire_s);
		return KNOB_REGIME_REACHED;
	}
	strbuf_addf(why,
		    "the run lasted %.1f s, and an inode whose only dirty data "
		    "is its timestamps is written back only after %llu s",
		    o->seconds, expire_s);
	if (!o->have_mount)
		strbuf_addstr(why, " (whether lazytime was in force is not "
				   "known)");
	return KNOB_REGIME_NOT_REACHED;
}

/*
 * knob_ops.regime: did dirty memory reach the threshold canon implies?
 * Background writeback starts when Dirty passes the background
 * threshold; writers are throttled once Dirty plus Writeback pass the
 * point halfway between the background and the throttle threshold
 * (the kernel's "freerun" ceiling, mm/page-writeback.c). With cgroup v2
 * a memory cgroup has thresholds of its own, the same ratio of what it
 * may still dirty (its file pages and its headroom below memory.max);
 * cgroup v1 keeps none.
 */
static enum knob_regime vm_regime(const struct knob *k, const char *canon,
				  const struct knob_obs *o, struct strbuf *why)
{
	const struct vm_spec *s = k->spec;
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT, c = STRBUF_INIT;
	int bg = !strcmp(s->group, "vm.dirty_background");
	uint64_t kern, implied, limit, at, peak, cg_limit = 0, cg_at = 0;
	int reached, cg_reached = 0;

	if (s->type == V_SECONDS)
		return dirtytime_regime(canon, o, why);
	if (o->have_io && !o->write_bytes) {
		strbuf_addstr(why, "the workload wrote nothing, so it left "
				   "no dirty data for the knob to act on");
		return KNOB_REGIME_NOT_REACHED;
	}
	if (s->type == V_CENTI)
		return centi_regime(k, canon, o, why);
	if (!o->have_dirty)
		return KNOB_REGIME_UNKNOWN;
	kern = !o->have_thresh ? 0 : bg ? o->bg_thresh_bytes : o->thresh_bytes;
	if (!implied_limit(s, canon, o->have_thresh ? o->dirtyable_bytes : 0,
			   kern, &limit, &implied))
		return KNOB_REGIME_UNKNOWN;
	/* throttling starts halfway up from the background threshold
	 * (unknown: from 0, which can only say "reached" more often) */
	at = bg ? limit
		: (limit + (o->have_thresh ? o->bg_thresh_bytes : 0)) / 2;
	peak = bg ? o->dirty_peak_bytes : o->dirty_wb_peak_bytes;
	reached = peak >= at;
	strbuf_addf(why, "%s peaked at %s, %s the %s",
		    bg ? "dirty memory" : "dirty and writeback memory",
		    fmt_size(&a, peak), reached ? "reaching" : "below",
		    fmt_size(&b, at));
	if (bg)
		strbuf_addstr(why, " background threshold");
	else
		strbuf_addf(why,
			    " at which writers are throttled, halfway from "
			    "the background threshold to the %s throttle "
			    "threshold",
			    fmt_size(&c, limit));
	implied_words(s, canon, o->dirtyable_bytes, implied, kern,
		      bg && o->have_thresh && implied >= o->thresh_bytes, why);
	if (o->cg_version == 2 && o->have_cg_dirty && o->cg_dirtyable_bytes &&
	    o->have_thresh && o->dirtyable_bytes) {
		/* the kernel scales the global threshold to the cgroup's
		 * share of dirtyable memory (a byte count as a ratio of the
		 * global dirtyable memory) */
		cg_limit =
		    scale(limit, o->cg_dirtyable_bytes, o->dirtyable_bytes);
		cg_at = bg ? cg_limit
			   : (cg_limit + scale(o->bg_thresh_bytes,
					       o->cg_dirtyable_bytes,
					       o->dirtyable_bytes)) /
				 2;
		peak = bg ? o->cg_dirty_peak_bytes : o->cg_dirty_wb_peak_bytes;
		cg_reached = peak >= cg_at;
		strbuf_addf(why, "; in its cgroup (memory.max %s, %s ",
			    fmt_size(&a, o->cg_memory_max),
			    fmt_size(&b, o->cg_dirtyable_bytes));
		strbuf_addf(why, "dirtyable) it peaked at %s, %s its %s",
			    fmt_size(&a, peak),
			    cg_reached ? "reaching" : "below",
			    fmt_size(&c, cg_at));
	} else if (o->cg_version == 2 && o->cg_memory_max) {
		strbuf_addstr(why, "; its cgroup's dirty memory was not "
				   "sampled, so its own threshold could not "
				   "be checked");
		reached = 1; /* cannot rule it out */
	} else if (o->cg_version == 1 && o->cg_memory_max) {
		strbuf_addf(why,
			    "; its memory cgroup (v1, limit %s) has no "
			    "dirty threshold of its own",
			    fmt_size(&a, o->cg_memory_max));
		if (o->have_cg_dirty)
			strbuf_addf(why, " (its dirty memory peaked at %s)",
				    fmt_size(&b, o->cg_dirty_peak_bytes));
	}
	strbuf_release(&a);
	strbuf_release(&b);
	strbuf_release(&c);
	return reached || cg_reached ? KNOB_REGIME_REACHED
				     : KNOB_REGIME_NOT_REACHED;
}

const struct knob_ops knob_vmdirty_ops = {
    .family = "vmdirty",
    .names = vm_names,
    .resolve = vm_resolve,
    .read = vm_read,
    .parse = vm_parse,
    .write = vm_write,
    .save = vm_save,
    .restore = vm_restore,
    .describe = vm_describe,
    .how = vm_how,
    .regime = vm_regime,
};
