/*
 * The arms of a host's experiment by label, for agreeing (fleet_agree.c)
 * and merging (fleet_merge.c): the hosts' experiments are matched arm by
 * arm through their labels, baseline first.
 */
#include <string.h>
#include "fleet-int.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* The label of arm a, "" when it has none. */
static const char *label_of(const struct exp_arm *a)
{
	return a->label ? a->label : "";
}

const struct exp_arm *fleet_arm_by_label(const struct experiment_doc *exp,
					 const char *label)
{
	size_t i;

	for (i = 0; i < exp->nr_arms; i++)
		if (!strcmp(label_of(&exp->arms[i]), label))
			return &exp->arms[i];
	return NULL;
}

const struct exp_verdict *
fleet_verdict_by_label(const struct experiment_doc *exp, const char *label)
{
	size_t i;

	for (i = 0; exp && i < exp->nr_verdicts; i++)
		if (!strcmp(exp->verdicts[i].label ? exp->verdicts[i].label
						   : "",
			    label))
			return &exp->verdicts[i];
	return NULL;
}

/* The index of exp's baseline arm: its "baseline", or 0 when that is
 * missing or names no arm. */
static size_t baseline_index(const struct experiment_doc *exp)
{
	if (exp->has_baseline == MODEL_SET && exp->baseline >= 0 &&
	    (uint64_t)exp->baseline < exp->nr_arms)
		return (size_t)exp->baseline;
	return 0;
}

const char *fleet_baseline_label(const struct experiment_doc *exp)
{
	if (!exp->nr_arms)
		return "";
	return label_of(&exp->arms[baseline_index(exp)]);
}

size_t fleet_arm_labels(const struct experiment_doc *ref, const char ***out)
{
	size_t i, n = ref->nr_arms, k = 1;
	size_t b = baseline_index(ref);

	*out = xcalloc(n ? n : 1, sizeof(**out));
	(*out)[0] = fleet_baseline_label(ref);
	for (i = 0; i < n; i++)
		if (i != b)
			(*out)[k++] = label_of(&ref->arms[i]);
	return n;
}
