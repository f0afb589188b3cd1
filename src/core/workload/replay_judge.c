/*
 * A file-layer replay judged against its capture once its threads are
 * done: the totals (trace/fidelity.h) as the score and its note, the
 * settings that differed (replay_set.c) and the calls as distributions
 * (trace/fidelity_dist.h), each into the run; a poor replay warned,
 * with kind fidelity. The device terms follow in replay_dev.c, once the
 * run's device truth is there.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "workload.h"
#include "replay-int.h"
#include "../trace/fidelity.h"
#include "../trace/fidelity_dist.h"
#include "../trace/trace_summary.h"
#include "../../util/strbuf.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* As replay-int.h says. */
void rp_warn_fidelity(struct run_result *r, int poor, const char *why,
		      uint64_t lost, const char *what)
{
	if (poor)
		run_result_warn_kind(r, RUN_WARN_FIDELITY,
				     "the replay was not faithful to its "
				     "trace: %s",
				     why);
	if (lost)
		run_result_warn_kind(r, RUN_WARN_FIDELITY,
				     "the trace lost %llu %s in its capture "
				     "(--allow-lost)",
				     (unsigned long long)lost, what);
}

/* The capture's file-layer events a replay does (not mmap, msync, nor
 * block requests), into a new array; *n how many. */
static struct trace_event *replayed_events(const struct trace *t, size_t *n)
{
	struct trace_event *v = xcalloc(t->nr_events + 1, sizeof(*v));
	size_t i;

	*n = 0;
	for (i = 0; i < t->nr_events; i++) {
		unsigned op = t->events[i].op;

		if (op != TOP_MMAP && op != TOP_MSYNC && !trace_op_is_block(op))
			v[(*n)++] = t->events[i];
	}
	return v;
}

/* A latency in ns for people: "812 ns", "3.1 us", "2.4 ms". */
static void add_ns(struct strbuf *sb, uint64_t ns)
{
	if (ns < 1000)
		strbuf_addf(sb, "%llu ns", (unsigned long long)ns);
	else if (ns < 1000000)
		strbuf_addf(sb, "%.1f us", (double)ns / 1e3);
	else
		strbuf_addf(sb, "%.1f ms", (double)ns / 1e6);
}

/* The distributions against the capture's: r->fid_dist, a note per
 * class with calls enough, a warning when one is far off. */
static void judge_dist(struct rp_state *st, struct run_result *r,
		       const struct trace *done)
{
	struct strbuf why = STRBUF_INIT, sb = STRBUF_INIT;
	struct fidelity_dist fd;
	struct trace_event *cap;
	size_t n;
	unsigned k, t, q;

	cap = replayed_events(&st->t, &n);
	fidelity_dist_compute(cap, n, done->events, done->nr_events, st->speed,
			      st->moves, &fd, &why);
	free(cap);
	r->fid_dist = xcalloc(FDC__NR, sizeof(*r->fid_dist));
	for (k = 0; k < FDC__NR; k++) {
		const struct fdist_class_result *x = &fd.c[k];
		struct run_fid_class *o = &r->fid_dist[r->nr_fid_dist];

		if (!x->calls[0] && !x->calls[1])
			continue;
		r->nr_fid_dist++;
		o->name = fdist_class_name(k, 1);
		o->calls[0] = x->calls[0];
		o->calls[1] = x->calls[1];
		for (t = 0; t < FDT__NR; t++)
			o->d[t] = x->applies[t] ? x->d[t] : NAN;
		o->latency_judged = x->judged[FDT_LATENCY];
		memcpy(o->lat_ns, x->lat_ns, sizeof(o->lat_ns));
		o->seq[0] = x->seq[0];
		o->seq[1] = x->seq[1];
		if (!x->applies[FDT_LATENCY])
			continue;
		strbuf_reset(&sb);
		if (x->applies[FDT_SIZE])
			strbuf_addf(&sb,
				    "sizes %.2f and offsets %.2f apart (the "
				    "largest difference of cumulative "
				    "shares), ",
				    x->d[FDT_SIZE], x->d[FDT_OFFSET]);
		if (x->applies[FDT_GAP])
			strbuf_addf(&sb, "gaps %.2f and ", x->d[FDT_GAP]);
		strbuf_addf(&sb, "latencies %.2f powers of 2 apart%s",
			    x->d[FDT_LATENCY],
			    x->judged[FDT_LATENCY] ? ""
			    : st->moves & FMOVE_LATENCY
				? " (a setting's effect, not judged)"
				: " (not judged as fast as it goes)");
		strbuf_addstr(&sb, "; latency p50/p90/p99 ");
		for (q = 0; q < 3; q++) {
			add_ns(&sb, x->lat_ns[1][q]);
			strbuf_addstr(&sb, q < 2 ? "/" : " here, ");
		}
		for (q = 0; q < 3; q++) {
			add_ns(&sb, x->lat_ns[0][q]);
			strbuf_addstr(&sb, q < 2 ? "/" : " in the capture");
		}
		if (k == FDC_READ || k == FDC_WRITE)
			strbuf_addf(
			    &sb,
			    "; %.0f%% sequential here, %.0f%% in the capture",
			    100 * x->seq[1], 100 * x->seq[0]);
		run_result_note(r, "replay %s against the capture's: %s",
				fdist_class_name(k, 0), sb.buf);
	}
	if (fd.poor)
		run_result_warn_kind(r, RUN_WARN_FIDELITY,
				     "the replay's calls were not spread as "
				     "the capture's: %s",
				     why.buf);
	strbuf_release(&why);
	strbuf_release(&sb);
}

