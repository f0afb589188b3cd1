/*
 * What the p column of each table is. Both tables adjust their p values
 * with Holm's method, over different families: the arm table over its
 * comparisons with the baseline arm, the effect table over each
 * factor's own effects. So one pair of arms that both tables compare
 * (an effect measured from the baseline arm) has the same raw p, ratio
 * and CI in each, but two adjusted p values (and possibly two
 * verdicts). These sentences say which family each p belongs to, and
 * name such pairs with all three numbers, so that no reader sees two p
 * values for one comparison without knowing why.
 */
#ifndef IOTRIAL_P_NOTE_H
#define IOTRIAL_P_NOTE_H

#include "../model/experiment_doc.h"
#include "../../util/strbuf.h"

/*
 * "p is Holm-adjusted over the 3 comparisons with the baseline" (or,
 * with one comparison, that it is the test's own p), appended to out
 * without a final newline; nothing when no verdict has a p.
 */
void report_p_note_arms(const struct experiment_doc *doc, struct strbuf *out);

/*
 * "p is Holm-adjusted within each factor, over its own effects
 * (read_ahead_kb: 2, scheduler: 2)", then, for every effect that
 * compares the same two arms as a verdict of the arm table with
 * another adjusted p, that pair (as heading() names an effect:
 * report_effect_heading()) with its raw p and both adjusted ones.
 * Appended to out without a final newline; nothing when no effect has
 * a p.
 */
void report_p_note_effects(const struct experiment_doc *doc,
			   void (*heading)(const struct exp_effect *e,
					   struct strbuf *out),
			   struct strbuf *out);

#endif
