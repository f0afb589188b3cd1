/*
 * Run results: lifecycle, warnings and the derived numbers every report
 * uses, so "iops" means the same thing in text, JSON and the store.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "result.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

void run_result_init(struct run_result *r)
{
	memset(r, 0, sizeof(*r));
	hist_init(&r->lat[IO_READ]);
	hist_init(&r->lat[IO_WRITE]);
}

void run_result_release(struct run_result *r)
{
	unsigned i;

	if (!r)
		return;
	for (i = 0; i < r->nr_warnings; i++)
		free(r->warnings[i]);
	for (i = 0; i < r->nr_notes; i++)
		free(r->notes[i]);
	for (i = 0; i < r->nr_regimes; i++) {
		free(r->regimes[i].knob);
		free(r->regimes[i].canonical);
		free(r->regimes[i].object);
		free(r->regimes[i].value);
		free(r->regimes[i].why);
	}
	free(r->regimes);
	free(r->warnings);
	free(r->warn_kinds);
	free(r->notes);
	free(r->fidelity_dev_why);
	for (i = 0; i < r->nr_fid_settings; i++) {
		free(r->fid_settings[i].name);
		free(r->fid_settings[i].capture);
		free(r->fid_settings[i].replay);
	}
	free(r->fid_settings);
	free(r->fid_dist);
	free(r->jobs);
	if (r->limits) {
		free(r->limits->cpus);
		free(r->limits->mems);
		free(r->limits->cgroup);
		free(r->limits);
	}
	if (r->exec) {
		free(r->exec->cmd);
		free(r->exec->stdout_tail);
		free(r->exec->stderr_tail);
		free(r->exec);
	}
	if (r->verify) {
		free(r->verify->file);
		free(r->verify);
	}
	free(r->op_results);
	if (r->truth && r->free_truth)
		r->free_truth(r->truth);
	run_result_init(r);
}

static void hdr_text(const struct run_verify_hdr *h, struct strbuf *out)
{
	strbuf_addf(out, "file %llu, offset %llu, seed %llu, seq %llu",
		    (unsigned long long)h->file_id,
		    (unsigned long long)h->offset_bytes,
		    (unsigned long long)h->seed, (unsigned long long)h->seq);
}

/* See result.h. */
void run_verify_describe(const struct run_verify *v, struct strbuf *out)
{
	if (!v->have_first)
		return;
	strbuf_addf(out, "'%s' block at offset %llu", v->file,
		    (unsigned long long)v->offset_bytes);
	if (v->bad_byte != UINT64_MAX)
		strbuf_addf(out, " (first bad byte at offset %llu)",
			    (unsigned long long)v->bad_byte);
	strbuf_addf(out, ", found by %s: ",
		    v->in_read ? "a read of the workload" : "the read-back");
	if (!v->magic_ok)
		strbuf_addstr(out, "no verify header; ");
	else
		strbuf_addf(out, "crc32c %s; ", v->crc_ok ? "ok" : "failed");
	strbuf_addstr(out, "expected ");
	hdr_text(&v->want, out);
	strbuf_addstr(out, "; found ");
	hdr_text(&v->found, out);
}

__attribute__((format(printf, 4, 0))) static void
add_line(char ***list, unsigned *nr, unsigned *alloc, const char *fmt,
	 va_list ap)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_vaddf(&sb, fmt, ap);
	ALLOC_GROW(*list, *nr + 1, *alloc);
	(*list)[(*nr)++] = strbuf_detach(&sb, NULL);
}

/* Record the kind of the warning just added (the last one). */
static void set_last_kind(struct run_result *r, enum run_warn_kind kind)
{
	ALLOC_GROW(r->warn_kinds, r->nr_warnings, r->alloc_warn_kinds);
	r->warn_kinds[r->nr_warnings - 1] = kind;
}

void run_result_warn(struct run_result *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	add_line(&r->warnings, &r->nr_warnings, &r->alloc_warnings, fmt, ap);
	va_end(ap);
	set_last_kind(r,
		      run_warn_kind_of_text(r->warnings[r->nr_warnings - 1]));
}

void run_result_warn_kind(struct run_result *r, enum run_warn_kind kind,
			  const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	add_line(&r->warnings, &r->nr_warnings, &r->alloc_warnings, fmt, ap);
	va_end(ap);
	set_last_kind(r, kind);
}

