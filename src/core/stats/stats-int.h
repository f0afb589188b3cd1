/*
 * Helpers shared by the files of stats/; not part of the API.
 */
#ifndef IOTRIAL_STATS_INT_H
#define IOTRIAL_STATS_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Counts of each U value (0..m*n) of the Mann-Whitney statistic over all
 * C(m+n, m) arrangements without ties; the caller frees. NULL when the
 * counts would overflow.
 */
int64_t *stats_mwu_counts(unsigned m, unsigned n);
/* P(U <= u) from counts c of mn + 1 entries. */
double stats_mwu_cdf_counts(const int64_t *c, size_t mn, long u);
/* True when x[n] holds no NaN or infinity. */
bool stats_all_finite(const double *x, size_t n);
/* Two-sided p of Student's t with df degrees of freedom. */
double stats_t_two_sided(double t, double df);

#endif
