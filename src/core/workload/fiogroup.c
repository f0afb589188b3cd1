/*
 * Job sections run at the same time, as one workload; see fiogroup.h.
 *
 * Each section runs its own workload in a thread of ours, with its own
 * measure hook: the hook's begin waits until every section has reached
 * its timed part, and the last to arrive opens the group's region (the
 * caller's hook: device truth); the hook's end waits until every section
 * is done, and the last to arrive sums the sections into the group's
 * result and closes the region. A section that fails before its timed
 * part counts as arrived at both, so nobody waits for it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "fiogroup.h"
#include "../../util/error.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

static const char *const settle_choices[] = {"sync", "none", NULL};

/* What the caller's device truth needs to know (truth_opts). */
#define GROUP(member) PARAM_AT(struct workload_common, member)

static const struct param_spec group_rows[] = {
    {"size", PARAM_SIZE, "0", 0, 0, NULL,
     "bytes every section works on, together", GROUP(size_bytes)},
    {"direct", PARAM_BOOL, "0", 0, 1, NULL, "every section uses O_DIRECT",
     GROUP(direct)},
    {"settle", PARAM_CHOICE, "sync", 0, 0, settle_choices,
     "every writing section flushes before its region closes", GROUP(settle)},
    {NULL},
};

struct fiogroup *fiogroup_of(const struct workload *w)
{
	return (struct fiogroup *)((const char *)w->ops -
				   offsetof(struct fiogroup, ops));
}

static void set_u64(struct workload *w, const char *name, uint64_t v)
{
	char text[32];

	snprintf(text, sizeof(text), "%llu", (unsigned long long)v);
	workload_set_param(w, name, text, NULL, NULL);
}

/* The group's own parameters, from its sections. */
static void sum_params(struct workload *w, struct fiogroup *g)
{
	uint64_t size = 0;
	int direct = 1, sync = 1;
	unsigned i;

	for (i = 0; i < g->nr; i++) {
		const struct workload *s = &g->secs[i].w;
		const struct workload_common *c = s->params;

		size += c->size_bytes * (c->shared ? 1 : c->jobs ?: 1);
		direct &= c->direct;
		if (strstr(s->ops->name, "write") ||
		    !strcmp(s->ops->name, "randrw"))
			sync &= workload_syncs(c);
	}
	set_u64(w, "size", size);
	set_u64(w, "direct", (uint64_t)direct);
	workload_set_param(w, "settle", sync ? "sync" : "none", NULL, NULL);
}

