/*
 * The floor a count puts under a switchback's interval (counting.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "counting.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

bool live_count_floor(const double *events, size_t nr, unsigned blocks,
		      double window_s, double observed_sd,
		      struct live_count_floor *out)
{
	double *v, sd;

	memset(out, 0, sizeof(*out));
	if (!nr || !blocks || !(window_s > 0))
		return false;
	v = xmalloc(nr * sizeof(*v));
	memcpy(v, events, nr * sizeof(*v));
	qsort(v, nr, sizeof(*v), cmp_double);
	out->events = nr % 2 ? v[nr / 2] : (v[nr / 2 - 1] + v[nr / 2]) / 2;
	free(v);
	if (!(out->events > 0))
		return false;
	out->spread = 1 / sqrt(out->events);
	/* a block's log-ratio: two counts, each of variance 1/events in
	 * log terms; the blocks' mean of them */
	out->expected = sqrt(2 / out->events);
	out->observed = observed_sd;
	sd = out->expected / sqrt(blocks);
	out->halfwidth = exp(1.96 * sd) - 1;
	out->window_s = ceil(window_s * LIVE_COUNT_WANTED / out->events);
	return out->events < LIVE_COUNT_WANTED && isfinite(observed_sd) &&
	       observed_sd >= 0.5 * out->expected;
}
