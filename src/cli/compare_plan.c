/*
 * compare before its first run (compare-int.h): whether the limits can
 * reach a verdict, the run length --time auto picks, and what
 * --precision costs on this machine, from the experiments like this one
 * stored before.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "compare-int.h"
#include "../core/experiment/trial.h"
#include "../util/error.h"
#include "../util/units.h"
#include "../util/banned.h"

/*
 * Before the first run: can the limits reach a verdict at all? No:
 * refuse (exit 2), or with --force warn and go on. -1 to refuse.
 */
int compare_check_plan(const struct trial *tr, const struct compare_args *a)
{
	struct experiment_budget b;
	struct budget_opts bo;
	struct strbuf msg = STRBUF_INIT;
	unsigned i;
	int ret = 0;

	experiment_budget_opts(&tr->c, &bo);
	experiment_budget_estimate(&bo, tr->e.nr_arms, -1, &b);
	/* a fixed count too few to decide runs, as asked, but not silently */
	if (bo.runs_fixed && b.nr_tests && b.min_blocks &&
	    bo.runs_fixed < b.min_blocks)
		warning("--runs %u: a faster/slower verdict needs at least %u "
			"blocks (the exact signed-rank test of %u cannot reach "
			"p < %g); these runs can only say equivalent or "
			"inconclusive",
			bo.runs_fixed, b.min_blocks, bo.runs_fixed, bo.alpha);
	/* a knob that cannot act on what the workload does */
	for (i = 0; i < tr->c.nr_factors && tr->e.arm_w; i++) {
		const struct experiment_factor *f = &tr->c.factors[i];
		const struct workload *w = &tr->e.arm_w[0];
		const char *why;

		if (!f->is_knob || !w->ops->knob_above)
			continue;
		why =
		    w->ops->knob_above(w, f->set_name ? f->set_name : f->name);
		if (!why)
			continue;
		if (a->force) {
			warning("'%s' with %s: %s; the verdict is suspect",
				f->name, w->ops->name, why);
			continue;
		}
		error("'%s' with %s: %s (or --force to run it anyway, its "
		      "verdict suspect)",
		      f->name, w->ops->name, why);
		ret = -1;
	}
	if (ret)
		goto out;
	if (experiment_budget_short(&b, &bo, &msg)) {
		if (a->force) {
			warning("%s", msg.buf);
		} else {
			error("%s (or --force to run anyway)", msg.buf);
			ret = -1;
		}
	}
out:
	strbuf_release(&msg);
	return ret;
}

/* --time auto: pick the run length from the noise model into p, say
 * why. */
void compare_pick_time(struct trial *tr, const struct compare_args *a,
		       struct noise_pick *out)
{
	struct noise_pick p;

	trial_pick_time(tr, a->r.db, 3.0, &p);
	*out = p;
	if (a->quiet)
		return;
	if (strcmp(p.why, "fitted") && p.lengths < 2) {
		fprintf(stderr,
			"compare: --time auto: %s for this comparison here "
			"yet, so %g s; experiments stored at two run lengths "
			"or more (say 1s and 10s) let it choose\n",
			p.why, p.run_s);
		return;
	}
	fprintf(stderr,
		"compare: --time auto: %g s (%s, from %u run lengths: the "
		"per-block spread is %.3g + %.3g / T and a block takes "
		"%.3g T + %.3g s; the interval for the time is narrowest "
		"there)\n",
		p.run_s, p.why, p.lengths, p.a, p.b, p.c1, p.c0);
}

/*
 * What --precision costs here, from the noise of the experiments like
 * this one stored before (noise.h); the first blocks of this one will
 * tell otherwise.
 */
void compare_say_cost(struct trial *tr, const struct compare_args *a,
		      const struct noise_pick *pick)
{
	struct noise_model m;
	struct noise_cost cost;
	struct strbuf t = STRBUF_INIT;
	int known;

	if (tr->c.runs_fixed)
		return;
	known = trial_plan_cost(tr, a->r.db, &m, &cost);
	if (!known && pick && !strcmp(pick->why, "fitted")) {
		/* the length picked may not have been run: the fit says */
		m = (struct noise_model){
		    .run_s = pick->run_s,
		    .experiments = pick->lengths,
		    .log_ratio_sd = sqrt(pick->a + pick->b / pick->run_s),
		    .block_s = pick->c1 * pick->run_s + pick->c0,
		};
		noise_cost(
		    &m, tr->c.precision, tr->c.alpha,
		    stats_signrank_min_blocks(tr->c.alpha, tr->e.nr_arms - 1),
		    &cost);
		known = 2;
	}
	if (!known) {
		fprintf(stderr,
			"compare: no experiment like this one is stored here "
			"yet; the first blocks will tell what +-%g%% costs\n",
			100 * tr->c.precision);
		return;
	}
	units_fmt_duration_arg(&t, cost.seconds);
	fprintf(stderr,
		"compare: on this machine +-%g%% needs about %u blocks of "
		"%.1f s (%s), from %u %s like it (sd of the per-block "
		"log-ratio %.3f)",
		100 * tr->c.precision, cost.blocks, m.block_s, t.buf,
		m.experiments,
		known == 2	     ? "run lengths measured"
		: m.experiments == 1 ? "earlier experiment"
				     : "earlier experiments",
		m.log_ratio_sd);
	if (tr->c.budget_ns && m.block_s > 0 &&
	    (double)tr->c.budget_ns / 1e9 < cost.seconds)
		fprintf(stderr, "; --budget stops after about %.0f",
			floor((double)tr->c.budget_ns / 1e9 / m.block_s));
	fputc('\n', stderr);
	strbuf_release(&t);
}
