/*
 * The experiment object of a live switchback (live.h); its text is the
 * live section of the report page (report/live_text.c).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "live.h"
#include "live-int.h"
#include "../experiment/analyze_doc.h"
#include "../report/suspect.h"
#include "../store/store.h"
#include "../../util/error.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* A copy of s, or "" for NULL: a member observe always writes. */
static char *dup_or_empty(const char *s)
{
	return xstrdup(s ? s : "");
}

/* "factors" and "arms" (settings only; the analysis adds the rest). */
static void design_doc(struct experiment_doc *doc, const struct live *lv)
{
	unsigned f, v, a;

	doc->factors = xcalloc(lv->nr_factors + 1, sizeof(*doc->factors));
	doc->nr_factors = lv->nr_factors;
	doc->has_factors = MODEL_SET;
	for (f = 0; f < lv->nr_factors; f++) {
		struct exp_factor *fo = &doc->factors[f];

		fo->name = dup_or_empty(lv->factors[f].name);
		fo->kind = xstrdup(lv->factors[f].is_knob ? "knob" : "param");
		fo->values =
		    xcalloc(lv->factors[f].nr_values + 1, sizeof(*fo->values));
		fo->nr_values = lv->factors[f].nr_values;
		for (v = 0; v < lv->factors[f].nr_values; v++)
			fo->values[v] = xstrdup(lv->factors[f].values[v]);
	}
	doc->arms = xcalloc(lv->e.nr_arms + 1, sizeof(*doc->arms));
	doc->nr_arms = lv->e.nr_arms;
	for (a = 0; a < lv->e.nr_arms; a++) {
		struct exp_arm *ao = &doc->arms[a];

		ao->arm = a;
		ao->label = dup_or_empty(lv->e.arms[a].label);
		ao->settings =
		    xcalloc(lv->nr_factors + 1, sizeof(*ao->settings));
		ao->nr_settings = lv->nr_factors;
		ao->has_settings = MODEL_SET;
		for (f = 0; f < lv->nr_factors; f++) {
			ao->settings[f].name =
			    dup_or_empty(lv->e.arms[a].settings[f].name);
			ao->settings[f].value =
			    dup_or_empty(lv->e.arms[a].settings[f].value);
		}
	}
}

/* A copy of s, or NULL. */
static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

/* A number of the document: NaN (null) when not finite. */
static double num(double v)
{
	return isfinite(v) ? v : NAN;
}

/* One window for "windows", into o. */
static void window_doc(const struct live *lv, const struct live_slot *sl,
		       size_t seq, struct live_window *o)
{
	struct live_window_device *d = xcalloc(1, sizeof(*d));
	struct lw_measure whole = sl->m;

	memset(o, 0, sizeof(*o));
	o->seq = (int64_t)seq;
	o->block = sl->w.block;
	o->arm = sl->w.arm;
	o->label = xstrdup(
	    lv->e.arms[sl->w.arm].label ? lv->e.arms[sl->w.arm].label : "");
	o->settle = sl->w.settle;
	o->cut_short = sl->w.cut_short;
	o->start_s = num(sl->start_s);
	o->seconds = num(sl->m.seconds);
	o->metric = num(sl->w.metric);
	o->load = num(sl->w.load);
	/* the device's own numbers, not the cgroup's share */
	whole.have_cg = false;
	if (sl->m.have_disk) {
		d->mbps = num(lw_metric(&whole, "mbps"));
		d->iops = num(lw_metric(&whole, "iops"));
		d->r_await = num(lw_metric(&whole, "r_await"));
		d->w_await = num(lw_metric(&whole, "w_await"));
		d->aqu_sz = num(lw_metric(&whole, "aqu_sz"));
		d->util = num(lw_metric(&whole, "util"));
		d->has_mbps = d->has_iops = d->has_r_await = d->has_w_await =
		    d->has_aqu_sz = d->has_util = MODEL_SET;
	}
	o->device = d;
	o->dirty_bytes = num(sl->m.dirty_bytes);
	o->writeback_bytes = num(sl->m.writeback_bytes);
	if (sl->m.user_ok) {
		o->user = num(sl->m.user);
		o->has_user = MODEL_SET;
	}
	o->note = dup_or_null(sl->note);
	o->other_io = dup_or_null(sl->other);
	if (sl->m.have_cg) {
		o->cgroup = xcalloc(1, sizeof(*o->cgroup));
		o->cgroup->mbps = num(sl->m.cg_mbps);
		o->cgroup->iops = num(sl->m.cg_iops);
		o->cgroup->other_mb = num(sl->m.other_mb);
	}
}

