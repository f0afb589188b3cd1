/*
 * One fleet experiment from the hosts' experiments (fleet.h). Each host
 * is a block and its own ratio of an arm to the baseline is the unit,
 * so the fleet's verdict asks "is the typical host faster?", not "is
 * the pooled run faster?": a host with many fast runs weighs what a
 * host with few weighs. The host's own verdict is kept beside it, and
 * the hosts' verdicts are counted, because a typical ratio near 1 can
 * hide half the fleet faster and half slower.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "fleet.h"
#include "fleet-int.h"
#include "../experiment/analyze_doc.h"
#include "../experiment/experiment.h"
#include "../model/model_json.h"
#include "../model/experiment_doc.h"
#include "../report/log_text.h"
#include "../stats/analysis.h"
#include "../../util/error.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* The environment keys compared across hosts. */
enum { ENV_KERNEL, ENV_DEVICES, ENV_SCHEDULERS, NR_ENV };
static const char *const env_keys[NR_ENV] = {"kernel", "devices", "schedulers"};

/* What merge knows of one good host. */
struct host_row {
	struct fleet_host *h;
	struct experiment_doc checked; /* h's experiment analysed again from
					  its runs (fleet_host_reanalyze()) */
	double base_median;	       /* the baseline's median */
	double *ratio;		       /* per fleet arm; [0] = 1 */
	char *env[NR_ENV];
};

/* s, or "" for none. */
static const char *str(const char *s)
{
	return s ? s : "";
}

/* The environment of exp: its own, or its first run's. */
static const struct env_doc *env_doc_of(const struct experiment_doc *exp)
{
	if (exp->env)
		return exp->env;
	return exp->nr_runs && exp->runs[0].run ? exp->runs[0].run->env : NULL;
}

/* The kernel, devices and schedulers of exp's environment. */
static void env_of(const struct experiment_doc *exp, char *out[NR_ENV])
{
	const struct env_doc *env = env_doc_of(exp);
	const struct env_stack *stack = env ? env->stack : NULL;
	struct strbuf d = STRBUF_INIT, s = STRBUF_INIT;
	size_t i, n = stack ? stack->nr_devices : 0;

	out[ENV_KERNEL] = xstrdup(env ? str(env->kernel_release) : "");
	for (i = 0; i < n; i++) {
		const struct env_device *dev = &stack->devices[i];
		const char *model = str(dev->model);

		strbuf_addf(&d, "%s%s%s%s", i ? " " : "", str(dev->driver),
			    *model ? "/" : "", model);
		strbuf_addf(&s, "%s%s", i ? " " : "",
			    *str(dev->scheduler) ? dev->scheduler : "-");
	}
	out[ENV_DEVICES] = strbuf_detach(&d, NULL);
	out[ENV_SCHEDULERS] = strbuf_detach(&s, NULL);
}

/* Fail host h with the formatted reason. */
static void fail_host(struct fleet_host *h, const char *why)
{
	free(h->error);
	h->error = xstrdup(why);
	experiment_doc_free(h->exp);
	h->exp = NULL;
}

/* The metric exp is judged by, "" when it names none. */
static const char *metric_of(const struct experiment_doc *exp)
{
	return exp->metric ? str(exp->metric->name) : "";
}

/* The median of arm a (NULL: none), NaN when it has none. */
static double median_of(const struct exp_arm *a)
{
	return a && a->summary ? a->summary->median : NAN;
}

/* The ratio of verdict v (NULL: none), NaN when it has none. */
static double ratio_of(const struct exp_verdict *v)
{
	return v && v->cmp ? v->cmp->ratio : NAN;
}

/*
 * Check that host's experiment fits the reference's and fill row: the
 * baseline median and each fleet arm's ratio, from the host's runs
 * analysed again (row->checked), never from what its file concludes.
 * 0, or -EINVAL with why.
 */
