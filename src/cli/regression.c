/*
 * The exit code of --fail-on-regression (compare, diff): the policy is
 * core's (core/experiment/regression.h); here its answer becomes exit 3
 * and what it did with suspect arms becomes notes.
 */
#include "cli.h"
#include "../core/compat/compat.h"
#include "../core/experiment/regression.h"
#include "../core/model/experiment_doc.h"
#include "../util/error.h"
#include "../util/banned.h"

/*
 * The gate of --fail-on-regression (core/experiment/regression.h: the
 * policy), and what it did with each suspect arm said as a note.
 */
int cli_doc_has_regression(const struct experiment_doc *doc, int strict)
{
	unsigned flags = (strict ? REGRESSION_STRICT : 0) |
			 (cli_compat_old(COMPAT_REGRESSION_FLAGGED)
			      ? REGRESSION_COUNT_FLAGGED
			      : 0);
	struct regression_gate g;
	size_t i;
	int found;

	regression_check(doc, flags, &g);
	for (i = 0; i < g.nr_suspects; i++) {
		const struct regression_suspect *s = &g.suspects[i];

		if (s->counted)
			note("--fail-on-regression --strict: arm '%s' is "
			     "suspect (%s) and its estimate is slower: "
			     "counted as a regression",
			     s->label, s->kinds);
		else /* loud: a gate that passes on a slower arm must say
		      * so, and how to make it fail */
			warning("--fail-on-regression: arm '%s' is slower but "
				"suspect (%s): not counted as a regression, so "
				"it does not fail the gate (exit 0 without "
				"--strict); pass --strict to count it",
				s->label, s->kinds);
	}
	found = g.regression;
	regression_gate_release(&g);
	return found;
}
