/*
 * A series' report; see series_report.h. Each iteration is a stored
 * experiment of one run; its row of the field-note table comes from
 * report_run_get(), the same numbers `show --runs` prints. The analysis
 * is series_compare() on the boots of each value against the baseline's.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "series_report.h"
#include "series_stats.h"
#include "../model/model_json.h"
#include "../report/runs_text.h"
#include "../store/store.h"
#include "../../util/error.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* One iteration, loaded. */
struct iter {
	const struct series_row *row;
	struct experiment_doc exp; /* owned */
	struct report_run rr;	   /* of exp's run */
};

/* One boot (a group of the series). */
struct boot {
	int grp;
	size_t first, n; /* its iterations: it[first .. first + n) */
	double *metric;	 /* n values, owned */
	char *value;	 /* what it is compared by (owned) */
};

/* Everything the report is made of. */
struct ctx {
	struct iter *it;
	size_t nr_it;
	struct boot *boots;
	size_t nr_boots;
	const char **values; /* distinct, in the order first run */
	size_t nr_values;
	const char *metric; /* the metric's name */
	bool higher_is_better;
};

const char *const series_by_names[] = {
    [SERIES_BY_KERNEL] = "kernel",
    [SERIES_BY_TAG] = "tag",
    [SERIES_BY_BOOT] = "boot",
    NULL,
};

const char *series_by_name(enum series_by by)
{
	return (unsigned)by <= SERIES_BY_BOOT ? series_by_names[by]
					      : series_by_names[0];
}

int series_by_parse(const char *s, enum series_by *out)
{
	unsigned i;

	for (i = 0; series_by_names[i]; i++)
		if (!strcmp(s, series_by_names[i])) {
			*out = (enum series_by)i;
			return 0;
		}
	return -EINVAL;
}

/*
 * The value row is compared by, a new string. A kernel is its release,
 * and its build too when the series ran two builds of that release (a
 * patched kernel often keeps the release of the one it patches).
 */
static char *value_of(const struct series_row *rows, size_t nr,
		      const struct series_row *row, enum series_by by)
{
	struct strbuf v = STRBUF_INIT;
	size_t i;

	switch (by) {
	case SERIES_BY_TAG:
		strbuf_addstr(&v, row->tag[0] ? row->tag : "(no tag)");
		break;
	case SERIES_BY_BOOT:
		strbuf_addstr(&v, row->boot_id);
		break;
	default:
		strbuf_addstr(&v, row->kernel);
		for (i = 0; i < nr; i++)
			if (!strcmp(rows[i].kernel, row->kernel) &&
			    strcmp(rows[i].build, row->build)) {
				strbuf_addf(&v, " %s", row->build);
				break;
			}
	}
	return strbuf_detach(&v, NULL);
}

/* Load every iteration's experiment and group them into boots. */
static int load(struct store *s, const struct series_row *rows, size_t nr,
		enum series_by by, struct ctx *c, struct strbuf *err)
{
	size_t i, j;
	int ret;

	c->it = xcalloc(nr, sizeof(*c->it));
	c->nr_it = nr;
	for (i = 0; i < nr; i++) {
		const struct run_metric *m;
		const char *name;

		c->it[i].row = &rows[i];
		ret = store_load_doc(s, rows[i].experiment, &c->it[i].exp, err);
		if (ret)
			return ret;
		if (report_run_get(&c->it[i].exp, 0, &c->it[i].rr) ||
		    !(c->it[i].rr.metric > 0.0) ||
		    !isfinite(c->it[i].rr.metric))
			return err_set(err, -EINVAL,
				       "iteration %d of group %d (experiment "
				       "'%s') has no positive metric value",
				       rows[i].iteration, rows[i].grp,
				       rows[i].experiment);
		m = c->it[i].rr.run ? c->it[i].rr.run->metric : NULL;
		name = m && m->name ? m->name : "";
		if (!i) {
			c->metric = name;
			c->higher_is_better = !m || m->higher_is_better;
		} else if (strcmp(c->metric, name)) {
			return err_set(
			    err, -EINVAL,
			    "iteration %d of group %d measured '%s', "
			    "the others '%s'",
			    rows[i].iteration, rows[i].grp, name, c->metric);
		}
		if (!i || rows[i].grp != rows[i - 1].grp) {
			c->boots = xrealloc(c->boots, (c->nr_boots + 1) *
							  sizeof(*c->boots));
			memset(&c->boots[c->nr_boots++], 0, sizeof(*c->boots));
			c->boots[c->nr_boots - 1].grp = rows[i].grp;
			c->boots[c->nr_boots - 1].first = i;
			c->boots[c->nr_boots - 1].value =
			    value_of(rows, nr, &rows[i], by);
		}
		c->boots[c->nr_boots - 1].n++;
	}
	for (i = 0; i < c->nr_boots; i++) {
		struct boot *b = &c->boots[i];

		b->metric = xcalloc(b->n, sizeof(*b->metric));
		for (j = 0; j < b->n; j++)
			b->metric[j] = c->it[b->first + j].rr.metric;
		for (j = 0; j < c->nr_values; j++)
			if (!strcmp(c->values[j], b->value))
				break;
		if (j == c->nr_values) {
			c->values = xrealloc(c->values, (c->nr_values + 1) *
							    sizeof(*c->values));
			c->values[c->nr_values++] = b->value;
		}
	}
	return 0;
}

