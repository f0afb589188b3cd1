/*
 * Abort rules of a live experiment (--abort-if): "w_await>50ms",
 * "metric<0.8x baseline", "util>95". A rule names a window metric
 * (window.h), a direction and a limit: an absolute value (milliseconds
 * for the awaits: "50ms", "0.05s", "50") or a multiple of the baseline
 * arm's median so far ("2x baseline"). A rule is checked after every
 * window, settle windows included; the first that fires ends the
 * experiment.
 */
#ifndef IOTRIAL_LIVE_ABORT_H
#define IOTRIAL_LIVE_ABORT_H

#include <stdbool.h>
#include "../../util/strbuf.h"

/* One parsed rule. */
struct lw_abort {
	char *text;    /* as given */
	char *metric;  /* "w_await" */
	bool above;    /* '>': fires above the limit; '<': below */
	double limit;  /* absolute, in the metric's unit */
	bool relative; /* limit is a multiple of the baseline's median */
};

/* Parse text into r. -EINVAL with err set for what cannot be checked. */
int lw_abort_parse(struct lw_abort *r, const char *text, struct strbuf *err);
void lw_abort_release(struct lw_abort *r);

/*
 * Does r fire for a window whose metric is value, with the baseline's
 * median so far base (NaN when none yet: a relative rule cannot fire)?
 * When it fires, why gets the numbers: "w_await 61.2 ms > 50 ms".
 */
bool lw_abort_fires(const struct lw_abort *r, double value, double base,
		    struct strbuf *why);

#endif