static int fill_row(struct host_row *row, const struct experiment_doc *ref,
		    const char *const *labels, size_t nr_arms,
		    struct strbuf *why)
{
	struct experiment_doc *exp = row->h->exp;
	const struct experiment_doc *c = &row->checked;
	size_t k;
	double m;

	experiment_doc_init(&row->checked);
	if (strcmp(str(exp->workload), str(ref->workload)))
		return err_set(why, -EINVAL,
			       "it ran workload '%s', the fleet '%s'",
			       str(exp->workload), str(ref->workload));
	if (strcmp(metric_of(exp), metric_of(ref)))
		return err_set(why, -EINVAL,
			       "it judged by metric '%s', the fleet by '%s'",
			       metric_of(exp), metric_of(ref));
	if (exp->nr_arms != nr_arms ||
	    strcmp(fleet_baseline_label(exp), labels[0]))
		return err_set(why, -EINVAL,
			       "its arms are not the fleet's (baseline '%s', "
			       "%zu arms)",
			       fleet_baseline_label(exp), exp->nr_arms);
	if (fleet_same_factors(exp, ref, why) ||
	    fleet_same_settings(exp, ref, labels, nr_arms, why))
		return -EINVAL;
	if (fleet_host_reanalyze(exp, &row->checked, why))
		return -EINVAL;
	m = median_of(fleet_arm_by_label(c, labels[0]));
	if (!(m > 0) || !isfinite(m))
		return err_set(why, -EINVAL, "its baseline '%s' has no median",
			       labels[0]);
	row->base_median = m;
	row->ratio[0] = 1;
	for (k = 1; k < nr_arms; k++) {
		const struct exp_arm *a = fleet_arm_by_label(c, labels[k]);
		double r;

		if (!a)
			return err_set(why, -EINVAL, "it has no arm '%s'",
				       labels[k]);
		r = ratio_of(fleet_verdict_by_label(c, labels[k]));
		if (!(r > 0) || !isfinite(r))
			r = median_of(a) / m;
		if (!(r > 0) || !isfinite(r))
			return err_set(why, -EINVAL,
				       "its arm '%s' has no ratio and no "
				       "median",
				       labels[k]);
		row->ratio[k] = r;
	}
	env_of(c, row->env);
	return 0;
}

/* qsort: hosts by name. */
static int cmp_hosts(const void *a, const void *b)
{
	return strcmp(((const struct fleet_host *)a)->name,
		      ((const struct fleet_host *)b)->name);
}

/* The value most rows have for env key k (the first among equals). */
static const char *majority(const struct host_row *rows, size_t nr, int k)
{
	size_t i, j, best = 0, best_n = 0;

	for (i = 0; i < nr; i++) {
		size_t n = 0;

		for (j = 0; j < nr; j++)
			n += !strcmp(rows[i].env[k], rows[j].env[k]);
		if (n > best_n) {
			best_n = n;
			best = i;
		}
	}
	return nr ? rows[best].env[k] : "";
}

/* The agreement of the hosts' own verdicts (fleet.h). */
static const char *agreement(size_t faster, size_t slower, size_t equiv,
			     size_t n)
{
	if (faster && slower)
		return "mixed";
	if (n && faster == n)
		return "all faster";
	if (n && slower == n)
		return "all slower";
	if (n && equiv == n)
		return "all equivalent";
	if (faster)
		return "partly faster";
	if (slower)
		return "partly slower";
	return "unclear";
}

/* Count one more host under name in v's "hosts", in the order the
 * names first came. */
static void count_host(struct exp_verdict *v, const char *name)
{
	size_t i;

	for (i = 0; i < v->nr_hosts; i++)
		if (!strcmp(v->hosts[i].name, name)) {
			v->hosts[i].value++;
			return;
		}
	v->hosts = xrealloc(v->hosts, (v->nr_hosts + 1) * sizeof(*v->hosts));
	v->hosts[v->nr_hosts].name = xstrdup(name);
	v->hosts[v->nr_hosts++].value = 1;
}