/* The switchback analysis for "switchback", a new part. */
static struct live_switchback *switchback_doc(const struct live *lv,
					      const struct sb_result *r)
{
	struct live_switchback *o = xcalloc(1, sizeof(*o));
	unsigned a;

	o->window_s = num((double)lv->c.window_ns / 1e9);
	o->settle_s = num((double)lv->c.settle_ns / 1e9);
	o->blocks_planned = (int)lv->c.blocks;
	o->blocks = (int)r->blocks;
	o->dropped = (int)r->dropped;
	o->trend_rho = num(r->trend_rho);
	o->trend_p = num(r->trend_p);
	o->trend = r->trend;
	o->suspect_windows = (int)r->suspect;
	o->carryover_warning = r->carryover_warn;
	o->per_load = dup_or_null(lv->c.per_load);
	o->arms = xcalloc(r->nr_arms + 1, sizeof(*o->arms));
	o->nr_arms = r->nr_arms;
	for (a = 0; a < r->nr_arms; a++) {
		const struct sb_arm_result *ar = &r->arms[a];
		struct live_sb_arm *ao = &o->arms[a];

		ao->arm = a;
		ao->mean_time_frac = num(ar->mean_t_frac);
		ao->mean_load = num(ar->mean_load);
		if (ar->valid) {
			ao->rand = xcalloc(1, sizeof(*ao->rand));
			ao->rand->rand_p = num(ar->rand_p);
			ao->rand->rand_exact = ar->rand_exact;
		}
		if (ar->adj_valid) {
			ao->adjusted = xcalloc(1, sizeof(*ao->adjusted));
			ao->adjusted->adj_ratio = num(ar->adj_ratio);
			ao->adjusted->adj_ci_low = num(ar->adj_low);
			ao->adjusted->adj_ci_high = num(ar->adj_high);
			ao->adjusted->adj_p = num(ar->adj_p);
			ao->adjusted->has_adj_p =
			    isfinite(ar->adj_p) ? MODEL_SET : MODEL_NULL;
			ao->adjusted->adj_used = ar->adj_used;
			ao->adjusted->has_adj_used = MODEL_SET;
			ao->adjusted->adj_why =
			    xstrdup(stats_adj_why_name(ar->adj_why));
		}
	}
	return o;
}

/* Drop the reasons of kind from the n rows' suspect arrays *sus. */
#define DROP_KIND(rows, n, kind)                                               \
	do {                                                                   \
		size_t i_;                                                     \
		for (i_ = 0; i_ < (n); i_++)                                   \
			drop_kind(&(rows)[i_].suspect, &(rows)[i_].nr_suspect, \
				  kind);                                       \
	} while (0)

/* Drop the reasons of kind from a suspect array of *nr. */
static void drop_kind(struct exp_suspect **sus, size_t *nr, const char *kind)
{
	size_t i, n = 0;

	for (i = 0; i < *nr; i++) {
		struct exp_suspect *x = &(*sus)[i];

		if (x->kind && !strcmp(x->kind, kind)) {
			free(x->arm);
			free(x->label);
			free(x->kind);
			model_kept_free(&x->keep);
			continue;
		}
		(*sus)[n++] = *x;
	}
	*nr = n;
}

/*
 * A live load drifts: that is the trend "switchback" reports and the
 * random order spreads over the arms, not a flaw of the windows as a
 * warming cache is of compare's runs. So no verdict is suspect for it;
 * the arms keep their drift numbers. (The analysis marked the rows
 * from the arms' drift and the runs' warnings: with no arm drifting,
 * its drift reasons are all that goes.)
 */
