/*
 * The experiment object of a live switchback (live.h); its text is the
 * live section of the report page (report/live_text.c).
 */
#include <errno.h>
#include <math.h>
#include <string.h>
#include "live.h"
#include "live-int.h"
#include "../experiment/covariates.h"
#include "../model/model_tree.h"
#include "../report/expjson.h"
#include "../report/suspect.h"
#include "../store/store.h"
#include "../../util/error.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

static void add_str(struct json_object *o, const char *k, const char *v)
{
	json_object_object_add(o, k, json_object_new_string(v ? v : ""));
}

static void add_num(struct json_object *o, const char *k, double v)
{
	json_object_object_add(o, k,
			       isfinite(v) ? json_object_new_double(v) : NULL);
}

/* "factors" and "arms" (settings only; the analysis adds the rest). */
static void add_design(struct json_object *exp, const struct live *lv)
{
	struct json_object *factors = json_object_new_array();
	struct json_object *arms = json_object_new_array();
	unsigned f, v, a;

	for (f = 0; f < lv->nr_factors; f++) {
		struct json_object *fo = json_object_new_object();
		struct json_object *vals = json_object_new_array();

		add_str(fo, "name", lv->factors[f].name);
		add_str(fo, "kind", lv->factors[f].is_knob ? "knob" : "param");
		for (v = 0; v < lv->factors[f].nr_values; v++)
			json_object_array_add(
			    vals,
			    json_object_new_string(lv->factors[f].values[v]));
		json_object_object_add(fo, "values", vals);
		json_object_array_add(factors, fo);
	}
	for (a = 0; a < lv->e.nr_arms; a++) {
		struct json_object *ao = json_object_new_object();
		struct json_object *set = json_object_new_object();

		json_object_object_add(ao, "arm", json_object_new_int((int)a));
		add_str(ao, "label", lv->e.arms[a].label);
		for (f = 0; f < lv->nr_factors; f++)
			add_str(set, lv->e.arms[a].settings[f].name,
				lv->e.arms[a].settings[f].value);
		json_object_object_add(ao, "settings", set);
		json_object_array_add(arms, ao);
	}
	json_object_object_add(exp, "factors", factors);
	json_object_object_add(exp, "arms", arms);
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

/*
 * A live load drifts: that is the trend "switchback" reports and the
 * random order spreads over the arms, not a flaw of the windows as a
 * warming cache is of compare's runs. So no verdict is suspect for it;
 * the arms keep their drift numbers.
 */
static void undrift(struct json_object *exp)
{
	struct json_object *arms =
	    expjson_get_type(exp, "arms", json_type_array);
	size_t i, n = arms ? json_object_array_length(arms) : 0;

	for (i = 0; i < n; i++) {
		struct json_object *a = json_object_array_get_idx(arms, i);

		if (expjson_get(a, "drifting"))
			json_object_object_add(a, "drifting",
					       json_object_new_boolean(0));
	}
	suspect_mark(exp);
}

/* How many of arm's runs (analysed windows) had other I/O beside the
 * cgroup's, of how many. */
static int other_io_runs(struct json_object *exp, int arm, int *of)
{
	struct json_object *runs =
	    expjson_get_type(exp, "runs", json_type_array);
	size_t i, n = runs ? json_object_array_length(runs) : 0;
	int nr = 0;

	*of = 0;
	for (i = 0; i < n; i++) {
		struct json_object *r = json_object_array_get_idx(runs, i);
		struct json_object *k = expjson_get_type(
		    expjson_get(r, "run"), "warning_kinds", json_type_array);
		size_t j, m = k ? json_object_array_length(k) : 0;

		if (expjson_count(r, "arm") != arm)
			continue;
		(*of)++;
		for (j = 0; j < m; j++)
			if (!strcmp(json_object_get_string(
					json_object_array_get_idx(k, j)),
				    "other_io")) {
				nr++;
				break;
			}
	}
	return nr;
}

/* One reason of kind other_io in the shape suspect.c gives its own. */
static void add_other_io(struct json_object *reasons, const char *role,
			 const char *label, int runs, int of)
{
	struct json_object *o = json_object_new_object();

	add_str(o, "arm", role);
	add_str(o, "label", label);
	add_str(o, "kind", "other_io");
	json_object_object_add(o, "runs", json_object_new_int(runs));
	json_object_object_add(o, "of", json_object_new_int(of));
	json_object_array_add(reasons, o);
}

/*
 * Scoped to a cgroup, a window with another process's I/O on the device
 * makes the verdicts resting on it suspect. compare leaves other I/O to
 * the warnings (its runs own the device); observe measures a shared one
 * and says when the scope leaked.
 */
static void mark_other_io(struct json_object *exp)
{
	struct json_object *vs =
	    expjson_get_type(exp, "verdicts", json_type_array);
	struct json_object *arms =
	    expjson_get_type(exp, "arms", json_type_array);
	int base = expjson_count(exp, "baseline");
	size_t i, n = vs ? json_object_array_length(vs) : 0;

	for (i = 0; i < n; i++) {
		struct json_object *v = json_object_array_get_idx(vs, i);
		struct json_object *reasons =
		    expjson_get_type(v, "suspect", json_type_array);
		int arm = expjson_count(v, "arm"), of, nr;

		if (!reasons)
			continue;
		nr = other_io_runs(exp, arm, &of);
		if (nr)
			add_other_io(reasons, "arm",
				     expjson_str(json_object_array_get_idx(
						     arms, (size_t)arm),
						 "label"),
				     nr, of);
		nr = other_io_runs(exp, base, &of);
		if (nr)
			add_other_io(reasons, "baseline",
				     expjson_str(json_object_array_get_idx(
						     arms, (size_t)base),
						 "label"),
				     nr, of);
	}
}

/* The window's length and device numbers in the run object's own keys,
 * so `show --runs`, csv and html list them as they list a run's. */
static void run_numbers(struct json_object *run, const struct live *lv,
			const struct live_slot *sl)
{
	const struct disk_delta *d = &sl->m.d;
	struct json_object *devs, *o;

	add_num(run, "seconds", sl->m.seconds);
	if (!sl->m.have_disk || !lv->c.disk)
		return;
	devs = json_object_new_array();
	o = json_object_new_object();
	add_str(o, "name", lv->c.disk);
	add_num(o, "r_s", d->r_s);
	add_num(o, "w_s", d->w_s);
	add_num(o, "rmbps", d->rmbps);
	add_num(o, "wmbps", d->wmbps);
	add_num(o, "read_bytes", (double)d->read_bytes);
	add_num(o, "write_bytes", (double)d->write_bytes);
	json_object_array_add(devs, o);
	json_object_object_add(run, "devices", devs);
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

int live_build_object(struct live *lv, const struct live_slot *slots, size_t nr,
		      const char *const *warnings, size_t nr_warnings,
		      struct live_abort *abort, struct strbuf *err)
{
	struct json_object *exp = json_object_new_object();
	struct json_object *metric = json_object_new_object();
	struct json_object *runs = json_object_new_array();
	struct json_object *wins = json_object_new_array();
	struct json_object *warn = json_object_new_array();
	struct sb_window *w = xcalloc(nr + 1, sizeof(*w));
	const char **labels = xcalloc(lv->e.nr_arms, sizeof(*labels));
	struct sb_analysis_opts ao;
	struct analysis_opts opts;
	struct sb_result r;
	const char *unit = "";
	bool hib = true;
	size_t i;
	int ret;

	add_str(exp, "schema", "iotrial/1");
	add_str(exp, "type", "experiment");
	add_str(exp, "kind", "observe");
	add_str(exp, "workload", "observe");
	add_str(exp, "target", lv->c.target);
	{
		struct strbuf seed = STRBUF_INIT;

		strbuf_addf(&seed, "%llu", (unsigned long long)lv->c.seed);
		add_str(exp, "seed", seed.buf);
		strbuf_release(&seed);
	}
	if (lv->c.command_line)
		add_str(exp, "command", lv->c.command_line);
	lw_metric_known(lv->c.metric, &hib, &unit);
	add_str(metric, "name", lv->c.metric);
	json_object_object_add(metric, "higher_is_better",
			       json_object_new_boolean(hib));
	add_str(metric, "unit", lv->c.per_load ? "" : unit);
	json_object_object_add(exp, "metric", metric);
	add_design(exp, lv);
	for (i = 0; i < nr; i++) {
		struct live_window win;

		w[i] = slots[i].w;
		/* the seam until the experiment is a document */
		window_doc(lv, &slots[i], i, &win);
		json_object_array_add(wins, live_window_to_tree(&win));
		live_window_release(&win);
	}
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
	if (!ret) {
		/* the runs: analysed windows of complete blocks, as paired
		 * runs of compare */
		for (i = 0; i < nr; i++) {
			struct json_object *ro, *run, *wt, *wk;

			if (!sb_window_used(&w[i]) ||
			    !block_complete(w, nr, w[i].block, lv->e.nr_arms))
				continue;
			ro = json_object_new_object();
			run = json_object_new_object();
			wt = json_object_new_array();
			wk = json_object_new_array();
			json_object_object_add(
			    ro, "arm", json_object_new_int((int)w[i].arm));
			json_object_object_add(
			    ro, "block", json_object_new_int((int)w[i].block));
			json_object_object_add(ro, "seq",
					       json_object_new_int((int)i));
			add_num(ro, "metric", w[i].metric);
			if (slots[i].note) {
				json_object_array_add(
				    wt, json_object_new_string(slots[i].note));
				json_object_array_add(
				    wk, json_object_new_string("unknown"));
			}
			if (slots[i].other) {
				json_object_array_add(
				    wt, json_object_new_string(slots[i].other));
				json_object_array_add(
				    wk, json_object_new_string("other_io"));
			}
			json_object_object_add(run, "warnings", wt);
			json_object_object_add(run, "warning_kinds", wk);
			run_numbers(run, lv, &slots[i]);
			json_object_object_add(ro, "run", run);
			{
				double cv[SB_NR_COV];

				sb_window_covariates(&w[i], ao.load_covariate,
						     cv);
				json_object_object_add(
				    ro, "covariates",
				    run_covariates_json(sb_cov_names, cv,
							SB_NR_COV));
			}
			json_object_array_add(runs, ro);
		}
	}
	json_object_object_add(exp, "runs", runs);
	json_object_object_add(exp, "windows", wins);
	for (i = 0; i < nr_warnings; i++)
		json_object_array_add(warn,
				      json_object_new_string(warnings[i]));
	json_object_object_add(exp, "warnings", warn);
	add_str(exp, "runs_mode", "observe");
	add_num(exp, "alpha", 0.05);
	add_num(exp, "equivalence", 0.02);
	add_str(exp, "load_unit", live_load_unit(lv));
	add_str(exp, "stopped",
		lv->stopped.len ? lv->stopped.buf
				: "planned "
				  "windows "
				  "done");
	if (abort)
		json_object_object_add(exp, "abort", live_abort_to_tree(abort));
	live_abort_free(abort);
	json_object_object_add(exp, "blocks",
			       json_object_new_int(ret ? 0 : (int)r.blocks));
	lv->obj = exp;
	if (ret) {
		/* too little to analyse: keep the windows, say why */
		json_object_array_add(warn, json_object_new_string(err->buf));
		strbuf_reset(err);
		ret = 0;
		goto out;
	}
	if (r.nonpositive) {
		struct strbuf w0 = STRBUF_INIT;

		strbuf_addf(&w0,
			    "%u measured windows had a metric of 0 or below "
			    "and were left out with their blocks: a ratio "
			    "needs a positive number (a longer --window counts "
			    "more)",
			    r.nonpositive);
		json_object_array_add(warn, json_object_new_string(w0.buf));
		strbuf_release(&w0);
	}
	{
		struct live_switchback *sb = switchback_doc(lv, &r);

		json_object_object_add(exp, "switchback",
				       live_switchback_to_tree(sb));
		live_switchback_free(sb);
	}
	analysis_opts_init(&opts);
	opts.baseline = lv->e.baseline;
	ret = experiment_analyze_json(exp, &opts, err);
	if (!ret) {
		undrift(exp);
		mark_other_io(exp);
	}
	sb_result_release(&r);
out:
	free(w);
	free(labels);
	return ret;
}

int live_store(struct live *lv, const char *db, char *out_id,
	       struct strbuf *err)
{
	struct log_columns cols;
	int ret;

	if (!lv->obj)
		return err_set(err, -EINVAL, "there is nothing to store");
	log_columns_of(lv->obj, &cols);
	ret = store_save(db, lv->obj, &cols, out_id, err);
	log_columns_release(&cols);
	return ret;
}
