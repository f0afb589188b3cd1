/*
 * Duet blocks (compare --duet): the arms of a block run at the same
 * time, each on a scratch target of its own, so that whatever the
 * machine does during the block (a neighbour's build taking the CPUs,
 * its writeback on the disk under the images) it does to every arm.
 * On a busy machine that noise is most of a run's variation; running
 * one arm after the other, a block's runs meet different noise and the
 * per-block ratio carries it. Bulej et al. call this duet benchmarking.
 *
 * How a block goes: the knobs of the arm each place runs are set (the
 * arms move from place to place, so no place's own speed sides with an
 * arm), each place's files are laid out one after the other, the caches
 * are dropped once, then each run goes to a child process of its own
 * and all start together on a pipe that the parent closes. A child
 * makes its run with its own observer (run_begin_at), so its CPU time,
 * its /proc/self/io and its sampler's threads are its own, writes its
 * metric and run object to a pipe and exits. The parent reads them all
 * (at the same time: a run object can be larger than a pipe holds) and
 * records them as compare records its runs.
 */
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "experiment-int.h"
#include "metrics.h"
#include "result_json.h"
#include "../model/model_json.h"
#include "../../util/clock.h"
#include "../../util/error.h"
#include "../../util/fdio.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* One run of a duet block. */
struct duet_run {
	struct workload w;
	int have_w;
	unsigned arm;
	pid_t pid;
	int fd; /* the child's output, or -1 */
	struct strbuf out;
};

/*
 * The child's part: wait for the start, make the run on place k, write
 * "METRIC\n" and the run object, or "!" and the error, to fd; exit.
 */
static void child(struct exp_loop *l, unsigned k, struct duet_run *d,
		  int start_fd, int fd)
{
	const struct experiment_config *c = l->c;
	const struct experiment_arm *a = &l->e->arms[d->arm];
	struct knob_setting *ks =
	    xcalloc(c->nr_knobs + c->nr_factors + 1, sizeof(*ks));
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
	struct run_meta meta = {0};
	struct run_doc doc;
	struct run_result r;
	char b;
	double v;
	int ret = 0;

	while (read(start_fd, &b, 1) < 0 && errno == EINTR)
		;
	close(start_fd);
	run_result_init(&r);
	if (l->h->run_begin_at)
		ret = l->h->run_begin_at(l->h->ctx, k, &d->w, &d->w.hook, &err);
	if (!ret && !(c->stop && *c->stop))
		ret = c->ops->run(&d->w, &r, &err);
	if (l->h->run_end_at)
		l->h->run_end_at(l->h->ctx, k, &r);
	if (!ret && r.interrupted)
		run_result_warn(&r,
				"interrupted by a signal after %.2f s; the "
				"numbers cover only that part",
				r.seconds);
	if (c->nr_knobs)
		memcpy(ks, c->knobs, c->nr_knobs * sizeof(*ks));
	meta.nr_knobs =
	    c->nr_knobs + exp_knob_settings(a, c->nr_factors, ks + c->nr_knobs);
	meta.knobs = ks;
	meta.w = &d->w;
	meta.t = c->places[k];
	meta.metric = c->metric;
	v = metric_value(c->metric ? c->metric : metric_default(&d->w), &d->w,
			 &r);
	if (!ret && !isfinite(v))
		ret = err_set(&err, -EINVAL,
			      "arm '%s': the run has no '%s'; choose a metric "
			      "this workload measures",
			      a->label, c->metric ? c->metric->name : "metric");
	if (ret) {
		strbuf_addf(&out, "!%s", err.buf);
	} else {
		strbuf_addf(&out, "%.17g\n", v);
		result_to_doc(&meta, &r, &doc);
		run_doc_encode(&doc, MODEL_ENCODE_PLAIN, &out);
		run_doc_release(&doc);
	}
	_exit(fd_write_all(fd, out.buf, out.len) ? 1 : 0);
}

