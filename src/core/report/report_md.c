/*
 * An experiment as Markdown for a ticket or a change request; see
 * report_formats.h. Labels and warnings are user input, and a '|' in
 * one would split a table cell, a '*' start emphasis and a '<' an HTML
 * tag on the sites that render Markdown, so every such string goes
 * through report_md_escape(). Nothing escaped here starts a line, so
 * the characters that matter only there ('-', '#', "1.") stay as they
 * are and the raw text reads well too.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "effects_md.h"
#include "fmt.h"
#include "report_formats.h"
#include "report.h"
#include "report_ops.h"
#include "expjson.h"
#include "p_note.h"
#include "suspect.h"
#include "regime_text.h"
#include "../../util/error.h"
#include "../../util/units.h"
#include "../../util/banned.h"

/* An environment row as a two-column table line. */
static void env_row(void *ctx, const char *key, const char *value)
{
	struct strbuf *out = ctx;

	strbuf_addstr(out, "| ");
	report_md_escape(out, key);
	strbuf_addstr(out, " | ");
	report_md_escape(out, value);
	strbuf_addstr(out, " |\n");
}

/* A metric value, escaped ("1.5k" has a '.'). */
static void md_metric(struct strbuf *out, double v)
{
	struct strbuf t = STRBUF_INIT;

	report_fmt_metric(&t, v);
	report_md_escape(out, t.buf);
	strbuf_release(&t);
}

/* One row of the verdict table. */
static void arm_row(struct json_object *exp, struct json_object *arm,
		    struct strbuf *out)
{
	int idx = expjson_count(arm, "arm");
	int baseline = idx == expjson_count(exp, "baseline");
	struct json_object *v = baseline ? NULL : expjson_verdict(exp, idx);
	double cv = expjson_num(arm, "cv"), p = expjson_num(v, "p_adjusted");

	strbuf_addstr(out, "| ");
	report_md_escape(out, expjson_str(arm, "label"));
	strbuf_addstr(out, " | ");
	md_metric(out, expjson_num(arm, "median"));
	strbuf_addstr(out, " | ");
	md_metric(out, expjson_num(arm, "ci_low"));
	strbuf_addstr(out, " – ");
	md_metric(out, expjson_num(arm, "ci_high"));
	strbuf_addstr(out, " | ");
	if (isfinite(cv))
		strbuf_addf(out, "%.1f%%", 100 * cv);
	strbuf_addf(out, " | %d | ", expjson_count(arm, "n"));
	if (v && isfinite(expjson_num(v, "ratio")))
		strbuf_addf(out, "%.3f (%.3f – %.3f)", expjson_num(v, "ratio"),
			    expjson_num(v, "ci_low"),
			    expjson_num(v, "ci_high"));
	strbuf_addstr(out, " | ");
	if (isfinite(p))
		strbuf_addf(out, p < 0.001 ? "%.1e" : "%.3f", p);
	strbuf_addstr(out, " | ");
	if (baseline) {
		strbuf_addstr(out, "baseline");
	} else if (v) {
		strbuf_addstr(out, "**");
		report_md_escape(out, expjson_str(v, "verdict"));
		strbuf_addstr(out, "**");
		if (suspect_is(exp, v))
			strbuf_addstr(out, " ⚠ suspect");
	}
	strbuf_addstr(out, " |\n");
}

/* "⚠ could not matter: ..." for each knob no run reached the regime of. */
static void report_regimes_md(struct json_object *exp, struct strbuf *out)
{
	struct json_object *list = report_regimes(exp);
	size_t i, n = list ? json_object_array_length(list) : 0;

	for (i = 0; i < n; i++) {
		struct strbuf s = STRBUF_INIT;

		report_regime_sentence(json_object_array_get_idx(list, i), &s);
		strbuf_addstr(out, i ? "" : "\n");
		strbuf_addstr(out, "⚠ ");
		report_md_escape(out, s.buf);
		strbuf_addstr(out, "  \n");
		strbuf_release(&s);
	}
}

/* A value in unit for a table cell ("ns" as a latency, "s" with two
 * decimals, else as the metric); "-" when unknown. */
