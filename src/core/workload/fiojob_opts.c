/*
 * Reading a job's fio options (fiojob_opts.h): the subset iotrial runs
 * with its aliases, the view of one job with the [global] sections
 * above it, and the typed getters whose errors name the file and line.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "fiojob_opts.h"
#include "../../util/error.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* The options iotrial understands; aliases share a canonical name. */
static const struct {
	const char *key, *canon;
} known[] = {
    {"name", "name"},
    {"rw", "rw"},
    {"readwrite", "rw"},
    {"rwmixread", "rwmixread"},
    {"rwmixwrite", "rwmixwrite"},
    {"bs", "bs"},
    {"blocksize", "bs"},
    {"size", "size"},
    {"filesize", "filesize"},
    {"nrfiles", "nrfiles"},
    {"filename", "filename"},
    {"directory", "directory"},
    {"numjobs", "numjobs"},
    {"iodepth", "iodepth"},
    {"iodepth_batch_submit", "iodepth_batch_submit"},
    {"iodepth_batch", "iodepth_batch_submit"},
    {"iodepth_batch_complete_min", "iodepth_batch_complete_min"},
    {"iodepth_batch_complete", "iodepth_batch_complete_min"},
    {"iodepth_batch_complete_max", "iodepth_batch_complete_max"},
    {"ioengine", "ioengine"},
    {"direct", "direct"},
    {"buffered", "buffered"},
    {"fsync", "fsync"},
    {"fdatasync", "fdatasync"},
    {"end_fsync", "end_fsync"},
    {"runtime", "runtime"},
    {"time_based", "time_based"},
    {"ramp_time", "ramp_time"},
    {"startdelay", "startdelay"},
    {"stonewall", "stonewall"},
    {"new_group", "new_group"},
    {"thread", "thread"},
    {"group_reporting", "group_reporting"},
    {"loops", "loops"},
    {"invalidate", "invalidate"},
    {"fadvise_hint", "fadvise_hint"},
    {"unlink", "unlink"},
    {"norandommap", "norandommap"},
    {"randrepeat", "randrepeat"},
    {"write_bw_log", "write_bw_log"},
    {"write_lat_log", "write_lat_log"},
    {"write_iops_log", "write_iops_log"},
    {"log_avg_msec", "log_avg_msec"},
    {"verify", "verify"},
    {"do_verify", "do_verify"},
    {"verify_fatal", "verify_fatal"},
};

/* The number of options of the subset: the size of a view's globals. */
size_t fiojob_nr_known(void)
{
	return ARRAY_SIZE(known);
}

/* The index in known[] of key's canonical name, or -1 when unknown. */
int fiojob_canon_index(const char *key)
{
	size_t i, k;

	for (i = 0; i < ARRAY_SIZE(known); i++)
		if (!strcmp(known[i].key, key))
			for (k = 0; k < ARRAY_SIZE(known); k++)
				if (!strcmp(known[k].key, known[i].canon))
					return (int)k;
	return -1;
}

const char *fiojob_canonical(const char *key)
{
	int i = fiojob_canon_index(key);

	return i < 0 ? NULL : known[i].key;
}

/* The setting of canonical option canon for the job, or NULL. */
const struct fiojob_opt *fiojob_find(const struct fiojob_view *v,
				     const char *canon)
{
	const struct fiojob_section *sec = &v->j->secs[v->sec];
	unsigned i = sec->nr_opts;

	while (i-- > 0) {
		const char *c = fiojob_canonical(sec->opts[i].key);

		if (c && !strcmp(c, canon))
			return &sec->opts[i];
	}
	return v->globals[fiojob_canon_index(canon)];
}

/* Note the options of global section sec in globals (see struct fiojob_view).
 */
void fiojob_note_globals(const struct fiojob_section *sec,
			 const struct fiojob_opt **globals)
{
	unsigned i;

	for (i = 0; i < sec->nr_opts; i++) {
		int k = fiojob_canon_index(sec->opts[i].key);

		if (k >= 0)
			globals[k] = &sec->opts[i];
	}
}

const char *fiojob_val(const struct fiojob_opt *o)
{
	return o && o->value ? o->value : "";
}