static void release(struct ctx *c)
{
	size_t i;

	for (i = 0; i < c->nr_it; i++)
		experiment_doc_release(&c->it[i].exp);
	for (i = 0; i < c->nr_boots; i++) {
		free(c->boots[i].metric);
		free(c->boots[i].value);
	}
	free(c->it);
	free(c->boots);
	free(c->values);
}

/* Seconds as time(1) prints them, "2m43.824s", right-aligned in 12;
 * "-" when unknown. */
static void add_time(struct strbuf *out, double s)
{
	char buf[48];

	if (!isfinite(s) || s < 0.0 || s > 1e9)
		snprintf(buf, sizeof(buf), "-");
	else
		snprintf(buf, sizeof(buf), "%.0fm%.3fs", floor(s / 60.0),
			 s - 60.0 * floor(s / 60.0));
	strbuf_addf(out, "%12s", buf);
}

/* A number in a column of width w, "-" when unknown. */
static void add_num(struct strbuf *out, int w, int prec, double v)
{
	if (isfinite(v))
		strbuf_addf(out, "%*.*f", w, prec, v);
	else
		strbuf_addf(out, "%*s", w, "-");
}

/*
 * Decimals for a row of metric values: five significant digits in the
 * largest, the same for every column ("2872.0" beside "2211.1", where
 * %g gave "2872").
 */
static int metric_decimals(const double *v, size_t n)
{
	double max = 0.0;
	size_t i;
	int d;

	for (i = 0; i < n; i++)
		if (isfinite(v[i]) && fabs(v[i]) > max)
			max = fabs(v[i]);
	if (max <= 0.0)
		return 0;
	d = 4 - (int)floor(log10(max));
	return d < 0 ? 0 : d > 6 ? 6 : d;
}

/* One boot as the field note lays out five iterations of a kernel. */
static void render_boot(const struct ctx *c, const struct boot *b,
			enum series_by by, struct strbuf *out)
{
	const struct series_row *r0 = c->it[b->first].row;
	const char *rows[] = {"real", "user", "sys"};
	size_t i, k;
	int prec;

	if (by == SERIES_BY_KERNEL)
		strbuf_addf(out, "group %d: kernel %s, boot %.8s", b->grp,
			    r0->kernel, r0->boot_id);
	else
		strbuf_addf(out, "group %d: %s %.36s, boot %.8s, kernel %s",
			    b->grp, series_by_name(by), b->value, r0->boot_id,
			    r0->kernel);
	if (r0->tag[0] && by != SERIES_BY_TAG)
		strbuf_addf(out, ", tag %s", r0->tag);
	strbuf_addf(out, " (%zu iteration%s):\n\n", b->n, b->n == 1 ? "" : "s");
	for (k = 0; k < 3; k++) {
		strbuf_addf(out, "\t%-4s", rows[k]);
		for (i = 0; i < b->n; i++) {
			const struct report_run *rr = &c->it[b->first + i].rr;

			add_time(out, k == 0   ? rr->wall_s
				      : k == 1 ? rr->user_s
					       : rr->sys_s);
		}
		strbuf_addch(out, '\n');
	}
	strbuf_addf(out, "\t%-4s", c->metric);
	prec = metric_decimals(b->metric, b->n);
	for (i = 0; i < b->n; i++)
		add_num(out, 12, prec, b->metric[i]);
	strbuf_addstr(out, "\n\n\tDevice:        tps    MB_read/s    MB_wrtn/s"
			   "    MB_read    MB_wrtn\n");
	for (i = 0; i < b->n; i++) {
		const struct report_run *rr = &c->it[b->first + i].rr;

		strbuf_addf(out, "\t%-9.9s", rr->device[0] ? rr->device : "-");
		add_num(out, 9, 2, rr->tps);
		add_num(out, 13, 2, rr->rmbps);
		add_num(out, 13, 2, rr->wmbps);
		add_num(out, 11, 0, rr->read_mb);
		add_num(out, 11, 0, rr->write_mb);
		strbuf_addch(out, '\n');
	}
	strbuf_addf(out, "\n\tboot median %s %.6g\n\n", c->metric,
		    stats_median(b->metric, b->n));
}

