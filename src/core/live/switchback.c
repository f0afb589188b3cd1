/*
 * The switchback design and its analysis (switchback.h). The schedule
 * is drawn here and nowhere else, so the randomisation test re-draws
 * exactly what the schedule drew: per block, which of its windows each
 * arm got.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "switchback.h"
#include "../../util/error.h"
#include "../../util/rng.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

#define SB_MAX_ARMS 64

int sb_schedule_make(struct sb_schedule *s, const struct sb_plan_opts *o)
{
	unsigned order[SB_MAX_ARMS];
	unsigned b, i, prev = -1u;
	struct rng rng;
	size_t alloc = 0;

	memset(s, 0, sizeof(*s));
	if (!o->nr_arms || o->nr_arms > SB_MAX_ARMS || !o->nr_blocks)
		return -EINVAL;
	rng_seed(&rng, o->seed);
	for (b = 0; b < o->nr_blocks; b++) {
		for (i = 0; i < o->nr_arms; i++)
			order[i] = i;
		/* Fisher-Yates: every order equally likely */
		for (i = o->nr_arms; i > 1; i--) {
			unsigned j = (unsigned)rng_below(&rng, i), t;

			t = order[i - 1];
			order[i - 1] = order[j];
			order[j] = t;
		}
		for (i = 0; i < o->nr_arms; i++) {
			bool sw = order[i] != prev;

			s->nr_switches += sw;
			if (sw && o->settle) {
				ALLOC_GROW(s->v, s->nr + 1, alloc);
				s->v[s->nr++] = (struct sb_slot){
				    .block = b, .arm = order[i], .settle = 1};
			}
			ALLOC_GROW(s->v, s->nr + 1, alloc);
			s->v[s->nr++] =
			    (struct sb_slot){.block = b, .arm = order[i]};
			prev = order[i];
		}
	}
	return 0;
}

void sb_schedule_release(struct sb_schedule *s)
{
	if (!s)
		return;
	free(s->v);
	memset(s, 0, sizeof(*s));
}

void sb_analysis_opts_init(struct sb_analysis_opts *o)
{
	memset(o, 0, sizeof(*o));
	analysis_opts_init(&o->a);
	o->draws = 10000;
	o->exact_limit = 65536;
	o->seed = 1;
	o->settle = true;
}

unsigned sb_min_blocks(unsigned nr_arms, double alpha)
{
	unsigned n;

	if (nr_arms < 2)
		return 0;
	n = stats_signrank_min_blocks(alpha, nr_arms - 1);
	if (n && n < STATS_MIN_RUNS)
		n = STATS_MIN_RUNS;
	return n;
}

/* Solve the p x p system a (row major, destroyed) for inv (p x p): the
 * inverse, by Gauss-Jordan with partial pivoting. -EDOM when singular. */
static int invert(double *a, double *inv, size_t p)
{
	size_t i, j, k;

	for (i = 0; i < p; i++)
		for (j = 0; j < p; j++)
			inv[i * p + j] = i == j;
	for (k = 0; k < p; k++) {
		size_t piv = k;
		double scale = 0;

		for (i = k; i < p; i++)
			if (fabs(a[i * p + k]) > fabs(a[piv * p + k]))
				piv = i;
		for (i = 0; i < p; i++)
			scale = fmax(scale, fabs(a[i * p + i]));
		if (fabs(a[piv * p + k]) <= 1e-12 * fmax(scale, 1e-300))
			return -EDOM;
		if (piv != k)
			for (j = 0; j < p; j++) {
				double t = a[k * p + j];

				a[k * p + j] = a[piv * p + j];
				a[piv * p + j] = t;
				t = inv[k * p + j];
				inv[k * p + j] = inv[piv * p + j];
				inv[piv * p + j] = t;
			}
		for (j = 0, scale = a[k * p + k]; j < p; j++) {
			a[k * p + j] /= scale;
			inv[k * p + j] /= scale;
		}
		for (i = 0; i < p; i++) {
			double f = a[i * p + k];

			if (i == k || f == 0)
				continue;
			for (j = 0; j < p; j++) {
				a[i * p + j] -= f * a[k * p + j];
				inv[i * p + j] -= f * inv[k * p + j];
			}
		}
	}
	return 0;
}

