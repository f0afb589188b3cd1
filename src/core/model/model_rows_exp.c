/*
 * The tables of an experiment object (experiment_doc.h), one row per
 * member in the order compare's writers print them
 * (experiment/experiment.c, stats/analysis.c, stats/effects.c,
 * experiment/scaling.c, experiment/regime.c, experiment/budget.c,
 * experiment/metrics.c, report/suspect.c); and the experiment
 * document's entry points. Other paths (an import, a fleet merge,
 * observe) print some members in another order, which decode keeps.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "model-int.h"
#include "model_json.h"
#include "../../util/error.h"
#include "../../util/banned.h"

#define S struct exp_metric
static const struct model_row metric_rows[] = {
    M(S, "name", MK_STR, name, 0),
    M(S, "higher_is_better", MK_BOOL, higher_is_better, 0),
    M(S, "unit", MK_STR, unit, MF_OPT),
    MH(S, "shown", MK_BOOL, shown, 0),
};
static MODEL_DESC(metric_desc, S, metric_rows);
#undef S

#define S struct exp_factor
static const struct model_row factor_rows[] = {
    M(S, "name", MK_STR, name, 0),
    M(S, "kind", MK_STR, kind, MF_OPT),
    MA(S, "values", MK_STR, values, 0, NULL),
    M(S, "canonical", MK_STR, canonical, MF_OPT),
    M(S, "scope", MK_STR, scope, MF_OPT),
    M(S, "object", MK_STR, object, MF_OPT),
};
static MODEL_DESC(factor_desc, S, factor_rows);
#undef S

#define S struct exp_arm_summary
static const struct model_row summary_rows[] = {
    M(S, "n", MK_INT, n, 0),
    M(S, "median", MK_DBL, median, MF_NULL),
    M(S, "ci_low", MK_DBL, ci_low, MF_NULL),
    M(S, "ci_high", MK_DBL, ci_high, MF_NULL),
    M(S, "ci_coverage", MK_DBL, ci_coverage, MF_NULL),
    M(S, "min", MK_DBL, min, MF_NULL),
    M(S, "max", MK_DBL, max, MF_NULL),
    M(S, "cv", MK_DBL, cv, MF_NULL),
    M(S, "outliers", MK_INT, outliers, 0),
};
static MODEL_DESC(summary_desc, S, summary_rows);
#undef S

#define S struct exp_arm_drift
static const struct model_row drift_rows[] = {
    M(S, "drift_rho", MK_DBL, drift_rho, MF_NULL),
    M(S, "drift_p", MK_DBL, drift_p, MF_NULL),
    M(S, "drifting", MK_BOOL, drifting, 0),
};
static MODEL_DESC(drift_desc, S, drift_rows);
#undef S

#define S struct exp_arm
static const struct model_row arm_rows[] = {
    M(S, "arm", MK_INT, arm, 0),
    M(S, "label", MK_STR, label, 0),
    MMH(S, "settings", settings, 0, &model_pair_desc),
    MMH(S, "asked", asked, 0, &model_pair_desc),
    MF(S, summary, &summary_desc),
    MF(S, drift, &drift_desc),
    MMH(S, "metrics", metrics, 0, &model_num_desc),
};
static MODEL_DESC(arm_desc, S, arm_rows);
#undef S

#define S struct exp_run
static const struct model_row run_rows[] = {
    M(S, "arm", MK_INT, arm, 0),
    MH(S, "block", MK_INT, block, 0),
    M(S, "seq", MK_INT, seq, 0),
    M(S, "metric", MK_DBL, metric, MF_NULL),
    MH(S, "place", MK_INT, place, 0),
    {.key = "run",
     .kind = MK_PTR,
     .flags = MF_OPT | MF_FIO,
     .off = offsetof(S, run),
     .has = -1,
     .nr = -1,
     .alt = offsetof(S, run_fio),
     .sub = &model_run_desc},
    M(S, "source", MK_STR, source, MF_OPT),
    M(S, "host", MK_STR, host, MF_OPT),
    MMH(S, "covariates", covariates, 0, &model_num_desc),
};
static MODEL_DESC(run_entry_desc, S, run_rows);
#undef S

#define S struct exp_suspect
static const struct model_row suspect_rows[] = {
    M(S, "arm", MK_STR, arm, 0),   M(S, "label", MK_STR, label, 0),
    M(S, "kind", MK_STR, kind, 0), M(S, "runs", MK_INT, runs, 0),
    M(S, "of", MK_INT, of, 0),
};
MODEL_DESC(model_suspect_desc, S, suspect_rows);
#undef S

#define S struct exp_comparison
static const struct model_row cmp_rows[] = {
    M(S, "ratio", MK_DBL, ratio, MF_NULL),
    M(S, "ci_low", MK_DBL, ci_low, MF_NULL),
    M(S, "ci_high", MK_DBL, ci_high, MF_NULL),
    MH(S, "ci_coverage", MK_DBL, ci_coverage, MF_NULL),
    M(S, "p", MK_DBL, p, MF_NULL),
    M(S, "p_adjusted", MK_DBL, p_adjusted, MF_NULL),
    M(S, "test", MK_STR, test, 0),
};
static MODEL_DESC(cmp_desc, S, cmp_rows);
#undef S

#define S struct exp_adjusted
static const struct model_row adjusted_rows[] = {
    M(S, "ratio", MK_DBL, ratio, MF_NULL),
    M(S, "ci_low", MK_DBL, ci_low, MF_NULL),
    M(S, "ci_high", MK_DBL, ci_high, MF_NULL),
    M(S, "ci_coverage", MK_DBL, ci_coverage, MF_NULL),
    M(S, "p", MK_DBL, p, MF_NULL),
    M(S, "used", MK_BOOL, used, 0),
    M(S, "why", MK_STR, why, 0),
    MA(S, "covariates", MK_STR, covariates, 0, NULL),
    M(S, "r2", MK_DBL, r2, MF_NULL),
};
static MODEL_DESC(adjusted_desc, S, adjusted_rows);
#undef S

#define S struct exp_verdict
static const struct model_row verdict_rows[] = {
    M(S, "arm", MK_INT, arm, 0),
    M(S, "label", MK_STR, label, 0),
    M(S, "baseline", MK_STR, baseline, 0),
    MF(S, cmp, &cmp_desc),
    MO(S, "adjusted", MK_PTR, adjusted, MF_OPT, &adjusted_desc),
    M(S, "verdict_from", MK_STR, verdict_from, MF_OPT),
    M(S, "verdict", MK_STR, verdict, 0),
    MAH(S, "suspect", MK_OBJ, suspect, 0, &model_suspect_desc),
    MMH(S, "hosts", hosts, 0, &model_count_desc),
    M(S, "agreement", MK_STR, agreement, MF_OPT),
    MH(S, "host_ratio_min", MK_DBL, host_ratio_min, 0),
    MH(S, "host_ratio_max", MK_DBL, host_ratio_max, 0),
    M(S, "pooled_verdict", MK_STR, pooled_verdict, MF_OPT),
    M(S, "estimate", MK_STR, estimate, MF_OPT),
};
static MODEL_DESC(verdict_desc, S, verdict_rows);
#undef S

#define S struct exp_effect
static const struct model_row effect_rows[] = {
    M(S, "factor", MK_STR, factor, 0),
    M(S, "level", MK_STR, level, 0),
    M(S, "baseline_level", MK_STR, baseline_level, 0),
    MM(S, "within", within, 0, &model_pair_desc),
    M(S, "arm", MK_INT, arm, 0),
    M(S, "baseline_arm", MK_INT, baseline_arm, 0),
    MF(S, cmp, &cmp_desc),
    M(S, "verdict", MK_STR, verdict, 0),
    M(S, "n", MK_INT, n, 0),
    MAH(S, "suspect", MK_OBJ, suspect, 0, &model_suspect_desc),
};
static MODEL_DESC(effect_desc, S, effect_rows);
#undef S

#define S struct exp_interaction
static const struct model_row interaction_rows[] = {
    M(S, "factor", MK_STR, factor, 0),
    M(S, "level", MK_STR, level, 0),
    M(S, "baseline_level", MK_STR, baseline_level, 0),
    M(S, "by", MK_STR, by, 0),
    M(S, "by_level", MK_STR, by_level, 0),
    M(S, "by_baseline_level", MK_STR, by_baseline_level, 0),
    MM(S, "within", within, 0, &model_pair_desc),
    M(S, "ratio_at_baseline", MK_DBL, ratio_at_baseline, MF_NULL),
    M(S, "ratio_at_level", MK_DBL, ratio_at_level, MF_NULL),
    MAH(S, "arms", MK_INT, arms, 0, NULL),
    MF(S, cmp, &cmp_desc),
    M(S, "verdict", MK_STR, verdict, 0),
    M(S, "n", MK_INT, n, 0),
    MAH(S, "suspect", MK_OBJ, suspect, 0, &model_suspect_desc),
};
static MODEL_DESC(interaction_desc, S, interaction_rows);
#undef S

void exp_effects_free(struct exp_effect *e, size_t nr)
{
	size_t i;

	for (i = 0; e && i < nr; i++)
		model_release_obj(&effect_desc, &e[i]);
	free(e);
}

void exp_interactions_free(struct exp_interaction *x, size_t nr)
{
	size_t i;

	for (i = 0; x && i < nr; i++)
		model_release_obj(&interaction_desc, &x[i]);
	free(x);
}

#define S struct exp_scaling_row
static const struct model_row scaling_rows[] = {
    M(S, "factor", MK_STR, factor, 0),
    M(S, "value", MK_STR, value, 0),
    MM(S, "within", within, 0, &model_pair_desc),
    M(S, "arm", MK_INT, arm, 0),
    M(S, "baseline_arm", MK_INT, baseline_arm, 0),
    MH(S, "median", MK_DBL, median, MF_NULL),
    MH(S, "ci_low", MK_DBL, ci_low, MF_NULL),
    MH(S, "ci_high", MK_DBL, ci_high, MF_NULL),
    MH(S, "n", MK_INT, n, 0),
    M(S, "ratio_to_first", MK_DBL, ratio_to_first, MF_NULL),
    MAH(S, "suspect", MK_OBJ, suspect, 0, &model_suspect_desc),
};
static MODEL_DESC(scaling_desc, S, scaling_rows);
#undef S

void exp_scaling_free(struct exp_scaling_row *rows, size_t nr)
{
	size_t i;

	for (i = 0; rows && i < nr; i++)
		model_release_obj(&scaling_desc, &rows[i]);
	free(rows);
}

#define S struct exp_regime_value
static const struct model_row regime_value_rows[] = {
    M(S, "value", MK_STR, value, 0),
    M(S, "runs", MK_INT, runs, 0),
    M(S, "why", MK_STR, why, MF_OPT),
};
static MODEL_DESC(regime_value_desc, S, regime_value_rows);
#undef S

#define S struct exp_regime
static const struct model_row regime_rows[] = {
    M(S, "factor", MK_STR, factor, 0),
    M(S, "state", MK_STR, state, 0),
    M(S, "why", MK_STR, why, MF_OPT),
    M(S, "canonical", MK_STR, canonical, 0),
    M(S, "object", MK_STR, object, 0),
    M(S, "runs", MK_INT, runs, 0),
    M(S, "not_reached", MK_INT, not_reached, 0),
    MA(S, "values", MK_OBJ, values, 0, &regime_value_desc),
};
static MODEL_DESC(regime_desc, S, regime_rows);
#undef S

void exp_regimes_free(struct exp_regime *regimes, size_t nr)
{
	size_t i;

	for (i = 0; regimes && i < nr; i++)
		model_release_obj(&regime_desc, &regimes[i]);
	free(regimes);
}

#define S struct exp_advice
static const struct model_row advice_rows[] = {
    M(S, "stopped", MK_STR, stopped, 0),
    M(S, "blocks", MK_INT, blocks, 0),
    M(S, "precision", MK_DBL, precision, 0),
    M(S, "arm", MK_STR, arm, MF_OPT),
    MH(S, "log_ratio_sd", MK_DBL, log_ratio_sd, 0),
    MH(S, "halfwidth", MK_DBL, halfwidth, 0),
    M(S, "blocks_needed", MK_INT, blocks_needed, 0),
    M(S, "more_blocks", MK_INT, more_blocks, 0),
    M(S, "min_blocks", MK_INT, min_blocks, 0),
    MH(S, "block_s", MK_DBL, block_s, 0),
    MH(S, "budget_s", MK_DBL, budget_s, 0),
    M(S, "aa", MK_BOOL, aa, 0),
};
static MODEL_DESC(advice_desc, S, advice_rows);
#undef S

/* Ours, and an experiment. */
static int exp_check(const void *obj, const char *path, struct strbuf *err)
{
	const struct experiment_doc *e = obj;
	char buf[48];

	if (e->type && strcmp(e->type, "experiment"))
		return err_set(err, -EINVAL,
			       "type: '%s'; expected 'experiment'",
			       model_printable(e->type, buf, sizeof(buf)));
	return model_check_schema(e->schema, path, err);
}

