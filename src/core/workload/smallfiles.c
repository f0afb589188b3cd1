/*
 * smallfiles: a file server under many clients. Each client is a thread
 * in its own directory under the target's work directory, creating,
 * writing, reading, stat-ing, renaming and deleting small files by an
 * operation mix (sf_mix.c), or replaying a dbench load file
 * (sf_replay.c). This is the load where the page cache hides
 * everything: files that live a short while are deleted before
 * writeback, and a run "wins" without a byte reaching the disk. So the
 * timed region has no final flush of its own (what the clients did not
 * fsync stays dirty, as on the server), and the device truth beside the
 * result says how much of it the device saw.
 *
 * This file holds what both modes share: the parameters, the client
 * threads and their start gate, the clock, and folding the clients'
 * tallies (ops/s, bytes, a latency histogram per kind of operation)
 * into the run result. What a client does around each operation is
 * sf_client.c's.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include "layout.h"
#include "smallfiles-int.h"
#include "../../util/atfile.h"
#include "../../util/clock.h"
#include "../../util/error.h"
#include "../../util/units.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

const char *const sf_kind_names[SF_KINDS] = {
    [SF_CREATE] = "create", [SF_WRITE] = "write",   [SF_READ] = "read",
    [SF_STAT] = "stat",	    [SF_RENAME] = "rename", [SF_DELETE] = "delete",
};

static int sf_validate(struct workload *w, struct strbuf *err)
{
	const struct sf_params *p = w->params;
	const void *mix_only[] = {&p->sizes, &p->mix,  &p->lifetime,
				  &p->fsync, &p->dirs, &p->files};
	const struct param_value *v;
	struct sf_state st;
	size_t i;
	int ret;

	memset(&st, 0, sizeof(st));
	ret = sf_read_settings(w, &st, err);
	if (ret)
		return ret;
	for (i = 0; st.replay && i < ARRAY_SIZE(mix_only); i++)
		if ((v = workload_given(w, mix_only[i]))->is_set)
			return err_set(err, -EINVAL,
				       "'%s' does not apply to a loadfile "
				       "replay: the load file says what each "
				       "client does",
				       w->ops->params[v - w->values].name);
	if (strcmp(p->verify, "off") && st.replay)
		return err_set(err, -EINVAL,
			       "'verify' checks the mix's files; a loadfile "
			       "replay cannot be verified");
	if (strcmp(p->verify, "off") && st.sizes.min_bytes < VERIFY_HDR_BYTES)
		return err_set(err, -EINVAL,
			       "'verify' puts a %u-byte header in every "
			       "file, and sizes '%s' allows %llu-byte files; "
			       "give sizes of at least %u bytes",
			       VERIFY_HDR_BYTES, p->sizes,
			       (unsigned long long)st.sizes.min_bytes,
			       VERIFY_HDR_BYTES);
	if (st.replay && access(p->loadfile, R_OK))
		return err_set(err, -errno, "cannot read loadfile '%s': %s",
			       p->loadfile, strerror(errno));
	if (w->ro.ios && w->ro.ios < st.nr_clients)
		return err_set(err, -EINVAL,
			       "--ios %llu is fewer than the %u clients; give "
			       "at least one operation per client",
			       (unsigned long long)w->ro.ios, st.nr_clients);
	return 0;
}

/* Make client i's directory (and the mix's subdirectories); its fd. */
static int make_client_dir(struct workload *w, struct sf_state *st, unsigned i,
			   struct strbuf *err)
{
	char name[32];
	unsigned d;
	int fd;

