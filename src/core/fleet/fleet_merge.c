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
#include "../experiment/experiment.h"
#include "../model/model_tree.h"
#include "../report/expjson.h"
#include "../report/suspect.h"
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
	struct json_object *checked; /* h's experiment analysed again from
					its runs (fleet_host_reanalyze()) */
	double base_median;	     /* the baseline's median */
	double *ratio;		     /* per fleet arm; [0] = 1 */
	char *env[NR_ENV];
};

/* The verdict object of arm label in exp, or NULL. */
static struct json_object *verdict_by_label(struct json_object *exp,
					    const char *label)
{
	struct json_object *vs =
	    expjson_get_type(exp, "verdicts", json_type_array);
	size_t i, n = vs ? json_object_array_length(vs) : 0;

	for (i = 0; i < n; i++) {
		struct json_object *v = json_object_array_get_idx(vs, i);

		if (!strcmp(expjson_str(v, "label"), label))
			return v;
	}
	return NULL;
}

/* The kernel, devices and schedulers of exp's environment. */
static void env_of(struct json_object *exp, char *out[NR_ENV])
{
	struct json_object *env = expjson_env(exp);
	struct json_object *stack =
	    expjson_get_type(env, "stack", json_type_object);
	struct json_object *devs =
	    expjson_get_type(stack, "devices", json_type_array);
	struct strbuf d = STRBUF_INIT, s = STRBUF_INIT;
	size_t i, n = devs ? json_object_array_length(devs) : 0;

	out[ENV_KERNEL] = xstrdup(expjson_str(env, "kernel_release"));
	for (i = 0; i < n; i++) {
		struct json_object *dev = json_object_array_get_idx(devs, i);
		const char *model = expjson_str(dev, "model");

		strbuf_addf(&d, "%s%s%s%s", i ? " " : "",
			    expjson_str(dev, "driver"), *model ? "/" : "",
			    model);
		strbuf_addf(&s, "%s%s", i ? " " : "",
			    *expjson_str(dev, "scheduler")
				? expjson_str(dev, "scheduler")
				: "-");
	}
	out[ENV_DEVICES] = strbuf_detach(&d, NULL);
	out[ENV_SCHEDULERS] = strbuf_detach(&s, NULL);
}

/* Fail host h with the formatted reason. */
static void fail_host(struct fleet_host *h, const char *why)
{
	free(h->error);
	h->error = xstrdup(why);
	json_object_put(h->exp);
	h->exp = NULL;
}

/*
 * Check that host's experiment fits the reference's and fill row: the
 * baseline median and each fleet arm's ratio, from the host's runs
 * analysed again (row->checked), never from what its file concludes.
 * 0, or -EINVAL with why.
 */
static int fill_row(struct host_row *row, struct json_object *ref,
		    const char *const *labels, size_t nr_arms,
		    struct strbuf *why)
{
	struct json_object *exp = row->h->exp, *a, *v;
	size_t k;
	double m;

	if (strcmp(expjson_str(exp, "workload"), expjson_str(ref, "workload")))
		return err_set(
		    why, -EINVAL, "it ran workload '%s', the fleet '%s'",
		    expjson_str(exp, "workload"), expjson_str(ref, "workload"));
	if (strcmp(expjson_str(expjson_get(exp, "metric"), "name"),
		   expjson_str(expjson_get(ref, "metric"), "name")))
		return err_set(why, -EINVAL,
			       "it judged by metric '%s', the fleet by '%s'",
			       expjson_str(expjson_get(exp, "metric"), "name"),
			       expjson_str(expjson_get(ref, "metric"), "name"));
	a = expjson_get_type(exp, "arms", json_type_array);
	if (!a || json_object_array_length(a) != nr_arms ||
	    strcmp(fleet_baseline_label(exp), labels[0]))
		return err_set(why, -EINVAL,
			       "its arms are not the fleet's (baseline '%s', "
			       "%zu arms)",
			       fleet_baseline_label(exp),
			       a ? json_object_array_length(a) : 0);
	if (fleet_same_factors(exp, ref, why) ||
	    fleet_same_settings(exp, ref, labels, nr_arms, why) ||
	    fleet_host_reanalyze(exp, &row->checked, why))
		return -EINVAL;
	exp = row->checked;
	m = expjson_num(fleet_arm_by_label(exp, labels[0], NULL), "median");
	if (!(m > 0) || !isfinite(m))
		return err_set(why, -EINVAL, "its baseline '%s' has no median",
			       labels[0]);
	row->base_median = m;
	row->ratio[0] = 1;
	for (k = 1; k < nr_arms; k++) {
		double r;

		a = fleet_arm_by_label(exp, labels[k], NULL);
		if (!a)
			return err_set(why, -EINVAL, "it has no arm '%s'",
				       labels[k]);
		v = verdict_by_label(exp, labels[k]);
		r = expjson_num(v, "ratio");
		if (!(r > 0) || !isfinite(r))
			r = expjson_num(a, "median") / m;
		if (!(r > 0) || !isfinite(r))
			return err_set(why, -EINVAL,
				       "its arm '%s' has no ratio and no "
				       "median",
				       labels[k]);
		row->ratio[k] = r;
	}
	env_of(exp, row->env);
	return 0;
}

