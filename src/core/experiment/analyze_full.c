/*
 * The whole analysis of an experiment document, as the experiment loop
 * runs it after each block and at the end, and as a single run, an
 * import, a diff and a fleet merge run it once: the arms' summaries and
 * the verdicts (analyze_doc.c), the regimes no run reached (regime.c),
 * the factors' effects and interactions (factorial.c), the scaling rows
 * (scaling.c), and the marks of what may not be trusted
 * (report/suspect.h).
 */
#include "analyze_doc.h"
#include "factorial.h"
#include "regime.h"
#include "scaling.h"
#include "../report/suspect.h"
#include "../../util/banned.h"

int experiment_analyze_full(struct experiment_doc *doc,
			    const struct analysis_opts *o, struct strbuf *err)
{
	struct exp_analysis an = {0};
	int ret = experiment_analyze_doc(doc, o, &an, err);

	if (ret)
		goto out;
	regime_analyze(doc);
	ret = factorial_analyze(doc, an.in, an.nr_arms, &an.opts, err);
	if (!ret)
		scaling_analyze(doc);
	/* verdicts, effects and scaling rows, all marked alike (also when
	 * the factors failed: what they left is kept) */
	suspect_doc_mark(doc);
out:
	exp_analysis_release(&an);
	return ret;
}