	snprintf(name, sizeof(name), "client%u", i);
	if (mkdirat(w->target->work_fd, name, 0755) < 0 && errno != EEXIST)
		return err_set(err, -errno, "cannot make '%s/%s': %s",
			       w->target->workdir, name, strerror(errno));
	fd = openat(w->target->work_fd, name,
		    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return err_set(err, -errno, "cannot open '%s/%s': %s",
			       w->target->workdir, name, strerror(errno));
	st->root_fds[i] = fd;
	for (d = 0; !st->replay && d < st->dirs; d++) {
		snprintf(name, sizeof(name), "d%u", d);
		if (mkdirat(fd, name, 0755) < 0 && errno != EEXIST)
			return err_set(
			    err, -errno, "cannot make '%s/client%u/%s': %s",
			    w->target->workdir, i, name, strerror(errno));
	}
	return 0;
}

/*
 * Refuse a mix that cannot fit: its clients' files, half of the most
 * each may keep, at the mean size. A run that outgrows the space anyway
 * stops when the filesystem says it is full.
 */
static int check_space(struct workload *w, const struct sf_state *st,
		       struct strbuf *err)
{
	double need =
	    (double)st->nr_clients * st->max_files * st->sizes.mean_bytes / 2;
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	struct statvfs sv;
	double avail;
	int ret = 0;

	if (fstatvfs(w->target->work_fd, &sv) < 0)
		return 0; /* not knowable: the run will tell */
	avail = (double)sv.f_bavail * (double)sv.f_frsize;
	if (need <= avail)
		return 0;
	units_fmt_bytes(&a, need > 1e18 ? UINT64_MAX : (uint64_t)need);
	units_fmt_bytes(&b, (uint64_t)avail);
	ret = err_set(err, -ENOSPC,
		      "the files of %u clients (half of --files %u each, "
		      "%.0f bytes on average) need %s but '%s' has %s free; "
		      "lower --files, --clients or --sizes, or pick another "
		      "target",
		      st->nr_clients, st->max_files, st->sizes.mean_bytes,
		      a.buf, w->target->path, b.buf);
	strbuf_release(&a);
	strbuf_release(&b);
	return ret;
}

static int sf_prepare(struct workload *w, struct target *t, struct strbuf *err)
{
	struct sf_state *st = xcalloc(1, sizeof(*st));
	unsigned i;
	int ret;

	w->priv = st;
	w->target = t;
	strbuf_init(&st->lf.strings, 0);
	ret = sf_read_settings(w, st, err);
	if (ret)
		return ret;
	ret = workload_need_files(w, t, "works on files", err);
	if (ret)
		return ret;
	if (st->replay) {
		/* once, before any client starts; read-only from here */
		ret = loadfile_read(
		    &st->lf, ((const struct sf_params *)w->params)->loadfile,
		    err);
		if (ret)
			return ret;
	} else {
		ret = check_space(w, st, err);
		if (ret)
			return ret;
	}
	st->root_fds = xcalloc(st->nr_clients, sizeof(*st->root_fds));
	for (i = 0; i < st->nr_clients; i++)
		st->root_fds[i] = -1;
	for (i = 0; i < st->nr_clients && !ret; i++)
		ret = make_client_dir(w, st, i, err);
	return ret;
}

/* Thread body: meet the others, run the loop, take the CPU it used. */
static void *client_main(void *arg)
{
	struct sf_client *c = arg;

	gate_arrive(&c->sh->gate);
	if (c->sh->st->replay)
		sf_replay_loop(c);
	else
		sf_mix_loop(c);
	thread_cpu_stop(&c->cpu, &c->user_s, &c->sys_s);
	return NULL;
}

/* Sleep until deadline_ns, a stop request or a failed client. */
static void wait_until(struct sf_shared *sh, uint64_t deadline_ns)
{
	for (;;) {
		uint64_t now = clock_now_ns(), step = 20000000ull; /* 20 ms */
		struct timespec ts;

		if (now >= deadline_ns || *sh->w->stop ||
		    atomic_load(&sh->failed))
			return;
		if (deadline_ns - now < step)
			step = deadline_ns - now;
		ts.tv_sec = (time_t)(step / 1000000000ull);
		ts.tv_nsec = (long)(step % 1000000000ull);
		nanosleep(&ts, NULL);
	}
}

/* Add the mismatch note of one kind (replay) to r. */
static void note_errors(struct run_result *r, const struct sf_state *st,
			const char *name, const struct sf_opstat *s)
{
	if (!s->errors)
		return;
	if (!st->replay) {
		run_result_warn(r, "%llu %s operations failed",
				(unsigned long long)s->errors, name);
		return;
	}
	run_result_warn(r,
			"%llu %s operations did not end as loadfile '%s' "
			"expects (the first at line %u: %s)",
			(unsigned long long)s->errors, name, st->lf.name,
			s->first_line,
			s->first_errno > 0 ? strerror(s->first_errno)
			: s->first_errno   ? "it moved another number of bytes "
					     "than the trace"
					   : "it succeeded where the trace "
					     "failed");
}

/* Fold every client's tallies into r; the first error wins. */
static int collect(struct sf_state *st, struct sf_client *cs, uint64_t start,
		   struct run_result *r, uint64_t *out_dbench_bytes,
		   struct strbuf *err)
{
	unsigned i, k, nr_kinds = cs[0].nr_kinds;
	uint64_t last = 0, dbench_bytes = 0;
	struct sf_opstat *sum = xcalloc(nr_kinds, sizeof(*sum));
	int ret = 0;

