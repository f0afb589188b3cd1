/*
 * The text table of an experiment. It is the answer to the user's
 * question, so it leads with the verdict column's meaning and keeps the
 * numbers that back it (CI, p) on the same line, as benchstat does.
 */
#include <errno.h>
#include <math.h>
#include <string.h>
#include "report.h"
#include "report_ops.h"
#include "effects_text.h"
#include "scaling_text.h"
#include "expjson.h"
#include "p_note.h"
#include "suspect.h"
#include "regime_text.h"
#include "run_text.h"
#include "../../util/units.h"
#include "../../util/error.h"
#include "../../util/banned.h"

static void arm_line(struct strbuf *out, struct json_object *arm,
		     struct json_object *v, int is_baseline, size_t label_width,
		     int suspect)
{
	size_t start = out->len;

	strbuf_addstr(out, expjson_str(arm, "label"));
	report_pad(out, start, label_width);
	start = out->len;
	report_fmt_metric(out, expjson_num(arm, "median"));
	report_pad(out, start, 7);
	start = out->len;
	/* one run has no interval and no spread: "[823, 823]" and "0.0%"
	 * read as certainty */
	if (expjson_count(arm, "n") < 2) {
		strbuf_addch(out, '-');
	} else {
		strbuf_addch(out, '[');
		report_fmt_metric(out, expjson_num(arm, "ci_low"));
		strbuf_addstr(out, ", ");
		report_fmt_metric(out, expjson_num(arm, "ci_high"));
		strbuf_addch(out, ']');
	}
	report_pad(out, start, 17);
	start = out->len;
	if (expjson_count(arm, "n") < 2)
		strbuf_addch(out, '-');
	else if (isfinite(expjson_num(arm, "cv")))
		strbuf_addf(out, "%.1f%%", 100 * expjson_num(arm, "cv"));
	report_pad(out, start, 6);
	strbuf_addf(out, "%3d  ", expjson_count(arm, "n"));
	if (!v) {
		strbuf_addstr(out, is_baseline ? "baseline\n" : "-\n");
		return;
	}
	start = out->len;
	if (isfinite(expjson_num(v, "ratio")))
		strbuf_addf(out, "%.3f [%.3f, %.3f]", expjson_num(v, "ratio"),
			    expjson_num(v, "ci_low"),
			    expjson_num(v, "ci_high"));
	report_pad(out, start, 22);
	start = out->len;
	if (isfinite(expjson_num(v, "p_adjusted")))
		strbuf_addf(
		    out, expjson_num(v, "p_adjusted") < 0.001 ? "%.1e" : "%.3f",
		    expjson_num(v, "p_adjusted"));
	report_pad(out, start, 7);
	strbuf_addf(out, "%s%s\n", expjson_str(v, "verdict"),
		    suspect ? "*" : "");
}

/*
 * The footnotes of the marked verdicts: "* LABEL: why (how many runs)".
 * Appends nothing when no verdict is suspect.
 */
static void suspect_notes(struct json_object *exp, struct strbuf *out)
{
	struct json_object *vs =
	    expjson_get_type(exp, "verdicts", json_type_array);
	size_t i, n = vs ? json_object_array_length(vs) : 0, said = 0;

	for (i = 0; i < n; i++) {
		struct json_object *v = json_object_array_get_idx(vs, i);

		if (!suspect_is(exp, v))
			continue;
		strbuf_addstr(out, said++ ? "* " : "\n* ");
		suspect_footnote(exp, v, out);
		strbuf_addch(out, '\n');
	}
	if (said)
		strbuf_addstr(out, "* suspect: the runs iotrial flagged may "
				   "describe the flaw, not the setting; see "
				   "the warnings\n");
}