static void md_value(struct strbuf *out, double v, const char *unit)
{
	if (!isfinite(v))
		strbuf_addch(out, '-');
	else if (!strcmp(unit, "ns"))
		units_fmt_ns(out, v);
	else if (!strcmp(unit, "s"))
		strbuf_addf(out, "%.2f", v);
	else
		report_fmt_metric(out, v);
}

/* The other metrics, median per arm, as a table; nothing if none. */
static void md_metrics(struct json_object *exp, struct json_object *arms,
		       struct strbuf *out)
{
	struct json_object *list =
	    expjson_get_type(exp, "metrics", json_type_array);
	const char *primary = expjson_str(expjson_get(exp, "metric"), "name");
	size_t i, j, n = list ? json_object_array_length(list) : 0, cols = 0;
	struct strbuf head = STRBUF_INIT;

	for (j = 0; j < n; j++)
		cols += report_metric_beside(json_object_array_get_idx(list, j),
					     primary);
	if (!cols)
		return;
	strbuf_addstr(out,
		      "\n### Beside the metric, median per arm\n\n| arm |");
	for (j = 0; j < n; j++) {
		struct json_object *d = json_object_array_get_idx(list, j);

		if (!report_metric_beside(d, primary))
			continue;
		strbuf_reset(&head);
		report_metric_heading(d, &head);
		strbuf_addch(out, ' ');
		report_md_escape(out, head.buf);
		strbuf_addstr(out, " |");
	}
	strbuf_addstr(out, "\n|---|");
	for (j = 0; j < cols; j++)
		strbuf_addstr(out, "---:|");
	strbuf_addch(out, '\n');
	for (i = 0; i < json_object_array_length(arms); i++) {
		struct json_object *a = json_object_array_get_idx(arms, i);

		strbuf_addstr(out, "| ");
		report_md_escape(out, expjson_str(a, "label"));
		strbuf_addstr(out, " |");
		for (j = 0; j < n; j++) {
			struct json_object *d =
			    json_object_array_get_idx(list, j);

			if (!report_metric_beside(d, primary))
				continue;
			strbuf_addch(out, ' ');
			md_value(out,
				 expjson_num(expjson_get(a, "metrics"),
					     expjson_str(d, "name")),
				 expjson_str(d, "unit"));
			strbuf_addstr(out, " |");
		}
		strbuf_addch(out, '\n');
	}
	strbuf_release(&head);
}

/* A file workload's latency per operation (report_ops.h) as a table;
 * nothing when no run timed an operation. */
static void md_ops(struct json_object *exp, struct json_object *arms,
		   struct strbuf *out)
{
	static const char *const us[] = {"mean_us", "p50_us", "p99_us",
					 "max_us"};
	const char **ops = NULL;
	size_t i, j, k, nops = report_op_names(exp, &ops);

	if (nops)
		strbuf_addstr(out, "\n### Per operation, median over each "
				   "arm's runs\n\n| arm | operation | count | "
				   "mean | p50 | p99 | max | errors |\n"
				   "|---|---|---:|---:|---:|---:|---:|---:|\n");
	for (i = 0; nops && i < json_object_array_length(arms); i++) {
		struct json_object *a = json_object_array_get_idx(arms, i);
		int arm = expjson_count(a, "arm");

		for (j = 0; j < nops; j++) {
			double c = report_op_median(exp, arm, ops[j], "count");

			if (!isfinite(c))
				continue;
			strbuf_addstr(out, "| ");
			report_md_escape(out, expjson_str(a, "label"));
			strbuf_addstr(out, " | ");
			report_md_escape(out, ops[j]);
			strbuf_addf(out, " | %.0f |", c);
			for (k = 0; k < 4; k++) {
				strbuf_addch(out, ' ');
				md_value(out,
					 1000 * report_op_median(exp, arm,
								 ops[j], us[k]),
					 "ns");
				strbuf_addstr(out, " |");
			}
			strbuf_addch(out, ' ');
			md_value(out,
				 report_op_median(exp, arm, ops[j], "errors"),
				 "");
			strbuf_addstr(out, " |\n");
		}
	}
	free(ops);
}