	r->nr_jobs = st->nr_clients;
	r->jobs = xcalloc(st->nr_clients, sizeof(*r->jobs));
	for (k = 0; k < nr_kinds; k++)
		hist_init(&sum[k].lat);
	for (i = 0; i < st->nr_clients; i++) {
		struct sf_client *c = &cs[i];
		struct job_result *j = &r->jobs[i];

		if (c->ret && !ret)
			ret = err_set(err, c->ret, "%s", c->err.buf);
		for (k = 0; k < nr_kinds; k++) {
			hist_merge(&sum[k].lat, &c->ops[k].lat);
			if (c->ops[k].errors && !sum[k].errors) {
				sum[k].first_line = c->ops[k].first_line;
				sum[k].first_errno = c->ops[k].first_errno;
			}
			sum[k].errors += c->ops[k].errors;
		}
		for (k = 0; k < 2; k++) {
			r->ops[k] += c->ios[k];
			r->bytes[k] += c->bytes[k];
			j->ops[k] = c->ios[k];
			j->bytes[k] = c->bytes[k];
		}
		r->fsyncs += c->fsyncs;
		r->file_ops += c->counted;
		dbench_bytes += c->dbench_bytes;
		j->user_s = c->user_s;
		j->sys_s = c->sys_s;
		if (c->last_done_ns > start)
			j->seconds = (double)(c->last_done_ns - start) / 1e9;
		if (c->last_done_ns > last)
			last = c->last_done_ns;
	}
	r->nr_op_results = nr_kinds;
	r->op_results = xcalloc(nr_kinds, sizeof(*r->op_results));
	for (k = 0; k < nr_kinds; k++) {
		struct op_result *o = &r->op_results[k];

		o->name = st->replay ? lf_kind_name((enum lf_kind)k)
				     : sf_kind_names[k];
		o->lat = sum[k].lat;
		o->errors = sum[k].errors;
		note_errors(r, st, o->name, &sum[k]);
	}
	for (i = 0; st->replay && i < st->lf.nr_unknown; i++)
		run_result_note(r,
				"loadfile '%s': unknown operation '%s' on %u "
				"line%s (the first is line %u) skipped",
				st->lf.name, st->lf.unknown[i].name,
				st->lf.unknown[i].count,
				st->lf.unknown[i].count == 1 ? "" : "s",
				st->lf.unknown[i].first_line);
	if (st->replay && st->lf.nr_ignored)
		run_result_note(r,
				"loadfile '%s': %u Sleep lines ignored; a "
				"replay runs as fast as it can",
				st->lf.name, st->lf.nr_ignored);
	*out_dbench_bytes = dbench_bytes;
	free(sum);
	return ret;
}

/* Set up client i's private state (not its directory: prepare made it). */
static void client_init(struct sf_client *c, struct sf_shared *sh, unsigned i)
{
	struct workload *w = sh->w;
	struct sf_state *st = sh->st;
	unsigned k, nr = st->nr_clients;

	c->sh = sh;
	c->idx = i;
	c->root_fd = st->root_fds[i];
	strbuf_init(&c->err, 0);
	rng_seed(&c->rng, w->ro.seed * 1000003u + i);
	c->nr_kinds = st->replay ? LF_KINDS : SF_KINDS;
	c->ops = xcalloc(c->nr_kinds, sizeof(*c->ops));
	for (k = 0; k < c->nr_kinds; k++)
		hist_init(&c->ops[k].lat);
	if (w->ro.ios) {
		c->quota = w->ro.ios / nr + (i < w->ro.ios % nr);
		if (!c->quota)
			c->quota = 1;
	}
	c->buf_bytes = st->replay ? st->lf.max_io_bytes : SF_IO_CHUNK_BYTES;
	if (st->replay && c->buf_bytes < 4096)
		c->buf_bytes = 4096;
	c->buf = xalloc_aligned(4096, c->buf_bytes);
	layout_fill_random(c->buf, c->buf_bytes, &c->rng);
	if (strcmp(((const struct sf_params *)w->params)->verify, "off")) {
		c->vfy = xmalloc(sizeof(*c->vfy));
		verify_job_init(c->vfy, i, w->ro.seed, 0, 0,
				VERIFY_FILE_BLOCK_BYTES, 1);
	}
}

static void client_release(struct sf_client *c)
{
	free(c->ops);
	free(c->buf);
	verify_job_release(c->vfy);
	free(c->vfy);
	free(c->vlive);
	strbuf_release(&c->err);
}

static int sf_run(struct workload *w, struct run_result *r, struct strbuf *err)
{
	static volatile int never_stop;
	struct sf_state *st = w->priv;
	struct sf_client *cs;
	struct sf_shared sh;
	struct measure m;
	uint64_t start, run_start = 0, dbench_bytes = 0;
	unsigned i, started = 0;
	int ret = 0;

	if (!w->stop)
		w->stop = &never_stop;
	memset(&sh, 0, sizeof(sh));
	sh.w = w;
	sh.st = st;
	atomic_init(&sh.phase, SF_PHASE_RAMP);
	atomic_init(&sh.failed, 0);
	gate_init(&sh.gate);
	cs = xcalloc(st->nr_clients, sizeof(*cs));
	for (i = 0; i < st->nr_clients; i++)
		client_init(&cs[i], &sh, i);
	for (i = 0; i < st->nr_clients; i++) {
		ret = pthread_create(&cs[i].thread, NULL, client_main, &cs[i]);
		if (ret) {
			ret = err_set(err, -ret, "cannot start client %u: %s",
				      i, strerror(ret));
			atomic_store(&sh.phase, SF_PHASE_DRAIN);
			break;
		}
		started++;
	}
	measure_init(&m, w->hook);
	/*
	 * Without a warm-up the clients' first operation is timed: the
	 * region opens before the gate, so no client runs untimed (a
	 * replay's --ios then starts at the load file's first line)
	 */
	gate_wait(&sh.gate, started);
	if (ret || w->ro.ramp_ns)
		gate_open(&sh.gate);
	start = clock_now_ns();
	if (!ret && w->ro.ramp_ns)
		wait_until(&sh, start + w->ro.ramp_ns);
	if (!ret) {
		measure_begin(&m);
		run_start = m.start_ns;
		for (i = 0; i < st->nr_clients; i++)
			cs[i].run_start_ns = run_start;
		atomic_store_explicit(&sh.phase, SF_PHASE_RUN,
				      memory_order_release);
		if (!w->ro.ramp_ns)
			gate_open(&sh.gate);
		if (!w->ro.ios) {
			wait_until(&sh, run_start + w->ro.time_ns);
			atomic_store_explicit(&sh.phase, SF_PHASE_DRAIN,
					      memory_order_release);
		}
	}
	for (i = 0; i < started; i++)
		pthread_join(cs[i].thread, NULL);
	if (!ret) {
		/* tallies first: the hook's end reads them (device truth) */
		ret = collect(st, cs, run_start, r, &dbench_bytes, err);
		r->interrupted = *w->stop != 0;
		measure_end(&m, r);
		r->have_dbench = st->replay;
		r->dbench_mbps = r->seconds > 0
				     ? (double)dbench_bytes / r->seconds / 1e6
				     : 0;
	}
	for (i = 0; !ret && cs[0].vfy && i < st->nr_clients; i++) {
		/* --verify: what the mix left, from the disk */
		if (!*w->stop)
			ret = sf_mix_readback(&cs[i], err);
		verify_merge(cs[i].vfy, &r->verify);
	}
	for (i = 0; i < st->nr_clients; i++)
		client_release(&cs[i]);
	free(cs);
	gate_destroy(&sh.gate);
	return ret;
}

static void sf_cleanup(struct workload *w)
{
	struct sf_state *st = w->priv;
	unsigned i;

	if (!st)
		return;
	for (i = 0; st->root_fds && i < st->nr_clients; i++) {
		char name[32];

		if (st->root_fds[i] < 0)
			continue;
		close(st->root_fds[i]);
		snprintf(name, sizeof(name), "client%u", i);
		atfile_remove_tree(w->target->work_fd, name);
	}
	free(st->root_fds);
	loadfile_release(&st->lf);
	free(st);
	w->priv = NULL;
}

static void sf_describe(const struct workload *w, const struct target *t,
			struct strbuf *out)
{
	const struct sf_params *p = w->params;
	unsigned clients = (unsigned)p->clients;
	const char *where = t->workdir ? t->workdir : t->path;

