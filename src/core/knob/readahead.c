/*
 * Read-ahead (queue/read_ahead_kb), the knob with the worst unit history:
 * sysfs counts KiB, `blockdev --setra` counts 512-byte sectors, and
 * people write "2MB" meaning 2 MiB. The field story: "blockdev --setra
 * 4096 raises read-ahead from 128KB to 2MB (it's in 512-byte units)".
 *
 * So we accept all of them: 2048 (KiB, as sysfs), 2048k, 2MiB, 4096s
 * (sectors, as blockdev), and 2MB (decimal: 2,000,000 bytes, with a note
 * saying so). The kernel keeps whole pages, so the value is rounded down
 * to a page here, with a note, and the read-back matches exactly. Every
 * display shows KiB and the blockdev --setra equivalent.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "knob-int.h"
#include "../../util/error.h"
#include "../../util/units.h"
#include "../../util/banned.h"

/* The largest read-ahead we accept, in KiB (4 GiB). */
#define RA_MAX_KIB (4ull << 20)

/* knob_ops.names: the knobs of this family that ctx can bind. */
static void ra_names(const struct knob_ctx *ctx, struct knob_list *out)
{
	if (ctx->disk || ctx->anywhere)
		knob_list_add(out, "read_ahead_kb");
}

/* knob_ops.persist: tuned's disk plugin sets it as "readahead". */
static void ra_persist(const struct knob *k, struct knob_persist *p)
{
	(void)k;
	p->tuned_disk = "readahead";
}

/* knob_ops.resolve: bind a name of this family to ctx, or -ENOENT. */
static int ra_resolve(const struct knob_ctx *ctx, const char *name,
		      struct knob *k, struct strbuf *note, struct strbuf *err)
{
	(void)note;
	if (strcmp(name, "read_ahead_kb"))
		return KNOB_NOT_MINE;
	k->prio = KNOB_PRIO_READAHEAD;
	return knob_bind_device(ctx, k, name, "read_ahead_kb", err);
}

/* knob_ops.read: the current value, canonical. */
static int ra_read(const struct knob *k, struct strbuf *value,
		   struct strbuf *err)
{
	return knob_read_file(k->path, k->name, value, err);
}

/* Is s all digits? */
static int all_digits(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return 0;
	return 1;
}

/* knob_ops.parse: what a person typed -> the canonical value. */
static int ra_parse(const struct knob *k, const char *in, struct strbuf *canon,
		    struct strbuf *note, struct strbuf *err)
{
	struct strbuf why = STRBUF_INIT, unote = STRBUF_INIT;
	unsigned page_kib = knob_page_kib();
	uint64_t bytes, kib;
	int ret = 0;

	(void)k;
	if (all_digits(in)) {
		kib = strtoull(in, NULL, 10);
		if (kib > RA_MAX_KIB || strlen(in) > 12)
			return err_set(err, -ERANGE,
				       "'%s' KiB is out of range for "
				       "'read_ahead_kb'; it takes 0..%llu KiB",
				       in, (unsigned long long)RA_MAX_KIB);
		bytes = kib * 1024;
	} else if (!knob_looks_numeric(in)) {
		return err_set(err, -EINVAL,
			       "'read_ahead_kb' takes a size such as 2048 "
			       "(KiB), 2MiB or 4096s (512-byte sectors, as "
			       "blockdev --setra), not '%s'",
			       in);
	} else {
		ret = units_parse_size(in, UNITS_SECTORS | UNITS_ZERO_OK,
				       &bytes, &unote, &why);
		if (ret) {
			err_set(err, ret, "'read_ahead_kb' takes a size: %s",
				why.buf);
			goto out;
		}
		if (bytes / 1024 > RA_MAX_KIB) {
			ret = err_set(err, -ERANGE,
				      "'%s' is out of range for "
				      "'read_ahead_kb'; it takes 0..4GiB",
				      in);
			goto out;
		}
	}
	kib = bytes / 1024 / page_kib * page_kib;
	if (note && unote.len)
		strbuf_addf(note, "%s%s", note->len ? "; " : "", unote.buf);
	if (note && kib * 1024 != bytes)
		strbuf_addf(note,
			    "%sthe kernel keeps whole %u KiB pages, so "
			    "read_ahead_kb becomes %" PRIu64 " KiB",
			    note->len ? "; " : "", page_kib, kib);
	strbuf_addf(canon, "%" PRIu64, kib);
out:
	strbuf_release(&why);
	strbuf_release(&unote);
	return ret;
}

/* knob_ops.write: write the canonical value (verified by the caller). */
static int ra_write(const struct knob *k, const char *canon, struct strbuf *err)
{
	return knob_write_file(k->path, k->name, canon, err);
}

/* "2048 KiB (2 MiB; blockdev --setra 4096)" */
static void ra_show(const char *value, struct strbuf *out)
{
	uint64_t kib = strtoull(value, NULL, 10);

	strbuf_addf(out, "%" PRIu64 " KiB (", kib);
	units_fmt_bytes(out, kib * 1024);
	strbuf_addf(out, "; blockdev --setra %" PRIu64 ")", kib * 2);
}

