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
#include "fiojob_expr.h"
#include "fiojob_why.h"
#include "../../util/error.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* The options iotrial understands; aliases share a canonical name.
 * report: an option of fio's reports only (what fio prints or logs),
 * accepted with a note: iotrial measures and reports its own figures. */
static const struct {
	const char *key, *canon;
	int report;
} fio_known_opts[] = {
    {"name", "name", 0},
    {"description", "description", 0},
    {"rw", "rw", 0},
    {"readwrite", "rw", 0},
    {"rwmixread", "rwmixread", 0},
    {"rwmixwrite", "rwmixwrite", 0},
    {"bs", "bs", 0},
    {"blocksize", "bs", 0},
    {"bsrange", "bsrange", 0},
    {"blocksize_range", "bsrange", 0},
    {"ba", "ba", 0},
    {"blockalign", "ba", 0},
    {"size", "size", 0},
    {"filesize", "filesize", 0},
    {"nrfiles", "nrfiles", 0},
    {"nr_files", "nrfiles", 0},
    {"filename", "filename", 0},
    {"directory", "directory", 0},
    {"numjobs", "numjobs", 0},
    {"iodepth", "iodepth", 0},
    {"iodepth_batch_submit", "iodepth_batch_submit", 0},
    {"iodepth_batch", "iodepth_batch_submit", 0},
    {"iodepth_batch_complete_min", "iodepth_batch_complete_min", 0},
    {"iodepth_batch_complete", "iodepth_batch_complete_min", 0},
    {"iodepth_batch_complete_max", "iodepth_batch_complete_max", 0},
    {"ioengine", "ioengine", 0},
    {"sqthread_poll", "sqthread_poll", 0},
    {"direct", "direct", 0},
    {"buffered", "buffered", 0},
    {"fsync", "fsync", 0},
    {"fdatasync", "fdatasync", 0},
    {"end_fsync", "end_fsync", 0},
    {"runtime", "runtime", 0},
    {"timeout", "runtime", 0},
    {"time_based", "time_based", 0},
    {"ramp_time", "ramp_time", 0},
    {"startdelay", "startdelay", 0},
    {"stonewall", "stonewall", 0},
    {"wait_for_previous", "stonewall", 0},
    {"new_group", "new_group", 0},
    {"thread", "thread", 0},
    {"threads", "thread", 0},
    {"group_reporting", "group_reporting", 0},
    {"loops", "loops", 0},
    {"invalidate", "invalidate", 0},
    {"fadvise_hint", "fadvise_hint", 0},
    {"unlink", "unlink", 0},
    {"norandommap", "norandommap", 0},
    {"randrepeat", "randrepeat", 0},
    {"allrandrepeat", "randrepeat", 0},
    {"verify", "verify", 0},
    {"do_verify", "do_verify", 0},
    {"verify_fatal", "verify_fatal", 0},
    {"write_bw_log", "write_bw_log", 1},
    {"write_lat_log", "write_lat_log", 1},
    {"write_iops_log", "write_iops_log", 1},
    {"write_hist_log", "write_hist_log", 1},
    {"log_avg_msec", "log_avg_msec", 1},
    {"log_hist_msec", "log_hist_msec", 1},
    {"log_prio", "log_prio", 1},
    {"per_job_logs", "per_job_logs", 1},
    {"gtod_reduce", "gtod_reduce", 1},
    {"disable_lat", "disable_lat", 1},
    {"disable_clat", "disable_clat", 1},
    {"disable_slat", "disable_slat", 1},
    {"disable_bw_measurement", "disable_bw_measurement", 1},
    {"disable_bw", "disable_bw_measurement", 1},
    {"clat_percentiles", "clat_percentiles", 1},
    {"lat_percentiles", "lat_percentiles", 1},
    {"slat_percentiles", "slat_percentiles", 1},
    {"percentile_list", "percentile_list", 1},
    {"significant_figures", "significant_figures", 1},
    {"block_error_percentiles", "block_error_percentiles", 1},
    {"unit_base", "unit_base", 1},
    {"error_dump", "error_dump", 1},
    {"stats", "stats", 1},
};

/* The number of options of the subset: the size of a view's globals. */
size_t fiojob_nr_known(void)
{
	return ARRAY_SIZE(fio_known_opts);
}

/* The index in fio_known_opts[] of key's canonical name, or -1 when unknown. */
int fiojob_canon_index(const char *key)
{
	size_t i, k;

	for (i = 0; i < ARRAY_SIZE(fio_known_opts); i++)
		if (!strcmp(fio_known_opts[i].key, key))
			for (k = 0; k < ARRAY_SIZE(fio_known_opts); k++)
				if (!strcmp(fio_known_opts[k].key,
					    fio_known_opts[i].canon))
					return (int)k;
	return -1;
}

