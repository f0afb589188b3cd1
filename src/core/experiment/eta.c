/*
 * The whole experiment's ETA (eta.h).
 */
#include <math.h>
#include <string.h>
#include "eta.h"
#include "budget.h"
#include "../stats/stats.h"
#include "../../util/banned.h"

double experiment_eta(const struct budget_opts *c, const struct eta_in *in,
		      const char **by)
{
	struct experiment_budget b;
	unsigned blocks, need, done = in->block == -1u ? 0 : in->block;
	unsigned nr_arms = in->nr_arms;
	double runs, eta, budget_s = (double)c->budget_ns / 1e9;

	*by = NULL;
	if (!nr_arms)
		return -1;
	experiment_budget_estimate(c, nr_arms, in->run_s, &b);
	if (b.run_s <= 0)
		return -1; /* an I/O count, and no run measured yet */
	if (c->runs_fixed) {
		blocks = c->runs_fixed;
		*by = "runs";
	} else {
		/* what the loop plans first: what a verdict needs */
		need = in->planned > c->warmup
			   ? (in->planned - c->warmup + nr_arms - 1) / nr_arms
			   : 1;
		if (in->halfwidth > 0 && c->precision > 0 && done >= 2) {
			double r = in->halfwidth / c->precision;
			double est = ceil((double)done * r * r);

			if (est > need)
				need = est > 1e6 ? 1000000 : (unsigned)est;
		} else if (b.blocks != -1u) {
			/* no interval yet: the end is the limit's */
			need = b.blocks;
		}
		blocks = need;
		*by = "precision";
		if (b.blocks != -1u && b.blocks <= need) {
			blocks = b.blocks;
			*by = b.limit && !strcmp(b.limit, "--budget")
				  ? "budget"
				  : "max-runs";
		}
		if (blocks < done + 1)
			blocks = done + 1; /* the block going on ends */
	}
	runs = (double)c->warmup + (double)nr_arms * blocks;
	eta = runs > in->run ? (runs - in->run) * b.run_s : 0;
	/* a budget ends it, whatever the estimate says: the loop starts no
	 * block that would overrun it, and finishes the one going on. When
	 * it is the budget that ends it, the end is the budget's, not a
	 * count of the blocks that fit at a run time still being measured */
	if (!c->runs_fixed && budget_s > 0 &&
	    (in->elapsed_s + eta > budget_s || !strcmp(*by, "budget"))) {
		double rest = (double)nr_arms * (done + 1) + c->warmup;

		rest = rest > in->run ? (rest - in->run) * b.run_s : 0;
		eta = budget_s - in->elapsed_s;
		if (eta < rest)
			eta = rest;
		*by = "budget";
	}
	return eta;
}
