/*
 * Readers for results measured elsewhere (import.h). The hard part is
 * fio: its JSON has one object per job with "read" and "write" halves,
 * the pattern hides in "job options" or "global options", and bandwidth
 * is in KiB/s. We sum the jobs (what fio's group_reporting would show),
 * pick IOPS for random patterns and MB/s for sequential ones, as iotrial
 * judges its own workloads, and keep the original document as the run's
 * record so nothing fio measured is lost.
 *
 * Input comes from files users hand us, so every member is checked for
 * presence and type before use, and sizes and numbers are bounded.
 * Every string in a document, member names too, is made printable
 * right after decoding (text.h): whatever a file holds is later printed
 * by import, show, log and diff, and must not reach a terminal raw.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analyze_doc.h"
#include "experiment.h"
#include "import.h"
#include "result_json.h"
#include "../model/model_json.h"
#include "../model/experiment_doc.h"
#include "../../util/error.h"
#include "../../util/text.h"
#include "../../util/userfile.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/*
 * A copy of s that is safe to print on one line: control characters
 * and broken UTF-8 become '?' (text.h), and past max bytes (0: no
 * limit) it ends in "...". Files are not trusted to hold only text.
 */
static char *clean_dup(const char *s, size_t max)
{
	size_t n = strlen(s), keep = max && n > max ? max : n;
	char *out = xmalloc(keep + 4);

	memcpy(out, s, keep);
	out[keep] = '\0';
	text_make_printable(out); /* a character cut at max becomes '?' */
	if (keep < n)
		memcpy(out + strlen(out), "...", 4);
	return out;
}

void import_run_release(struct import_run *r)
{
	if (!r)
		return;
	import_doc_release(&r->doc);
	free(r->source);
	free(r->metric);
	free(r->workload);
	free(r->target);
	memset(r, 0, sizeof(*r));
}

/* Is name a metric --metric may pick? */
static bool known_metric(const char *name)
{
	return !strcmp(name, "iops") || !strcmp(name, "mbps");
}

/* Check that a metric value can be analysed: finite and positive. */
static int check_value(const char *source, const char *name, double v,
		       struct strbuf *err)
{
	if (isnan(v))
		return err_set(err, -EINVAL,
			       "'%s' has no '%s' number to import", source,
			       name);
	if (!(v > 0) || !isfinite(v))
		return err_set(err, -EINVAL,
			       "'%s' has %s %g; an imported run needs a "
			       "positive finite metric (did the job run?)",
			       source, name, v);
	return 0;
}

/* An iotrial/1 run object: its metric, workload and target. */
static int parse_iotrial_run(struct import_run *r, const char *metric,
			     struct strbuf *err)
{
	const struct run_doc *run = r->doc.run;
	const struct run_metric *m = run->metric;
	const char *name = metric ? metric : m && m->name ? m->name : "";

	if (!*name)
		return err_set(err, -EINVAL,
			       "'%s' is an iotrial run without a "
			       "'metric'.'name'; give --metric iops|mbps",
			       r->source);
	if (metric)
		r->value = !strcmp(metric, "iops") ? run->iops : run->mbps;
	else
		r->value = m->value;
	r->higher_is_better = metric || !m || m->higher_is_better;
	r->metric = clean_dup(name, 0);
	r->workload = clean_dup(run->workload ? run->workload : "", 0);
	r->target = clean_dup(
	    run->target && run->target->spec ? run->target->spec : "", 0);
	return check_value(r->source, r->metric, r->value, err);
}

/* Option key among n options, or "" when missing. */
static const char *opt_in(const struct model_pair *opts, size_t n,
			  const char *key)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(opts[i].name, key))
			return opts[i].value;
	return "";
}

/* A fio job's option from its own options or the global ones, or "". */
static const char *fio_opt(const struct fio_doc *fio,
			   const struct fio_job_doc *job, const char *key)
{
	const char *v = opt_in(job->options, job->nr_options, key);

	return *v ? v
		  : opt_in(fio->global_options, fio->nr_global_options, key);
}

/* The rw= of a fio job: its own option, the global one, or fio's "read". */
static const char *fio_rw(const struct fio_doc *fio,
			  const struct fio_job_doc *job)
{
	static const char *const keys[] = {"rw", "readwrite"};
	size_t k;

	for (k = 0; k < ARRAY_SIZE(keys); k++)
		if (*opt_in(job->options, job->nr_options, keys[k]))
			return opt_in(job->options, job->nr_options, keys[k]);
	for (k = 0; k < ARRAY_SIZE(keys); k++)
		if (*opt_in(fio->global_options, fio->nr_global_options,
			    keys[k]))
			return opt_in(fio->global_options,
				      fio->nr_global_options, keys[k]);
	return "read";
}

/* One direction's MB/s: bw_bytes when fio wrote it, else bw in KiB/s. */
static double fio_mbps(const struct fio_dir_doc *dir)
{
	if (!dir)
		return NAN;
	if (isfinite(dir->bw_bytes))
		return dir->bw_bytes / 1e6;
	return dir->bw * 1024 / 1e6;
}

