/*
 * compare's arms as CSV and Markdown tables (arms_export.h).
 */
#include <math.h>
#include <string.h>
#include "arms_export.h"
#include "fmt.h"
#include "report_doc.h"
#include "report_formats.h"
#include "../../util/banned.h"

/* The verdict of arm index arm, or NULL (the baseline, too few runs). */
static const struct exp_verdict *verdict_of(const struct experiment_doc *doc,
					    int64_t arm)
{
	size_t i;

	for (i = 0; i < doc->nr_verdicts; i++)
		if (doc->verdicts[i].arm == arm)
			return &doc->verdicts[i];
	return NULL;
}

/* Is arm the baseline? */
static int is_baseline(const struct experiment_doc *doc, int64_t arm)
{
	return doc->has_baseline && doc->baseline == arm;
}

/* ",v" with enough digits, or "," when v is not known. */
static void num(struct strbuf *out, double v)
{
	strbuf_addch(out, ',');
	if (isfinite(v))
		strbuf_addf(out, "%.10g", v);
}

/* ",s" as a CSV field. */
static void str(struct strbuf *out, const char *s)
{
	strbuf_addch(out, ',');
	report_csv_field(out, s ? s : "");
}

/* The value of factor name in arm a, or "". */
static const char *arm_factor_value(const struct exp_arm *a, const char *name)
{
	size_t i;

	for (i = 0; i < a->nr_settings; i++)
		if (a->settings[i].name && !strcmp(a->settings[i].name, name))
			return a->settings[i].value;
	return "";
}

void report_arms_csv(const struct experiment_doc *doc, struct strbuf *out)
{
	const char *metric = doc->metric ? doc->metric->name : "";
	const char *unit = doc->metric ? doc->metric->unit : "";
	size_t i, f;

	strbuf_addstr(out, "arm,metric,unit,runs,median,median_ci_low,"
			   "median_ci_high,min,max,cv,ratio,ratio_ci_low,"
			   "ratio_ci_high,p,verdict");
	for (f = 0; f < doc->nr_factors; f++) {
		struct strbuf h = STRBUF_INIT;

		strbuf_addf(&h, "factor_%s", doc->factors[f].name);
		str(out, h.buf);
		strbuf_release(&h);
	}
	strbuf_addstr(out, "\r\n");
	for (i = 0; i < doc->nr_arms; i++) {
		const struct exp_arm *a = &doc->arms[i];
		const struct exp_arm_summary *s = a->summary;
		const struct exp_verdict *v = verdict_of(doc, a->arm);
		const struct exp_comparison *c = v ? v->cmp : NULL;
		int base = is_baseline(doc, a->arm);
		struct report_ratio r = {NAN, NAN, NAN, NAN};

		report_csv_field(out, a->label ? a->label : "");
		str(out, metric);
		str(out, unit);
		strbuf_addch(out, ',');
		if (s)
			strbuf_addf(out, "%lld", (long long)s->n);
		num(out, s ? s->median : NAN);
		num(out, s ? s->ci_low : NAN);
		num(out, s ? s->ci_high : NAN);
		num(out, s ? s->min : NAN);
		num(out, s ? s->max : NAN);
		num(out, s ? s->cv : NAN);
		if (v)
			report_verdict_ratio(v, &r);
		num(out, base ? 1 : c ? r.ratio : NAN);
		num(out, c ? r.ci_low : NAN);
		num(out, c ? r.ci_high : NAN);
		num(out, !c			   ? NAN
			 : isfinite(c->p_adjusted) ? c->p_adjusted
						   : c->p);
		str(out, base ? "baseline" : v ? v->verdict : "");
		for (f = 0; f < doc->nr_factors; f++)
			str(out, arm_factor_value(a, doc->factors[f].name));
		strbuf_addstr(out, "\r\n");
	}
}

/* " | v" for people: four significant digits, "-" when unknown. */
static void cell(struct strbuf *out, double v)
{
	strbuf_addstr(out, " | ");
	report_fmt_value(out, v);
}

void report_arms_md(const struct experiment_doc *doc, struct strbuf *out)
{
	const char *unit =
	    doc->metric && doc->metric->unit ? doc->metric->unit : "";
	size_t i;

	strbuf_addstr(out, "| Arm | Runs | Median");
	if (*unit) {
		strbuf_addstr(out, " [");
		report_md_escape(out, unit);
		strbuf_addch(out, ']');
	}
	strbuf_addstr(out, " | 95% CI | Relative | Verdict |\n"
			   "|:---|---:|---:|---:|---:|:---|\n");
	for (i = 0; i < doc->nr_arms; i++) {
		const struct exp_arm *a = &doc->arms[i];
		const struct exp_arm_summary *s = a->summary;
		const struct exp_verdict *v = verdict_of(doc, a->arm);
		const struct exp_comparison *c = v ? v->cmp : NULL;
		int base = is_baseline(doc, a->arm);
		struct report_ratio r = {NAN, NAN, NAN, NAN};

		if (v)
			report_verdict_ratio(v, &r);
		strbuf_addstr(out, "| ");
		report_md_escape(out, a->label && *a->label ? a->label : "-");
		if (s)
			strbuf_addf(out, " | %lld", (long long)s->n);
		else
			strbuf_addstr(out, " | 0");
		cell(out, s ? s->median : NAN);
		strbuf_addstr(out, " | ");
		if (s && isfinite(s->ci_low) && isfinite(s->ci_high)) {
			report_fmt_value(out, s->ci_low);
			strbuf_addstr(out, " to ");
			report_fmt_value(out, s->ci_high);
		} else {
			strbuf_addch(out, '-');
		}
		if (base)
			strbuf_addstr(out, " | 1.00");
		else if (c && isfinite(r.ratio) && isfinite(r.ci_low) &&
			 isfinite(r.ci_high))
			strbuf_addf(out, " | %.2f (%.2f to %.2f)", r.ratio,
				    r.ci_low, r.ci_high);
		else if (c && isfinite(r.ratio))
			strbuf_addf(out, " | %.2f", r.ratio);
		else
			strbuf_addstr(out, " | -");
		strbuf_addstr(out, " | ");
		report_md_escape(out, base		? "baseline"
				      : v && v->verdict ? v->verdict
							: "-");
		strbuf_addstr(out, " |\n");
	}
}