/* Add the hosts' verdict counts and agreement to the fleet verdicts. */
static void add_heterogeneity(struct experiment_doc *exp,
			      const struct host_row *rows, size_t nr,
			      const char *const *labels, size_t nr_arms)
{
	size_t k, i;

	for (k = 1; k < nr_arms && exp->has_verdicts == MODEL_SET; k++) {
		struct exp_verdict *v =
		    (struct exp_verdict *)fleet_verdict_by_label(exp,
								 labels[k]);
		size_t f = 0, s = 0, e = 0;
		double lo = INFINITY, hi = -INFINITY;

		if (!v)
			continue;
		/* counted anew: two arms of one label (data from elsewhere)
		 * find the same verdict twice */
		for (i = 0; i < v->nr_hosts; i++)
			free(v->hosts[i].name);
		free(v->hosts);
		v->hosts = NULL;
		v->nr_hosts = 0;
		for (i = 0; i < nr; i++) {
			const struct exp_verdict *hv =
			    fleet_verdict_by_label(&rows[i].checked, labels[k]);
			const char *name = hv ? str(hv->verdict) : "no verdict";

			if (!*name)
				name = "no verdict";
			f += !strcmp(name, "faster");
			s += !strcmp(name, "slower");
			e += !strcmp(name, "equivalent");
			count_host(v, name);
			lo = fmin(lo, rows[i].ratio[k]);
			hi = fmax(hi, rows[i].ratio[k]);
		}
		v->has_hosts = MODEL_SET;
		free(v->agreement);
		v->agreement = xstrdup(agreement(f, s, e, nr));
		v->host_ratio_min = lo;
		v->has_host_ratio_min = MODEL_SET;
		v->host_ratio_max = hi;
		v->has_host_ratio_max = MODEL_SET;
		if (f && s) {
			struct strbuf w = STRBUF_INIT;

			free(v->pooled_verdict);
			v->pooled_verdict = xstrdup(str(v->verdict));
			free(v->verdict);
			v->verdict = xstrdup("mixed");
			strbuf_addf(&w,
				    "arm '%s': the hosts disagree: %zu "
				    "faster, %zu slower (ratios %.3f to "
				    "%.3f); the fleet has no single verdict",
				    labels[k], f, s, lo, hi);
			experiment_doc_add_warning(exp, w.buf);
			strbuf_release(&w);
		}
	}
}

/* The numbers and name of verdict v (NULL: none) into hv, each absent
 * where v has none. */
static void numbers_of(const struct exp_verdict *v,
		       struct fleet_host_verdict *hv)
{
	const struct exp_comparison *c = v ? v->cmp : NULL;

	hv->ratio = c ? c->ratio : NAN;
	hv->has_ratio = isnan(hv->ratio) ? MODEL_ABSENT : MODEL_SET;
	hv->ci_low = c ? c->ci_low : NAN;
	hv->has_ci_low = isnan(hv->ci_low) ? MODEL_ABSENT : MODEL_SET;
	hv->ci_high = c ? c->ci_high : NAN;
	hv->has_ci_high = isnan(hv->ci_high) ? MODEL_ABSENT : MODEL_SET;
	hv->p_adjusted = c ? c->p_adjusted : NAN;
	hv->has_p_adjusted = isnan(hv->p_adjusted) ? MODEL_ABSENT : MODEL_SET;
	hv->verdict = v && v->verdict ? xstrdup(v->verdict) : NULL;
}

/*
 * A host's own verdicts, shortened, for the fleet's host list: what its
 * runs give (row->checked), into o's verdicts. Where its file states
 * another verdict, the entry keeps that as "stated" and the host is
 * named in exp's warnings as inconsistent; o's consistent says whether
 * any was.
 */
static void host_verdicts(const struct host_row *row, const char *const *labels,
			  size_t nr_arms, struct experiment_doc *exp,
			  struct fleet_host_doc *o)
{
	struct strbuf what = STRBUF_INIT, w = STRBUF_INIT;
	size_t k;