static void undrift(struct experiment_doc *doc)
{
	size_t i;

	for (i = 0; i < doc->nr_arms; i++)
		if (doc->arms[i].drift)
			doc->arms[i].drift->drifting = false;
	DROP_KIND(doc->verdicts, doc->nr_verdicts, "drift");
	DROP_KIND(doc->effects, doc->nr_effects, "drift");
	DROP_KIND(doc->interactions, doc->nr_interactions, "drift");
	DROP_KIND(doc->scaling, doc->nr_scaling, "drift");
}

/* How many of arm's runs (analysed windows) had other I/O beside the
 * cgroup's, of how many. */
static int other_io_runs(const struct experiment_doc *doc, int64_t arm, int *of)
{
	size_t i, j;
	int nr = 0;

	*of = 0;
	for (i = 0; i < doc->nr_runs; i++) {
		const struct run_doc *r = doc->runs[i].run;

		if (doc->runs[i].arm != arm)
			continue;
		(*of)++;
		for (j = 0; r && j < r->nr_warning_kinds; j++)
			if (r->warning_kinds[j] &&
			    !strcmp(r->warning_kinds[j], "other_io")) {
				nr++;
				break;
			}
	}
	return nr;
}

/* One reason of kind other_io in the shape suspect.c gives its own. */
static void add_other_io(struct exp_verdict *v, const char *role,
			 const char *label, int runs, int of)
{
	struct exp_suspect *x;

	v->suspect =
	    xrealloc(v->suspect, (v->nr_suspect + 1) * sizeof(*v->suspect));
	x = &v->suspect[v->nr_suspect++];
	memset(x, 0, sizeof(*x));
	x->arm = xstrdup(role);
	x->label = dup_or_empty(label);
	x->kind = xstrdup("other_io");
	x->runs = runs;
	x->of = of;
}

/* The label of arm index arm of doc, or NULL. */
static const char *arm_label(const struct experiment_doc *doc, int64_t arm)
{
	return arm >= 0 && (size_t)arm < doc->nr_arms ? doc->arms[arm].label
						      : NULL;
}

/*
 * Scoped to a cgroup, a window with another process's I/O on the device
 * makes the verdicts resting on it suspect. compare leaves other I/O to
 * the warnings (its runs own the device); observe measures a shared one
 * and says when the scope leaked.
 */
static void mark_other_io(struct experiment_doc *doc)
{
	int64_t base = doc->has_baseline == MODEL_SET ? doc->baseline : 0;
	size_t i;

	for (i = 0; i < doc->nr_verdicts; i++) {
		struct exp_verdict *v = &doc->verdicts[i];
		int of, nr;

		if (v->has_suspect != MODEL_SET)
			continue;
		nr = other_io_runs(doc, v->arm, &of);
		if (nr)
			add_other_io(v, "arm", arm_label(doc, v->arm), nr, of);
		nr = other_io_runs(doc, base, &of);
		if (nr)
			add_other_io(v, "baseline", arm_label(doc, base), nr,
				     of);
	}
}

/* The run object of an analysed window: its warnings, its length and
 * the device's numbers in a run's own keys, so `show --runs`, csv and
 * html list them as they list a run's. */
static struct run_doc *window_run(const struct live *lv,
				  const struct live_slot *sl)
{
	const struct disk_delta *d = &sl->m.d;
	const char *warn[2], *kinds[2];
	struct live_run_device dev;
	struct live_run r = {.warnings = warn, .warning_kinds = kinds};

	if (sl->note) {
		warn[r.nr_warnings] = sl->note;
		kinds[r.nr_warnings++] = "unknown";
	}
	if (sl->other) {
		warn[r.nr_warnings] = sl->other;
		kinds[r.nr_warnings++] = "other_io";
	}
	r.seconds = sl->m.seconds;
	if (sl->m.have_disk && lv->c.disk) {
		dev = (struct live_run_device){
		    .name = lv->c.disk,
		    .r_s = d->r_s,
		    .w_s = d->w_s,
		    .rmbps = d->rmbps,
		    .wmbps = d->wmbps,
		    .read_bytes = (double)d->read_bytes,
		    .write_bytes = (double)d->write_bytes,
		};
		r.device = &dev;
	}
	return live_run_doc(&r);
}