int sb_ols(const double *x, const double *y, size_t n, size_t p, double *beta,
	   double *se, double *out_df)
{
	double *xtx, *inv, *xty, rss = 0, s2;
	size_t i, j, k;
	int ret;

	if (!p || n <= p)
		return -EDOM;
	xtx = xcalloc(p * p, sizeof(*xtx));
	inv = xcalloc(p * p, sizeof(*inv));
	xty = xcalloc(p, sizeof(*xty));
	for (i = 0; i < n; i++)
		for (j = 0; j < p; j++) {
			xty[j] += x[i * p + j] * y[i];
			for (k = 0; k < p; k++)
				xtx[j * p + k] += x[i * p + j] * x[i * p + k];
		}
	ret = invert(xtx, inv, p);
	if (ret)
		goto out;
	for (j = 0; j < p; j++) {
		beta[j] = 0;
		for (k = 0; k < p; k++)
			beta[j] += inv[j * p + k] * xty[k];
	}
	for (i = 0; i < n; i++) {
		double fit = 0;

		for (j = 0; j < p; j++)
			fit += x[i * p + j] * beta[j];
		rss += (y[i] - fit) * (y[i] - fit);
	}
	s2 = rss / (double)(n - p);
	for (j = 0; j < p; j++)
		se[j] = sqrt(fmax(0, s2 * inv[j * p + j]));
	*out_df = (double)(n - p);
out:
	free(xtx);
	free(inv);
	free(xty);
	return ret;
}

/* The analysed windows of a complete block: idx[block * nr_arms + arm]
 * is the window, or SIZE_MAX. */
struct blocks {
	size_t *idx;
	unsigned nr_blocks; /* the highest block + 1 */
	unsigned *complete; /* the complete blocks' numbers */
	unsigned nr_complete;
};

static void blocks_find(struct blocks *bl, const struct sb_window *w, size_t nr,
			unsigned nr_arms, unsigned *out_dropped)
{
	size_t i, used = 0;
	unsigned b, a;

	memset(bl, 0, sizeof(*bl));
	for (i = 0; i < nr; i++)
		if (w[i].block + 1 > bl->nr_blocks)
			bl->nr_blocks = w[i].block + 1;
	bl->idx = xmalloc((size_t)bl->nr_blocks * nr_arms * sizeof(*bl->idx));
	bl->complete = xcalloc(bl->nr_blocks + 1, sizeof(*bl->complete));
	for (i = 0; i < (size_t)bl->nr_blocks * nr_arms; i++)
		bl->idx[i] = SIZE_MAX;
	for (i = 0; i < nr; i++) {
		if (!sb_window_used(&w[i]) || w[i].arm >= nr_arms)
			continue;
		bl->idx[(size_t)w[i].block * nr_arms + w[i].arm] = i;
	}
	for (b = 0; b < bl->nr_blocks; b++) {
		for (a = 0; a < nr_arms; a++)
			if (bl->idx[(size_t)b * nr_arms + a] == SIZE_MAX)
				break;
		if (a == nr_arms) {
			bl->complete[bl->nr_complete++] = b;
			used += nr_arms;
		}
	}
	*out_dropped = 0;
	for (i = 0; i < nr; i++)
		*out_dropped += !w[i].settle;
	*out_dropped -= (unsigned)used;
}

static void blocks_release(struct blocks *bl)
{
	free(bl->idx);
	free(bl->complete);
}

/* The randomisation test's state for one arm against the baseline. */
struct rtest {
	const double *lv; /* log metric per (complete block, position) */
	unsigned k;	  /* arms = positions per block */
	unsigned n;	  /* complete blocks */
	double obs;	  /* |observed sum of log-ratios| */
	double tol;
	uint64_t hits, total;
};

/* Enumerate every (arm position, baseline position) pair per block from
 * block b on, with sum the contributions of the blocks before. */
static void enumerate(struct rtest *t, unsigned b, double sum)
{
	unsigned i, j;

	if (b == t->n) {
		t->total++;
		t->hits += fabs(sum) >= t->obs - t->tol;
		return;
	}
	for (i = 0; i < t->k; i++)
		for (j = 0; j < t->k; j++)
			if (i != j)
				enumerate(t, b + 1,
					  sum + t->lv[(size_t)b * t->k + i] -
					      t->lv[(size_t)b * t->k + j]);
}