	o->verdicts = xcalloc(nr_arms + 1, sizeof(*o->verdicts));
	o->has_verdicts = MODEL_SET;
	o->consistent = true;
	o->has_consistent = MODEL_SET;
	for (k = 1; k < nr_arms; k++) {
		const struct exp_verdict *v =
		    fleet_verdict_by_label(&row->checked, labels[k]);
		const struct exp_verdict *sv =
		    fleet_verdict_by_label(row->h->exp, labels[k]);
		const struct exp_verdict *marks;
		struct fleet_host_verdict *hv = &o->verdicts[o->nr_verdicts++];
		bool differs;

		strbuf_reset(&what);
		differs = fleet_verdict_disagrees(sv, v, &what);
		hv->arm = (int64_t)k;
		hv->label = xstrdup(labels[k]);
		numbers_of(v, hv);
		if (!v)
			hv->verdict = xstrdup("no verdict");
		/* the host's own marks: its runs' flags, as its verdict had
		 * (recomputed where its file's verdict is not its runs') */
		marks = differs ? v : (sv ? sv : v);
		if (v && marks->has_suspect == MODEL_SET) {
			exp_suspects_copy(marks->suspect, marks->nr_suspect,
					  &hv->suspect);
			hv->nr_suspect = marks->nr_suspect;
			hv->has_suspect = MODEL_SET;
		}
		if (differs) {
			struct fleet_host_verdict *st = xcalloc(1, sizeof(*st));

			numbers_of(sv, st);
			hv->stated = st;
			strbuf_addf(&w, "%sarm '%s': %s", w.len ? "; " : "",
				    labels[k], what.buf);
			o->consistent = false;
		}
	}
	if (w.len) {
		struct strbuf m = STRBUF_INIT;

		strbuf_addf(&m,
			    "host '%s' is inconsistent: its file's verdicts "
			    "are not what its runs give (%s); the fleet counts "
			    "what its runs give",
			    row->h->name, w.buf);
		experiment_doc_add_warning(exp, m.buf);
		strbuf_release(&m);
	}
	strbuf_release(&what);
	strbuf_release(&w);
}

/* What came of host's revert, into its entry o; one that was not done
 * is named in the fleet's revert_not_done and warned about in exp. */
static void add_revert(struct fleet_host_doc *o, const struct fleet_host *host,
		       struct fleet_doc *fleet, struct experiment_doc *exp)
{
	struct strbuf w = STRBUF_INIT;
	bool own;

	o->revert = xstrdup(host->revert);
	if (host->revert_error)
		o->revert_error = xstrdup(host->revert_error);
	if (!strcmp(host->revert, "ok"))
		return;
	fleet->revert_not_done[fleet->nr_revert_not_done++] =
	    xstrdup(host->name);
	/* the reason is in the host's failure when the revert is it */
	own = host->task && !strcmp(host->task, "iotrial revert");
	strbuf_addf(&w,
		    "host '%s': iotrial revert %s there, so it may still hold "
		    "a changed setting; run 'iotrial revert' on it%s%s",
		    host->name,
		    strcmp(host->revert, "not run") ? "failed" : "did not run",
		    host->revert_error && !own ? ": " : "",
		    host->revert_error && !own ? host->revert_error : "");
	experiment_doc_add_warning(exp, w.buf);
	strbuf_release(&w);
}

/*
 * A good host's id, and an observe host's kind, windows and switchback
 * analysis, into o: they stay its own, since each host's clock and load
 * are its own and do not pool into the fleet's blocks. Taken from its
 * experiment (e), which no longer has them.
 */
static void host_own_parts(struct experiment_doc *e, struct fleet_host_doc *o)
{
	o->id = e->id;
	o->kind = e->kind;
	o->windows = e->windows;
	o->nr_windows = e->nr_windows;
	o->has_windows = e->has_windows;
	o->switchback = e->switchback;
	e->id = e->kind = NULL;
	e->windows = NULL;
	e->nr_windows = 0;
	e->has_windows = MODEL_ABSENT;
	e->switchback = NULL;
}