/* Each boot with its iterations, as the text lays them out. */
static void groups_doc(const struct ctx *c, struct series_doc *doc)
{
	size_t i, k;

	doc->groups = xcalloc(c->nr_boots, sizeof(*doc->groups));
	doc->nr_groups = c->nr_boots;
	for (i = 0; i < c->nr_boots; i++) {
		const struct boot *b = &c->boots[i];
		const struct series_row *r0 = c->it[b->first].row;
		struct series_group_doc *g = &doc->groups[i];

		g->group = b->grp;
		g->value = xstrdup(b->value);
		g->boot_id = xstrdup(r0->boot_id);
		g->kernel = xstrdup(r0->kernel);
		g->build = xstrdup(r0->build);
		g->tag = xstrdup(r0->tag);
		g->median = stats_median(b->metric, b->n);
		g->iterations = xcalloc(b->n, sizeof(*g->iterations));
		g->nr_iterations = b->n;
		for (k = 0; k < b->n; k++) {
			const struct iter *it = &c->it[b->first + k];
			const struct report_run *rr = &it->rr;
			struct series_iteration *o = &g->iterations[k];

			o->experiment = xstrdup(it->row->experiment);
			o->metric = rr->metric;
			o->real_s = rr->wall_s;
			o->user_s = rr->user_s;
			o->sys_s = rr->sys_s;
			o->device = xstrdup(rr->device);
			o->tps = rr->tps;
			o->mb_read_s = rr->rmbps;
			o->mb_wrtn_s = rr->wmbps;
			o->mb_read = rr->read_mb;
			o->mb_wrtn = rr->write_mb;
		}
	}
}

/* The boots of value v as groups for series_compare(). */
static struct series_group *groups_of(const struct ctx *c, const char *v,
				      size_t *out_n)
{
	struct series_group *g = xcalloc(c->nr_boots, sizeof(*g));
	size_t i, n = 0;

	for (i = 0; i < c->nr_boots; i++)
		if (!strcmp(c->boots[i].value, v)) {
			g[n].x = c->boots[i].metric;
			g[n++].n = c->boots[i].n;
		}
	*out_n = n;
	return g;
}

/* "1.023 [0.998, 1.051]" */
static void add_ratio(struct strbuf *out, const struct stats_shift *s)
{
	strbuf_addf(out, "%.3f [%.3f, %.3f]", s->ratio, s->ratio_low,
		    s->ratio_high);
}

/* One comparison, appended to doc's. */
static void cmp_doc(const char *v, const struct series_comparison *sc,
		    struct series_doc *doc)
{
	struct series_comparison_doc *o;
	struct series_pooled *pooled = xcalloc(1, sizeof(*pooled));

	doc->comparisons =
	    xrealloc(doc->comparisons,
		     (doc->nr_comparisons + 1) * sizeof(*doc->comparisons));
	o = &doc->comparisons[doc->nr_comparisons++];
	memset(o, 0, sizeof(*o));
	o->value = xstrdup(v);
	o->boots = (int64_t)sc->boots_arm;
	o->iterations = (int64_t)sc->iters_arm;
	o->ratio = sc->boot.shift.ratio;
	o->ratio_low = sc->boot.shift.ratio_low;
	o->ratio_high = sc->boot.shift.ratio_high;
	o->p = sc->boot.p;
	o->verdict = xstrdup(stats_verdict_name(sc->verdict));
	o->boots_needed = sc->boots_needed;
	o->between_boot_sd = sc->spread.between_sd;
	o->within_boot_sd = sc->spread.within_sd;
	pooled->ratio = sc->pooled.shift.ratio;
	pooled->ratio_low = sc->pooled.shift.ratio_low;
	pooled->ratio_high = sc->pooled.shift.ratio_high;
	pooled->p = sc->pooled.p;
	pooled->verdict = xstrdup(stats_verdict_name(sc->pooled_verdict));
	o->pooled = pooled;
}