/* Randomisation p of arm against base over the complete blocks. */
static double rand_test(const struct sb_window *w, const struct blocks *bl,
			unsigned nr_arms, unsigned arm, unsigned base,
			const struct sb_analysis_opts *o, bool *exact)
{
	struct rtest t = {.k = nr_arms, .n = bl->nr_complete};
	double *lv = xmalloc((size_t)t.n * t.k * sizeof(*lv)), combos = 1;
	unsigned b, a;
	struct rng rng;

	for (b = 0; b < t.n; b++) {
		size_t row = (size_t)bl->complete[b] * nr_arms;

		for (a = 0; a < t.k; a++)
			lv[(size_t)b * t.k + a] =
			    log(w[bl->idx[row + a]].metric);
		t.obs += lv[(size_t)b * t.k + arm] - lv[(size_t)b * t.k + base];
		combos *= (double)t.k * (t.k - 1);
	}
	t.lv = lv;
	t.obs = fabs(t.obs);
	t.tol = 1e-9 * fmax(1, t.obs);
	*exact = combos <= (double)o->exact_limit;
	if (*exact) {
		enumerate(&t, 0, 0);
	} else {
		uint64_t d;

		rng_seed(&rng, o->seed ^ ((uint64_t)arm << 32));
		for (d = 0; d < o->draws; d++) {
			double sum = 0;

			for (b = 0; b < t.n; b++) {
				unsigned i = (unsigned)rng_below(&rng, t.k);
				unsigned j = (unsigned)rng_below(&rng, t.k - 1);

				j += j >= i;
				sum += lv[(size_t)b * t.k + i] -
				       lv[(size_t)b * t.k + j];
			}
			t.hits += fabs(sum) >= t.obs - t.tol;
		}
		/* the observed order is one of the draws' population */
		t.hits++;
		t.total = o->draws + 1;
	}
	free(lv);
	return t.total ? (double)t.hits / (double)t.total : 1;
}

/*
 * The covariate-adjusted ratios, from the paired analysis: each arm's
 * per-block log-ratio adjusted for the windows' difference in time and,
 * when it may be used (sb_analysis_opts.load_covariate), in log load
 * (stats/adjust.h: exact under the null as the plain test is).
 */
static void adjusted(struct sb_result *r, unsigned nr_arms, unsigned base)
{
	unsigned a;

	for (a = 0; a < nr_arms; a++) {
		const struct analysis_verdict *v = &r->an.verdicts[a];
		struct sb_arm_result *ar = &r->arms[a];

		if (a == base || !v->valid || !v->adj_tried)
			continue;
		ar->adj_valid = true;
		ar->adj_used = v->adj.used;
		ar->adj_why = v->adj.why;
		ar->adj_ratio = v->adj.shift.ratio;
		ar->adj_low = v->adj.shift.ratio_low;
		ar->adj_high = v->adj.shift.ratio_high;
		ar->adj_p = v->adj.wilcoxon.p;
	}
}

void sb_window_covariates(const struct sb_window *w, bool load_covariate,
			  double *out)
{
	out[0] = w->t_s;
	out[1] = load_covariate && w->load > 0 ? log(w->load) : NAN;
}

const char *const sb_cov_names[SB_NR_COV] = {"t_s", "log_load"};

/* The trend of log metric against time over the analysed windows, and
 * each arm's mean time and load. */
static void spread(struct sb_result *r, const struct sb_window *w,
		   const struct blocks *bl, unsigned nr_arms, double alpha)
{
	size_t n = (size_t)bl->nr_complete * nr_arms, k = 0;
	double *t = xcalloc(n + 1, sizeof(*t)), *v = xcalloc(n + 1, sizeof(*v));
	double tmin = INFINITY, tmax = -INFINITY;
	unsigned b, a;

	r->load_known = n > 0;
	for (b = 0; b < bl->nr_complete; b++)
		for (a = 0; a < nr_arms; a++) {
			const struct sb_window *win =
			    &w[bl->idx[(size_t)bl->complete[b] * nr_arms + a]];

			t[k] = win->t_s;
			v[k++] = log(win->metric);
			tmin = fmin(tmin, win->t_s);
			tmax = fmax(tmax, win->t_s);
			if (!isfinite(win->load))
				r->load_known = false;
			r->suspect += win->suspect;
		}
	r->trend_p = 1;
	if (n >= 3 && !stats_spearman(t, v, n, &r->trend_rho, &r->trend_p))
		r->trend = r->trend_p < alpha;
	for (a = 0; a < nr_arms; a++) {
		double st = 0, sl = 0;

		for (b = 0; b < bl->nr_complete; b++) {
			const struct sb_window *win =
			    &w[bl->idx[(size_t)bl->complete[b] * nr_arms + a]];

			st += tmax > tmin ? (win->t_s - tmin) / (tmax - tmin)
					  : 0.5;
			sl += win->load;
		}
		r->arms[a].mean_t_frac =
		    bl->nr_complete ? st / bl->nr_complete : NAN;
		r->arms[a].mean_load =
		    bl->nr_complete ? sl / bl->nr_complete : NAN;
	}
	free(t);
	free(v);
}