const char *fiojob_canonical(const char *key)
{
	int i = fiojob_canon_index(key);

	return i < 0 ? NULL : fio_known_opts[i].key;
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

/* o's value as a number: an expression (in parentheses, or written with
 * a keyword) evaluated, anything else read by parse(). */
static int number(const struct fiojob_opt *o,
		  int (*parse)(const char *in, uint64_t *out), uint64_t *out)
{
	const char *v = fiojob_val(o);

	if (o->keyword || fiojob_is_expr(v))
		return fiojob_eval(v, out);
	return parse(v, out);
}

int fiojob_size_text(const char *text, int keyword, uint64_t *out_bytes)
{
	if (keyword || fiojob_is_expr(text))
		return fiojob_eval(text, out_bytes);
	return fiojob_parse_size(text, out_bytes);
}

/* fiojob_parse_size() without the unit suffixes a count has none of. */
static int parse_count(const char *in, uint64_t *out)
{
	if (strchr(in, 'x') || strchr(in, 'X'))
		return -EINVAL;
	return fiojob_parse_size(in, out);
}

/* A count option (numjobs, iodepth, fsync, loops). */
int fiojob_get_count(const struct fiojob_opt *o, uint64_t def, uint64_t *out,
		     struct strbuf *err)
{
	if (!o) {
		*out = def;
		return 0;
	}
	if (number(o, parse_count, out))
		return fiojob_opt_err(err, o,
				      "invalid value '%s' for '%s': "
				      "expected a whole number",
				      fiojob_val(o), o->key);
	return 0;
}

int fiojob_get_time(const struct fiojob_opt *o, uint64_t *out,
		    struct strbuf *err)
{
	uint64_t us;

	*out = 0;
	if (!o)
		return 0;
	/* in parentheses a time is in microseconds (fio's HOWTO) */
	if (fiojob_is_expr(fiojob_val(o))) {
		if (!fiojob_eval(fiojob_val(o), &us) &&
		    !__builtin_mul_overflow(us, 1000, out))
			return 0;
	} else if (o->keyword) {
		if (!fiojob_eval(fiojob_val(o), &us) &&
		    !__builtin_mul_overflow(us, 1000000000ull, out))
			return 0;
	} else if (!fiojob_parse_time(fiojob_val(o), out)) {
		return 0;
	}
	return fiojob_opt_err(err, o,
			      "invalid time '%s' for '%s': expected "
			      "seconds, or a number with us, ms, s, "
			      "m, h or d",
			      fiojob_val(o), o->key);
}

int fiojob_get_size(const struct fiojob_opt *o, uint64_t *out,
		    struct strbuf *err)
{
	*out = 0;
	if (o && number(o, fiojob_parse_size, out))
		return fiojob_opt_err(err, o,
				      "invalid size '%s' for '%s': expected "
				      "bytes with an optional k, m, g, t "
				      "(4k is 4096)",
				      fiojob_val(o), o->key);
	return 0;
}

/* The note for an option of fio's reports: said once, where it is. */
static void note_report(const struct fiojob_opt *o, struct strbuf *warn)
{
	const char *key = o->included ? "(not shown)" : o->key;

	if (!strncmp(o->key, "write_", 6) || !strncmp(o->key, "log_", 4) ||
	    !strcmp(o->key, "per_job_logs"))
		strbuf_addf(warn,
			    "note: %s:%u: '%s' writes no fio log; the run's "
			    "JSON holds its latencies and rates\n",
			    o->file, o->line, key);
	else
		strbuf_addf(warn,
			    "note: %s:%u: '%s' changes only what fio reports; "
			    "iotrial times every I/O and reports its own "
			    "figures\n",
			    o->file, o->line, key);
}

/* The refusal of option o (why: its reason, or NULL), one of bad. */
static int refuse(const struct fiojob_opt *o, const char *why, unsigned bad,
		  struct strbuf *err)
{
	strbuf_reset(err);
	strbuf_addf(err, "%s:%u: ", o->file, o->line);
	if (o->included)
		strbuf_addstr(err, "an option iotrial does not run (not shown: "
				   "it is in an included file)");
	else
		strbuf_addf(err, "'%s%s%s' %s", o->key, o->value ? "=" : "",
			    o->value ? o->value : "",
			    why ? why : "is not an option iotrial runs");
	strbuf_addstr(err, "; remove it, or pass --job-lenient to ignore it");
	if (bad > 1)
		strbuf_addf(err,
			    " (and %u other option%s iotrial does not run)",
			    bad - 1, bad > 2 ? "s" : "");
	return -EINVAL;
}

/*
 * Every option of the sections that run and the globals before them:
 * those of fio's reports get a note; those iotrial does not run are
 * warnings with lenient, else the one with the lowest rank (fiojob_why.h)
 * is refused, with its reason.
 */
int fiojob_check_subset(const struct fiojob *j, const char *const *runs,
			int lenient, struct strbuf *warn, struct strbuf *err)
{
	const struct fiojob_opt *best = NULL;
	const char *best_why = NULL, *why;
	unsigned s, i, bad = 0, last = 0;
	int rank, best_rank = FIOJOB_WHY_UNKNOWN + 1, k;

	for (s = 0; s < j->nr_secs; s++)
		if (runs[s])
			last = s + 1;
	for (s = 0; s < last; s++) {
		const struct fiojob_section *sec = &j->secs[s];

		if (!runs[s] && !sec->is_global)
			continue;
		for (i = 0; i < sec->nr_opts; i++) {
			const struct fiojob_opt *o = &sec->opts[i];

			k = fiojob_canon_index(o->key);
			if (k >= 0) {
				if (fio_known_opts[k].report)
					note_report(o, warn);
				continue;
			}
			rank = fiojob_why_option(o->key, o->value, &why);
			if (rank < 0) /* fio's default: asks for nothing */
				continue;
			bad++;
			if (lenient)
				strbuf_addf(
				    warn,
				    "%s:%u: ignoring '%s', which iotrial "
				    "does not run%s%s\n",
				    o->file, o->line,
				    o->included ? "(not shown)" : o->key,
				    why && !o->included ? ": it " : "",
				    why && !o->included ? why : "");
			else if (rank < best_rank) {
				best = o;
				best_rank = rank;
				best_why = why;
			}
		}
	}
	return best ? refuse(best, best_why, bad, err) : 0;
}