/* The "fleet" member: every host, good and failed (fleet.h), into
 * fleet; its warnings into exp's. */
static void fleet_member(struct fleet_hosts *h, const struct host_row *rows,
			 size_t nr, const char *const *labels, size_t nr_arms,
			 struct experiment_doc *exp, struct fleet_doc *fleet)
{
	char **maj[NR_ENV];
	size_t i, r = 0, failed = 0;
	int k;

	fleet->reference = xcalloc(1, sizeof(*fleet->reference));
	maj[ENV_KERNEL] = &fleet->reference->kernel;
	maj[ENV_DEVICES] = &fleet->reference->devices;
	maj[ENV_SCHEDULERS] = &fleet->reference->schedulers;
	for (k = 0; k < NR_ENV; k++)
		*maj[k] = xstrdup(majority(rows, nr, k));
	fleet->host_list = xcalloc(h->nr + 1, sizeof(*fleet->host_list));
	fleet->revert_not_done =
	    xcalloc(h->nr + 1, sizeof(*fleet->revert_not_done));
	for (i = 0; i < h->nr; i++) {
		struct fleet_host *host = &h->hosts[i];
		struct fleet_host_doc *o = &fleet->host_list[i];
		struct strbuf w = STRBUF_INIT;

		fleet->nr_host_list++;
		o->host = xstrdup(host->name);
		o->status = xstrdup(host->error ? "failed" : "ok");
		if (host->source)
			o->source = xstrdup(host->source);
		if (host->revert)
			add_revert(o, host, fleet, exp);
		if (host->error) {
			failed++;
			if (host->task)
				o->task = xstrdup(host->task);
			o->error = xstrdup(host->error);
			strbuf_addf(&w, "host '%s' failed%s%s%s: %s",
				    host->name, host->task ? " at '" : "",
				    host->task ? host->task : "",
				    host->task ? "'" : "", host->error);
			experiment_doc_add_warning(exp, w.buf);
		} else {
			const struct host_row *row = &rows[r];
			char **env[NR_ENV] = {&o->kernel, &o->devices,
					      &o->schedulers};

			o->block = (int64_t)r;
			o->has_block = MODEL_SET;
			o->differs = xcalloc(NR_ENV + 1, sizeof(*o->differs));
			o->has_differs = MODEL_SET;
			for (k = 0; k < NR_ENV; k++) {
				*env[k] = xstrdup(row->env[k]);
				if (strcmp(row->env[k], *maj[k])) {
					o->differs[o->nr_differs++] =
					    xstrdup(env_keys[k]);
					strbuf_addf(&w,
						    "%s%s '%s' (most hosts: "
						    "'%s')",
						    w.len ? ", " : "",
						    env_keys[k], row->env[k],
						    *maj[k]);
				}
			}
			host_verdicts(row, labels, nr_arms, exp, o);
			host_own_parts(host->exp, o);
			if (w.len) {
				struct strbuf m = STRBUF_INIT;

				strbuf_addf(&m,
					    "host '%s' differs from the "
					    "fleet: %s",
					    host->name, w.buf);
				experiment_doc_add_warning(exp, m.buf);
				strbuf_release(&m);
			}
			r++;
		}
		strbuf_release(&w);
	}
	fleet->nr_hosts = (int64_t)h->nr;
	fleet->nr_ok = (int64_t)nr;
	fleet->nr_failed = (int64_t)failed;
}

/*
 * The experiment of the good hosts, analysed, into out (initialised
 * here): one run per arm and host, host-major within each arm, whose
 * block is its host. 0, or -errno with err set (out released).
 */