/* Read every child's output until each closes it. */
static void read_children(struct duet_run *d, unsigned k)
{
	struct pollfd p[EXPERIMENT_MAX_PLACES];
	unsigned i, open = 0;
	char buf[65536];

	for (i = 0; i < k; i++)
		open += d[i].fd >= 0;
	while (open) {
		for (i = 0; i < k; i++) {
			p[i].fd = d[i].fd;
			p[i].events = POLLIN;
			p[i].revents = 0;
		}
		if (poll(p, k, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (i = 0; i < k; i++) {
			ssize_t n;

			if (d[i].fd < 0 || !p[i].revents)
				continue;
			n = read(d[i].fd, buf, sizeof(buf));
			if (n < 0 && errno == EINTR)
				continue;
			if (n > 0) {
				strbuf_add(&d[i].out, buf, (size_t)n);
				continue;
			}
			close(d[i].fd);
			d[i].fd = -1;
			open--;
		}
	}
}

/* Lay out place k's run of arm: its knobs, its workload, its files. */
static int set_up(struct exp_loop *l, unsigned k, struct duet_run *d, int block,
		  uint64_t block_seed, struct strbuf *err)
{
	const struct experiment_config *c = l->c;
	const struct experiment_arm *a = &l->e->arms[d->arm];
	struct knob_setting ks[64];
	uint64_t t0;
	int ret;

	ret = experiment_arm_workload(&d->w, l->e, d->arm, c, err);
	if (ret)
		return ret;
	d->have_w = 1;
	d->w.ro.seed = c->ops->seed_per_block && block >= 0
			   ? block_seed
			   : rng_next(&l->rng) & 0xffffffffu;
	d->w.ro.keep_files = 1;
	d->w.stop = c->stop;
	if (l->h->apply_knobs_at && l->place_arm[k] != (int)d->arm &&
	    c->nr_factors <= 64 && exp_knob_settings(a, c->nr_factors, ks)) {
		ret = l->h->apply_knobs_at(l->h->ctx, k, a->settings,
					   c->nr_factors, err);
		if (ret)
			return ret;
		l->place_arm[k] = (int)d->arm;
	}
	t0 = clock_now_ns();
	ret = c->ops->prepare(&d->w, c->places[k], err);
	if (block <= 0)
		l->once_s += (double)(clock_now_ns() - t0) / 1e9;
	if (ret)
		l->e->failed_in_prepare = 1;
	else if (block <= 0 && k == 0 && l->h->laid_out &&
		 !(c->stop && *c->stop))
		l->h->laid_out(l->h->ctx, &d->w);
	return ret;
}

/* Start the children; they wait on start[0] until it is closed. */
static int start_children(struct exp_loop *l, struct duet_run *d, unsigned k,
			  struct strbuf *err)
{
	int start[2], out[2];
	unsigned i, j;

	if (pipe(start))
		return err_set(err, -errno, "cannot make a pipe: %s",
			       strerror(errno));
	for (i = 0; i < k; i++) {
		if (pipe(out)) {
			int ret = -errno;

			close(start[0]);
			close(start[1]);
			return err_set(err, ret, "cannot make a pipe: %s",
				       strerror(-ret));
		}
		d[i].pid = fork();
		if (d[i].pid < 0) {
			int ret = -errno;

			close(out[0]);
			close(out[1]);
			close(start[0]);
			close(start[1]);
			return err_set(err, ret, "cannot start a run: %s",
				       strerror(-ret));
		}
		if (!d[i].pid) {
			close(start[1]);
			close(out[0]);
			for (j = 0; j < i; j++)
				if (d[j].fd >= 0)
					close(d[j].fd);
			child(l, i, &d[i], start[0], out[1]);
		}
		close(out[1]);
		d[i].fd = out[0];
	}
	close(start[0]);
	close(start[1]); /* they all start now */
	return 0;
}

/* Record child i's run, or return its error. */
static int take_child_run(struct exp_loop *l, struct duet_run *d, unsigned i,
			  int block, struct strbuf *err)
{
	const char *nl = strchr(d->out.buf, '\n');
	struct strbuf why = STRBUF_INIT;
	struct run_doc *run;
	double v;

	if (d->out.buf[0] == '!')
		return err_set(err, -EIO, "%s", d->out.buf + 1);
	run = xcalloc(1, sizeof(*run));
	if (!nl || sscanf(d->out.buf, "%lf", &v) != 1 ||
	    run_doc_decode(nl + 1, strlen(nl + 1), run, 0, &why)) {
		run_doc_free(run);
		err_set(err, -EIO,
			"the run of arm '%s' ended without its result%s%s",
			l->e->arms[d->arm].label, why.len ? ": " : "", why.buf);
		strbuf_release(&why);
		return -EIO;
	}
	exp_record(l, d->arm, block, v, run, (int)i);
	return 0;
}

int exp_duet_block(struct exp_loop *l, const unsigned *order, int block,
		   uint64_t block_seed, struct strbuf *err)
{
	const struct experiment_config *c = l->c;
	struct duet_run d[EXPERIMENT_MAX_PLACES];
	unsigned k = c->nr_places, i;
	uint64_t t0 = clock_now_ns();
	int ret = 0, started = 0;

	if (k != l->e->nr_arms || k > EXPERIMENT_MAX_PLACES)
		return err_set(err, -EINVAL,
			       "a duet needs a place per arm: %u arms, %u "
			       "places",
			       l->e->nr_arms, k);
	memset(d, 0, sizeof(d));
	for (i = 0; i < k; i++) {
		d[i].arm = order[i];
		d[i].fd = -1;
		strbuf_init(&d[i].out, 0);
	}
	for (i = 0; i < k && !ret; i++)
		ret = set_up(l, i, &d[i], block, block_seed, err);
	if (!ret)
		exp_drop_caches(l);
	if (!ret && !(c->stop && *c->stop)) {
		fflush(NULL); /* nothing buffered twice */
		ret = start_children(l, d, k, err);
		started = 1;
	}
	if (started) {
		read_children(d, k);
		for (i = 0; i < k; i++) {
			int status;

			if (d[i].pid > 0)
				while (waitpid(d[i].pid, &status, 0) < 0 &&
				       errno == EINTR)
					;
		}
	}
	/* a block cut short by a stop request would unbalance the pairs */
	for (i = 0; started && !ret && !(c->stop && *c->stop) && i < k; i++)
		ret = take_child_run(l, &d[i], i, block, err);
	for (i = 0; i < k; i++) {
		if (d[i].have_w) {
			c->ops->cleanup(&d[i].w);
			workload_release(&d[i].w);
		}
		if (d[i].fd >= 0)
			close(d[i].fd);
		strbuf_release(&d[i].out);
	}
	exp_count_runs(l, k, block, t0);
	return ret;
}