	if (*p->loadfile) {
		strbuf_addf(out,
			    "smallfiles: replay of loadfile '%s', %u "
			    "client%s, on %s\n",
			    p->loadfile, clients, clients == 1 ? "" : "s",
			    where);
		return;
	}
	strbuf_addf(out,
		    "smallfiles: %u client%s, sizes %s, mix %s, lifetime %s, "
		    "fsync %s, %s dirs and at most %s files per client, on "
		    "%s\n",
		    clients, clients == 1 ? "" : "s", p->sizes, p->mix,
		    p->lifetime, p->fsync, workload_given(w, &p->dirs)->s,
		    workload_given(w, &p->files)->s, where);
}

static double ops_per_s(const struct workload *w, const struct run_result *r)
{
	(void)w;
	return run_result_ops_per_s(r);
}

static double dbench_mbps(const struct workload *w, const struct run_result *r)
{
	(void)w;
	return r->have_dbench ? r->dbench_mbps : NAN;
}

static const struct metric_def sf_metrics[] = {
    {"ops_per_s", "ops/s", true, "file operations completed per second",
     ops_per_s},
    {"dbench_mbps", "MB/s", true,
     "a loadfile replay's ReadX and WriteX bytes per second, as dbench "
     "counts them",
     dbench_mbps},
    {NULL, NULL, false, NULL, NULL},
};

/* workload_ops.default_metric: file operations per second */
static const char *smallfiles_metric(const struct workload *w)
{
	(void)w;
	return "ops_per_s";
}

const struct workload_ops workload_smallfiles = {
    .name = "smallfiles",
    .summary = "clients creating, reading and deleting small files, or "
	       "replaying a dbench loadfile",
    .params = sf_rows,
    .params_size = sizeof(struct sf_params),
    .cpu_bound_advice = "try more --clients, or larger --sizes",
    .validate = sf_validate,
    .prepare = sf_prepare,
    .run = sf_run,
    .cleanup = sf_cleanup,
    .default_metric = smallfiles_metric,
    .metrics = sf_metrics,
    .describe = sf_describe,
    .seed_per_block = 1,
    .needs_files = workload_files_always,
};