/*
 * The offered load of a window: the user's counter when there is one
 * and it is not what is judged, else the MB that reached the device.
 * Not the device's requests: how the load is cut into requests is what
 * a queue knob changes, and a covariate the arm moves would take the
 * arm's effect away from it in the adjusted estimate.
 */
const char *live_load_unit(const struct live *lv)
{
	return lv->c.src && lv->c.src->kind && strcmp(lv->c.metric, "metric")
		   ? "metric units"
		   : "MB";
}

/* Does block hold an analysed, whole window of every arm? */
static bool block_complete(const struct sb_window *w, size_t nr, unsigned block,
			   unsigned nr_arms)
{
	unsigned seen = 0;
	size_t i;

	for (i = 0; i < nr; i++)
		if (w[i].block == block && sb_window_used(&w[i]))
			seen++;
	return seen == nr_arms;
}

/* The members in the order observe has always printed them: what it
 * measured, then what the analysis adds, where compare's analysis
 * (experiment_analyze_built()) puts it. */
static const char *const exp_order[] = {
    "schema",	    "type",	 "kind",     "workload",  "target",
    "seed",	    "command",	 "metric",   "factors",	  "arms",
    "runs",	    "windows",	 "warnings", "runs_mode", "alpha",
    "equivalence",  "load_unit", "stopped",  "abort",	  "blocks",
    "switchback",   "verdicts",	 "baseline", "regimes",	  "effects",
    "interactions", "scaling",
};

/* The runs: analysed windows of complete blocks, as paired runs of
 * compare. */
static void runs_doc(struct experiment_doc *doc, const struct live *lv,
		     const struct live_slot *slots, const struct sb_window *w,
		     size_t nr, bool load_covariate)
{
	size_t i;
	unsigned c;

	doc->runs = xcalloc(nr + 1, sizeof(*doc->runs));
	for (i = 0; i < nr; i++) {
		struct exp_run *ro;
		double cv[SB_NR_COV];

		if (!sb_window_used(&w[i]) ||
		    !block_complete(w, nr, w[i].block, lv->e.nr_arms))
			continue;
		ro = &doc->runs[doc->nr_runs++];
		ro->arm = (int)w[i].arm;
		ro->block = (int)w[i].block;
		ro->has_block = MODEL_SET;
		ro->seq = (int)i;
		ro->metric = num(w[i].metric);
		ro->run = window_run(lv, &slots[i]);
		sb_window_covariates(&w[i], load_covariate, cv);
		ro->covariates = xcalloc(SB_NR_COV, sizeof(*ro->covariates));
		ro->nr_covariates = SB_NR_COV;
		ro->has_covariates = MODEL_SET;
		for (c = 0; c < SB_NR_COV; c++) {
			ro->covariates[c].name = xstrdup(sb_cov_names[c]);
			ro->covariates[c].value = num(cv[c]);
		}
	}
}

