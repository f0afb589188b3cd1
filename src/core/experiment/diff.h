/*
 * iotrial diff: the same workload measured in two stored experiments,
 * before and after a change that is not a knob (a kernel patch, a new
 * disk, a firmware update), judged with the same statistics as compare.
 * The matching arm's runs of each experiment become the two arms of a
 * new, unpaired experiment (their blocks are unrelated): arm 0 "before
 * ID1", arm 1 "after ID2". It is analysed, not stored. The answer is a
 * diff document (model/command_doc.h), which report/diff_text.h prints.
 */
#ifndef IOTRIAL_DIFF_H
#define IOTRIAL_DIFF_H

#include "../model/command_doc.h"
#include "../../util/strbuf.h"

/*
 * The before/after experiment of e[0] (before) and e[1] (after), whose
 * ids as the user gave them are id[0] and id[1] (for messages). label
 * names the arm to compare in both; NULL takes each one's baseline.
 * out_arm gets the arm used of each. Returns 0 with *out analysed (new;
 * the caller frees it, experiment_doc_free()), or -errno with err set
 * and *out NULL: -EINVAL when the two are one experiment, ran different
 * workloads or metrics, lack the arm or its runs; the analysis's code
 * when it fails.
 */
int diff_build(const struct experiment_doc *const e[2], const char *const id[2],
	       const char *label, int out_arm[2], struct experiment_doc **out,
	       struct strbuf *err);

/*
 * What differs between what arm[0] of e[0] and arm[1] of e[1] ran, as
 * it took effect (a parameter left unset is its default): the target,
 * each workload parameter but the label, the knobs and the requested
 * run length. One line per difference into out ("bs: 4 KiB (default)
 * vs 8 KiB"); returns how many. 0: the two are like for like.
 */
int diff_unlike(const struct experiment_doc *const e[2], const int arm[2],
		struct strbuf *out);

/*
 * Give the verdict of d, the before/after experiment of arm[0] of e[0]
 * and arm[1] of e[1], the reasons to suspect it that those arms' runs
 * carry ("suspect", report/suspect.h): "after" is the arm, "before" the
 * baseline. d's own runs are bare metrics, so this is where they come
 * from. diff_build() calls it.
 */
void diff_mark_suspect(const struct experiment_doc *const e[2],
		       const int arm[2], struct experiment_doc *d);

/*
 * What --strict does to d (report/suspect.h's
 * suspect_doc_apply_strict()): a suspect faster or slower verdict
 * becomes "suspect".
 */
void diff_strict(struct experiment_doc *d);

/*
 * The answer of diff into out (initialised here; diff_doc_release()
 * it): the ids and arms compared (e, arm), unlike (diff_unlike()'s
 * lines, "" when like for like), the verdict and experiment d (taken:
 * out frees it; NULL when refused), then a line per difference of the
 * environments ("env differs: ...") and of the targets and parameters
 * ("params differ: ..."). id holds the ids as the user gave them.
 */
void diff_doc_fill(struct diff_doc *out,
		   const struct experiment_doc *const e[2],
		   const char *const id[2], const int arm[2],
		   struct experiment_doc *d, const char *unlike);

#endif