/* The settings that differed, into r->fid_settings. */
static void keep_settings(const struct rp_state *st, struct run_result *r)
{
	size_t i;

	if (!st->nr_setdiffs)
		return;
	r->fid_settings = xcalloc(st->nr_setdiffs, sizeof(*r->fid_settings));
	for (i = 0; i < st->nr_setdiffs; i++) {
		const struct rp_setdiff *d = &st->setdiffs[i];
		struct run_fid_setting *o = &r->fid_settings[i];

		o->name =
		    xstrdup(strncmp(d->key, "knob.", 5) ? d->key : d->key + 5);
		o->capture = d->capture ? xstrdup(d->capture) : NULL;
		o->replay = d->replay ? xstrdup(d->replay) : NULL;
		o->moves = d->moves;
	}
	r->nr_fid_settings = (unsigned)st->nr_setdiffs;
}

void rp_judge(struct rp_state *st, struct run_result *r, struct trace *done)
{
	struct trace_summary c, d;
	struct strbuf why = STRBUF_INIT, parts = STRBUF_INIT;
	struct fidelity f;
	uint64_t mismatches = 0, waits = 0;
	size_t i;

	for (i = 0; i < st->nr_th; i++) {
		mismatches += st->th[i].mismatches;
		waits += st->th[i].waits;
	}
	done->end.duration_ns = (uint64_t)(r->seconds * 1e9);
	trace_summarize_layer(&st->t, 0, &c);
	trace_summarize(done, &d);
	fidelity_compute(&c, &d, st->speed, st->open_loop, &f, &why);
	for (i = 0; i < FID__NR; i++)
		if (f.applies[i])
			strbuf_addf(&parts, "%s%s %.1f%%",
				    parts.len ? ", " : "",
				    fidelity_name((enum fidelity_component)i),
				    100 * f.err[i]);
	r->fidelity = f.score;
	r->have_fidelity = 1;
	run_result_note(r,
			"replay fidelity %.1f of 100 (off by: %s); %llu calls "
			"ended otherwise than recorded",
			f.score, parts.buf, (unsigned long long)mismatches);
	if (waits)
		run_result_note(
		    r,
		    "%llu calls waited for another thread to finish "
		    "what it did before them in the capture",
		    (unsigned long long)waits);
	if (st->extra_opens)
		run_result_note(r,
				"%llu descriptors the capture found open were "
				"opened for the replay",
				(unsigned long long)st->extra_opens);
	rp_warn_fidelity(r, f.poor, why.buf, st->t.end.lost, "calls");
	rp_settings_note(st, r);
	keep_settings(st, r);
	judge_dist(st, r, done);
	trace_summary_release(&c);
	trace_summary_release(&d);
	strbuf_release(&why);
	strbuf_release(&parts);
}