/* 1 when some verdict of exp has a ratio computed by test. */
static int has_ratio_from(struct json_object *exp, const char *test)
{
	struct json_object *vs =
	    expjson_get_type(exp, "verdicts", json_type_array);
	size_t i, n = vs ? json_object_array_length(vs) : 0;

	for (i = 0; i < n; i++) {
		struct json_object *v = json_object_array_get_idx(vs, i);

		if (isfinite(expjson_num(v, "ratio")) &&
		    !strcmp(expjson_str(v, "test"), test))
			return 1;
	}
	return 0;
}

/*
 * Under the table: what the ratio column is. Paired by block, it is not
 * the quotient of the two medians beside it (12.1k against 11k can come
 * with a ratio of 0.976), and people read it as if it were. Then any
 * interval that reaches less than 95% because the blocks are too few.
 */
static void ratio_footnote(struct json_object *exp, struct strbuf *out)
{
	struct json_object *vs =
	    expjson_get_type(exp, "verdicts", json_type_array);
	size_t i, n = vs ? json_object_array_length(vs) : 0;
	int paired = has_ratio_from(exp, "wilcoxon-signed-rank");
	int unpaired = has_ratio_from(exp, "mann-whitney-u");

	if (paired || unpaired)
		strbuf_addch(out, '\n');
	if (paired)
		strbuf_addstr(
		    out, "ratio: arm over baseline within each block, the "
			 "median of the per-block\nratios' pairwise means "
			 "(Hodges-Lehmann), not the ratio of the medians;"
			 "\nits CI and p are the signed-rank test's on the "
			 "same per-block ratios\n");
	if (unpaired)
		strbuf_addstr(
		    out, "ratio: the median of the ratios of every arm run "
			 "to every baseline run\n(Hodges-Lehmann), with the "
			 "Moses CI; p from the Mann-Whitney U test\n");
	if (paired || unpaired) {
		struct strbuf note = STRBUF_INIT;

		report_p_note_arms(exp, &note);
		if (note.len)
			strbuf_addf(out, "%s\n", note.buf);
		strbuf_release(&note);
	}
	for (i = 0; i < n; i++) {
		struct json_object *v = json_object_array_get_idx(vs, i);
		double cov = expjson_num(v, "ci_coverage");

		if (isfinite(expjson_num(v, "ratio")) && isfinite(cov) &&
		    cov < 0.945)
			strbuf_addf(
			    out,
			    "the ratio CI of %s covers %.1f%%, not 95%%: "
			    "too few runs for a 95%% interval\n",
			    expjson_str(v, "label"), 100 * cov);
	}
}

/* A value of a metric in unit: "12.1k", "49.6", "68.6us", "0.30s". */
static void fmt_in_unit(struct strbuf *out, double v, const char *unit)
{
	if (!isfinite(v))
		strbuf_addstr(out, "-");
	else if (!strcmp(unit, "ns"))
		units_fmt_ns(out, v);
	else if (!strcmp(unit, "s"))
		strbuf_addf(out, "%.2f", v); /* the header says (s) */
	else
		report_fmt_metric(out, v);
}

/*
 * The metrics beside the primary one, median per arm (arms[].metrics,
 * those exp's "metrics" marks shown), one line per arm.
 */
static void other_metrics_text(struct json_object *exp, size_t width,
			       struct strbuf *out)
{
	struct json_object *list =
	    expjson_get_type(exp, "metrics", json_type_array);
	struct json_object *arms =
	    expjson_get_type(exp, "arms", json_type_array);
	const char *primary = expjson_str(expjson_get(exp, "metric"), "name");
	size_t i, j, n = list ? json_object_array_length(list) : 0, start;
	int any = 0;

