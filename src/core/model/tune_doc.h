/*
 * The answers of `tune` and `bisect` in their experiment documents
 * (kind "tune": the member "tune"; kind "bisect": "bisect";
 * core/tune/tune_json.c writes them today). The candidates are the
 * experiment's arms and their runs its runs; these parts hold what the
 * search found. docs/schema/experiment.schema.json describes them.
 */
#ifndef IOTRIAL_TUNE_DOC_H
#define IOTRIAL_TUNE_DOC_H

#include "model.h"

/* A judgement of one candidate against another (core/tune/judge.h),
 * its members written in the object that holds it. */
struct tune_call_doc {
	double ratio; /* the metric's ratio; NaN: null */
	double ci_low;
	double ci_high;
	double p;
	int64_t pairs;
	char *call; /* "worse", "better", "equivalent", "cannot tell" */
	struct model_kept *keep;
};

/* One knob of a tune's space ("tune.space[]"). */
struct tune_space_doc {
	char *knob;
	char **values;
	size_t nr_values;
	char *current, *leader;
	char *finding;	      /* "matters", "no difference", ... */
	char *irrelevant_why; /* or NULL */
	char *settled;	      /* why its race ended, or NULL */
	struct model_kept *keep;
};

/* A knob left out of the space, and why ("tune.left_out[]"). */
struct tune_left_doc {
	char *knob, *why;
	struct model_kept *keep;
};

/* A candidate ("tune.candidates[]"), or the winner or recommendation. */
struct tune_cand_doc {
	int64_t arm; /* its arm; null when it had none */
	uint8_t has_arm;
	struct model_param *changes; /* knob -> value, the current ones'
					changes */
	size_t nr_changes;
	int64_t stage; /* candidates: 1 alone, 2 combined */
	uint8_t has_stage;
	char *state; /* candidates: "alive", "worse", "failed", "refused" */
	char *why;   /* candidates: why it left, or NULL */
	int64_t runs;
	uint8_t has_runs;
	struct tune_call_doc *call; /* against the current settings */
	struct model_kept *keep;
};

/* A measured interaction ("tune.interactions[]"). */
struct tune_inter_doc {
	char **knobs;
	size_t nr_knobs;
	struct tune_call_doc *call;
	struct model_kept *keep;
};

/* tune's answer. */
struct tune_doc {
	char *stopped;
	double equivalence;
	int64_t runs, winner_runs, grid_arms, grid_runs;
	struct tune_space_doc *space;
	size_t nr_space;
	struct tune_left_doc *left_out;
	size_t nr_left_out;
	char **refused;
	size_t nr_refused;
	struct tune_cand_doc *candidates;
	size_t nr_candidates;
	struct tune_cand_doc *winner;
	int64_t *equivalent; /* arms */
	size_t nr_equivalent;
	struct tune_cand_doc *recommended;
	struct tune_inter_doc *interactions;
	size_t nr_interactions;
	bool half_fraction;
	char *combined; /* why combinations were or were not raced */
	struct model_kept *keep;
};

/* A setting the two sets differ in ("bisect.settings[]"). */
struct tune_setting_doc {
	char *knob, *from, *to;
	char *role; /* "carries", "none", "undecided", "not reached" */
	struct model_kept *keep;
};

/* One step ("bisect.steps[]"). */
struct tune_step_doc {
	int64_t arm;
	uint8_t has_arm;
	struct model_param *changes; /* the half set as --to has it */
	size_t nr_changes;
	char *carries; /* "none", "all", "part", "cannot tell" */
	int64_t blocks;
	struct tune_call_doc *vs_from, *vs_to;
	struct model_kept *keep;
};

/* The minimal set ("bisect.minimal"). */
struct tune_minimal_doc {
	char **knobs;
	size_t nr_knobs;
	int64_t arm;
	uint8_t has_arm;
	struct tune_call_doc *call; /* against --from, when it ran */
	double share, share_low, share_high;
	struct model_kept *keep;
};

/* bisect's answer. */
struct bisect_doc {
	char *stopped;
	double equivalence;
	int64_t runs;
	int64_t steps_done; /* "nr_steps" */
	double share_margin;
	struct tune_setting_doc *settings;
	size_t nr_settings;
	struct tune_call_doc *to_vs_from;
	struct tune_step_doc *steps;
	size_t nr_steps;
	struct tune_minimal_doc *minimal;
	struct model_kept *keep;
};

/* Lifecycle, as run_doc.h's: release frees the contents and leaves the
 * struct zeroed; free the struct too (NULL is fine). */
void tune_doc_release(struct tune_doc *t);
void tune_doc_free(struct tune_doc *t);
void bisect_doc_release(struct bisect_doc *b);
void bisect_doc_free(struct bisect_doc *b);
/* Deep copies (NULL for NULL; model_exp_parts.c). */
struct tune_doc *tune_doc_dup(const struct tune_doc *src);
struct bisect_doc *bisect_doc_dup(const struct bisect_doc *src);

#endif