static int build(const struct experiment_doc *ref, const struct host_row *rows,
		 size_t nr, const char *const *labels, size_t nr_arms,
		 struct experiment_doc *out, struct strbuf *err)
{
	struct experiment_src src = {0};
	struct experiment_src_arm *arms = xcalloc(nr_arms, sizeof(*arms));
	struct experiment_src_run *runs = xcalloc(nr_arms * nr, sizeof(*runs));
	const char **names = xcalloc(nr, sizeof(*names));
	const struct env_doc **envs = xcalloc(nr, sizeof(*envs));
	struct strbuf why = STRBUF_INIT;
	struct analysis_opts o;
	struct env_doc env;
	size_t k, i;
	int ret;

	for (k = 0; k < nr_arms; k++) {
		arms[k].label = labels[k];
		arms[k].runs = &runs[k * nr];
		arms[k].nr = nr;
		for (i = 0; i < nr; i++) {
			struct experiment_src_run *run = &runs[k * nr + i];

			run->metric = rows[i].base_median * rows[i].ratio[k];
			run->source = rows[i].h->source;
			run->seq = -1;
		}
	}
	src.workload = str(ref->workload);
	src.target = str(ref->target);
	src.params = ref->params;
	src.nr_params = ref->nr_params;
	src.has_params = ref->has_params == MODEL_SET;
	src.seed = "none";
	src.metric = metric_of(ref);
	src.higher_is_better = ref->metric && ref->metric->higher_is_better;
	if (ref->metric && ref->metric->unit && *ref->metric->unit)
		src.metric_unit = ref->metric->unit;
	src.arms = arms;
	src.nr_arms = nr_arms;
	src.stopped = "merged from the hosts";
	src.runs_mode = "fleet";
	src.warnings = true;
	/* the fleet's environment, not the reference host's */
	for (i = 0; i < nr; i++) {
		names[i] = rows[i].h->name;
		envs[i] = env_doc_of(rows[i].h->exp);
	}
	fleet_env(names, envs, nr, &env);
	src.env = &env;
	experiment_build(&src, out);
	env_doc_release(&env);
	free(names);
	free(envs);
	free(arms);
	free(runs);
	/* the runs are host-major within each arm: block = host */
	for (k = 0; k < out->nr_runs; k++) {
		struct exp_run *run = &out->runs[k];

		exp_run_order_last(run, "block");
		exp_run_order_last(run, "host");
		run->block = (int64_t)(k % nr);
		run->has_block = MODEL_SET;
		free(run->host);
		run->host = xstrdup(rows[k % nr].h->name);
	}
	/* the factors and each arm's settings, as the hosts ran them */
	fleet_copy_design(out, ref, labels, nr_arms);
	analysis_opts_init(&o);
	if (out->has_alpha == MODEL_SET)
		o.alpha = out->alpha;
	if (out->has_equivalence == MODEL_SET)
		o.margin = out->equivalence;
	ret = experiment_analyze_built(out, &o, &why);
	if (ret)
		err_set(err, ret, "cannot analyse the hosts' ratios: %s",
			why.buf);
	strbuf_release(&why);
	return ret;
}

/*
 * The reference host's experiment: of the hosts with a result, the
 * first whose factors and settings most hosts share, so that no single
 * host's file decides what the fleet ran; NULL when none has one.
 */
static const struct experiment_doc *reference(struct fleet_hosts *h)
{
	struct strbuf why = STRBUF_INIT;
	const struct experiment_doc *best = NULL;
	size_t i, j, best_n = 0;

	for (i = 0; i < h->nr; i++) {
		size_t n = 0;

		if (!h->hosts[i].exp || h->hosts[i].error)
			continue;
		for (j = 0; j < h->nr; j++)
			n += h->hosts[j].exp && !h->hosts[j].error &&
			     fleet_same_plan(h->hosts[j].exp, h->hosts[i].exp,
					     &why);
		if (n > best_n) {
			best_n = n;
			best = h->hosts[i].exp;
		}
	}
	strbuf_release(&why);
	return best;
}

/*
 * A host whose revert did not run or failed may still hold a change: it
 * is failed, with the revert's reason unless another task failed first.
 */