	for (j = 0; j < n; j++) {
		struct json_object *d = json_object_array_get_idx(list, j);

		if (report_metric_beside(d, primary))
			any = 1;
	}
	if (!any || !arms)
		return;
	strbuf_addstr(out, "\nbeside it, median per arm:\n");
	start = out->len;
	strbuf_addstr(out, "arm");
	report_pad(out, start, width);
	for (j = 0; j < n; j++) {
		struct json_object *d = json_object_array_get_idx(list, j);

		if (!report_metric_beside(d, primary))
			continue;
		start = out->len;
		/* a latency carries its own unit: "27.7 us" */
		if (!strcmp(expjson_str(d, "unit"), "ns"))
			strbuf_addstr(out, expjson_str(d, "name"));
		else
			strbuf_addf(out, "%s (%s)", expjson_str(d, "name"),
				    expjson_str(d, "unit"));
		report_pad(out, start, 11);
	}
	strbuf_rtrim(out);
	strbuf_addch(out, '\n');
	for (i = 0; i < json_object_array_length(arms); i++) {
		struct json_object *arm = json_object_array_get_idx(arms, i);
		struct json_object *med = expjson_get(arm, "metrics");

		start = out->len;
		strbuf_addstr(out, expjson_str(arm, "label"));
		report_pad(out, start, width);
		for (j = 0; j < n; j++) {
			struct json_object *d =
			    json_object_array_get_idx(list, j);
			const char *name = expjson_str(d, "name");
			size_t w =
			    strlen(name) + strlen(expjson_str(d, "unit")) + 3;

			if (!report_metric_beside(d, primary))
				continue;
			start = out->len;
			fmt_in_unit(out, expjson_num(med, name),
				    expjson_str(d, "unit"));
			report_pad(out, start, w > 11 ? w : 11);
		}
		strbuf_rtrim(out);
		strbuf_addch(out, '\n');
	}
}

/*
 * What an experiment that stopped on a limit would need for its
 * precision, from its "advice" (experiment_add_advice()).
 */
static void advice_text(struct json_object *exp, struct strbuf *out)
{
	struct json_object *a = expjson_get(exp, "advice");
	int blocks = expjson_count(a, "blocks");
	int needed = expjson_count(a, "blocks_needed");
	double prec = 100 * expjson_num(a, "precision");
	int aa = json_object_get_boolean(expjson_get(a, "aa"));
	int on_budget = !strcmp(expjson_str(a, "stopped"), "budget spent");

	if (!a)
		return;
	strbuf_addf(out, "\nstopped on %s after %d block%s: ",
		    on_budget ? "the budget" : "--max-runs", blocks,
		    blocks == 1 ? "" : "s");
	if (!expjson_get(a, "log_ratio_sd")) {
		strbuf_addf(out,
			    "one block shows no variation yet; a verdict "
			    "needs at least %d blocks",
			    needed);
	} else {
		if (aa)
			strbuf_addf(out,
				    "identical arms differ by %.1f%% (sd of "
				    "the per-block ratios), so %d runs per "
				    "arm resolve about +-%.1f%%; ",
				    100 * expjson_num(a, "log_ratio_sd"),
				    blocks, 100 * expjson_num(a, "halfwidth"));
		else
			strbuf_addf(
			    out,
			    "the per-block ratios of '%s' vary by "
			    "%.1f%% (sd), so the CI is about +-%.1f%%; ",
			    expjson_str(a, "arm"),
			    100 * expjson_num(a, "log_ratio_sd"),
			    100 * expjson_num(a, "halfwidth"));
		if (needed > 10000) {
			strbuf_addf(out,
				    "+-%g%% would need more than 10000 %s: "
				    "the runs are too noisy for it\n",
				    prec, aa ? "runs per arm" : "blocks");
			return;
		}
		strbuf_addf(out, "+-%g%% needs about %d %s", prec, needed,
			    aa ? "runs per arm" : "blocks");
		if (aa)
			strbuf_addf(out, " (--runs %d", needed);
		else
			strbuf_addf(out, ", %d more (", needed - blocks);
	}
	if (!expjson_get(a, "log_ratio_sd"))
		strbuf_addstr(out, " (");
	else if (aa)
		strbuf_addstr(out, ", ");
	if (on_budget && expjson_get(a, "budget_s")) {
		strbuf_addstr(out, "--budget ");
		units_fmt_duration_arg(out, expjson_num(a, "budget_s"));
	} else {
		strbuf_addf(out, "--max-runs %d", needed);
	}
	strbuf_addstr(out, ")\n");
}