/* Compare every value with the baseline, into text and doc. */
static int analyse(const struct ctx *c, const struct series_report_opts *o,
		   const char *base, struct strbuf *text,
		   struct series_doc *doc, int *out_regression,
		   struct strbuf *err)
{
	struct series_group *gb;
	size_t nb, i;
	unsigned min = series_min_boots(1.0 - o->conf);
	int ret = 0, w = 8;

	/* the first column as wide as the longest value, up to 64 */
	for (i = 0; i < c->nr_values; i++)
		if ((int)strlen(c->values[i]) > w)
			w = (int)strlen(c->values[i]);
	w = w > 64 ? 64 : w;
	gb = groups_of(c, base, &nb);
	strbuf_addf(text,
		    "%-*s %5s %6s  %-22s %-7s %-12s | pooled: %-22s %-7s "
		    "%s\n",
		    w, series_by_name(o->by), "boots", "iters",
		    "ratio [95% CI] (boots)", "p", "verdict", "ratio [95% CI]",
		    "p", "verdict");
	{
		size_t k, iters = 0;

		for (k = 0; k < nb; k++)
			iters += gb[k].n;
		strbuf_addf(text, "%-*.*s %5zu %6zu  baseline\n", w, w, base,
			    nb, iters);
	}
	for (i = 0; i < c->nr_values && !ret; i++) {
		struct series_comparison sc;
		struct series_group *ga;
		size_t na;
		size_t mark;

		if (!strcmp(c->values[i], base))
			continue;
		ga = groups_of(c, c->values[i], &na);
		ret = series_compare(gb, nb, ga, na, o->conf, o->margin,
				     c->higher_is_better, &sc);
		free(ga);
		if (ret) {
			err_set(err, ret,
				"cannot compare '%s' with '%s': the values "
				"are not positive and finite",
				c->values[i], base);
			break;
		}
		strbuf_addf(text, "%-*.*s %5zu %6zu  ", w, w, c->values[i], na,
			    sc.iters_arm);
		/* one boot a side: no interval and no boot-to-boot spread,
		 * where they printed "1.332 [1.332, 1.332]" and "sd 0.00%" */
		if (nb < 2 || na < 2) {
			sc.boot.shift.ratio_low = sc.boot.shift.ratio_high =
			    NAN;
			sc.spread.between_sd = sc.spread.icc = NAN;
		}
		mark = text->len;
		if (isfinite(sc.boot.shift.ratio_low))
			add_ratio(text, &sc.boot.shift);
		else
			strbuf_addf(text, "%.3f (no CI)", sc.boot.shift.ratio);
		strbuf_addf(text, "%*s %-7.3g %-12s | pooled: ",
			    (int)(22 - (text->len - mark) > 0
				      ? 22 - (text->len - mark)
				      : 0),
			    "", sc.boot.p, stats_verdict_name(sc.verdict));
		mark = text->len;
		add_ratio(text, &sc.pooled.shift);
		strbuf_addf(
		    text, "%*s %-7.3g %s\n",
		    (int)(22 - (text->len - mark) > 0 ? 22 - (text->len - mark)
						      : 0),
		    "", sc.pooled.p, stats_verdict_name(sc.pooled_verdict));
		if (isfinite(sc.spread.between_sd))
			strbuf_addf(text,
				    "%*s boot-to-boot sd %.2f%%, within a boot "
				    "%.2f%% (intraclass correlation %.2f); ",
				    w, "", 100.0 * sc.spread.between_sd,
				    100.0 * sc.spread.within_sd,
				    isfinite(sc.spread.icc) ? sc.spread.icc
							    : 0.0);
		else if (nb < 2 && na < 2)
			strbuf_addf(
			    text,
			    "%*s boot-to-boot sd unknown (one boot each "
			    "of '%s' and '%s'), within a boot %.2f%%; ",
			    w, "", base, c->values[i],
			    100.0 * sc.spread.within_sd);
		else
			strbuf_addf(text,
				    "%*s boot-to-boot sd unknown (one boot of "
				    "'%s'), within a boot %.2f%%; ",
				    w, "", nb < 2 ? base : c->values[i],
				    100.0 * sc.spread.within_sd);
		if (sc.verdict == STATS_NO_VERDICT)
			strbuf_addf(text,
				    "no verdict with fewer than %u boots a "
				    "side",
				    min);
		else if (sc.boots_needed)
			strbuf_addf(text,
				    "a ratio of %.3f needs %u boots a side "
				    "(80%% power)",
				    sc.boot.shift.ratio, sc.boots_needed);
		else
			strbuf_addstr(text, "no difference to size boots for");
		strbuf_addch(text, '\n');
		if (sc.verdict == STATS_SLOWER)
			*out_regression = 1;
		cmp_doc(c->values[i], &sc, doc);
	}
	free(gb);
	return ret;
}

