/*
 * The ratio of two tools' results, block by block, with the statistics
 * `iotrial compare` uses (src/core/stats/): for each row, the per-block
 * log-ratios log(b / a) are tested with the Wilcoxon signed-rank test
 * and estimated with the one-sample Hodges-Lehmann estimate and the
 * signed-rank interval, then turned back into a ratio b / a.
 *
 * Input, one observation per line (tab or space separated):
 *
 *	ROW BLOCK A B
 *
 * ROW names the row (no spaces), BLOCK is an integer, A and B are the
 * two tools' values in that block (both > 0). Lines starting with '#'
 * are skipped. Output, one line per row in the order rows first appear:
 *
 *	ROW n RATIO LOW HIGH P COVERAGE METHOD
 *
 * RATIO is exp(HL estimate), [LOW, HIGH] its 95% interval (or --conf),
 * P the signed-rank test's two-sided p, COVERAGE what the interval
 * achieves (below the asked level when n <= 5), METHOD exact or normal.
 * A row with fewer than 2 blocks prints "-" for the numbers.
 *
 * A line may add a covariate of each tool's run, what the machine did to
 * it that the tool cannot have caused (the steal time during the run):
 *
 *	ROW BLOCK A B ZA ZB
 *
 * and when every line of the row has them, the row's line goes on with
 * compare's adjusted comparison (stats/adjust.h: the log-ratios less
 * beta times ZB - ZA, the same rules for using it):
 *
 *	... adjusted RATIO LOW HIGH P COVERAGE USED R2
 *
 * USED is "used" or why not ("few_blocks", "no_covariate",
 * "explains_too_little"), R2 the share of the log-ratios' squares the
 * covariate explains. The tools' order within a block must be drawn at
 * random, as the benches draw it: that is what keeps the adjusted test
 * exact.
 *
 * Usage: ratio-ci [--conf C] < observations
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/stats/adjust.h"
#include "core/stats/stats.h"

#define MAX_ROWS 64
#define MAX_NAME 64

struct row {
	char name[MAX_NAME];
	double *d; /* log(b / a), one per block */
	double *z; /* ZB - ZA, one per block */
	size_t n, alloc;
	size_t nr_z; /* lines that had ZA and ZB */
};

static struct row rows[MAX_ROWS];
static size_t nr_rows;

static struct row *row_get(const char *name)
{
	for (size_t i = 0; i < nr_rows; i++)
		if (!strcmp(rows[i].name, name))
			return &rows[i];
	if (nr_rows == MAX_ROWS || strlen(name) >= MAX_NAME)
		return NULL;
	snprintf(rows[nr_rows].name, MAX_NAME, "%s", name);
	return &rows[nr_rows++];
}

static int row_add(struct row *r, double d, double z, int have_z)
{
	if (r->n == r->alloc) {
		size_t a = r->alloc ? 2 * r->alloc : 16;
		double *p = realloc(r->d, a * sizeof(*p));

		if (!p)
			return -ENOMEM;
		r->d = p;
		p = realloc(r->z, a * sizeof(*p));
		if (!p)
			return -ENOMEM;
		r->z = p;
		r->alloc = a;
	}
	r->z[r->n] = have_z ? z : NAN;
	r->d[r->n++] = d;
	r->nr_z += !!have_z;
	return 0;
}

/* " adjusted RATIO LOW HIGH P COVERAGE USED R2" when every block of r
 * has its covariate. */
static void row_print_adjusted(const struct row *r, double conf)
{
	struct stats_adjusted a;
	const char *why;
	char word[32];
	size_t i;

	if (r->nr_z != r->n ||
	    stats_adjust_paired(r->d, r->n, r->z, 1, conf, NULL, &a))
		return;
	why = stats_adj_why_name(a.why);
	for (i = 0; why[i] && i < sizeof(word) - 1; i++)
		word[i] = why[i] == ' ' ? '_' : why[i];
	word[i] = '\0';
	printf(" adjusted %.6g %.6g %.6g %.4g %.4g %s %.4g", exp(a.shift.shift),
	       exp(a.shift.ci_low), exp(a.shift.ci_high), a.wilcoxon.p,
	       a.shift.coverage, word, a.r2);
}

static void row_print(const struct row *r, double conf)
{
	struct stats_shift s;
	struct stats_test t;

	if (r->n < 2 || stats_signrank_shift(r->d, r->n, conf, &s) ||
	    stats_wilcoxon(r->d, r->n, &t)) {
		printf("%s %zu - - - - - -\n", r->name, r->n);
		return;
	}
	printf("%s %zu %.6g %.6g %.6g %.4g %.4g %s", r->name, r->n,
	       exp(s.shift), exp(s.ci_low), exp(s.ci_high), t.p, s.coverage,
	       s.method == STATS_EXACT ? "exact" : "normal");
	row_print_adjusted(r, conf);
	putchar('\n');
}

int main(int argc, char **argv)
{
	double conf = 0.95;
	char line[512];
	unsigned lineno = 0;

	if (argc == 3 && !strcmp(argv[1], "--conf")) {
		conf = strtod(argv[2], NULL);
		if (!(conf > 0 && conf < 1)) {
			fprintf(stderr, "ratio-ci: --conf must be in (0, 1)\n");
			return 2;
		}
	} else if (argc != 1) {
		fprintf(stderr, "usage: ratio-ci [--conf C] < observations\n");
		return 2;
	}
	while (fgets(line, sizeof(line), stdin)) {
		char name[MAX_NAME];
		long block;
		double a, b, za, zb;
		struct row *r;
		int got, have_z;

		lineno++;
		if (line[0] == '#' || line[strspn(line, " \t\r\n")] == '\0')
			continue;
		got = sscanf(line, "%63s %ld %lf %lf %lf %lf", name, &block, &a,
			     &b, &za, &zb);
		have_z = got == 6 && isfinite(za) && isfinite(zb);
		if ((got != 4 && got != 6) || !(a > 0) || !(b > 0) ||
		    !isfinite(a) || !isfinite(b)) {
			fprintf(stderr,
				"ratio-ci: line %u: want 'ROW BLOCK A B [ZA "
				"ZB]' with A, B > 0\n",
				lineno);
			return 1;
		}
		r = row_get(name);
		if (!r) {
			fprintf(stderr, "ratio-ci: line %u: too many rows or a "
					"row name too long\n",
				lineno);
			return 1;
		}
		if (row_add(r, log(b / a), zb - za, have_z)) {
			fprintf(stderr, "ratio-ci: out of memory\n");
			return 1;
		}
	}
	for (size_t i = 0; i < nr_rows; i++)
		row_print(&rows[i], conf);
	return 0;
}
