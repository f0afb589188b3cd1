/*
 * Freeing the parts of an experiment document that the analysis makes
 * anew each time it runs (experiment_doc.h): an arm's summary and
 * drift, the verdicts. Each is released by its table, found from the
 * experiment's, so what decode kept of an older analysis goes too.
 */
#include <stdlib.h>
#include "model-int.h"
#include "experiment_doc.h"
#include "../../util/banned.h"

/* The table of the part at byte offset off of a struct of table d. */
static const struct model_desc *part_desc(const struct model_desc *d,
					  size_t off)
{
	size_t i;

	for (i = 0; i < d->nr_rows; i++)
		if (d->rows[i].off == off && d->rows[i].sub)
			return d->rows[i].sub;
	return NULL;
}

/* The table of an arm ("arms[]"). */
static const struct model_desc *arm_desc(void)
{
	return part_desc(&model_experiment_desc,
			 offsetof(struct experiment_doc, arms));
}

/* Release obj by the table d (NULL: none), then free it. */
static void free_by(const struct model_desc *d, void *obj)
{
	if (obj && d)
		model_release_obj(d, obj);
	free(obj);
}

void exp_arm_summary_free(struct exp_arm_summary *s)
{
	free_by(part_desc(arm_desc(), offsetof(struct exp_arm, summary)), s);
}

void exp_arm_drift_free(struct exp_arm_drift *d)
{
	free_by(part_desc(arm_desc(), offsetof(struct exp_arm, drift)), d);
}

void exp_verdicts_free(struct exp_verdict *v, size_t nr)
{
	const struct model_desc *d = part_desc(
	    &model_experiment_desc, offsetof(struct experiment_doc, verdicts));
	size_t i;

	for (i = 0; v && d && i < nr; i++)
		model_release_obj(d, &v[i]);
	free(v);
}
