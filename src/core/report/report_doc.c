/*
 * Reading an experiment document for the renderers (report_doc.h).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "report_doc.h"
#include "../model/experiment_doc.h"
#include "../../util/banned.h"

const struct run_doc *report_single_run(const struct experiment_doc *doc)
{
	if (!doc->runs_mode || strcmp(doc->runs_mode, "run") ||
	    doc->nr_runs != 1)
		return NULL;
	return doc->runs[0].run;
}

const struct env_doc *report_env(const struct experiment_doc *doc)
{
	if (doc->env)
		return doc->env;
	return doc->nr_runs && doc->runs[0].run ? doc->runs[0].run->env : NULL;
}

const struct exp_arm *report_arm(const struct experiment_doc *doc, int64_t arm)
{
	size_t i;

	for (i = 0; i < doc->nr_arms; i++)
		if (doc->arms[i].arm == arm)
			return &doc->arms[i];
	return NULL;
}

const struct exp_verdict *report_verdict(const struct experiment_doc *doc,
					 int64_t arm)
{
	size_t i;

	for (i = 0; i < doc->nr_verdicts; i++)
		if (doc->verdicts[i].arm == arm)
			return &doc->verdicts[i];
	return NULL;
}

const char *report_arm_label(const struct experiment_doc *doc, int64_t arm)
{
	const struct exp_arm *a = report_arm(doc, arm);

	return a ? rd_s(a->label) : "";
}

const char *report_origin(const struct experiment_doc *doc)
{
	if (!doc->origin || !strcmp(doc->origin, EXP_ORIGIN_LOCAL))
		return EXP_ORIGIN_LOCAL;
	if (!strcmp(doc->origin, EXP_ORIGIN_FLEET))
		return EXP_ORIGIN_FLEET;
	return EXP_ORIGIN_IMPORTED;
}

bool report_higher(const struct experiment_doc *doc)
{
	return !doc->metric || doc->metric->higher_is_better;
}

const char *report_pair(const struct model_pair *p, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(p[i].name, name))
			return p[i].value;
	return NULL;
}

void report_pairs(struct strbuf *out, const struct model_pair *p, size_t n,
		  const char *sep)
{
	size_t i;

	for (i = 0; i < n; i++)
		strbuf_addf(out, "%s%s=%s", i ? sep : "", p[i].name,
			    rd_s(p[i].value));
}

void report_value(struct strbuf *out, const struct model_value *v)
{
	size_t from = out->len;

	switch (v->type) {
	case MODEL_V_STR:
		strbuf_addstr(out, rd_s(v->s));
		break;
	case MODEL_V_BOOL:
		strbuf_addstr(out, v->b ? "true" : "false");
		break;
	case MODEL_V_INT:
		strbuf_addf(out, "%" PRId64, v->i);
		break;
	case MODEL_V_UINT:
		strbuf_addf(out, "%" PRIu64, v->u);
		break;
	case MODEL_V_DOUBLE:
		/* as json-c prints a double: 17 digits, ".0" when whole */
		strbuf_addf(out, "%.17g", v->d);
		if (!strpbrk(out->buf + from, ".eni"))
			strbuf_addstr(out, ".0");
		break;
	default:
		strbuf_addstr(out, "null");
	}
}

void report_add_p(struct strbuf *out, double p)
{
	strbuf_addf(out, p < 0.001 ? "%.1e" : "%.3f", p);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double report_median(double *v, size_t n)
{
	if (!n)
		return NAN;
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

bool report_verdict_ratio(const struct exp_verdict *v, struct report_ratio *out)
{
	const struct exp_adjusted *a = v->adjusted;

	if (a && v->verdict_from && !strcmp(v->verdict_from, "adjusted") &&
	    isfinite(a->ratio)) {
		*out = (struct report_ratio){a->ratio, a->ci_low, a->ci_high,
					     a->p};
		return true;
	}
	*out = (struct report_ratio){CMP_NUM(v, ratio), CMP_NUM(v, ci_low),
				     CMP_NUM(v, ci_high), CMP_NUM(v, p)};
	return false;
}