/* Section i's subdirectory of the work directory, and a target in it. */
static int section_dir(struct fiogroup_section *s, unsigned i,
		       const struct target *t, struct strbuf *err)
{
	struct strbuf path = STRBUF_INIT;
	int fd;

	snprintf(s->subdir, sizeof(s->subdir), "s%u", i);
	s->t = *t;
	s->t.work_fd = -1;
	s->t.workdir = NULL;
	if (mkdirat(t->work_fd, s->subdir, 0700) && errno != EEXIST)
		return err_set(err, -errno, "cannot make '%s/%s': %s",
			       t->workdir, s->subdir, strerror(errno));
	fd = openat(t->work_fd, s->subdir,
		    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return err_set(err, -errno, "cannot open '%s/%s': %s",
			       t->workdir, s->subdir, strerror(errno));
	s->t.work_fd = fd;
	strbuf_addf(&path, "%s/%s", t->workdir, s->subdir);
	s->t.workdir = strbuf_detach(&path, NULL);
	return 0;
}

static int group_prepare(struct workload *w, struct target *t,
			 struct strbuf *err)
{
	struct fiogroup *g = fiogroup_of(w);
	unsigned i;
	int ret = 0;

	w->target = t;
	if (t->kind == TARGET_BLOCKDEV || !t->workdir)
		return err_set(err, -EINVAL,
			       "job sections that run at the same time need a "
			       "directory target; on a block device their "
			       "regions would overlap (pick one with "
			       "--section)");
	for (i = 0; i < g->nr && !ret; i++) {
		struct fiogroup_section *s = &g->secs[i];

		s->w.ro.seed = w->ro.seed * 1000003u + i;
		s->w.ro.keep_files = w->ro.keep_files;
		s->w.stop = w->stop;
		ret = section_dir(s, i, t, err);
		if (ret)
			break;
		s->prepared = 1;
		ret = s->w.ops->prepare(&s->w, &s->t, err);
		if (ret) {
			struct strbuf sb = STRBUF_INIT;

			strbuf_addf(&sb, "[%s]: %s", s->name, err->buf);
			strbuf_reset(err);
			strbuf_addstr(err, sb.buf);
			strbuf_release(&sb);
		}
	}
	sum_params(w, g);
	return ret;
}

static void group_cleanup(struct workload *w)
{
	struct fiogroup *g = fiogroup_of(w);
	unsigned i;

	for (i = 0; i < g->nr; i++) {
		struct fiogroup_section *s = &g->secs[i];

		if (s->prepared)
			s->w.ops->cleanup(&s->w);
		s->prepared = 0;
		if (s->t.work_fd >= 0) {
			close(s->t.work_fd);
			s->t.work_fd = -1;
			unlinkat(w->target->work_fd, s->subdir, AT_REMOVEDIR);
		}
		free(s->t.workdir);
		s->t.workdir = NULL;
	}
}

/* A section's verify summary, added to the group's. */
static void add_verify(struct run_verify **out, const struct run_verify *v)
{
	struct run_verify *r = *out;

	if (!r) {
		r = *out = xcalloc(1, sizeof(*r));
		r->method = v->method;
		r->bad_byte = UINT64_MAX;
	}
	r->blocks += v->blocks;
	r->mismatches += v->mismatches;
	r->cpu_s += v->cpu_s;
	r->readback_s += v->readback_s;
	if (!r->have_first && v->have_first) {
		struct run_verify sum = *r;

		*r = *v;
		r->file = xstrdup(v->file);
		r->blocks = sum.blocks;
		r->mismatches = sum.mismatches;
		r->cpu_s = sum.cpu_s;
		r->readback_s = sum.readback_s;
	}
}

/* The sections' tallies into the group's result (under g->mu). */
static void sum_results(struct fiogroup *g, struct run_result *r)
{
	unsigned i, d, k = 0, nr_jobs = 0;

	for (i = 0; i < g->nr; i++)
		nr_jobs += g->secs[i].r.nr_jobs;
	r->jobs = xcalloc(nr_jobs ?: 1, sizeof(*r->jobs));
	for (i = 0; i < g->nr; i++) {
		const struct run_result *s = &g->secs[i].r;

		if (!g->secs[i].ended)
			continue;
		for (d = 0; d < IO_DIRS; d++) {
			r->ops[d] += s->ops[d];
			r->bytes[d] += s->bytes[d];
			hist_merge(&r->lat[d], &s->lat[d]);
		}
		r->fsyncs += s->fsyncs;
		if (s->burst_seconds > r->burst_seconds)
			r->burst_seconds = s->burst_seconds;
		r->interrupted |= s->interrupted;
		memcpy(r->jobs + k, s->jobs, s->nr_jobs * sizeof(*s->jobs));
		k += s->nr_jobs;
	}
	r->nr_jobs = k;
}

/* The last section to reach its timed part opens the group's region. */
static void maybe_begin(struct fiogroup *g)
{
	if (g->nr_begun < g->nr || g->m_begun)
		return;
	measure_begin(&g->m);
	g->m_begun = 1;
	pthread_cond_broadcast(&g->cv);
}

/* The last section to finish closes it, with every section's tallies. */
static void maybe_end(struct fiogroup *g)
{
	if (g->nr_ended < g->nr || !g->m_begun || g->m_ended)
		return;
	sum_results(g, g->r);
	measure_end(&g->m, g->r);
	g->m_ended = 1;
	pthread_cond_broadcast(&g->cv);
}

static void section_begin(void *ctx)
{
	struct fiogroup_section *s = ctx;
	struct fiogroup *g = s->g;

	pthread_mutex_lock(&g->mu);
	s->began = 1;
	g->nr_begun++;
	maybe_begin(g);
	while (!g->m_begun)
		pthread_cond_wait(&g->cv, &g->mu);
	pthread_mutex_unlock(&g->mu);
}

static void section_end(void *ctx, struct run_result *r)
{
	struct fiogroup_section *s = ctx;
	struct fiogroup *g = s->g;

	run_result_note(r,
			"ran at the same time as the %u other section%s of "
			"its group; its device truth is the group's, in the "
			"group's run, and so is its process CPU (jobs[] "
			"has its threads' own)",
			g->nr - 1, g->nr > 2 ? "s" : "");
	pthread_mutex_lock(&g->mu);
	s->ended = 1;
	g->nr_ended++;
	maybe_end(g);
	while (!g->m_ended && g->m_begun)
		pthread_cond_wait(&g->cv, &g->mu);
	pthread_mutex_unlock(&g->mu);
}

static void *section_main(void *arg)
{
	struct fiogroup_section *s = arg;
	struct fiogroup *g = s->g;

	s->ret = s->w.ops->run(&s->w, &s->r, &s->err);
	pthread_mutex_lock(&g->mu);
	s->left = 1;
	if (!s->began)
		g->nr_begun++;
	if (!s->ended)
		g->nr_ended++;
	maybe_begin(g);
	maybe_end(g);
	pthread_cond_broadcast(&g->cv);
	pthread_mutex_unlock(&g->mu);
	return NULL;
}

static int group_run(struct workload *w, struct run_result *r,
		     struct strbuf *err)
{
	struct fiogroup *g = fiogroup_of(w);
	unsigned i, started = 0;
	int ret = 0;

	pthread_mutex_init(&g->mu, NULL);
	pthread_cond_init(&g->cv, NULL);
	g->nr_begun = g->nr_ended = 0;
	g->m_begun = g->m_ended = 0;
	g->r = r;
	measure_init(&g->m, w->hook);
	for (i = 0; i < g->nr; i++) {
		struct fiogroup_section *s = &g->secs[i];

		s->began = s->ended = s->left = 0;
		s->hook.ctx = s;
		s->hook.begin = section_begin;
		s->hook.end = section_end;
		s->w.hook = &s->hook;
	}
	for (i = 0; i < g->nr; i++) {
		ret = pthread_create(&g->secs[i].thread, NULL, section_main,
				     &g->secs[i]);
		if (ret) {
			err_set(err, -ret, "cannot start [%s]: %s",
				g->secs[i].name, strerror(ret));
			ret = -ret;
			break;
		}
		started++;
	}
	/* sections not started count as gone, so the others go on */
	pthread_mutex_lock(&g->mu);
	g->nr_begun += g->nr - started;
	g->nr_ended += g->nr - started;
	maybe_begin(g);
	maybe_end(g);
	pthread_mutex_unlock(&g->mu);
	for (i = 0; i < started; i++)
		pthread_join(g->secs[i].thread, NULL);
	for (i = 0; i < started; i++) {
		struct fiogroup_section *s = &g->secs[i];

		if (s->ret && !ret)
			ret = err_set(err, s->ret, "[%s]: %s", s->name,
				      s->err.buf);
		if (s->r.verify)
			add_verify(&r->verify, s->r.verify);
	}
	if (!ret)
		run_result_note(r,
				"%u job sections ran at the same time; the "
				"group's timed region spans them all, from a "
				"common start to the last one's end",
				g->nr);
	pthread_cond_destroy(&g->cv);
	pthread_mutex_destroy(&g->mu);
	return ret;
}

static void group_describe(const struct workload *w, const struct target *t,
			   struct strbuf *out)
{
	const struct fiogroup *g = fiogroup_of(w);
	unsigned i;

	strbuf_addf(out, "%u job sections at once (", g->nr);
	for (i = 0; i < g->nr; i++)
		strbuf_addf(out, "%s[%s] %s", i ? ", " : "", g->secs[i].name,
			    g->secs[i].w.ops->name);
	strbuf_addf(out, "), on %s\n", t->workdir ? t->workdir : t->path);
}

/* workload_ops.default_metric: the sections' I/Os per second together */
static const char *group_metric(const struct workload *w)
{
	(void)w;
	return "iops";
}

void fiogroup_init(struct fiogroup *g)
{
	memset(g, 0, sizeof(*g));
	g->ops.name = "fio-group";
	g->ops.summary = "fio job sections that run at the same time";
	g->ops.params = group_rows;
	g->ops.prepare = group_prepare;
	g->ops.run = group_run;
	g->ops.cleanup = group_cleanup;
	g->ops.default_metric = group_metric;
	g->ops.describe = group_describe;
}

void fiogroup_release(struct fiogroup *g)
{
	unsigned i;

	if (!g)
		return;
	for (i = 0; i < g->nr; i++) {
		struct fiogroup_section *s = &g->secs[i];

		free(s->name);
		free(s->t.workdir);
		workload_release(&s->w);
		run_result_release(&s->r);
		strbuf_release(&s->err);
	}
	free(g->secs);
	memset(g, 0, sizeof(*g));
}

int fiogroup_add(struct fiogroup *g, const char *name,
		 const struct workload_ops *ops, const char *const *params,
		 unsigned nr_params, const struct run_opts *ro,
		 struct strbuf *err)
{
	struct fiogroup_section *s;
	unsigned i;
	int ret = 0;

	ALLOC_GROW(g->secs, g->nr + 1, g->alloc);
	s = &g->secs[g->nr++];
	memset(s, 0, sizeof(*s));
	s->name = xstrdup(name);
	s->g = g;
	s->t.work_fd = -1;
	strbuf_init(&s->err, 0);
	run_result_init(&s->r);
	workload_init(&s->w, ops);
	s->w.ro = *ro;
	for (i = 0; i < nr_params && !ret; i++) {
		const char *eq = strchr(params[i], '=');
		char *key;

		if (!eq)
			return err_set(err, -EINVAL, "'%s' is not name=value",
				       params[i]);
		key = xstrndup(params[i], (size_t)(eq - params[i]));
		ret = workload_set_param(&s->w, key, eq + 1, NULL, err);
		free(key);
	}
	if (!ret)
		ret = workload_validate(&s->w, err);
	return ret;
}
