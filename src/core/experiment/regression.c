/*
 * The regression policy (regression.h): the gate of
 * --fail-on-regression on an experiment document's verdicts, and
 * whether a verdict is suspect.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "regression.h"
#include "../report/suspect.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

void regression_gate_release(struct regression_gate *g)
{
	size_t i;

	if (!g)
		return;
	for (i = 0; i < g->nr_suspects; i++) {
		free(g->suspects[i].label);
		free(g->suspects[i].kinds);
	}
	free(g->suspects);
	memset(g, 0, sizeof(*g));
}

bool regression_verdict_suspect(const struct experiment_doc *doc,
				const struct exp_verdict *v,
				struct strbuf *kinds)
{
	struct suspect_src s;

	/* its marks, or, stored without them, those its runs give */
	suspect_src_verdict(doc, v, &s);
	if (!suspect_doc_is(doc, &s))
		return false;
	if (kinds)
		suspect_doc_kinds(doc, &s, kinds);
	return true;
}

bool regression_estimate_slower(const struct experiment_doc *doc,
				const struct exp_verdict *v)
{
	double ratio = v->cmp ? v->cmp->ratio : NAN;
	bool hib = doc->metric ? doc->metric->higher_is_better : true;

	if (!isfinite(ratio))
		return false;
	return hib ? ratio < 1 : ratio > 1;
}

/* Add a suspect arm to g. */
static void add_suspect(struct regression_gate *g, const char *label,
			const struct strbuf *kinds, bool counted)
{
	struct regression_suspect *s;

	g->suspects =
	    xrealloc(g->suspects, (g->nr_suspects + 1) * sizeof(*g->suspects));
	s = &g->suspects[g->nr_suspects++];
	s->label = xstrdup(label ? label : "");
	s->kinds = xstrdup(kinds->buf);
	s->counted = counted;
}

void regression_check(const struct experiment_doc *doc, unsigned flags,
		      struct regression_gate *out)
{
	struct strbuf kinds = STRBUF_INIT;
	size_t i;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < doc->nr_verdicts; i++) {
		const struct exp_verdict *v = &doc->verdicts[i];
		bool slower = v->verdict && !strcmp(v->verdict, "slower");

		strbuf_reset(&kinds);
		if (!regression_verdict_suspect(doc, v, &kinds) ||
		    ((flags & REGRESSION_COUNT_FLAGGED) && slower)) {
			out->regression |= slower;
			continue;
		}
		if ((flags & REGRESSION_STRICT) &&
		    regression_estimate_slower(doc, v)) {
			add_suspect(out, v->label, &kinds, true);
			out->regression = true;
		} else if (slower) {
			add_suspect(out, v->label, &kinds, false);
		}
	}
	strbuf_release(&kinds);
}
