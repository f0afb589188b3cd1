/*
 * The whole analysis of an experiment document (analyze_doc.h): the
 * verdicts, then the stages that read them, each putting what it makes
 * where the engine's tree has always had it, so that a document
 * analysed here prints as one analysed as a tree does.
 */
#include "analyze_doc.h"
#include "factorial.h"
#include "regime.h"
#include "scaling.h"
#include "../model/model_json.h"
#include "../report/suspect.h"
#include "../../util/banned.h"

int experiment_analyze_full(struct experiment_doc *doc,
			    const struct analysis_opts *o, struct strbuf *err)
{
	struct exp_analysis an = {0};
	int ret;

	ret = experiment_analyze_doc(doc, o, &an, err);
	if (ret)
		goto out;
	/* a member new to doc goes after those it holds */
	experiment_doc_order_last(doc, "verdicts");
	experiment_doc_order_last(doc, "baseline");
	regime_analyze(doc);
	experiment_doc_order_last(doc, "regimes");
	ret = factorial_analyze(doc, an.in, an.nr_arms, &an.opts, err);
	/* replaced, and moved after everything else */
	experiment_doc_move_last(doc, "effects");
	experiment_doc_move_last(doc, "interactions");
	if (!ret) {
		scaling_analyze(doc);
		experiment_doc_move_last(doc, "scaling");
	}
	/* verdicts, effects and scaling rows, all marked alike (also when
	 * the factors failed) */
	suspect_doc_mark(doc);
out:
	exp_analysis_release(&an);
	return ret;
}