int sb_analyze(struct sb_result *r, const struct sb_window *w, size_t nr,
	       unsigned nr_arms, const char *const *labels,
	       const struct sb_analysis_opts *o, struct strbuf *err)
{
	struct analysis_arm *arms;
	struct analysis_opts ao = o->a;
	unsigned *blk, a, b, base = o->a.baseline;
	double *vals, *cov;
	struct blocks bl;
	size_t i;
	int ret;

	memset(r, 0, sizeof(*r));
	if (!nr_arms || nr_arms > SB_MAX_ARMS || base >= nr_arms)
		return err_set(err, -EINVAL, "no arms to analyse");
	for (i = 0; i < nr; i++)
		r->nonpositive += !w[i].settle && !w[i].cut_short &&
				  isfinite(w[i].metric) && !(w[i].metric > 0);
	blocks_find(&bl, w, nr, nr_arms, &r->dropped);
	if (!bl.nr_complete) {
		blocks_release(&bl);
		return err_set(err, -EINVAL,
			       "no complete block: every arm needs a measured "
			       "window with a metric above 0 in a block%s",
			       r->nonpositive ? " (a longer --window counts "
						"more)"
					      : "");
	}
	r->nr_arms = nr_arms;
	r->blocks = bl.nr_complete;
	r->arms = xcalloc(nr_arms, sizeof(*r->arms));
	arms = xcalloc(nr_arms, sizeof(*arms));
	vals = xcalloc((size_t)nr_arms * bl.nr_complete, sizeof(*vals));
	blk = xcalloc((size_t)nr_arms * bl.nr_complete, sizeof(*blk));
	cov =
	    xcalloc((size_t)nr_arms * bl.nr_complete * SB_NR_COV, sizeof(*cov));
	for (a = 0; a < nr_arms; a++) {
		double *v = vals + (size_t)a * bl.nr_complete;
		double *cv = cov + (size_t)a * bl.nr_complete * SB_NR_COV;
		unsigned *bk = blk + (size_t)a * bl.nr_complete;

		for (b = 0; b < bl.nr_complete; b++) {
			const struct sb_window *win =
			    &w[bl.idx[(size_t)bl.complete[b] * nr_arms + a]];

			v[b] = win->metric;
			bk[b] = bl.complete[b];
			sb_window_covariates(win, o->load_covariate,
					     cv + (size_t)b * SB_NR_COV);
		}
		arms[a] = (struct analysis_arm){.label = labels[a],
						.values = v,
						.blocks = bk,
						.n = bl.nr_complete,
						.cov = cv};
	}
	ao.nr_cov = SB_NR_COV;
	ao.cov_names = sb_cov_names;
	ret = analysis_run(&r->an, arms, nr_arms, &ao, err);
	if (ret)
		goto out;
	spread(r, w, &bl, nr_arms, o->a.alpha);
	for (a = 0; a < nr_arms && bl.nr_complete >= 2; a++) {
		if (a == base)
			continue;
		r->arms[a].valid = true;
		r->arms[a].rand_p = rand_test(w, &bl, nr_arms, a, base, o,
					      &r->arms[a].rand_exact);
	}
	adjusted(r, nr_arms, base);
	/* without settle, a window just after a switch is analysed */
	if (!o->settle)
		for (i = 0; i < nr; i++)
			if (!w[i].settle && i && w[i].arm != w[i - 1].arm)
				r->carryover_warn = true;
out:
	free(arms);
	free(vals);
	free(cov);
	free(blk);
	blocks_release(&bl);
	if (ret)
		sb_result_release(r);
	return ret;
}

void sb_result_release(struct sb_result *r)
{
	if (!r)
		return;
	analysis_release(&r->an);
	free(r->arms);
	memset(r, 0, sizeof(*r));
}
