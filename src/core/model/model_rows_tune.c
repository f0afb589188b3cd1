/*
 * The tables of tune's and bisect's answers (tune_doc.h), in the order
 * core/tune/tune_json.c prints their members.
 */
#include <stdlib.h>
#include "model-int.h"
#include "tune_doc.h"
#include "../../util/banned.h"

#define S struct tune_call_doc
static const struct model_row call_rows[] = {
    M(S, "ratio", MK_DBL, ratio, MF_NULL),
    M(S, "ci_low", MK_DBL, ci_low, MF_NULL),
    M(S, "ci_high", MK_DBL, ci_high, MF_NULL),
    M(S, "p", MK_DBL, p, MF_NULL),
    M(S, "pairs", MK_INT, pairs, 0),
    M(S, "call", MK_STR, call, 0),
};
static MODEL_DESC(call_desc, S, call_rows);
#undef S

#define S struct tune_space_doc
static const struct model_row space_rows[] = {
    M(S, "knob", MK_STR, knob, 0),
    MA(S, "values", MK_STR, values, 0, NULL),
    M(S, "current", MK_STR, current, 0),
    M(S, "leader", MK_STR, leader, 0),
    M(S, "finding", MK_STR, finding, 0),
    M(S, "irrelevant_why", MK_STR, irrelevant_why, MF_NULL),
    M(S, "settled", MK_STR, settled, MF_NULL),
};
static MODEL_DESC(space_desc, S, space_rows);
#undef S

#define S struct tune_left_doc
static const struct model_row left_rows[] = {
    M(S, "knob", MK_STR, knob, 0),
    M(S, "why", MK_STR, why, 0),
};
static MODEL_DESC(left_desc, S, left_rows);
#undef S

#define S struct tune_cand_doc
static const struct model_row cand_rows[] = {
    MH(S, "arm", MK_INT, arm, MF_NULL),
    MM(S, "changes", changes, 0, &model_param_desc),
    MH(S, "stage", MK_INT, stage, 0),
    M(S, "state", MK_STR, state, MF_OPT),
    M(S, "why", MK_STR, why, MF_NULL | MF_OPT),
    MH(S, "runs", MK_INT, runs, 0),
    MF(S, call, &call_desc),
};
static MODEL_DESC(cand_desc, S, cand_rows);
#undef S

#define S struct tune_inter_doc
static const struct model_row inter_rows[] = {
    MA(S, "knobs", MK_STR, knobs, 0, NULL),
    MF(S, call, &call_desc),
};
static MODEL_DESC(inter_desc, S, inter_rows);
#undef S

#define S struct tune_doc
static const struct model_row tune_rows[] = {
    M(S, "stopped", MK_STR, stopped, MF_NULL),
    M(S, "equivalence", MK_DBL, equivalence, MF_NULL),
    M(S, "runs", MK_INT, runs, 0),
    M(S, "winner_runs", MK_INT, winner_runs, 0),
    M(S, "grid_arms", MK_INT, grid_arms, 0),
    M(S, "grid_runs", MK_INT, grid_runs, 0),
    MA(S, "space", MK_OBJ, space, 0, &space_desc),
    MA(S, "left_out", MK_OBJ, left_out, 0, &left_desc),
    MA(S, "refused", MK_STR, refused, 0, NULL),
    MA(S, "candidates", MK_OBJ, candidates, 0, &cand_desc),
    MO(S, "winner", MK_PTR, winner, 0, &cand_desc),
    MA(S, "equivalent", MK_INT, equivalent, 0, NULL),
    MO(S, "recommended", MK_PTR, recommended, 0, &cand_desc),
    MA(S, "interactions", MK_OBJ, interactions, 0, &inter_desc),
    M(S, "half_fraction", MK_BOOL, half_fraction, 0),
    M(S, "combined", MK_STR, combined, MF_NULL),
};
MODEL_DESC(model_tune_desc, S, tune_rows);
#undef S

#define S struct tune_setting_doc
static const struct model_row setting_rows[] = {
    M(S, "knob", MK_STR, knob, 0),
    M(S, "from", MK_STR, from, 0),
    M(S, "to", MK_STR, to, 0),
    M(S, "role", MK_STR, role, 0),
};
static MODEL_DESC(setting_desc, S, setting_rows);
#undef S

#define S struct tune_step_doc
static const struct model_row step_rows[] = {
    MH(S, "arm", MK_INT, arm, MF_NULL),
    MM(S, "changes", changes, 0, &model_param_desc),
    M(S, "carries", MK_STR, carries, 0),
    M(S, "blocks", MK_INT, blocks, 0),
    MO(S, "vs_from", MK_PTR, vs_from, 0, &call_desc),
    MO(S, "vs_to", MK_PTR, vs_to, 0, &call_desc),
};
static MODEL_DESC(step_desc, S, step_rows);
#undef S

#define S struct tune_minimal_doc
static const struct model_row minimal_rows[] = {
    MA(S, "knobs", MK_STR, knobs, 0, NULL),
    MH(S, "arm", MK_INT, arm, MF_NULL),
    MF(S, call, &call_desc),
    M(S, "share", MK_DBL, share, MF_NULL),
    M(S, "share_low", MK_DBL, share_low, MF_NULL),
    M(S, "share_high", MK_DBL, share_high, MF_NULL),
};
static MODEL_DESC(minimal_desc, S, minimal_rows);
#undef S

#define S struct bisect_doc
static const struct model_row bisect_rows[] = {
    M(S, "stopped", MK_STR, stopped, MF_NULL),
    M(S, "equivalence", MK_DBL, equivalence, MF_NULL),
    M(S, "runs", MK_INT, runs, 0),
    M(S, "nr_steps", MK_INT, steps_done, 0),
    M(S, "share_margin", MK_DBL, share_margin, MF_NULL),
    MA(S, "settings", MK_OBJ, settings, 0, &setting_desc),
    MO(S, "to_vs_from", MK_PTR, to_vs_from, 0, &call_desc),
    MA(S, "steps", MK_OBJ, steps, 0, &step_desc),
    MO(S, "minimal", MK_PTR, minimal, 0, &minimal_desc),
};
MODEL_DESC(model_bisect_desc, S, bisect_rows);
#undef S

void tune_doc_release(struct tune_doc *t)
{
	if (t)
		model_release_obj(&model_tune_desc, t);
}

void tune_doc_free(struct tune_doc *t)
{
	tune_doc_release(t);
	free(t);
}

void bisect_doc_release(struct bisect_doc *b)
{
	if (b)
		model_release_obj(&model_bisect_desc, b);
}

void bisect_doc_free(struct bisect_doc *b)
{
	bisect_doc_release(b);
	free(b);
}
