/*
 * Freeing and copying the parts of an experiment document that a
 * producer replaces (experiment_doc.h): an arm's summary and drift, the
 * verdicts the analysis makes anew each time it runs, the factors and
 * parameters a single run takes from its run; and a warning a producer
 * adds. Each is released by its table, found from the experiment's, so
 * what decode kept goes too.
 */
#include <stdlib.h>
#include "model-int.h"
#include "env_doc.h"
#include "experiment_doc.h"
#include "../../util/xalloc.h"
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

/* Release the nr elements of array base by their table d (NULL:
 * none), then free the array. */
static void free_array_by(const struct model_desc *d, void *base, size_t nr)
{
	size_t i;

	for (i = 0; base && d && i < nr; i++)
		model_release_obj(d, (char *)base + i * d->size);
	free(base);
}

/* A new deep copy of src by its table d; NULL for NULL. */
static void *dup_by(const struct model_desc *d, const void *src)
{
	void *obj;

	if (!src)
		return NULL;
	obj = xcalloc(1, d->size);
	model_copy_obj(d, obj, src);
	return obj;
}

void exp_verdicts_free(struct exp_verdict *v, size_t nr)
{
	free_array_by(part_desc(&model_experiment_desc,
				offsetof(struct experiment_doc, verdicts)),
		      v, nr);
}

void exp_factors_free(struct exp_factor *f, size_t nr)
{
	free_array_by(part_desc(&model_experiment_desc,
				offsetof(struct experiment_doc, factors)),
		      f, nr);
}

void model_params_free(struct model_param *p, size_t nr)
{
	free_array_by(&model_param_desc, p, nr);
}

struct model_param *model_params_dup(const struct model_param *src, size_t nr)
{
	struct model_param *p = xcalloc(nr ? nr : 1, sizeof(*p));
	size_t i;

	for (i = 0; i < nr; i++)
		model_copy_obj(&model_param_desc, &p[i], &src[i]);
	return p;
}

struct env_doc *env_doc_dup(const struct env_doc *src)
{
	return dup_by(&model_env_desc, src);
}

struct tune_doc *tune_doc_dup(const struct tune_doc *src)
{
	return dup_by(&model_tune_desc, src);
}

struct bisect_doc *bisect_doc_dup(const struct bisect_doc *src)
{
	return dup_by(&model_bisect_desc, src);
}

size_t experiment_doc_add_warning(struct experiment_doc *doc, const char *text)
{
	doc->warnings = xrealloc(doc->warnings, (doc->nr_warnings + 1) *
						    sizeof(*doc->warnings));
	doc->warnings[doc->nr_warnings] = xstrdup(text);
	doc->has_warnings = MODEL_SET;
	return doc->nr_warnings++;
}
