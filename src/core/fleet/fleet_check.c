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
#include <string.h>
#include "fleet.h"
#include "fleet-int.h"
#include "../experiment/experiment.h"
#include "../report/expjson.h"
#include "../report/suspect.h"
#include "../stats/analysis.h"
#include "../../util/error.h"
#include "../../util/banned.h"

int fleet_host_reanalyze(struct json_object *exp, struct json_object **out,
			 struct strbuf *why)
{
	struct json_object *copy = NULL, *runs, *arms, *b;
	struct analysis_opts o;
	struct strbuf err = STRBUF_INIT;
	int ret;

	*out = NULL;
	runs = expjson_get_type(exp, "runs", json_type_array);
	if (!runs || !json_object_array_length(runs))
		return err_set(why, -EINVAL,
			       "its file has no runs, so its verdicts cannot "
			       "be checked");
	if (json_object_deep_copy(exp, &copy, NULL) || !copy)
		return err_set(why, -ENOMEM, "cannot copy its experiment");
	/* what the host's compare analysed with, as the file says */
	analysis_opts_init(&o);
	/* a "baseline" that names no arm is arm 0, as the merge takes it
	 * (fleet_baseline_label()) */
	arms = expjson_get_type(copy, "arms", json_type_array);
	if ((b = expjson_get(copy, "baseline")) && arms &&
	    json_object_get_int(b) > 0 &&
	    (size_t)json_object_get_int(b) < json_object_array_length(arms))
		o.baseline = (unsigned)json_object_get_int(b);
	if ((b = expjson_get(copy, "alpha")))
		o.alpha = json_object_get_double(b);
	if ((b = expjson_get(copy, "equivalence")))
		o.margin = json_object_get_double(b);
	ret = experiment_analyze_json(copy, &o, &err);
	/* a compare run with --strict turned its flagged winners into
	 * "suspect" after the analysis: so does the check */
	if (!ret && json_object_get_boolean(expjson_get(exp, "strict")))
		suspect_apply_strict(copy);
	if (ret) {
		err_set(why, ret, "its runs cannot be analysed: %s", err.buf);
		json_object_put(copy);
	} else {
		*out = copy;
	}
	strbuf_release(&err);
	return ret;
}

/* Do the numbers a and b (either may be missing) differ? */
static bool num_differs(struct json_object *a, struct json_object *b)
{
	double x, y;

	if (!a || (!json_object_is_type(a, json_type_double) &&
		   !json_object_is_type(a, json_type_int)))
		return false; /* the file claims nothing here */
	x = json_object_get_double(a);
	if (!b)
		return isfinite(x);
	y = json_object_get_double(b);
	if (!isfinite(x) || !isfinite(y))
		return isfinite(x) != isfinite(y);
	return fabs(x - y) > 1e-6 * fmax(1.0, fabs(y));
}

/* "faster, ratio 1.002, p 0.812": what verdict v says. */
static void says(struct json_object *v, struct strbuf *out)
{
	double r = expjson_num(v, "ratio"), p = expjson_num(v, "p_adjusted");

	strbuf_addstr(out, *expjson_str(v, "verdict")
			       ? expjson_str(v, "verdict")
			       : "no verdict");
	if (isfinite(r))
		strbuf_addf(out, ", ratio %.3f", r);
	if (isfinite(p))
		strbuf_addf(out, ", p %.3g", p);
}

bool fleet_verdict_disagrees(struct json_object *stated,
			     struct json_object *checked, struct strbuf *what)
{
	static const char *const keys[] = {"ratio", "ci_low", "ci_high",
					   "p_adjusted"};
	const char *sv, *cv;
	bool differs = false;
	size_t i;

	if (!stated)
		return false; /* a file that claims no verdict claims nothing */
	sv = expjson_str(stated, "verdict");
	cv = checked ? expjson_str(checked, "verdict") : "no verdict";
	if (strcmp(*sv ? sv : "no verdict", *cv ? cv : "no verdict"))
		differs = true;
	for (i = 0; i < sizeof(keys) / sizeof(*keys) && !differs; i++)
		differs = num_differs(expjson_get(stated, keys[i]),
				      expjson_get(checked, keys[i]));
	if (differs) {
		strbuf_addstr(what, "its file says ");
		says(stated, what);
		strbuf_addstr(what, ", its runs give ");
		if (checked)
			says(checked, what);
		else
			strbuf_addstr(what, "no verdict");
	}
	return differs;
}