/* Add a (possibly NaN) number: NaN contributes nothing. */
static void add_num(double *sum, double v)
{
	if (isfinite(v) && v >= 0)
		*sum += v;
}

/* A fio --output-format=json report: the sum over its jobs. */
static int parse_fio(struct import_run *r, const char *metric,
		     struct strbuf *err)
{
	const struct fio_doc *fio = r->doc.fio;
	size_t i, n = fio->nr_jobs;
	double iops = 0, mbps = 0;
	int nr_rand = 0, nr_seq = 0;
	const char *rw0 = NULL, *name;

	if (!n)
		return err_set(err, -EINVAL,
			       "'%s' is fio output without jobs; run fio with "
			       "--output-format=json",
			       r->source);
	for (i = 0; i < n; i++) {
		const struct fio_job_doc *job = &fio->jobs[i];
		const char *rw;

		if (isfinite(job->error) && job->error != 0) {
			char *job_name =
			    clean_dup(job->jobname ? job->jobname : "", 40);

			err_set(err, -EINVAL,
				"'%s': fio job '%s' failed with error %.0f; "
				"import only runs that completed",
				r->source, job_name, job->error);
			free(job_name);
			return -EINVAL;
		}
		rw = fio_rw(fio, job);
		if (strstr(rw, "rand"))
			nr_rand++;
		else
			nr_seq++;
		if (!rw0)
			rw0 = rw;
		else if (strcmp(rw0, rw))
			rw0 = "mixed";
		add_num(&iops, job->read ? job->read->iops : NAN);
		add_num(&iops, job->write ? job->write->iops : NAN);
		add_num(&mbps, fio_mbps(job->read));
		add_num(&mbps, fio_mbps(job->write));
	}
	if (!metric && nr_rand && nr_seq)
		return err_set(err, -EINVAL,
			       "'%s' mixes random and sequential fio jobs; "
			       "give --metric iops|mbps to pick the metric",
			       r->source);
	name = metric ? metric : nr_rand ? "iops" : "mbps";
	r->metric = xstrdup(name);
	r->value = !strcmp(name, "iops") ? iops : mbps;
	r->higher_is_better = true;
	{
		const char *t = fio_opt(fio, &fio->jobs[0], "filename");
		struct strbuf w = STRBUF_INIT;

		strbuf_addf(&w, "fio:%s", rw0);
		r->workload = clean_dup(w.buf, 0);
		strbuf_release(&w);
		r->target = clean_dup(
		    *t ? t : fio_opt(fio, &fio->jobs[0], "directory"), 0);
	}
	return check_value(r->source, name, r->value, err);
}

int import_parse(const char *buf, size_t len, const char *source,
		 const char *metric, struct import_run *out, struct strbuf *err)
{
	int ret;

	memset(out, 0, sizeof(*out));
	out->source = clean_dup(source ? source : "input", 0);
	if (metric && !known_metric(metric)) {
		ret = err_set(err, -EINVAL,
			      "invalid metric '%s'; expected 'iops' or 'mbps'",
			      metric);
		goto fail;
	}
	ret = import_doc_decode(buf, len, out->source, &out->doc, err);
	if (ret)
		goto fail;
	switch (out->doc.kind) {
	case IMPORT_DOC_EXPERIMENT:
		out->kind = IMPORT_EXPERIMENT;
		return 0;
	case IMPORT_DOC_RUN:
		out->kind = IMPORT_IOTRIAL_RUN;
		ret = parse_iotrial_run(out, metric, err);
		break;
	default:
		out->kind = IMPORT_FIO_RUN;
		ret = parse_fio(out, metric, err);
	}
	if (!ret)
		return 0;
fail:
	import_run_release(out);
	return ret;
}

int import_read_file(const char *path, const char *metric,
		     struct import_run *out, struct strbuf *err)
{
	struct strbuf sb = STRBUF_INIT;
	int ret;

	memset(out, 0, sizeof(*out));
	/* a FIFO or a device is refused, not waited on */
	ret = userfile_read(path, IMPORT_MAX_BYTES, &sb, err);
	if (ret == -EFBIG)
		ret = err_set(err, ret,
			      "'%s' is larger than %u MiB; not a result file",
			      path, IMPORT_MAX_BYTES >> 20);
	else if (!ret)
		ret = import_parse(sb.buf, sb.len, path, metric, out, err);
	strbuf_release(&sb);
	return ret;
}

/* Check that every run shares the first one's metric and workload. */
static int check_alike(const struct import_arm *arms, size_t nr_arms,
		       const char *workload, const struct import_run **first,
		       struct strbuf *err)
{
	size_t a, i;

