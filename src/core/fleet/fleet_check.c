/*
 * A host's verdicts, checked against its runs (fleet-int.h). A host's
 * file comes back from a machine the controller does not control: its
 * "verdicts" and its arms' medians are conclusions anyone can edit, its
 * runs are the measurements they were drawn from. So the merge never
 * takes a host's word for its ratio or verdict: it analyses the host's
 * runs again, exactly as the host's compare did, and counts what those
 * give. A file whose stated verdicts disagree with its own runs (edited,
 * forged, or written by a broken iotrial) is reported as inconsistent,
 * with both, instead of swaying the fleet.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "fleet.h"
#include "fleet-int.h"
#include "../experiment/experiment.h"
#include "../experiment/analyze_doc.h"
#include "../model/model_json.h"
#include "../report/suspect.h"
#include "../stats/analysis.h"
#include "../../util/error.h"
#include "../../util/banned.h"

/*
 * Give each verdict of exp stored without its marks ("suspect": a file
 * of an older iotrial) the ones its file's runs and arms give, as a
 * reader of the file computes them (report/suspect.h).
 */
static void fill_marks(struct experiment_doc *exp)
{
	size_t i;

	for (i = 0; i < exp->nr_verdicts; i++) {
		struct exp_verdict *v = &exp->verdicts[i];
		struct suspect_src s;

		if (v->has_suspect == MODEL_SET)
			continue;
		suspect_src_verdict(exp, v, &s);
		exp_suspects_free(v->suspect, v->nr_suspect);
		v->suspect = NULL;
		v->nr_suspect = 0;
		suspect_doc_reasons(exp, &s, &v->suspect, &v->nr_suspect);
		v->has_suspect = MODEL_SET;
	}
}

int fleet_host_reanalyze(struct experiment_doc *exp, struct experiment_doc *out,
			 struct strbuf *why)
{
	struct analysis_opts o;
	struct strbuf err = STRBUF_INIT;
	int ret;

	experiment_doc_init(out);
	if (!exp->nr_runs)
		return err_set(why, -EINVAL,
			       "its file has no runs, so its verdicts cannot "
			       "be checked");
	fill_marks(exp);
	/* what the host's compare analysed with, as the file says */
	analysis_opts_init(&o);
	/* a "baseline" that names no arm is arm 0, as the merge takes it
	 * (fleet_baseline_label()) */
	if (exp->has_baseline == MODEL_SET && exp->baseline > 0 &&
	    (uint64_t)exp->baseline < exp->nr_arms)
		o.baseline = (unsigned)exp->baseline;
	if (exp->has_alpha == MODEL_SET)
		o.alpha = exp->alpha;
	if (exp->has_equivalence == MODEL_SET)
		o.margin = exp->equivalence;
	experiment_doc_copy(out, exp);
	ret = experiment_analyze_full(out, &o, &err);
	/* a compare run with --strict turned its flagged winners into
	 * "suspect" after the analysis: so does the check */
	if (!ret && exp->has_strict == MODEL_SET && exp->strict)
		suspect_doc_apply_strict(out);
	if (ret)
		err_set(why, ret, "its runs cannot be analysed: %s", err.buf);
	strbuf_release(&err);
	return ret;
}

/* Number i (ratio, ci_low, ci_high, p_adjusted) of verdict v (NULL:
 * none), NaN where it has none. */
static double num_of(const struct exp_verdict *v, int i)
{
	if (!v || !v->cmp)
		return NAN;
	switch (i) {
	case 0:
		return v->cmp->ratio;
	case 1:
		return v->cmp->ci_low;
	case 2:
		return v->cmp->ci_high;
	default:
		return v->cmp->p_adjusted;
	}
}

/* Do the numbers x (the file's claim; NaN: none) and y (NaN: none)
 * differ? */
static bool num_differs(double x, double y)
{
	if (isnan(x))
		return false; /* the file claims nothing here */
	if (!isfinite(x) || !isfinite(y))
		return isfinite(x) != isfinite(y);
	return fabs(x - y) > 1e-6 * fmax(1.0, fabs(y));
}

/* The verdict v names, "no verdict" when none. */
static const char *name_of(const struct exp_verdict *v)
{
	return v && v->verdict && *v->verdict ? v->verdict : "no verdict";
}

/* "faster, ratio 1.002, p 0.812": what verdict v says. */
static void says(const struct exp_verdict *v, struct strbuf *out)
{
	double r = num_of(v, 0), p = num_of(v, 3);

	strbuf_addstr(out, name_of(v));
	if (isfinite(r))
		strbuf_addf(out, ", ratio %.3f", r);
	if (isfinite(p))
		strbuf_addf(out, ", p %.3g", p);
}

bool fleet_verdict_disagrees(const struct exp_verdict *stated,
			     const struct exp_verdict *checked,
			     struct strbuf *what)
{
	bool differs;
	int i;

	if (!stated)
		return false; /* a file that claims no verdict claims nothing */
	differs = strcmp(name_of(stated), name_of(checked)) != 0;
	for (i = 0; i < 4 && !differs; i++)
		differs = num_differs(num_of(stated, i), num_of(checked, i));
	if (differs) {
		strbuf_addstr(what, "its file says ");
		says(stated, what);
		strbuf_addstr(what, ", its runs give ");
		says(checked, what);
	}
	return differs;
}