int report_experiment_md(struct json_object *exp, struct strbuf *out,
			 struct strbuf *err)
{
	struct json_object *arms =
	    expjson_get_type(exp, "arms", json_type_array);
	struct json_object *vs =
	    expjson_get_type(exp, "verdicts", json_type_array);
	struct json_object *w =
	    expjson_get_type(exp, "warnings", json_type_array);
	struct json_object *metric = expjson_get(exp, "metric");
	size_t i, n;
	int said = 0;

	if (!arms)
		return err_set(err, -EINVAL,
			       "not an iotrial experiment object (no 'arms')");
	strbuf_addstr(out, "## iotrial experiment ");
	report_md_escape(out, *expjson_str(exp, "id") ? expjson_str(exp, "id")
						      : "(not stored)");
	strbuf_addstr(out, ": ");
	report_md_escape(out, expjson_str(exp, "workload"));
	strbuf_addstr(out, " on `");
	/* a code span: only a backquote would end it */
	for (const char *t = expjson_target(exp); *t; t++)
		strbuf_addch(out, *t == '`' || *t == '\n' ? '\'' : *t);
	strbuf_addstr(out, "`\n\n");
	strbuf_addstr(out, "Metric: ");
	report_md_escape(out, expjson_str(metric, "name"));
	if (*expjson_str(metric, "unit")) {
		strbuf_addstr(out, " (");
		report_md_escape(out, expjson_str(metric, "unit"));
		strbuf_addch(out, ')');
	}
	strbuf_addf(
	    out, ", %s is better; ",
	    json_object_get_boolean(expjson_get(metric, "higher_is_better"))
		? "higher"
		: "lower");
	strbuf_addf(out, "%d blocks of randomized runs",
		    expjson_count(exp, "blocks"));
	if (isfinite(expjson_num(exp, "equivalence")))
		strbuf_addf(out, "; equivalent means within ±%g%%",
			    100 * expjson_num(exp, "equivalence"));
	strbuf_addstr(out, ".\n\n");
	strbuf_addstr(out, "| arm | median | 95% CI | cv | n | ratio (95% CI) "
			   "| p | verdict |\n");
	strbuf_addstr(out, "|---|---:|---:|---:|---:|---:|---:|---|\n");
	n = json_object_array_length(arms);
	for (i = 0; i < n; i++)
		arm_row(exp, json_object_array_get_idx(arms, i), out);
	n = vs ? json_object_array_length(vs) : 0;
	for (i = 0; i < n; i++) {
		struct json_object *v = json_object_array_get_idx(vs, i);
		struct strbuf note = STRBUF_INIT;

		if (!suspect_is(exp, v))
			continue;
		suspect_footnote(exp, v, &note);
		strbuf_addstr(out, said++ ? "" : "\n");
		strbuf_addstr(out, "⚠ suspect: ");
		report_md_escape(out, note.buf);
		strbuf_addstr(out, "  \n");
		strbuf_release(&note);
	}
	report_regimes_md(exp, out);
	strbuf_addstr(out, "\nThe ratio is arm over baseline (paired by "
			   "block where the test is paired)");
	{
		struct strbuf note = STRBUF_INIT;

		report_p_note_arms(exp, &note);
		if (note.len) {
			strbuf_addstr(out, "; ");
			report_md_escape(out, note.buf);
		}
		strbuf_release(&note);
	}
	strbuf_addstr(out, ".\n");
	report_effects_md(exp, out);
	md_metrics(exp, arms, out);
	md_ops(exp, arms, out);
	n = w ? json_object_array_length(w) : 0;
	if (n)
		strbuf_addf(out, "\n### Warnings (%zu)\n\n", n);
	for (i = 0; i < n; i++) {
		strbuf_addstr(out, "- ⚠ ");
		report_md_escape(out, json_object_get_string(
					  json_object_array_get_idx(w, i)));
		strbuf_addch(out, '\n');
	}
	strbuf_addstr(out, "\n### Environment\n\n| | |\n|---|---|\n");
	report_env_rows(exp, env_row, out);
	return 0;
}

const struct report_format report_format_md = {
    .name = "md",
    .summary = "the verdicts, warnings and environment for a ticket",
    .render = report_experiment_md,
};
