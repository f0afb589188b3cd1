/*
 * The fio options that need more than a copy of their value, each
 * mapped onto the rw workloads' parameters; see fiojob_map-int.h.
 * map_job() in fiojob_map.c calls them in turn.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "fiojob_map-int.h"
#include "fiojob_why.h"
#include "../engine/engine.h"
#include "../../util/error.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

void fiojob_add_param(struct fiojob_run *r, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	ALLOC_GROW(r->params, r->nr_params + 1, r->alloc_params);
	r->params[r->nr_params++] = strbuf_detach(&sb, NULL);
}

/* rw= to a workload name, or an error saying why not. */
int fiojob_map_rw(const struct fiojob_opt *o, const char **out,
		  struct strbuf *err)
{
	static const struct {
		const char *fio, *ours;
	} rw[] = {
	    {"read", "seqread"},      {"write", "seqwrite"},
	    {"randread", "randread"}, {"randwrite", "randwrite"},
	    {"randrw", "randrw"},
	};
	const char *v = o ? fiojob_val(o) : "read";
	size_t i;

	if (strchr(v, ':'))
		return fiojob_opt_err(err, o,
				      "'%s=%s' skips or goes back between "
				      "I/Os (the ':' suffix); iotrial reads "
				      "and writes every block in order, from "
				      "the first (remove the suffix)",
				      o->key, v);
	for (i = 0; i < ARRAY_SIZE(rw); i++)
		if (!strcmp(v, rw[i].fio)) {
			*out = rw[i].ours;
			return 0;
		}
	if (!strcmp(v, "rw") || !strcmp(v, "readwrite"))
		return fiojob_opt_err(err, o,
				      "'%s=%s' mixes sequential reads and "
				      "writes; iotrial has no sequential mix "
				      "(use rw=randrw, or a read and a write "
				      "job)",
				      o->key, v);
	if (strstr(v, "trim"))
		return fiojob_opt_err(err, o,
				      "'%s=%s' trims (discards) blocks; "
				      "iotrial issues reads and writes only",
				      o->key, v);
	return fiojob_opt_err(err, o,
			      "'%s=%s' is not an I/O direction iotrial runs; "
			      "it runs read, write, randread, randwrite and "
			      "randrw",
			      o->key, v);
}

/* ioengine= to an engine of ours: the engine table's names and the fio
 * names each engine runs (engine_ops.fio_names). */
int fiojob_map_engine(const struct fiojob_opt *o, const char **out,
		      struct strbuf *warn, struct strbuf *err)
{
	const char *v = o ? fiojob_val(o) : "psync";
	const struct engine_ops *e = engine_find_fio(v);
	struct strbuf have = STRBUF_INIT;
	const char *why;
	int ret;

	if (e) {
		if (strcmp(v, e->name))
			strbuf_addf(
			    warn, "note: %s:%u: ioengine=%s runs as %s (%s)\n",
			    o->file, o->line, v, e->name,
			    e->fio_note ? e->fio_note : "the same pattern");
		*out = e->name;
		return 0;
	}
	engine_fio_names_text(&have);
	why = fiojob_why_engine(v);
	ret = fiojob_opt_err(err, o, "'ioengine=%s' %s; iotrial has %s", v,
			     why ? why : "is not an engine iotrial has",
			     have.buf);
	strbuf_release(&have);
	return ret;
}

/* Refuse a range or a list where one value is expected (an expression
 * in parentheses may hold a '-'). */
int fiojob_one_value(const struct fiojob_opt *o, struct strbuf *err)
{
	const char *v = fiojob_val(o);

	if (o && !fiojob_is_expr(v) && (strchr(v, '-') || strchr(v, ':')))
		return fiojob_opt_err(err, o,
				      "'%s=%s': iotrial takes one value "
				      "here, not a range or list",
				      o->key, v);
	return 0;
}

/* Is o in the job's own section of v (not in a [global] above it)? */
static int own(const struct fiojob_view *v, const struct fiojob_opt *o)
{
	const struct fiojob_section *sec = &v->j->secs[v->sec];

	return o && sec->nr_opts && o >= sec->opts &&
	       o < sec->opts + sec->nr_opts;
}

/* Of two settings of one thing (bs= and bsrange=, direct= and
 * buffered=), the one fio keeps: the job's own, else the later line. */
