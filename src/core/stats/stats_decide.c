/*
 * What a comparison concludes: the verdict from a ratio's interval and
 * p-value, and the stop rule of an adaptive experiment (precision
 * reached, or a run or time limit). See stats.h for each.
 */
#include <errno.h>
#include <math.h>
#include <string.h>
#include "stats.h"
#include "../../util/banned.h"

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* --- Verdicts --- */

/* Interval inclusion in [1 - margin, 1 + margin]. */
bool stats_equivalent(double ci_low, double ci_high, double margin)
{
	return ci_low >= 1.0 - margin && ci_high <= 1.0 + margin;
}

/* See stats.h for the order of the rules. */
enum stats_verdict stats_verdict(const struct stats_verdict_input *in)
{
	bool up;

	if (in->n_arm < STATS_MIN_RUNS || in->n_baseline < STATS_MIN_RUNS)
		return STATS_NO_VERDICT;
	if (in->p_adjusted < in->alpha &&
	    (in->ci_low > 1.0 || in->ci_high < 1.0)) {
		up = in->ci_low > 1.0;
		return up == in->higher_is_better ? STATS_FASTER : STATS_SLOWER;
	}
	if (stats_equivalent(in->ci_low, in->ci_high, in->margin))
		return STATS_EQUIVALENT;
	return STATS_INCONCLUSIVE;
}

/* Names as the JSON "verdict" field spells them. */
const char *stats_verdict_name(enum stats_verdict v)
{
	static const char *const names[] = {
	    [STATS_NO_VERDICT] = "no verdict",
	    [STATS_FASTER] = "faster",
	    [STATS_SLOWER] = "slower",
	    [STATS_EQUIVALENT] = "equivalent",
	    [STATS_INCONCLUSIVE] = "inconclusive",
	};

	return (unsigned)v < NELEM(names) ? names[v] : "no verdict";
}

/* --- Adaptive run counts --- */

/* Relative half-width of [lo, hi]; +inf when it is not a real interval. */
static double rel_halfwidth(double lo, double hi)
{
	if (!isfinite(lo) || !isfinite(hi) || !(lo > 0.0) || hi < lo)
		return INFINITY;
	return (hi - lo) / (hi + lo);
}

/* See stats.h: limits, then minimum blocks, then precision. */
int stats_should_stop(const struct stats_stop_input *in,
		      struct stats_stop_decision *out)
{
	size_t i;

	if (in->nr_arms && (!in->ci_low || !in->ci_high))
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	for (i = 0; i < in->nr_arms; i++) {
		double hw = rel_halfwidth(in->ci_low[i], in->ci_high[i]);

		if (i == 0 || hw > out->worst_halfwidth) {
			out->worst_halfwidth = hw;
			out->worst_arm = i;
		}
	}
	out->stop = true;
	if (in->max_runs && in->blocks_done >= in->max_runs) {
		out->reason = STATS_STOP_MAX_RUNS;
	} else if (in->budget_s > 0.0 && in->elapsed_s >= in->budget_s) {
		out->reason = STATS_STOP_BUDGET;
	} else if (in->blocks_done < in->min_blocks) {
		out->stop = false;
		out->reason = STATS_CONTINUE_MIN_BLOCKS;
	} else if (out->worst_halfwidth <= in->precision) {
		out->reason = STATS_STOP_PRECISION;
	} else {
		out->stop = false;
		out->reason = STATS_CONTINUE_PRECISION;
	}
	return 0;
}

/* Short phrases for progress lines and JSON. */
const char *stats_stop_reason_name(enum stats_stop_reason r)
{
	static const char *const names[] = {
	    [STATS_CONTINUE_MIN_BLOCKS] = "below minimum blocks",
	    [STATS_CONTINUE_PRECISION] = "precision not reached",
	    [STATS_STOP_PRECISION] = "precision reached",
	    [STATS_STOP_MAX_RUNS] = "max runs",
	    [STATS_STOP_BUDGET] = "budget spent",
	};

	return (unsigned)r < NELEM(names) ? names[r] : "unknown";
}
