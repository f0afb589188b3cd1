/*
 * The live section of an observe experiment (live/live.h): the
 * switchback analysis beyond the verdict table every experiment gets
 * (trend, load, the randomisation p and the adjusted ratio per arm,
 * warnings about the design), or, when it stopped too early for one,
 * what it measured; then the --abort-if rule that fired. On a page with
 * plots, the windows over time.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sections.h"
#include "report_doc.h"
#include "report_plots.h"
#include "../stats/stats.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* The --abort-if line, when a rule fired. */
static void abort_line(const struct experiment_doc *doc, struct emit *e)
{
	const struct live_abort *ab = doc->abort;

	if (ab)
		emit_line(
		    e,
		    "aborted: --abort-if '%s' fired after window %d: %s; "
		    "the original settings were restored in %.3g s",
		    rd_s(ab->rule), rd_count(ab->window) + 1, rd_s(ab->why),
		    ab->has_restored_after_s == MODEL_SET ? ab->restored_after_s
							  : NAN);
}

/*
 * Too little for the analysis (stopped or aborted early): what was
 * measured, per arm, so the windows are not lost from sight, and why
 * there is no verdict.
 */
static void partial(const struct experiment_doc *doc, struct emit *e)
{
	const char *metric = doc->metric ? rd_s(doc->metric->name) : "";
	double *m = xcalloc(doc->nr_windows + 1, sizeof(*m));
	struct strbuf t = STRBUF_INIT;
	size_t a, i;

	emit_gap(e);
	emit_line(e, "measured before the stop (%s), too little for a verdict:",
		  rd_s(doc->stopped));
	emit_list(e, 2);
	for (a = 0; a < doc->nr_arms; a++) {
		size_t n = 0, settle = 0;

		for (i = 0; i < doc->nr_windows; i++) {
			const struct live_window *w = &doc->windows[i];

			if ((size_t)rd_count(w->arm) != a)
				continue;
			if (w->settle)
				settle++;
			else if (isfinite(w->metric))
				m[n++] = w->metric;
		}
		strbuf_reset(&t);
		strbuf_addf(&t, "%-24s %zu measured window%s",
			    rd_s(doc->arms[a].label), n, n == 1 ? "" : "s");
		if (n)
			strbuf_addf(&t, ", median %s %.4g", metric,
				    stats_median(m, n));
		if (settle)
			strbuf_addf(&t, " (%zu settle)", settle);
		emit_item(e, 0, "%s", t.buf);
	}
	emit_list_end(e);
	free(m);
	strbuf_release(&t);
	/* the analysis's reason is the last warning; the others were
	 * printed as they came */
	if (doc->nr_warnings)
		emit_line(e, "no verdict: %s",
			  doc->warnings[doc->nr_warnings - 1]);
	abort_line(doc, e);
}

bool report_live_present(const struct experiment_doc *doc)
{
	return doc->kind && !strcmp(doc->kind, "observe");
}

void report_live_section(const struct experiment_doc *doc, struct emit *e)
{
	const struct live_switchback *sb = doc->switchback;
	struct strbuf t = STRBUF_INIT;
	int width = 8;
	size_t i;

	if (!sb) {
		partial(doc, e);
		emit_plot(e, plot_windows);
		return;
	}
	for (i = 0; i < sb->nr_arms && i < doc->nr_arms; i++) {
		int len = (int)strlen(rd_s(doc->arms[i].label));

		width = len > width ? len : width;
	}
	emit_gap(e);
	emit_line(e,
		  "switchback: %d block%s of %g s windows, settle %g s; load "
		  "trend over time rho %.2f (p %.3g)%s",
		  rd_count(sb->blocks), rd_count(sb->blocks) == 1 ? "" : "s",
		  sb->window_s, sb->settle_s, sb->trend_rho, sb->trend_p,
		  sb->trend ? ": a trend, spread over the arms by the random "
			      "order"
			    : "");
	emit_line(e, "%s",
		  "per arm: when its windows ran (0 the start, 1 the end), "
		  "the load they carried,\nthe randomisation test, and the "
		  "ratio adjusted for time and load");
	emit_list(e, 2);
	for (i = 0; i < sb->nr_arms; i++) {
		const struct live_sb_arm *a = &sb->arms[i];
		int64_t k = rd_count(a->arm);

		strbuf_reset(&t);
		strbuf_addf(
		    &t, "%-*s  time %.2f  load %.4g %s/window", width,
		    (size_t)k < doc->nr_arms ? rd_s(doc->arms[k].label) : "",
		    a->mean_time_frac, a->mean_load, rd_s(doc->load_unit));
		if (a->rand && !isnan(a->rand->rand_p))
			strbuf_addf(&t, "  randomisation p %.3g%s",
				    a->rand->rand_p,
				    a->rand->rand_exact ? " (exact)" : "");
		if (a->adjusted && !isnan(a->adjusted->adj_ratio))
			strbuf_addf(&t, "  adjusted %.3f [%.3f, %.3f]",
				    a->adjusted->adj_ratio,
				    a->adjusted->adj_ci_low,
				    a->adjusted->adj_ci_high);
		emit_item(e, 0, "%s", t.buf);
	}
	emit_list_end(e);
	if (sb->suspect_windows > 0)
		emit_note(e, EMIT_NOTE_WARNING,
			  "%d analysed windows had other I/O on the device "
			  "beside the cgroup's (see 'windows')",
			  rd_count(sb->suspect_windows));
	/* no settle period: the experiment's warnings say it once */
	abort_line(doc, e);
	strbuf_release(&t);
	emit_plot(e, plot_windows);
}