	*first = NULL;
	for (a = 0; a < nr_arms; a++) {
		for (i = 0; i < arms[a].nr; i++) {
			const struct import_run *r = &arms[a].runs[i];

			if (r->kind == IMPORT_EXPERIMENT || !r->metric)
				return err_set(err, -EINVAL,
					       "'%s' is a whole experiment; "
					       "import it on its own",
					       r->source);
			if (!*first) {
				*first = r;
				continue;
			}
			if (strcmp(r->metric, (*first)->metric))
				return err_set(err, -EINVAL,
					       "'%s' measured '%s' but '%s' "
					       "measured '%s'; give --metric "
					       "iops|mbps to import both",
					       r->source, r->metric,
					       (*first)->source,
					       (*first)->metric);
			if (!workload &&
			    strcmp(r->workload, (*first)->workload))
				return err_set(err, -EINVAL,
					       "'%s' ran workload '%s' but "
					       "'%s' ran '%s'; give --workload "
					       "NAME to import them as one "
					       "experiment",
					       r->source, r->workload,
					       (*first)->source,
					       (*first)->workload);
		}
	}
	if (!*first)
		return err_set(err, -EINVAL,
			       "nothing to import; give at least one file");
	return 0;
}

int import_build_experiment(const struct import_arm *arms, size_t nr_arms,
			    const char *workload, struct experiment_doc *out,
			    struct strbuf *err)
{
	struct experiment_src src = {0};
	struct experiment_src_arm *sa;
	struct experiment_src_run *runs;
	const struct import_run *first;
	struct strbuf *fio;
	struct env_doc env;
	size_t a, i, nr_runs = 0;
	int ret;

	experiment_doc_init(out);
	if (!nr_arms)
		return err_set(err, -EINVAL,
			       "nothing to import; give at least one file");
	ret = check_alike(arms, nr_arms, workload, &first, err);
	if (ret)
		return ret;
	for (a = 0; a < nr_arms; a++)
		nr_runs += arms[a].nr;
	sa = xcalloc(nr_arms, sizeof(*sa));
	runs = xcalloc(nr_runs, sizeof(*runs));
	fio = xcalloc(nr_runs, sizeof(*fio));
	for (a = 0, nr_runs = 0; a < nr_arms; a++) {
		sa[a].label = arms[a].label;
		sa[a].runs = &runs[nr_runs];
		sa[a].nr = arms[a].nr;
		for (i = 0; i < arms[a].nr; i++, nr_runs++) {
			const struct import_run *r = &arms[a].runs[i];

			runs[nr_runs].metric = r->value;
			runs[nr_runs].source = r->source;
			runs[nr_runs].seq = -1;
			/* a fio report is kept as it came, as JSON */
			strbuf_init(&fio[nr_runs], 0);
			if (r->doc.fio) {
				fio_doc_encode(r->doc.fio, MODEL_ENCODE_PLAIN,
					       &fio[nr_runs]);
				runs[nr_runs].run_fio = fio[nr_runs].buf;
			} else {
				runs[nr_runs].run = r->doc.run;
			}
		}
	}
	/* the first iotrial run's params and env, or fio's version */
	env_doc_init(&env);
	if (first->kind == IMPORT_IOTRIAL_RUN) {
		src.params = first->doc.run->params;
		src.nr_params = first->doc.run->nr_params;
		src.env = first->doc.run->env;
	} else {
		env.fio_version = xstrdup(first->doc.fio->fio_version
					      ? first->doc.fio->fio_version
					      : "");
		src.env = &env;
	}
	src.has_params = true;
	src.workload = workload ? workload : first->workload;
	src.target = first->target;
	src.seed = "none";
	src.metric = first->metric;
	src.higher_is_better = first->higher_is_better;
	src.factor_kind = "import";
	src.arms = sa;
	src.nr_arms = nr_arms;
	src.stopped = "imported";
	src.runs_mode = "import";
	src.warnings = true;
	experiment_build(&src, out);
	env_doc_release(&env);
	for (i = 0; i < nr_runs; i++)
		strbuf_release(&fio[i]);
	free(fio);
	free(sa);
	free(runs);
	/* labels and --workload come from the command line */
	return experiment_doc_printable(out, err);
}

int import_analyze(struct experiment_doc *exp, struct strbuf *err)
{
	struct analysis_opts o;

	/* whatever the file says of itself, it came from elsewhere */
	if (!exp->origin)
		experiment_doc_order_last(exp, "origin");
	free(exp->origin);
	exp->origin = xstrdup(EXP_ORIGIN_IMPORTED);
	analysis_opts_init(&o); /* exp's "metric" and blocks override */
	if (exp->has_baseline == MODEL_SET && exp->baseline > 0 &&
	    exp->baseline <= INT_MAX)
		o.baseline = (unsigned)exp->baseline;
	if (exp->has_alpha == MODEL_SET)
		o.alpha = exp->alpha;
	if (exp->has_equivalence == MODEL_SET)
		o.margin = exp->equivalence;
	return experiment_analyze_built(exp, &o, err);
}

int import_save(const char *db, struct experiment_doc *exp,
		char out_id[STORE_ID_LEN + 1], bool *out_bad_runs,
		struct strbuf *err)
{
	struct strbuf why = STRBUF_INIT;
	int ret;

	ret = import_analyze(exp, &why);
	*out_bad_runs = ret != 0;
	if (ret) {
		err_set(err, ret, "cannot analyse the imported runs: %s",
			why.buf);
		goto out;
	}
	ret = store_save_doc_at(db, exp, out_id, err);
out:
	strbuf_release(&why);
	return ret;
}