#define S struct experiment_doc
static const struct model_row exp_rows[] = {
    M(S, "schema", MK_STR, schema, MF_REQ),
    M(S, "type", MK_STR, type, MF_REQ),
    M(S, "kind", MK_STR, kind, MF_OPT),
    M(S, "id", MK_STR, id, MF_OPT),
    M(S, "created", MK_STR, created, MF_OPT),
    M(S, "workload", MK_STR, workload, 0),
    M(S, "target", MK_STR, target, 0),
    MMH(S, "params", params, 0, &model_param_desc),
    M(S, "seed", MK_STR, seed, 0),
    M(S, "command", MK_STR, command, MF_OPT),
    MO(S, "metric", MK_PTR, metric, 0, &metric_desc),
    MAH(S, "factors", MK_OBJ, factors, 0, &factor_desc),
    MH(S, "baseline", MK_INT, baseline, 0),
    MA(S, "arms", MK_OBJ, arms, 0, &arm_desc),
    MA(S, "runs", MK_OBJ, runs, 0, &run_entry_desc),
    MAH(S, "windows", MK_OBJ, windows, 0, &model_window_desc),
    M(S, "runs_mode", MK_STR, runs_mode, 0),
    MH(S, "precision", MK_DBL, precision, 0),
    MH(S, "equivalence", MK_DBL, equivalence, 0),
    MH(S, "alpha", MK_DBL, alpha, 0),
    MH(S, "drop_caches", MK_BOOL, drop_caches, 0),
    MH(S, "duet", MK_INT, duet, 0),
    MAH(S, "warnings", MK_STR, warnings, 0, NULL),
    M(S, "load_unit", MK_STR, load_unit, MF_OPT),
    MAH(S, "verdicts", MK_OBJ, verdicts, 0, &verdict_desc),
    MAH(S, "regimes", MK_OBJ, regimes, 0, &regime_desc),
    M(S, "blocks", MK_INT, blocks, 0),
    MH(S, "block_s", MK_DBL, block_s, 0),
    M(S, "stopped", MK_STR, stopped, 0),
    MO(S, "abort", MK_PTR, abort, MF_OPT, &model_abort_desc),
    MO(S, "switchback", MK_PTR, switchback, MF_OPT, &model_switchback_desc),
    MAH(S, "effects", MK_OBJ, effects, 0, &effect_desc),
    MAH(S, "interactions", MK_OBJ, interactions, 0, &interaction_desc),
    MAH(S, "scaling", MK_OBJ, scaling, 0, &scaling_desc),
    MO(S, "advice", MK_PTR, advice, MF_OPT, &advice_desc),
    MAH(S, "metrics", MK_OBJ, metrics, 0, &metric_desc),
    MO(S, "env", MK_PTR, env, MF_OPT, &model_env_desc),
    MO(S, "fleet", MK_PTR, fleet, MF_OPT, &model_fleet_desc),
    MO(S, "tune", MK_PTR, tune, MF_OPT, &model_tune_desc),
    MO(S, "bisect", MK_PTR, bisect, MF_OPT, &model_bisect_desc),
    MH(S, "strict", MK_BOOL, strict, 0),
    M(S, "origin", MK_STR, origin, MF_OPT),
};
const struct model_desc model_experiment_desc = {
    .name = "struct experiment_doc",
    .size = sizeof(S),
    .keep = offsetof(S, keep),
    .key = -1,
    .rows = exp_rows,
    .nr_rows = sizeof(exp_rows) / sizeof(exp_rows[0]),
    .check = exp_check,
};
#undef S