/* knob_ops.describe: unit, allowed values and notes for listing. */
static void ra_describe(const struct knob *k, const char *value,
			struct knob_desc *d)
{
	(void)k;
	ra_show(value, &d->shown);
	strbuf_addstr(&d->unit, "KiB");
	strbuf_addstr(&d->allowed, "0..4GiB: 2048 (KiB), 2048k, 2MiB, 4096s "
				   "(512-byte sectors, as blockdev --setra), "
				   "2MB (decimal)");
	strbuf_addf(&d->notes,
		    "blockdev --getra/--setra count 512-byte sectors: "
		    "twice this number\n"
		    "the kernel rounds down to whole %u KiB pages; 0 turns "
		    "read-ahead off\n",
		    knob_page_kib());
}

/* knob_ops.how: what a write does, for --dry-run. */
static void ra_how(const struct knob *k, const char *canon, struct strbuf *out)
{
	strbuf_addf(out, "write '%s' (KiB; same as blockdev --setra %llu)",
		    k->path, strtoull(canon, NULL, 10) * 2);
}

/* Below this, the device delivered no reads worth judging. */
#define RA_MIN_DEVICE_READ_BYTES (1024ull * 1024ull)

/*
 * knob_ops.regime: read-ahead sizes the device's read requests for
 * buffered reads the kernel sees as sequential, up to the window (and
 * max_sectors_kb per request). When the requests the device saw stayed
 * far below the window, the reads were random or the files smaller than
 * it, and another window could not have changed them.
 */
static enum knob_regime ra_regime(const struct knob *k, const char *canon,
				  const struct knob_obs *o, struct strbuf *why)
{
	const struct knob_obs_dev *d = knob_obs_dev(o, k->object);
	uint64_t ra_kib = strtoull(canon, NULL, 10), window = ra_kib, ms = 0;
	struct strbuf v = STRBUF_INIT, cap = STRBUF_INIT;
	char *p;

	if (o->have_io && !o->read_bytes) {
		strbuf_addstr(why, "the workload read nothing, and read-ahead "
				   "acts on reads only");
		return KNOB_REGIME_NOT_REACHED;
	}
	if (o->direct) {
		strbuf_addstr(why, "the workload's reads bypassed the page "
				   "cache (direct=1), and read-ahead only "
				   "fills the page cache");
		return KNOB_REGIME_NOT_REACHED;
	}
	if (!d || !d->intervals)
		return KNOB_REGIME_UNKNOWN;
	if (d->read_bytes < RA_MIN_DEVICE_READ_BYTES) {
		strbuf_addf(why, "'%s' delivered ", d->name);
		units_fmt_bytes(why, d->read_bytes);
		strbuf_addstr(why, " of reads: the page cache served the "
				   "workload's reads");
		return KNOB_REGIME_NOT_REACHED;
	}
	if (!ra_kib) {
		strbuf_addf(why, "'%s' was read with read-ahead off", d->name);
		return KNOB_REGIME_REACHED;
	}
	p = knob_path(k->root, "/sys/block/%s/queue/max_sectors_kb", k->object);
	if (!knob_read_file(p, "max_sectors_kb", &v, NULL))
		ms = strtoull(v.buf, NULL, 10);
	free(p);
	if (ms && ms < window) {
		window = ms;
		strbuf_addf(&cap, ", %llu KiB per request (max_sectors_kb)",
			    (unsigned long long)ms);
	}
	if (d->max_rareq_kib * 2 >= (double)window) {
		strbuf_addf(why,
			    "'%s' saw read requests of %.0f KiB on average "
			    "in its busiest interval, sized by the %llu KiB "
			    "read-ahead window%s",
			    d->name, d->max_rareq_kib,
			    (unsigned long long)ra_kib, cap.buf);
		strbuf_release(&v);
		strbuf_release(&cap);
		return KNOB_REGIME_REACHED;
	}
	strbuf_addf(why,
		    "'%s' saw read requests of at most %.0f KiB on average in "
		    "any %u sampling interval%s, under half the %llu KiB "
		    "read-ahead window%s: the reads were not sequential or "
		    "the files were smaller than the window, so read-ahead "
		    "never set their size",
		    d->name, d->max_rareq_kib, d->intervals,
		    d->intervals == 1 ? "" : "s", (unsigned long long)ra_kib,
		    cap.buf);
	strbuf_release(&v);
	strbuf_release(&cap);
	return KNOB_REGIME_NOT_REACHED;
}

const struct knob_ops knob_readahead_ops = {
    .family = "readahead",
    .names = ra_names,
    .persist = ra_persist,
    .resolve = ra_resolve,
    .read = ra_read,
    .parse = ra_parse,
    .write = ra_write,
    .describe = ra_describe,
    .how = ra_how,
    .regime = ra_regime,
};
