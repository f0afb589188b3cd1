/*
 * Suspect verdicts: a verdict computed from runs that iotrial itself
 * flagged (reads that measured the page cache, writes it absorbed, runs
 * too short to trust, CPU-bound workers, a run cut short, an arm whose
 * metric drifted across blocks) may describe the flaw, not the setting.
 * Each verdict of an experiment object carries "suspect": an array of
 * reasons, empty when clean:
 *
 *   {"arm": "arm"|"baseline", "label": "bs=8k", "kind": "page_cache",
 *    "runs": 6, "of": 6}
 *
 * "runs" of the "of" runs of that arm carried a warning of that kind
 * (for "drift", the arm's runs). Everything here reads the experiment
 * object alone, so an experiment stored before verdicts had reasons
 * gets the same ones (its runs' warnings are classified by their text).
 */
#ifndef IOTRIAL_SUSPECT_H
#define IOTRIAL_SUSPECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "../../util/strbuf.h"

/* The verdict --strict gives a suspect arm instead of faster/slower. */
#define SUSPECT_VERDICT "suspect"

/*
 * A document's marks, what the renderers read. A row that may be
 * marked (a verdict, an effect, an interaction, a scaling row, a fleet
 * host's verdict) is a suspect_src: its stored reasons, or, for a row
 * stored before it had them, the arms whose runs give them.
 */
struct experiment_doc; /* model/experiment_doc.h */
struct exp_suspect;
struct exp_verdict;
struct exp_effect;
struct exp_scaling_row;
struct exp_interaction;
struct fleet_host_verdict;

struct suspect_src {
	const struct exp_suspect *stored; /* its "suspect" */
	size_t nr;
	uint8_t has;	/* enum model_has: MODEL_SET when it has them */
	int64_t arm[4]; /* the arms it rests on */
	bool base[4];	/* the arm is in the role "baseline" */
	size_t nr_arms;
};

void suspect_src_verdict(const struct experiment_doc *doc,
			 const struct exp_verdict *v, struct suspect_src *s);
void suspect_src_effect(const struct exp_effect *x, struct suspect_src *s);
void suspect_src_scaling(const struct exp_scaling_row *x,
			 struct suspect_src *s);
void suspect_src_interaction(const struct exp_interaction *x,
			     struct suspect_src *s);
void suspect_src_host(const struct experiment_doc *doc,
		      const struct fleet_host_verdict *v,
		      struct suspect_src *s);

/* Has s a reason to be suspect? (For a verdict: suspect_verdict_is().) */
bool suspect_doc_is(const struct experiment_doc *doc,
		    const struct suspect_src *s);
bool suspect_verdict_is(const struct experiment_doc *doc,
			const struct exp_verdict *v);

/*
 * The footnote of verdict v, without the leading marker: "bs=8k: reads
 * measured the page cache (6 of 6 runs of the arm, 6 of 6 of the
 * baseline 'bs=4k')", and, for a verdict --strict refused, what the
 * estimate said. Appends nothing when v is clean.
 */
void suspect_doc_footnote(const struct experiment_doc *doc,
			  const struct exp_verdict *v, struct strbuf *out);

/*
 * The footnote of any marked row s, headed by heading and naming each
 * arm by its label: "jobs=2 vs jobs=1 at scheduler=cfq: reads measured
 * the page cache (6 of 6 runs of 'scheduler=cfq jobs=1')". Appends
 * nothing when s is clean.
 */
void suspect_doc_note(const struct experiment_doc *doc,
		      const struct suspect_src *s, const char *heading,
		      struct strbuf *out);

/* The kinds of s's reasons, once each, ", "-separated: "page_cache". */
void suspect_doc_kinds(const struct experiment_doc *doc,
		       const struct suspect_src *s, struct strbuf *out);

/*
 * Set the marks of every verdict, effect, interaction and scaling row
 * of doc to those their arms' runs and drift give, replacing what they
 * held: an effect and a scaling row rest on their arm and baseline_arm,
 * an interaction on its four arms, a verdict on its arm and doc's
 * baseline. Called whenever they are made.
 */
void suspect_doc_mark(struct experiment_doc *doc);

/*
 * Append to the nr marks *out (new, or grown) the reasons of the arm
 * with index arm of doc, in the role role ("arm" or "baseline"): one
 * per kind of flag its runs carried, in a fixed order.
 */
void suspect_doc_arm_reasons(const struct experiment_doc *doc, int64_t arm,
			     const char *role, struct exp_suspect **out,
			     size_t *nr);

/* Append to the nr marks *out (new, or grown) the reasons of s: its
 * stored ones, or those its arms give. */
void suspect_doc_reasons(const struct experiment_doc *doc,
			 const struct suspect_src *s, struct exp_suspect **out,
			 size_t *nr);

/*
 * What --strict does: each suspect verdict "faster" or "slower" becomes
 * SUSPECT_VERDICT and keeps what it said in "estimate"; doc gets
 * "strict": true. Returns how many verdicts were refused.
 */
unsigned suspect_doc_apply_strict(struct experiment_doc *doc);

#endif