void experiment_doc_init(struct experiment_doc *doc)
{
	memset(doc, 0, sizeof(*doc));
}

void experiment_doc_release(struct experiment_doc *doc)
{
	if (doc)
		model_release_obj(&model_experiment_desc, doc);
}

void experiment_doc_free(struct experiment_doc *doc)
{
	experiment_doc_release(doc);
	free(doc);
}

void experiment_doc_copy(struct experiment_doc *dst,
			 const struct experiment_doc *src)
{
	model_copy_obj(&model_experiment_desc, dst, src);
}

bool exp_run_encode_run(const struct exp_run *r, unsigned flags,
			struct strbuf *out)
{
	if (r->run) {
		model_encode_obj(&model_run_desc, r->run, flags, out);
		return true;
	}
	if (!r->run_fio)
		return false;
	/* a fio report as the entry's "run" prints it */
	model_encode_raw(r->run_fio, flags, out);
	return true;
}

int experiment_doc_printable(struct experiment_doc *doc, struct strbuf *err)
{
	struct strbuf text = STRBUF_INIT;
	struct experiment_doc out;
	int ret;

	/* through the codec, whose decode makes it so as for a file */
	model_encode_obj(&model_experiment_desc, doc, MODEL_ENCODE_PLAIN,
			 &text);
	ret = model_decode_text(&model_experiment_desc, &out, text.buf,
				text.len, MODEL_DECODE_PRINTABLE, err);
	if (!ret) {
		experiment_doc_release(doc);
		*doc = out;
	} else {
		experiment_doc_release(&out);
	}
	strbuf_release(&text);
	return ret;
}

int experiment_doc_decode(const char *text, size_t len,
			  struct experiment_doc *out, unsigned flags,
			  struct strbuf *err)
{
	return model_decode_text(&model_experiment_desc, out, text, len, flags,
				 err);
}

void experiment_doc_encode(const struct experiment_doc *doc, unsigned flags,
			   struct strbuf *out)
{
	model_encode_obj(&model_experiment_desc, doc, flags, out);
}

bool experiment_doc_equal(const struct experiment_doc *a,
			  const struct experiment_doc *b)
{
	return model_equal_obj(&model_experiment_desc, a, b);
}

size_t experiment_doc_unknown(const struct experiment_doc *doc)
{
	return model_unknown_count(&model_experiment_desc, doc);
}