/* "FILE:LINE: " of o, then the formatted message, into err. */
int fiojob_opt_err(struct strbuf *err, const struct fiojob_opt *o,
		   const char *fmt, ...)
{
	va_list ap;

	strbuf_reset(err);
	strbuf_addf(err, "%s:%u: ", o->file, o->line);
	if (o->included) {
		/* the message would quote the value: not from this file */
		strbuf_addf(err,
			    "'%s' has a value iotrial cannot run (not shown: "
			    "it is in an included file)",
			    o->key);
		return -EINVAL;
	}
	va_start(ap, fmt);
	strbuf_vaddf(err, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* A fio boolean: a bare key is 1. */
int fiojob_get_bool(const struct fiojob_opt *o, int def, int *out,
		    struct strbuf *err)
{
	const char *v;

	if (!o) {
		*out = def;
		return 0;
	}
	v = fiojob_val(o);
	if (!*v || !strcmp(v, "1") || !strcasecmp(v, "true") ||
	    !strcasecmp(v, "yes") || !strcasecmp(v, "on"))
		*out = 1;
	else if (!strcmp(v, "0") || !strcasecmp(v, "false") ||
		 !strcasecmp(v, "no") || !strcasecmp(v, "off"))
		*out = 0;
	else
		return fiojob_opt_err(err, o,
				      "invalid value '%s' for '%s': "
				      "expected 0 or 1",
				      v, o->key);
	return 0;
}

/* A count option (numjobs, iodepth, fsync, loops). */
int fiojob_get_count(const struct fiojob_opt *o, uint64_t def, uint64_t *out,
		     struct strbuf *err)
{
	if (!o) {
		*out = def;
		return 0;
	}
	if (fiojob_parse_size(fiojob_val(o), out) || strchr(fiojob_val(o), 'x'))
		return fiojob_opt_err(err, o,
				      "invalid value '%s' for '%s': "
				      "expected a whole number",
				      fiojob_val(o), o->key);
	return 0;
}

int fiojob_get_time(const struct fiojob_opt *o, uint64_t *out,
		    struct strbuf *err)
{
	*out = 0;
	if (o && fiojob_parse_time(fiojob_val(o), out))
		return fiojob_opt_err(err, o,
				      "invalid time '%s' for '%s': expected "
				      "seconds, or a number with us, ms, s, "
				      "m, h or d",
				      fiojob_val(o), o->key);
	return 0;
}

int fiojob_get_size(const struct fiojob_opt *o, uint64_t *out,
		    struct strbuf *err)
{
	*out = 0;
	if (o && fiojob_parse_size(fiojob_val(o), out))
		return fiojob_opt_err(err, o,
				      "invalid size '%s' for '%s': expected "
				      "bytes with an optional k, m, g, t "
				      "(4k is 4096)",
				      fiojob_val(o), o->key);
	return 0;
}

/* Every option of sections that run, checked against the subset. */
int fiojob_check_subset(const struct fiojob *j, const char *const *runs,
			int lenient, struct strbuf *warn, struct strbuf *err)
{
	struct strbuf list = STRBUF_INIT;
	unsigned s, i, bad = 0, last = 0;
	const char *key;

	for (s = 0; s < j->nr_secs; s++)
		if (runs[s])
			last = s + 1;
	for (s = 0; s < last; s++) {
		const struct fiojob_section *sec = &j->secs[s];

		if (!runs[s] && !sec->is_global)
			continue;
		for (i = 0; i < sec->nr_opts; i++) {
			const struct fiojob_opt *o = &sec->opts[i];

			if (fiojob_canonical(o->key))
				continue;
			/* an included file's text is not shown */
			key = o->included ? "(not shown)" : o->key;
			if (lenient)
				strbuf_addf(warn,
					    "%s:%u: ignoring '%s', which "
					    "iotrial does not support\n",
					    o->file, o->line, key);
			else
				strbuf_addf(&list, "%s'%s' (%s:%u)",
					    bad ? ", " : "", key, o->file,
					    o->line);
			bad++;
		}
	}
	if (bad && !lenient)
		err_set(err, -EINVAL,
			"%s: %u option%s outside what iotrial runs: %s; remove "
			"them, or pass --job-lenient to ignore them",
			j->files[0], bad, bad > 1 ? "s" : "", list.buf);
	strbuf_release(&list);
	return bad && !lenient ? -EINVAL : 0;
}