static const char *const warn_kind_names[RUN_WARN_KINDS] = {
    [RUN_WARN_UNKNOWN] = "unknown",   [RUN_WARN_PAGE_CACHE] = "page_cache",
    [RUN_WARN_ABSORBED] = "absorbed", [RUN_WARN_CPU_BOUND] = "cpu_bound",
    [RUN_WARN_SHORT] = "short",	      [RUN_WARN_INTERRUPTED] = "interrupted",
    [RUN_WARN_OTHER_IO] = "other_io", [RUN_WARN_UNREACHED] = "unreached",
    [RUN_WARN_FIDELITY] = "fidelity", [RUN_WARN_STEAL] = "steal",
};

const char *run_warn_kind_name(enum run_warn_kind kind)
{
	return (unsigned)kind < RUN_WARN_KINDS ? warn_kind_names[kind]
					       : warn_kind_names[0];
}

enum run_warn_kind run_warn_kind_parse(const char *name)
{
	unsigned k;

	for (k = 0; name && k < RUN_WARN_KINDS; k++)
		if (!strcmp(name, warn_kind_names[k]))
			return (enum run_warn_kind)k;
	return RUN_WARN_UNKNOWN;
}

/*
 * How each kind's warning has read since warnings were written (see
 * observe/truth.c and the experiment loop); a match anywhere in the
 * text, first match wins.
 */
static const struct {
	const char *words;
	enum run_warn_kind kind;
} warn_wordings[] = {
    {"reads measured the page cache", RUN_WARN_PAGE_CACHE},
    {"of the written bytes never reached the device", RUN_WARN_ABSORBED},
    {"the workers were CPU-bound", RUN_WARN_CPU_BOUND},
    {"the run was too short to trust", RUN_WARN_SHORT},
    {"interrupted by a signal", RUN_WARN_INTERRUPTED},
    {"other I/O ran on", RUN_WARN_OTHER_IO},
    {" never reached '", RUN_WARN_UNREACHED},
    {"the replay was not faithful", RUN_WARN_FIDELITY},
    {"the hypervisor took", RUN_WARN_STEAL},
};

enum run_warn_kind run_warn_kind_of_text(const char *text)
{
	size_t i;

	for (i = 0; text && i < sizeof(warn_wordings) / sizeof(*warn_wordings);
	     i++)
		if (strstr(text, warn_wordings[i].words))
			return warn_wordings[i].kind;
	return RUN_WARN_UNKNOWN;
}

void run_result_note(struct run_result *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	add_line(&r->notes, &r->nr_notes, &r->alloc_notes, fmt, ap);
	va_end(ap);
}

void run_result_add_regime(struct run_result *r, const char *knob,
			   const char *canonical, const char *object,
			   const char *value, const char *state,
			   const char *why)
{
	struct run_regime *g;

	ALLOC_GROW(r->regimes, r->nr_regimes + 1, r->alloc_regimes);
	g = &r->regimes[r->nr_regimes++];
	g->knob = xstrdup(knob);
	g->canonical = xstrdup(canonical);
	g->object = xstrdup(object ? object : "");
	g->value = xstrdup(value);
	g->state = state;
	g->why = xstrdup(why ? why : "");
}

uint64_t run_result_ops(const struct run_result *r)
{
	return r->ops[IO_READ] + r->ops[IO_WRITE];
}

uint64_t run_result_bytes(const struct run_result *r)
{
	return r->bytes[IO_READ] + r->bytes[IO_WRITE];
}

double run_result_iops(const struct run_result *r)
{
	return r->seconds > 0 ? (double)run_result_ops(r) / r->seconds : 0;
}

double run_result_mbps(const struct run_result *r)
{
	return r->seconds > 0 ? (double)run_result_bytes(r) / r->seconds / 1e6
			      : 0;
}

double run_result_ops_per_s(const struct run_result *r)
{
	return r->seconds > 0 ? (double)r->file_ops / r->seconds : 0;
}

void job_lat_from_hist(struct job_lat *l, const struct hist *h)
{
	l->count = h->count;
	l->min_ns = h->count ? h->min_ns : 0;
	l->p50_ns = hist_quantile(h, 0.50);
	l->p90_ns = hist_quantile(h, 0.90);
	l->p99_ns = hist_quantile(h, 0.99);
	l->p999_ns = hist_quantile(h, 0.999);
	l->max_ns = h->max_ns;
	l->mean_ns = hist_mean(h);
}
