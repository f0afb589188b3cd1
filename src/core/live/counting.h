/*
 * A metric that counts events (a log's matching lines, the device's
 * requests) may carry the count's own randomness: N events that come at
 * random vary by about sqrt(N) from window to window, so a window's
 * rate is known to about 1/sqrt(N) however steady the load and
 * whatever the knob. On a load of 9 transactions a second, windows of
 * 2 s count about 18, a spread of 24% a window; the blocks' log-ratios
 * spread by sqrt(2/18) = 0.33, and after 16 blocks the interval cannot
 * be much narrower than +-18%. Events that come like clockwork vary
 * far less, so the count is blamed only when the windows did vary as
 * much as counting at random would make them. Longer windows are the
 * remedy; this says how much longer.
 */
#ifndef IOTRIAL_LIVE_COUNTING_H
#define IOTRIAL_LIVE_COUNTING_H

#include <stdbool.h>
#include <stddef.h>

/* Events a window should count for its rate to be known to 10%. */
#define LIVE_COUNT_WANTED 100.0

/* What counting costs a switchback. */
struct live_count_floor {
	double events;	  /* the median count of an analysed window */
	double spread;	  /* a window's rate from counting alone,
			     relative: 1/sqrt(events) */
	double halfwidth; /* the relative 95% half-width of a ratio that
			     counting alone leaves after the blocks done */
	double window_s;  /* a window that would count LIVE_COUNT_WANTED,
			     rounded up to a whole second */
	double expected;  /* the sd of a block's log-ratio from counting
			     at random: sqrt(2/events) */
	double observed;  /* the sd the blocks' log-ratios had */
};

/*
 * From the counts of the nr analysed windows (events[], each > 0), the
 * blocks they make and the sd their log-ratios had (observed_sd; NaN
 * when there are too few), with windows window_s long: fill *out and
 * say whether the count is what limits the interval: its median under
 * LIVE_COUNT_WANTED, and the windows varying at least half as much as
 * counting at random would make them. False, and *out zeroed, with no
 * window.
 */
bool live_count_floor(const double *events, size_t nr, unsigned blocks,
		      double window_s, double observed_sd,
		      struct live_count_floor *out);

#endif