const struct fiojob_opt *fiojob_later(const struct fiojob_view *v,
				      const struct fiojob_opt *a,
				      const struct fiojob_opt *b)
{
	if (!a || !b)
		return a ? a : b;
	if (own(v, a) != own(v, b))
		return own(v, a) ? a : b;
	if (a->file == b->file)
		return a->line > b->line ? a : b;
	return b;
}

/* One part of bs= ("4k") or bsrange= ("4k-4k", "4k:4k"): its size, or
 * an error saying why. */
static int bs_part(const struct fiojob_opt *o, char *p, int range,
		   uint64_t *out, struct strbuf *err)
{
	char *sep = range && !fiojob_is_expr(p) ? strpbrk(p, "-:") : NULL;
	uint64_t lo, hi;

	if (sep)
		*sep = '\0';
	if (fiojob_size_text(p, o->keyword, &lo) || !lo ||
	    (sep && (fiojob_size_text(sep + 1, o->keyword, &hi) || !hi)))
		return fiojob_opt_err(err, o, "invalid size '%s' for '%s'",
				      fiojob_val(o), o->key);
	if (sep && lo != hi)
		return fiojob_opt_err(err, o,
				      "'%s=%s' mixes block sizes from %s to "
				      "%s; iotrial runs one block size per "
				      "job (give bs=, or compare them with "
				      "'compare --vary bs=...')",
				      o->key, fiojob_val(o), p, sep + 1);
	*out = lo;
	return 0;
}

/*
 * The block size of the job of v: bs= ("4k", or "4k,4k" for reads and
 * writes) or bsrange= whose ranges hold one size ("4k-4k"), whichever
 * fio keeps. A third part (trims) is not iotrial's business.
 */
int fiojob_map_bs(const struct fiojob_view *v, uint64_t *out,
		  struct strbuf *err)
{
	const struct fiojob_opt *o =
	    fiojob_later(v, fiojob_find(v, "bs"), fiojob_find(v, "bsrange"));
	int range = o && !strcmp(fiojob_canonical(o->key), "bsrange");
	char *copy, *p, *save = NULL;
	unsigned part = 0;
	int ret = 0;

	*out = 4096;
	if (!o)
		return 0;
	if (!range && fiojob_one_value(o, err))
		return -EINVAL;
	copy = xstrdup(fiojob_val(o));
	*out = 0;
	for (p = copy; p && !ret && part < 2; p = save, part++) {
		uint64_t b = 0;

		save = strchr(p, ',');
		if (save)
			*save++ = '\0';
		if (!*p)
			continue;
		ret = bs_part(o, p, range, &b, err);
		if (!ret && *out && b != *out)
			ret = fiojob_opt_err(err, o,
					     "'%s=%s' gives reads and writes "
					     "different block sizes; iotrial "
					     "uses one",
					     o->key, fiojob_val(o));
		else if (!ret)
			*out = b;
	}
	free(copy);
	if (!ret && !*out)
		ret = fiojob_opt_err(err, o, "'%s=%s' gives no block size",
				     o->key, fiojob_val(o));
	return ret;
}

/*
 * blockalign= (ba=): fio aligns random offsets to it, by default to the
 * block size, as iotrial always does. Another alignment changes where a
 * random job's I/O lands and is refused; a sequential job's offsets
 * follow each other whatever it says.
 */
int fiojob_map_blockalign(const struct fiojob_view *v, const char *workload,
			  uint64_t bs, struct strbuf *err)
{
	const struct fiojob_opt *o = fiojob_find(v, "ba");
	char *copy, *p, *save = NULL;
	int ret = 0;

	if (!o || strncmp(workload, "rand", 4))
		return 0;
	copy = xstrdup(fiojob_val(o));
	for (p = copy; p && !ret; p = save) {
		uint64_t b = 0;

		save = strchr(p, ',');
		if (save)
			*save++ = '\0';
		if (!*p)
			continue;
		if (fiojob_size_text(p, o->keyword, &b))
			ret =
			    fiojob_opt_err(err, o, "invalid size '%s' for '%s'",
					   fiojob_val(o), o->key);
		else if (b != bs)
			ret = fiojob_opt_err(
			    err, o,
			    "'%s=%s' aligns random offsets to other than the "
			    "block size (%llu); iotrial aligns them to the "
			    "block size",
			    o->key, fiojob_val(o), (unsigned long long)bs);
	}
	free(copy);
	return ret;
}