/*
 * Groups that ran in the same boot are not independent boots: say so,
 * since the analysis counts each group as a boot.
 */
static void same_boot_note(const struct ctx *c, struct strbuf *text)
{
	size_t i, j, shared = 0;

	for (i = 1; i < c->nr_boots; i++)
		for (j = 0; j < i; j++)
			if (!strcmp(c->it[c->boots[i].first].row->boot_id,
				    c->it[c->boots[j].first].row->boot_id)) {
				shared++;
				break;
			}
	if (shared)
		strbuf_addf(text,
			    "note: %zu of %zu groups ran in a boot an earlier "
			    "group ran in (same boot id); each\ngroup counts "
			    "as a boot below, which holds only if what "
			    "differs between\ngroups was as independent as "
			    "a reboot\n\n",
			    shared, c->nr_boots);
}

int series_report(struct store *s, const char *name,
		  const struct series_report_opts *o, struct strbuf *text,
		  struct series_doc *doc, int *out_regression,
		  struct strbuf *err)
{
	struct series_row *rows = NULL;
	struct series_doc cmps;
	struct ctx c = {0};
	const char *base;
	size_t nr = 0, i;
	unsigned min = series_min_boots(1.0 - o->conf);
	int ret;

	*out_regression = 0;
	series_doc_init(&cmps);
	ret = store_series_get(s, name, NULL, NULL, err);
	if (!ret)
		ret = store_series_rows(s, name, &rows, &nr, err);
	if (!ret && !nr)
		ret = err_set(err, -ENOENT,
			      "series '%s' has no iterations yet; 'iotrial "
			      "series %s run' runs a group of them",
			      name, name);
	if (!ret)
		ret = load(s, rows, nr, o->by, &c, err);
	if (ret)
		goto out;
	base = o->baseline ? o->baseline : c.values[0];
	for (i = 0; i < c.nr_values; i++)
		if (!strcmp(c.values[i], base))
			break;
	if (i == c.nr_values) {
		ret = err_set(err, -EINVAL,
			      "--baseline '%s' is no %s of series '%s'; its "
			      "%ss are:",
			      base, series_by_name(o->by), name,
			      series_by_name(o->by));
		for (i = 0; i < c.nr_values; i++)
			strbuf_addf(err, "%s '%s'", i ? "," : "", c.values[i]);
		goto out;
	}
	strbuf_addf(text,
		    "series %s: %zu iterations in %zu boots, %s (%s), by "
		    "%s\n\n",
		    name, c.nr_it, c.nr_boots, c.metric,
		    c.higher_is_better ? "higher is better" : "lower is better",
		    series_by_name(o->by));
	for (i = 0; i < c.nr_boots; i++)
		render_boot(&c, &c.boots[i], o->by, text);
	same_boot_note(&c, text);
	if (c.nr_values < 2) {
		strbuf_addf(text,
			    "only one %s so far ('%s'): nothing to compare; "
			    "a verdict needs at least %u boots of each of "
			    "two\n",
			    series_by_name(o->by), c.values[0], min);
	} else {
		ret = analyse(&c, o, base, text, doc ? doc : &cmps,
			      out_regression, err);
		if (ret)
			goto out;
		strbuf_addf(text,
			    "\nratio: Hodges-Lehmann of the boots' medians "
			    "(Moses CI), p from Mann-Whitney on them: the "
			    "boot is the unit.\npooled: the same on every "
			    "iteration, what pooling would claim; iterations "
			    "of one boot\nshare its cache, layout and luck, "
			    "so pooling overstates the evidence.\n");
	}
	if (doc) {
		doc->schema = xstrdup("iotrial/1");
		doc->kind = xstrdup("series");
		doc->name = xstrdup(name);
		doc->by = xstrdup(series_by_name(o->by));
		doc->baseline = xstrdup(base);
		doc->metric = xstrdup(c.metric);
		doc->boots = (int64_t)c.nr_boots;
		doc->iterations = (int64_t)c.nr_it;
		groups_doc(&c, doc);
	}
out:
	series_doc_release(&cmps);
	release(&c);
	store_series_rows_free(rows, nr);
	return ret;
}
