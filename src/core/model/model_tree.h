/*
 * The bridge for the move to the model (docs/ARCHITECTURE.md, "The
 * model"): a document from a json-c tree and back, for code that still
 * holds trees while the code around it converts. Each call costs a
 * walk of the document; it is meant to be gone, with this header, once
 * json_object_ appears only under src/core/model/.
 */
#ifndef IOTRIAL_MODEL_TREE_H
#define IOTRIAL_MODEL_TREE_H

#include <json-c/json.h>
#include "import_doc.h"
#include "model_json.h"

/* Decode the tree as decode does its text (model_json.h); out is
 * initialised here (release it even after an error). 0 or -EINVAL. */
int run_doc_from_tree(struct json_object *tree, struct run_doc *out,
		      unsigned flags, struct strbuf *err);
int experiment_doc_from_tree(struct json_object *tree,
			     struct experiment_doc *out, unsigned flags,
			     struct strbuf *err);
/* The same, and the caller's tree is put (NULL is fine: an empty
 * document, -EINVAL): for a tree just loaded from the store. */
int experiment_doc_take_tree(struct json_object *tree,
			     struct experiment_doc *out, unsigned flags,
			     struct strbuf *err);

/* The tree as iotrial prints JSON (report/fmt.h): pretty, spaced, '/'
 * left unescaped, made safe (util/text.h, text_json_safe()), with a
 * final newline; appended to out. */
void model_tree_print(struct json_object *tree, struct strbuf *out);

/*
 * What report/suspect.c set on doc, decoded from the experiment tree
 * exp, back into exp (model_mark_tree.c): EXP_MARK_SUSPECT, the
 * "suspect" of each verdict, effect, interaction and scaling row that
 * has its marks; EXP_MARK_STRICT, each verdict's "estimate" and
 * "verdict" where --strict refused it, and "strict". A member already
 * there keeps its place.
 *
 * exp_marks_doc_from_tree() decodes into out (initialised here; release
 * it) only what the marks rest on: exp's baseline, arms, marked rows,
 * and each run's arm and warnings, not every run's numbers (the
 * analysis marks after each block). 0, or -EINVAL with err set.
 */
int exp_marks_doc_from_tree(struct json_object *exp, struct experiment_doc *out,
			    struct strbuf *err);
#define EXP_MARK_SUSPECT (1u << 0)
#define EXP_MARK_STRICT	 (1u << 1)
void exp_marks_into_tree(struct json_object *exp,
			 const struct experiment_doc *doc, unsigned what);

/* tune's or bisect's answer into the experiment tree exp: its "kind"
 * and the member of that name (a member already there keeps its
 * place). */
void tune_doc_into_tree(struct json_object *exp, const struct tune_doc *tune);
void bisect_doc_into_tree(struct json_object *exp,
			  const struct bisect_doc *bisect);

/* The entries of the experiment tree exp's "runs" from index from on,
 * decoded, into *out (*nr of them, new; none when it has no more);
 * 0 or -EINVAL with err set (nothing in *out). exp_runs_free() frees
 * them. */
int exp_runs_from_tree(struct json_object *exp, size_t from,
		       struct exp_run **out, size_t *nr, struct strbuf *err);
void exp_runs_free(struct exp_run *runs, size_t nr);

/* The tree encode would print; the caller owns it (json_object_put). */
struct json_object *run_doc_to_tree(const struct run_doc *doc);
struct json_object *experiment_doc_to_tree(const struct experiment_doc *doc);
struct json_object *env_doc_to_tree(const struct env_doc *env);
struct json_object *fio_doc_to_tree(const struct fio_doc *fio);
struct json_object *live_window_to_tree(const struct live_window *w);
struct json_object *live_switchback_to_tree(const struct live_switchback *sb);
struct json_object *live_abort_to_tree(const struct live_abort *a);
struct json_object *fleet_doc_to_tree(const struct fleet_doc *fleet);
/* A document's "params" (nr of them) as its tree holds them, or NULL
 * for none: what experiment_build() takes. */
struct json_object *model_params_to_tree(const struct model_param *params,
					 size_t nr);

/* Free a tree the bridge made or a caller got from it (json_object_put:
 * NULL is fine), for callers that hold no other tree. */
void model_tree_free(struct json_object *tree);

/*
 * Compare two trees (either NULL: none), any members; members named in
 * ignore (NULL-terminated, NULL: none) skipped at any depth. Appends a
 * line per difference to out and returns how many (model_tree_diff.c).
 */
int model_tree_diff(struct json_object *a, struct json_object *b,
		    const char *const *ignore, struct strbuf *out);

/*
 * The factorial analysis' rows into the experiment tree exp
 * (model_tree_effects.c): exp's "effects" and "interactions" replaced
 * with doc's: each is removed, then added after the members exp holds
 * when doc has it (has_effects, has_interactions), as the analysis has
 * always moved them.
 */
void exp_effects_into_tree(struct json_object *exp,
			   const struct experiment_doc *doc);

/*
 * The compare loop's end (model_tree_advice.c): what experiment/budget.c
 * (the "advice" after a limit stopped it) and experiment/metrics.c (each
 * arm's "metrics" medians and the experiment's "metrics") set on doc,
 * decoded from the experiment tree exp, back into exp; nothing when doc
 * has none. A member already there keeps its place, a new one goes last.
 */
void exp_advice_into_tree(struct json_object *exp,
			  const struct experiment_doc *doc);
void exp_metrics_into_tree(struct json_object *exp,
			   const struct experiment_doc *doc);
/* An experiment's "metric" m as the model writes it (the caller owns
 * the tree), for the skeleton the engine still builds; and m's contents
 * freed (m left zeroed). */
struct json_object *exp_metric_to_tree(const struct exp_metric *m);
void exp_metric_release(struct exp_metric *m);

/*
 * The regimes and the scaling rows of the analysis (experiment/regime.h,
 * scaling.h) into the experiment tree exp (model_tree_regime.c), until
 * the analysis fills a document: "regimes" in its place, or last when
 * exp has none; "scaling" removed and doc's added last when doc has it,
 * as the tree's stage always did.
 */
void exp_regimes_into_tree(struct json_object *exp,
			   const struct experiment_doc *doc);
void exp_scaling_into_tree(struct json_object *exp,
			   const struct experiment_doc *doc);

/*
 * What the analysis (experiment/analyze_doc.h) set on doc, decoded from
 * the experiment tree exp, back into exp (model_tree_analysis.c): each
 * arm's summary and drift into its arm object, "verdicts" and
 * "baseline" (each as doc has it). A member already there keeps its
 * place; an arm's members the analysis does not set stay as they are.
 */
void exp_analysis_into_tree(struct json_object *exp,
			    const struct experiment_doc *doc);

#endif