/* qsort: hosts by name. */
static int cmp_hosts(const void *a, const void *b)
{
	return strcmp(((const struct fleet_host *)a)->name,
		      ((const struct fleet_host *)b)->name);
}

/* Copy member key of from into to, when from has it. */
static void copy_member(struct json_object *to, struct json_object *from,
			const char *key)
{
	struct json_object *v = expjson_get(from, key);

	if (v)
		json_object_object_add(to, key, json_object_get(v));
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

/* Add the hosts' verdict counts and agreement to the fleet verdicts. */
static void add_heterogeneity(struct json_object *exp,
			      const struct host_row *rows, size_t nr,
			      const char *const *labels, size_t nr_arms,
			      struct json_object *warnings)
{
	struct json_object *vs =
	    expjson_get_type(exp, "verdicts", json_type_array);
	size_t k, i;

	for (k = 1; k < nr_arms && vs; k++) {
		struct json_object *v = verdict_by_label(exp, labels[k]);
		struct json_object *counts = json_object_new_object();
		size_t f = 0, s = 0, e = 0;
		double lo = INFINITY, hi = -INFINITY;
		const char *agree;

		if (!v)
			continue;
		for (i = 0; i < nr; i++) {
			struct json_object *hv =
			    verdict_by_label(rows[i].checked, labels[k]);
			const char *name =
			    hv ? expjson_str(hv, "verdict") : "no verdict";
			struct json_object *c;

			if (!*name)
				name = "no verdict";
			f += !strcmp(name, "faster");
			s += !strcmp(name, "slower");
			e += !strcmp(name, "equivalent");
			c = expjson_get(counts, name);
			json_object_object_add(
			    counts, name,
			    json_object_new_int(
				(c ? json_object_get_int(c) : 0) + 1));
			lo = fmin(lo, rows[i].ratio[k]);
			hi = fmax(hi, rows[i].ratio[k]);
		}
		agree = agreement(f, s, e, nr);
		json_object_object_add(v, "hosts", counts);
		json_object_object_add(v, "agreement",
				       json_object_new_string(agree));
		json_object_object_add(v, "host_ratio_min",
				       json_object_new_double(lo));
		json_object_object_add(v, "host_ratio_max",
				       json_object_new_double(hi));
		if (f && s) {
			struct strbuf w = STRBUF_INIT;

			json_object_object_add(
			    v, "pooled_verdict",
			    json_object_new_string(expjson_str(v, "verdict")));
			json_object_object_add(v, "verdict",
					       json_object_new_string("mixed"));
			strbuf_addf(&w,
				    "arm '%s': the hosts disagree: %zu "
				    "faster, %zu slower (ratios %.3f to "
				    "%.3f); the fleet has no single verdict",
				    labels[k], f, s, lo, hi);
			json_object_array_add(warnings,
					      json_object_new_string(w.buf));
			strbuf_release(&w);
		}
	}
}

/* A number of the verdict tree v into *out, absent (*has) where v has
 * none or null: the seam until the host's experiment is a document. */
static void num_of(struct json_object *v, const char *key, double *out,
		   uint8_t *has)
{
	*out = expjson_num(v, key);
	*has = expjson_get(v, key) ? MODEL_SET : MODEL_ABSENT;
}

/* A string of the tree v, or NULL where v has none. */
static char *str_of(struct json_object *v, const char *key)
{
	return expjson_get(v, key) ? xstrdup(expjson_str(v, key)) : NULL;
}

/*
 * A host's own verdicts, shortened, for the fleet's host list: what its
 * runs give (row->checked), into o's verdicts. Where its file states
 * another verdict, the entry keeps that as "stated" and the host is
 * named in warnings as inconsistent; o's consistent says whether any
 * was.
 */
static void host_verdicts(const struct host_row *row, const char *const *labels,
			  size_t nr_arms, struct json_object *warnings,
			  struct fleet_host_doc *o)
{
	struct json_object *exp = row->h->exp;
	struct strbuf what = STRBUF_INIT, w = STRBUF_INIT, e = STRBUF_INIT;
	size_t k;

	o->verdicts = xcalloc(nr_arms + 1, sizeof(*o->verdicts));
	o->has_verdicts = MODEL_SET;
	o->consistent = true;
	o->has_consistent = MODEL_SET;
	for (k = 1; k < nr_arms; k++) {
		struct json_object *v =
		    verdict_by_label(row->checked, labels[k]);
		struct json_object *sv = verdict_by_label(exp, labels[k]);
		struct fleet_host_verdict *hv = &o->verdicts[o->nr_verdicts++];
		bool differs;

		strbuf_reset(&what);
		differs = fleet_verdict_disagrees(sv, v, &what);
		hv->arm = (int64_t)k;
		hv->label = xstrdup(labels[k]);
		num_of(v, "ratio", &hv->ratio, &hv->has_ratio);
		num_of(v, "ci_low", &hv->ci_low, &hv->has_ci_low);
		num_of(v, "ci_high", &hv->ci_high, &hv->has_ci_high);
		num_of(v, "p_adjusted", &hv->p_adjusted, &hv->has_p_adjusted);
		hv->verdict = v ? str_of(v, "verdict") : xstrdup("no verdict");
		/* the host's own marks: its runs' flags, as its verdict had
		 * (recomputed where its file's verdict is not its runs') */
		if (v) {
			struct json_object *sr =
			    differs ? suspect_reasons(row->checked, v)
				    : suspect_reasons(exp, sv ? sv : v);

			strbuf_reset(&e);
			if (!exp_suspects_from_tree(sr, &hv->suspect,
						    &hv->nr_suspect, &e))
				hv->has_suspect = MODEL_SET;
			json_object_put(sr);
		}
		if (differs) {
			struct fleet_host_verdict *st = xcalloc(1, sizeof(*st));

			num_of(sv, "ratio", &st->ratio, &st->has_ratio);
			num_of(sv, "ci_low", &st->ci_low, &st->has_ci_low);
			num_of(sv, "ci_high", &st->ci_high, &st->has_ci_high);
			num_of(sv, "p_adjusted", &st->p_adjusted,
			       &st->has_p_adjusted);
			st->verdict = str_of(sv, "verdict");
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
		json_object_array_add(warnings, json_object_new_string(m.buf));
		strbuf_release(&m);
	}
	strbuf_release(&what);
	strbuf_release(&w);
	strbuf_release(&e);
}

/* What came of host's revert, into its entry o; one that was not done
 * is named in the fleet's revert_not_done and warned about. */
static void add_revert(struct fleet_host_doc *o, const struct fleet_host *host,
		       struct fleet_doc *fleet, struct json_object *warnings)
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
	json_object_array_add(warnings, json_object_new_string(w.buf));
	strbuf_release(&w);
}

/*
 * A good host's id, and an observe host's kind, windows and switchback
 * analysis, into o: they stay its own, since each host's clock and load
 * are its own and do not pool into the fleet's blocks. Taken from its
 * experiment decoded: the seam until it is a document.
 */
static void host_own_parts(struct json_object *exp, struct fleet_host_doc *o)
{
	struct strbuf err = STRBUF_INIT;
	struct experiment_doc e;

	if (!experiment_doc_from_tree(exp, &e, 0, &err)) {
		o->id = e.id;
		o->kind = e.kind;
		o->windows = e.windows;
		o->nr_windows = e.nr_windows;
		o->has_windows = e.has_windows;
		o->switchback = e.switchback;
		e.id = e.kind = NULL;
		e.windows = NULL;
		e.nr_windows = 0;
		e.has_windows = MODEL_ABSENT;
		e.switchback = NULL;
	}
	experiment_doc_release(&e);
	strbuf_release(&err);
}

/* The "fleet" member: every host, good and failed (fleet.h), into
 * fleet. */
static void fleet_member(struct fleet_hosts *h, const struct host_row *rows,
			 size_t nr, const char *const *labels, size_t nr_arms,
			 struct json_object *warnings, struct fleet_doc *fleet)
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
			add_revert(o, host, fleet, warnings);
		if (host->error) {
			failed++;
			if (host->task)
				o->task = xstrdup(host->task);
			o->error = xstrdup(host->error);
			strbuf_addf(&w, "host '%s' failed%s%s%s: %s",
				    host->name, host->task ? " at '" : "",
				    host->task ? host->task : "",
				    host->task ? "'" : "", host->error);
			json_object_array_add(warnings,
					      json_object_new_string(w.buf));
		} else {
			const struct host_row *row = &rows[r];
			char **env[NR_ENV] = {&o->kernel, &o->devices,
					      &o->schedulers};

			o->block = (int64_t)r;
			o->has_block = MODEL_SET;
			host_own_parts(host->exp, o);
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
			host_verdicts(row, labels, nr_arms, warnings, o);
			if (w.len) {
				struct strbuf m = STRBUF_INIT;

				strbuf_addf(&m,
					    "host '%s' differs from the "
					    "fleet: %s",
					    host->name, w.buf);
				json_object_array_add(
				    warnings, json_object_new_string(m.buf));
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

/* Build the experiment object of the good hosts (unanalysed). */
static struct json_object *build(struct json_object *ref,
				 const struct host_row *rows, size_t nr,
				 const char *const *labels, size_t nr_arms)
{
	struct experiment_src src = {0};
	struct experiment_src_arm *arms = xcalloc(nr_arms, sizeof(*arms));
	struct experiment_src_run *runs = xcalloc(nr_arms * nr, sizeof(*runs));
	struct json_object *exp, *list, *env;
	const char **names = xcalloc(nr, sizeof(*names));
	struct json_object **envs = xcalloc(nr, sizeof(*envs));
	size_t k, i;

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
	src.workload = expjson_str(ref, "workload");
	src.target = expjson_target(ref);
	src.params = expjson_get(ref, "params");
	src.seed = "none";
	src.metric = expjson_str(expjson_get(ref, "metric"), "name");
	src.higher_is_better = json_object_get_boolean(
	    expjson_get(expjson_get(ref, "metric"), "higher_is_better"));
	if (*expjson_str(expjson_get(ref, "metric"), "unit"))
		src.metric_unit =
		    expjson_str(expjson_get(ref, "metric"), "unit");
	src.arms = arms;
	src.nr_arms = nr_arms;
	src.stopped = "merged from the hosts";
	src.runs_mode = "fleet";
	src.warnings = true;
	/* the fleet's environment, not the reference host's */
	for (i = 0; i < nr; i++) {
		names[i] = rows[i].h->name;
		envs[i] = expjson_env(rows[i].h->exp);
	}
	env = fleet_env(names, envs, nr);
	src.env = env;
	exp = experiment_build(&src);
	json_object_put(env);
	free(names);
	free(envs);
	/* the runs are host-major within each arm: block = host */
	list = expjson_get_type(exp, "runs", json_type_array);
	for (k = 0; list && k < json_object_array_length(list); k++) {
		struct json_object *run = json_object_array_get_idx(list, k);

		json_object_object_add(run, "block",
				       json_object_new_int((int)(k % nr)));
		json_object_object_add(
		    run, "host", json_object_new_string(rows[k % nr].h->name));
	}
	/* the factors and each arm's settings, as the hosts ran them */
	copy_member(exp, ref, "factors");
	list = expjson_get_type(exp, "arms", json_type_array);
	for (k = 0; list && k < nr_arms; k++) {
		struct json_object *a = json_object_array_get_idx(list, k);
		struct json_object *from =
		    fleet_arm_by_label(ref, labels[k], NULL);

		copy_member(a, from, "settings");
		copy_member(a, from, "asked");
	}
	copy_member(exp, ref, "alpha");
	copy_member(exp, ref, "equivalence");
	free(arms);
	free(runs);
	return exp;
}

/*
 * The reference host's experiment (a reference taken): of the hosts
 * with a result, the first whose factors and settings most hosts share,
 * so that no single host's file decides what the fleet ran.
 */
static struct json_object *reference(struct fleet_hosts *h)
{
	struct strbuf why = STRBUF_INIT;
	struct json_object *best = NULL;
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
	return best ? json_object_get(best) : NULL;
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

int fleet_merge(struct fleet_hosts *h, struct json_object **out,
		bool *out_partial, struct strbuf *err)
{
	struct strbuf why = STRBUF_INIT;
	struct host_row *rows = NULL;
	struct json_object *ref = NULL, *exp = NULL, *warnings, *b;
	struct analysis_opts o;
	const char **labels = NULL;
	size_t i, nr = 0, nr_arms = 0;
	int ret = 0, k;

	*out = NULL;
	*out_partial = false;
	qsort(h->hosts, h->nr, sizeof(*h->hosts), cmp_hosts);
	mark_reverts(h);
	ref = reference(h);
	if (!ref) {
		ret =
		    err_set(err, -EINVAL, "no host of the %zu has a result%s%s",
			    h->nr, h->nr ? "; the first failed: " : "",
			    h->nr ? h->hosts[0].error : "");
		goto out;
	}
	nr_arms = fleet_arm_labels(ref, &labels);
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
		if (fill_row(row, ref, labels, nr_arms, &why)) {
			fail_host(&h->hosts[i], why.buf);
			json_object_put(row->checked);
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
	exp = build(ref, rows, nr, labels, nr_arms);
	analysis_opts_init(&o);
	if ((b = expjson_get(exp, "alpha")))
		o.alpha = json_object_get_double(b);
	if ((b = expjson_get(exp, "equivalence")))
		o.margin = json_object_get_double(b);
	ret = experiment_analyze_json(exp, &o, &why);
	if (ret) {
		err_set(err, ret, "cannot analyse the hosts' ratios: %s",
			why.buf);
		goto out;
	}
	warnings = expjson_get_type(exp, "warnings", json_type_array);
	add_heterogeneity(exp, rows, nr, labels, nr_arms, warnings);
	{
		struct fleet_doc fleet = {0};

		fleet_member(h, rows, nr, labels, nr_arms, warnings, &fleet);
		/* the seam until the merged experiment is a document */
		json_object_object_add(exp, "fleet", fleet_doc_to_tree(&fleet));
		fleet_doc_release(&fleet);
	}
	expjson_set_origin(exp, EXP_ORIGIN_FLEET);
	*out_partial = nr < h->nr;
	*out = exp;
	exp = NULL;
out:
	for (i = 0; rows && i < h->nr; i++) {
		json_object_put(rows[i].checked);
		free(rows[i].ratio);
		for (k = 0; k < NR_ENV; k++)
			free(rows[i].env[k]);
	}
	free(rows);
	free(labels);
	json_object_put(exp);
	json_object_put(ref);
	strbuf_release(&why);
	return ret;
}

int fleet_merge_keep(struct fleet_hosts *h, const char *db, bool db_skip,
		     struct json_object **out, bool *out_partial,
		     char out_id[STORE_ID_LEN + 1], struct strbuf *err)
{
	struct log_columns cols;
	int ret = fleet_merge(h, out, out_partial, err);

	out_id[0] = '\0';
	if (ret || db_skip)
		return ret;
	log_columns_of(*out, &cols);
	ret = store_save(db, *out, &cols, out_id, err);
	log_columns_release(&cols);
	return ret;
}