/* The experiment before its analysis: what observe measured. */
static void measured_doc(struct experiment_doc *doc, const struct live *lv,
			 bool hib, const char *unit)
{
	struct strbuf seed = STRBUF_INIT;

	doc->schema = xstrdup("iotrial/1");
	doc->type = xstrdup("experiment");
	doc->kind = xstrdup("observe");
	doc->workload = xstrdup("observe");
	doc->target = dup_or_empty(lv->c.target);
	strbuf_addf(&seed, "%llu", (unsigned long long)lv->c.seed);
	doc->seed = strbuf_detach(&seed, NULL);
	doc->command = dup_or_null(lv->c.command_line);
	doc->metric = xcalloc(1, sizeof(*doc->metric));
	doc->metric->name = dup_or_empty(lv->c.metric);
	doc->metric->higher_is_better = hib;
	doc->metric->unit = xstrdup(lv->c.per_load ? "" : unit);
	design_doc(doc, lv);
	doc->has_warnings = MODEL_SET;
	doc->runs_mode = xstrdup("observe");
	doc->alpha = 0.05;
	doc->has_alpha = MODEL_SET;
	doc->equivalence = 0.02;
	doc->has_equivalence = MODEL_SET;
	doc->load_unit = xstrdup(live_load_unit(lv));
	doc->stopped =
	    xstrdup(lv->stopped.len ? lv->stopped.buf : "planned windows done");
	experiment_doc_order(doc, exp_order,
			     sizeof(exp_order) / sizeof(*exp_order));
}

int live_build_object(struct live *lv, const struct live_slot *slots, size_t nr,
		      const char *const *warnings, size_t nr_warnings,
		      struct live_abort *abort, struct strbuf *err)
{
	struct experiment_doc *doc = xcalloc(1, sizeof(*doc));
	struct sb_window *w = xcalloc(nr + 1, sizeof(*w));
	const char **labels = xcalloc(lv->e.nr_arms, sizeof(*labels));
	struct sb_analysis_opts ao;
	struct analysis_opts opts;
	struct sb_result r;
	const char *unit = "";
	bool hib = true;
	size_t i;
	int ret;

	experiment_doc_init(doc);
	experiment_doc_free(lv->doc);
	lv->doc = doc;
	lw_metric_known(lv->c.metric, &hib, &unit);
	measured_doc(doc, lv, hib, unit);
	doc->windows = xcalloc(nr + 1, sizeof(*doc->windows));
	doc->nr_windows = nr;
	doc->has_windows = MODEL_SET;
	for (i = 0; i < nr; i++) {
		w[i] = slots[i].w;
		window_doc(lv, &slots[i], i, &doc->windows[i]);
	}
	for (i = 0; i < nr_warnings; i++)
		experiment_doc_add_warning(doc, warnings[i]);
	doc->abort = abort;
	for (i = 0; i < lv->e.nr_arms; i++)
		labels[i] = lv->e.arms[i].label;
	sb_analysis_opts_init(&ao);
	ao.a.higher_is_better = hib;
	ao.settle = lv->c.settle_ns > 0;
	ao.seed = lv->c.seed;
	/* the user's counter beside another metric: the arms cannot move
	 * it (the MB that reached the device they can) */
	ao.load_covariate = !strcmp(live_load_unit(lv), "metric units");
	ret = sb_analyze(&r, w, nr, lv->e.nr_arms, labels, &ao, err);
	if (ret) {
		/* too little to analyse: keep the windows, say why */
		experiment_doc_add_warning(doc, err->buf);
		strbuf_reset(err);
		ret = 0;
		goto out;
	}
	runs_doc(doc, lv, slots, w, nr, ao.load_covariate);
	doc->blocks = (int)r.blocks;
	if (r.nonpositive) {
		struct strbuf w0 = STRBUF_INIT;

		strbuf_addf(&w0,
			    "%u measured windows had a metric of 0 or below "
			    "and were left out with their blocks: a ratio "
			    "needs a positive number (a longer --window counts "
			    "more)",
			    r.nonpositive);
		experiment_doc_add_warning(doc, w0.buf);
		strbuf_release(&w0);
	}
	doc->switchback = switchback_doc(lv, &r);
	sb_result_release(&r);
	analysis_opts_init(&opts);
	opts.baseline = lv->e.baseline;
	ret = experiment_analyze_full(doc, &opts, err);
	if (!ret) {
		undrift(doc);
		mark_other_io(doc);
	}
out:
	free(w);
	free(labels);
	return ret;
}

int live_store(struct live *lv, const char *db, char *out_id,
	       struct strbuf *err)
{
	if (!lv->doc)
		return err_set(err, -EINVAL, "there is nothing to store");
	return store_save_doc_at(db, lv->doc, out_id, err);
}
