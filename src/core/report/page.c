/*
 * The report page (page.h): the table of sections and its walk, and the
 * small sections that need no file of their own: the title, the
 * warnings, the advice of an experiment a limit stopped, where it was
 * stored, and the plots over time.
 */
#include <errno.h>
#include <string.h>
#include "page.h"
#include "report_doc.h"
#include "report_plots.h"
#include "../../util/error.h"
#include "../../util/units.h"
#include "../../util/banned.h"

/* One row of the table. */
struct report_section {
	const char *name;
	bool (*present)(const struct experiment_doc *doc);
	void (*render)(const struct experiment_doc *doc, struct emit *e);
};

#define REPORT_SECTION_ROW_(n) {#n, report_##n##_present, report_##n##_section},
static const struct report_section sections[] = {
    REPORT_SECTION_TABLE(REPORT_SECTION_ROW_)};
#undef REPORT_SECTION_ROW_

int report_page(const struct experiment_doc *doc, const struct emit_ops *ops,
		unsigned set, struct strbuf *out, struct strbuf *err)
{
	struct emit e;
	size_t i;

	if ((set & REPORT_SEC(verdicts)) && !doc->nr_arms &&
	    !report_single_run(doc))
		return err_set(err, -EINVAL,
			       "not an iotrial experiment object (no 'arms')");
	emit_init(&e, ops, doc, out);
	ops->begin(&e);
	for (i = 0; i < REPORT_NR_SECTIONS; i++)
		if ((set & (1u << i)) && sections[i].present(doc))
			sections[i].render(doc, &e);
	ops->end(&e);
	emit_release(&e);
	return 0;
}

/* The id as the page says it. */
static const char *id_of(const struct experiment_doc *doc)
{
	return doc->id && *doc->id ? doc->id : "(not stored)";
}

bool report_summary_present(const struct experiment_doc *doc)
{
	(void)doc;
	return true;
}

/* What it ran, where, judged by what; then its design. A single run's
 * summary says that itself: text has no title for it. */
void report_summary_section(const struct experiment_doc *doc, struct emit *e)
{
	const char *metric = doc->metric ? rd_s(doc->metric->name) : "";
	struct strbuf t = STRBUF_INIT;

	if (report_single_run(doc)) {
		strbuf_addf(&t, "run %s: %s on %s", id_of(doc),
			    rd_s(doc->workload), rd_s(doc->target));
		emit_heading(e, 1, t.buf, NULL);
		strbuf_release(&t);
		return;
	}
	strbuf_addf(&t, "experiment %s: %s on %s, %s (%s is better)",
		    id_of(doc), rd_s(doc->workload), rd_s(doc->target), metric,
		    doc->metric && doc->metric->higher_is_better ? "higher"
								 : "lower");
	emit_heading(e, 1, t.buf, t.buf);
	emit_line(e, "%d block%s, seed %s, stopped: %s", rd_count(doc->blocks),
		  rd_count(doc->blocks) == 1 ? "" : "s", rd_s(doc->seed),
		  rd_s(doc->stopped));
	emit_gap(e);
	strbuf_release(&t);
}

bool report_warnings_present(const struct experiment_doc *doc)
{
	return doc->nr_warnings && !report_single_run(doc);
}

void report_warnings_section(const struct experiment_doc *doc, struct emit *e)
{
	emit_warnings(e, doc->warnings, doc->nr_warnings);
}

bool report_advice_present(const struct experiment_doc *doc)
{
	return doc->advice && !report_single_run(doc);
}

/*
 * What an experiment that stopped on a limit would need for its
 * precision, from its "advice" (experiment_add_advice()).
 */
void report_advice_section(const struct experiment_doc *doc, struct emit *e)
{
	const struct exp_advice *a = doc->advice;
	int blocks = rd_count(a->blocks), needed = rd_count(a->blocks_needed);
	double prec = 100 * a->precision;
	bool on_budget = a->stopped && !strcmp(a->stopped, "budget spent");
	bool sd = a->has_log_ratio_sd == MODEL_SET;
	struct strbuf t = STRBUF_INIT;

	strbuf_addf(&t, "stopped on %s after %d block%s: ",
		    on_budget ? "the budget" : "--max-runs", blocks,
		    blocks == 1 ? "" : "s");
	if (!sd) {
		strbuf_addf(&t,
			    "one block shows no variation yet; a verdict "
			    "needs at least %d blocks (",
			    needed);
	} else {
		if (a->aa)
			strbuf_addf(&t,
				    "identical arms differ by %.1f%% (sd of "
				    "the per-block ratios), so %d runs per "
				    "arm resolve about +-%.1f%%; ",
				    100 * a->log_ratio_sd, blocks,
				    100 * a->halfwidth);
		else
			strbuf_addf(
			    &t,
			    "the per-block ratios of '%s' vary by "
			    "%.1f%% (sd), so the CI is about +-%.1f%%; ",
			    rd_s(a->arm), 100 * a->log_ratio_sd,
			    100 * a->halfwidth);
		if (needed > 10000) {
			strbuf_addf(&t,
				    "+-%g%% would need more than 10000 %s: "
				    "the runs are too noisy for it",
				    prec, a->aa ? "runs per arm" : "blocks");
			goto out;
		}
		strbuf_addf(&t, "+-%g%% needs about %d %s", prec, needed,
			    a->aa ? "runs per arm" : "blocks");
		if (a->aa)
			strbuf_addf(&t, " (--runs %d, ", needed);
		else
			strbuf_addf(&t, ", %d more (", needed - blocks);
	}
	if (on_budget && a->has_budget_s == MODEL_SET) {
		strbuf_addstr(&t, "--budget ");
		units_fmt_duration_arg(&t, a->budget_s);
	} else {
		strbuf_addf(&t, "--max-runs %d", needed);
	}
	strbuf_addch(&t, ')');
out:
	emit_gap(e);
	emit_line(e, "%s", t.buf);
	strbuf_release(&t);
}

bool report_series_present(const struct experiment_doc *doc)
{
	(void)doc;
	return true;
}

/* The plots of a page that has them: latency, per operation, and a
 * typical run's device and dirty memory over time. */
void report_series_section(const struct experiment_doc *doc, struct emit *e)
{
	(void)doc;
	emit_plot(e, plot_latency);
	emit_plot(e, plot_op_latency);
	emit_plot(e, plot_series);
}

bool report_origin_present(const struct experiment_doc *doc)
{
	(void)doc;
	return true;
}

/*
 * Where and when it was measured, the last line of the text page:
 * "stored DATE, origin O, host H, kernel K, iotrial V" (each part only
 * when recorded; the environment is doc's own or its first run's).
 */
void report_origin_section(const struct experiment_doc *doc, struct emit *e)
{
	const struct env_doc *env = report_env(doc);
	struct strbuf t = STRBUF_INIT;

	strbuf_addf(&t, "stored %s, origin %s", rd_s(doc->created),
		    report_origin(doc));
	if (env && env->hostname && *env->hostname)
		strbuf_addf(&t, ", host %s", env->hostname);
	if (env && env->kernel_release && *env->kernel_release)
		strbuf_addf(&t, ", kernel %s", env->kernel_release);
	if (env && env->iotrial_version && *env->iotrial_version)
		strbuf_addf(&t, ", iotrial %s", env->iotrial_version);
	if (env && env->fio_version && *env->fio_version)
		strbuf_addf(&t, ", %s", env->fio_version);
	emit_gap(e);
	emit_line(e, "%s", t.buf);
	strbuf_release(&t);
}