static void mark_reverts(struct fleet_hosts *h)
{
	size_t i;

	for (i = 0; i < h->nr; i++) {
		struct fleet_host *host = &h->hosts[i];

		if (!host->revert || !strcmp(host->revert, "ok") || host->error)
			continue;
		fail_host(host, host->revert_error ? host->revert_error
						   : "iotrial revert failed");
		free(host->task);
		host->task = xstrdup("iotrial revert");
	}
}

int fleet_merge(struct fleet_hosts *h, struct experiment_doc *out,
		bool *out_partial, struct strbuf *err)
{
	struct strbuf why = STRBUF_INIT;
	struct host_row *rows = NULL;
	struct experiment_doc ref;
	const struct experiment_doc *best;
	const char **labels = NULL;
	size_t i, nr = 0, nr_arms = 0;
	int ret = 0, k;

	experiment_doc_init(out);
	experiment_doc_init(&ref);
	*out_partial = false;
	qsort(h->hosts, h->nr, sizeof(*h->hosts), cmp_hosts);
	mark_reverts(h);
	best = reference(h);
	if (!best) {
		ret =
		    err_set(err, -EINVAL, "no host of the %zu has a result%s%s",
			    h->nr, h->nr ? "; the first failed: " : "",
			    h->nr ? h->hosts[0].error : "");
		goto out;
	}
	/* its own copy: the reference host may fail below */
	experiment_doc_copy(&ref, best);
	nr_arms = fleet_arm_labels(&ref, &labels);
	rows = xcalloc(h->nr, sizeof(*rows));
	for (i = 0; i < h->nr; i++) {
		struct host_row *row = &rows[nr];

		if (h->hosts[i].error || !h->hosts[i].exp) {
			if (!h->hosts[i].error)
				fail_host(&h->hosts[i], "no result");
			continue;
		}
		row->h = &h->hosts[i];
		row->ratio = xcalloc(nr_arms, sizeof(*row->ratio));
		strbuf_reset(&why);
		if (fill_row(row, &ref, labels, nr_arms, &why)) {
			fail_host(&h->hosts[i], why.buf);
			experiment_doc_release(&row->checked);
			free(row->ratio);
			for (k = 0; k < NR_ENV; k++)
				free(row->env[k]);
			memset(row, 0, sizeof(*row));
			continue;
		}
		nr++;
	}
	if (!nr) {
		ret = err_set(err, -EINVAL,
			      "no host of the %zu has a result that fits the "
			      "first's: %s",
			      h->nr, h->hosts[0].error);
		goto out;
	}
	ret = build(&ref, rows, nr, labels, nr_arms, out, err);
	if (ret)
		goto out;
	add_heterogeneity(out, rows, nr, labels, nr_arms);
	out->fleet = xcalloc(1, sizeof(*out->fleet));
	fleet_member(h, rows, nr, labels, nr_arms, out, out->fleet);
	free(out->origin);
	out->origin = xstrdup(EXP_ORIGIN_FLEET);
	*out_partial = nr < h->nr;
out:
	if (ret)
		experiment_doc_release(out);
	for (i = 0; rows && i < h->nr; i++) {
		experiment_doc_release(&rows[i].checked);
		free(rows[i].ratio);
		for (k = 0; k < NR_ENV; k++)
			free(rows[i].env[k]);
	}
	free(rows);
	free(labels);
	experiment_doc_release(&ref);
	strbuf_release(&why);
	return ret;
}

int fleet_merge_keep(struct fleet_hosts *h, const char *db, bool db_skip,
		     struct experiment_doc *out, bool *out_partial,
		     char out_id[STORE_ID_LEN + 1], struct strbuf *err)
{
	int ret = fleet_merge(h, out, out_partial, err);

	out_id[0] = '\0';
	if (ret || db_skip)
		return ret;
	/* the store gives it its id */
	return store_save_doc_at(db, out, out_id, err);
}