int report_experiment_text(struct json_object *exp, struct strbuf *out,
			   struct strbuf *err)
{
	struct json_object *arms, *warnings, *metric;
	size_t i, n, width = 3, start;
	int baseline = expjson_count(exp, "baseline");
	struct json_object *run = expjson_single_run(exp);

	if (run) {
		/* a single run reads as `run` printed it */
		report_run_text(run, REPORT_RUN_METRIC, out);
		return 0;
	}
	arms = expjson_get_type(exp, "arms", json_type_array);
	if (!arms)
		return err_set(err, -EINVAL,
			       "not an iotrial experiment object (no 'arms')");
	metric = expjson_get(exp, "metric");
	n = json_object_array_length(arms);
	for (i = 0; i < n; i++) {
		size_t l = strlen(
		    expjson_str(json_object_array_get_idx(arms, i), "label"));

		if (l > width)
			width = l;
	}
	strbuf_addf(
	    out, "experiment %s: %s on %s, %s (%s is better)\n",
	    *expjson_str(exp, "id") ? expjson_str(exp, "id") : "(not stored)",
	    expjson_str(exp, "workload"), expjson_str(exp, "target"),
	    expjson_str(metric, "name"),
	    metric && json_object_get_boolean(
			  json_object_object_get(metric, "higher_is_better"))
		? "higher"
		: "lower");
	strbuf_addf(out, "%d block%s, seed %s, stopped: %s\n\n",
		    expjson_count(exp, "blocks"),
		    expjson_count(exp, "blocks") == 1 ? "" : "s",
		    expjson_str(exp, "seed"), expjson_str(exp, "stopped"));
	/* with two factors or more, each factor's effects come first */
	if (report_effects_text(exp, out))
		strbuf_addstr(out, "\nevery arm against the baseline arm:\n");
	start = out->len;
	strbuf_addstr(out, "arm");
	report_pad(out, start, width);
	strbuf_addstr(out, "median  95% CI            cv       n  "
			   "ratio [95% CI]         p       verdict\n");
	for (i = 0; i < n; i++) {
		struct json_object *arm = json_object_array_get_idx(arms, i);
		int idx = expjson_count(arm, "arm");
		struct json_object *v =
		    idx == baseline ? NULL : expjson_verdict(exp, idx);

		arm_line(out, arm, v, idx == baseline, width,
			 v && suspect_is(exp, v));
	}
	ratio_footnote(exp, out);
	suspect_notes(exp, out);
	report_regimes_text(exp, out);
	report_scaling_text(exp, out);
	other_metrics_text(exp, width, out);
	report_ops_text(exp, out);
	warnings = expjson_get_type(exp, "warnings", json_type_array);
	if (warnings) {
		n = json_object_array_length(warnings);
		if (n)
			strbuf_addch(out, '\n');
		for (i = 0; i < n; i++)
			strbuf_addf(
			    out, "warning: %s\n",
			    json_object_get_string(
				json_object_array_get_idx(warnings, i)));
	}
	advice_text(exp, out);
	return 0;
}

void report_experiment_origin(struct json_object *exp, struct strbuf *out)
{
	struct json_object *env = expjson_env(exp);

	strbuf_addf(out, "\nstored %s, origin %s", expjson_str(exp, "created"),
		    expjson_origin(exp));
	if (*expjson_str(env, "hostname"))
		strbuf_addf(out, ", host %s", expjson_str(env, "hostname"));
	if (*expjson_str(env, "kernel_release"))
		strbuf_addf(out, ", kernel %s",
			    expjson_str(env, "kernel_release"));
	if (*expjson_str(env, "iotrial_version"))
		strbuf_addf(out, ", iotrial %s",
			    expjson_str(env, "iotrial_version"));
	if (*expjson_str(env, "fio_version"))
		strbuf_addf(out, ", %s", expjson_str(env, "fio_version"));
	strbuf_addch(out, '\n');
}