/*
 * A filename= or directory= value into *out, fio's "\:" read as a ':'
 * of the name; 1 when it has a ':' of its own, which separates several
 * names.
 */
int fiojob_one_name(const char *in, char **out)
{
	struct strbuf sb = STRBUF_INIT;
	int several = 0;

	for (; *in; in++) {
		if (in[0] == '\\' && in[1] == ':') {
			strbuf_addch(&sb, ':');
			in++;
			continue;
		}
		several |= *in == ':';
		strbuf_addch(&sb, *in);
	}
	*out = strbuf_detach(&sb, NULL);
	return several;
}

/*
 * verify=: crc32c becomes the rw workloads' verify=crc32c (a header and
 * crc32c in every block written, read back after the run); 0 and null
 * are none. do_verify=1 (fio's default) is that read-back; do_verify=0
 * would write checksums nobody reads and is refused. verify_fatal: fio
 * stops at the first bad block (1) or goes on (0); iotrial counts every
 * bad block and fails the run, so both end in a failed run.
 */
int fiojob_map_verify(const struct fiojob_view *v, int writes,
		      struct fiojob_run *r, struct strbuf *warn,
		      struct strbuf *err)
{
	const struct fiojob_opt *o = fiojob_find(v, "verify"), *dv;
	const char *m = fiojob_val(o);
	int b;

	if (!o || !strcmp(m, "0") || !strcmp(m, "null"))
		return 0;
	if (strcmp(m, "crc32c"))
		return fiojob_opt_err(
		    err, o,
		    "verify=%s is not supported; iotrial verifies "
		    "with crc32c (verify=crc32c), or not at all "
		    "(verify=0 or verify=null)",
		    m);
	if (!writes)
		return fiojob_opt_err(
		    err, o,
		    "verify=crc32c needs a job that writes; "
		    "iotrial checks the blocks its job wrote");
	dv = fiojob_find(v, "do_verify");
	if (fiojob_get_bool(dv, 1, &b, err))
		return -EINVAL;
	if (!b)
		return fiojob_opt_err(
		    err, dv,
		    "do_verify=0 with verify=crc32c: iotrial "
		    "always reads back what it verifies; remove "
		    "one of them");
	if (fiojob_get_bool(fiojob_find(v, "verify_fatal"), 0, &b, err))
		return -EINVAL;
	if (b)
		strbuf_addf(warn,
			    "note: %s:%u: verify_fatal=1: iotrial checks "
			    "every block and then fails the run at the first "
			    "bad one it names\n",
			    fiojob_find(v, "verify_fatal")->file,
			    fiojob_find(v, "verify_fatal")->line);
	fiojob_add_param(r, "verify=crc32c");
	return 0;
}

/*
 * fio's batching of a job: iodepth_batch_submit I/Os per submit call (1
 * unless set; 0 is iodepth), iodepth_batch_complete_min completions to
 * wait for (1) and _max to take per wait (0 is the min). iotrial's own
 * workloads submit every free slot at once, so a job file always says
 * all three.
 */
int fiojob_map_batch(const struct fiojob_view *v, uint64_t iodepth,
		     struct fiojob_run *r, struct strbuf *err)
{
	static const struct {
		const char *fio, *param;
		uint64_t def;
	} rows[] = {
	    {"iodepth_batch_submit", "batch_submit", 1},
	    {"iodepth_batch_complete_min", "batch_complete_min", 1},
	    {"iodepth_batch_complete_max", "batch_complete_max", 0},
	};
	uint64_t u[ARRAY_SIZE(rows)];

	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		const struct fiojob_opt *o = fiojob_find(v, rows[i].fio);

		if (o && fiojob_one_value(o, err))
			return -EINVAL;
		if (fiojob_get_count(o, rows[i].def, &u[i], err))
			return -EINVAL;
		/* beyond the depth it means the depth, for fio too */
		if (u[i] > iodepth)
			u[i] = iodepth;
	}
	if (!u[0])
		u[0] = iodepth;
	if (u[2] < u[1])
		u[2] = u[1];
	if (!u[2])
		u[2] = 1; /* fio waits for one when asked for none */
	for (size_t i = 0; i < ARRAY_SIZE(rows); i++)
		fiojob_add_param(r, "%s=%llu", rows[i].param,
				 (unsigned long long)u[i]);
	return 0;
}
