/*
 * The one-line texts the results store keeps beside each experiment,
 * for `iotrial log` to list without opening the JSON: the arm labels and
 * what the experiment concluded. They are rendered once, when the
 * experiment is saved, so they are report text like any other.
 */
#include <math.h>
#include "fmt.h"
#include "report.h"
#include "report_doc.h"
#include "suspect.h"
#include "../../util/banned.h"

void report_doc_arm_labels(const struct experiment_doc *doc, struct strbuf *out)
{
	size_t i;

	for (i = 0; i < doc->nr_arms; i++)
		strbuf_addf(out, "%s%s", i ? ", " : "",
			    rd_s(doc->arms[i].label));
}

void report_doc_verdict_summary(const struct experiment_doc *doc,
				struct strbuf *out)
{
	size_t i, shown = 0;

	strbuf_addf(out, "%zu arm%s: ", doc->nr_arms,
		    doc->nr_arms == 1 ? "" : "s");
	for (i = 0; i < doc->nr_verdicts; i++) {
		const struct exp_verdict *v = &doc->verdicts[i];
		struct report_ratio r;
		struct suspect_src s;
		bool suspect;

		report_verdict_ratio(v, &r); /* as the table's row */
		suspect_src_verdict(doc, v, &s);
		suspect = suspect_doc_is(doc, &s);
		strbuf_addf(out, "%s%s %s%s", shown++ ? ", " : "",
			    rd_s(v->label), rd_s(v->verdict),
			    suspect ? "*" : "");
		if (isfinite(r.ratio))
			strbuf_addf(out, " %.2fx", r.ratio);
		if (suspect) {
			strbuf_addstr(out, " (suspect: ");
			suspect_doc_kinds(doc, &s, out);
			strbuf_addch(out, ')');
		}
	}
	if (!shown && doc->nr_arms > 1)
		strbuf_addstr(out, "no verdicts");
	if (!shown && doc->nr_arms == 1) {
		const struct exp_arm *a = &doc->arms[0];
		double n = a->summary ? (double)a->summary->n : 0;
		double med = ARM_NUM(a, median);

		strbuf_addf(out, "%.0f run%s", n, n == 1 ? "" : "s");
		if (isfinite(med)) {
			strbuf_addstr(out, ", median ");
			report_fmt_metric(out, med);
			strbuf_addf(out, " %s",
				    doc->metric ? rd_s(doc->metric->name) : "");
		}
	}
	/* a metric where less is better (latency, time) says so: a ratio
	 * of 2.0x means twice as slow there */
	if (doc->metric && !doc->metric->higher_is_better)
		strbuf_addstr(out, " (lower is better)");
}
