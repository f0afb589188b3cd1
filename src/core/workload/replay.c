/*
 * replay: play a recorded trace (iotrial record) back at the file
 * layer. prepare lays out the files the trace found (the ones that
 * existed before it, with their sizes; the directories they sit in)
 * inside the work directory; run starts one thread per recorded thread
 * and each does its thread's calls in order: open loop on the recorded
 * timestamps (each call waits for its own absolute time, scaled by
 * --speed, so delays never add up), closed loop (each call waits for the
 * previous one and then the recorded think time), or as fast as it goes
 * (--speed max); at any speed a call also waits for what other threads
 * had finished on its file or directory before it started in the
 * capture (replay_deps.c). Open flags are kept (buffered stays buffered,
 * O_DIRECT stays O_DIRECT), so read-ahead, atime and dirty thresholds act as
 * they did.
 *
 * The trace is untrusted: every path must be absolute and plain (no
 * ".", ".." or empty component); it is mapped below the work directory
 * by taking off the directory all the trace's files share, and reached
 * with openat2(RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS) from the work
 * directory, so nothing outside it is ever touched. Sizes and counts are
 * bounded.
 *
 * After the run, what the replay did (recorded as trace events of its
 * own) is compared with the capture (core/trace/fidelity.h): the score
 * is a note of the run, and a poor replay carries a "fidelity" warning,
 * which makes a verdict over it suspect.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include "workload.h"
#include "replay-int.h"
#include "../trace/fidelity.h"
#include "../trace/trace.h"
#include "../trace/trace_paths.h"
#include "../trace/trace_summary.h"
#include "../../util/clock.h"
#include "../../util/error.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

#define RP_THREADS_MAX	1024	     /* recorded threads replayed */
#define RP_FILE_MAX	(1ull << 40) /* bytes of one file laid out */
#define RP_LAYOUT_CHUNK (1u << 20)   /* bytes written at a time */

static const char *const mode_choices[] = {"open", "closed", NULL};
static const char *const layer_choices[] = {"file", "block", NULL};
static const char *const end_choices[] = {"capture", "calls", NULL};

#define RP(member) PARAM_AT(struct replay_params, member)

static const struct param_spec replay_rows[] = {
    {"trace", PARAM_STRING, "", 0, 0, NULL,
     "the trace to replay (iotrial record -o TRACE)", RP(trace)},
    {"speed", PARAM_STRING, "1", 0, 0, NULL,
     "time factor: 2 plays twice as fast; max: no waiting", RP(speed)},
    {"mode", PARAM_CHOICE, "open", 0, 0, mode_choices,
     "open: each call at its recorded time; closed: after the previous "
     "one and its think time",
     RP(mode)},
    {"layer", PARAM_CHOICE, "file", 0, 0, layer_choices,
     "file: the calls on laid-out files; block: the device requests on "
     "a block device (record --layer block)",
     RP(layer)},
    {"fold", PARAM_BOOL, "0", 0, 0, NULL,
     "block: fold offsets past the target's end modulo its size "
     "(default: refuse)",
     RP(fold)},
    {"end", PARAM_CHOICE, "capture", 0, 0, end_choices,
     "capture: watch the device after the last call to the end of the "
     "capture's time (its writeback); calls: stop at the last call",
     RP(end)},
    {"allow-lost", PARAM_BOOL, "0", 0, 0, NULL,
     "replay a trace whose capture lost calls (the run is marked)",
     RP(allow_lost)},
    {"label", PARAM_STRING, "", 0, 0, NULL,
     "free text carried into results (A/A experiments)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

/* Is w a replay of the block layer (layer=block)? */
static int replay_block(const struct workload *w)
{
	const struct replay_params *p = w->params;

	return !strcmp(p->layer, "block");
}

int rp_parse_speed(const char *s, double *out, struct strbuf *err)
{
	char *end;
	double v;

	if (!strcmp(s, "max")) {
		*out = 0;
		return 0;
	}
	v = strtod(s, &end);
	if (end == s || *end || !(v > 0.001 && v <= 1000))
		return err_set(err, -EINVAL,
			       "invalid value '%s' for 'speed': expected a "
			       "factor from 0.001 to 1000, or max",
			       s);
	*out = v;
	return 0;
}

static int replay_validate(struct workload *w, struct strbuf *err)
{
	const struct replay_params *p = w->params;
	double speed;

	if (!*p->trace)
		return err_set(err, -EINVAL,
			       "replay needs --trace TRACE, a file 'iotrial "
			       "record' wrote");
	if (w->ro.ios)
		return err_set(err, -EINVAL,
			       "replay plays the whole trace; leave out --ios");
	return rp_parse_speed(p->speed, &speed, err);
}

int rp_map_names(struct rp_state *st, struct strbuf *err)
{
	return trace_map_names(&st->t, &st->rel, err);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The directories the trace makes (a mkdir that succeeded, of one that
 * was not there before), sorted: the layout leaves them to the replay,
 * whose mkdir would fail otherwise. */
static char **made_dirs(const struct rp_state *st, size_t *nr)
{
	char *mark = xcalloc(st->t.nr_files + 1, 1), **out;
	size_t i, n = 0;

	for (i = 0; i < st->t.nr_events; i++) {
		const struct trace_event *e = &st->t.events[i];

		if (e->op == TOP_MKDIR && e->ret == 0 && e->file &&
		    !st->t.files[e->file - 1].existed && st->rel[e->file - 1])
			n += !mark[e->file]++;
	}
	out = xcalloc(n ? n : 1, sizeof(*out));
	for (i = 1, n = 0; i <= st->t.nr_files; i++)
		if (mark[i])
			out[n++] = st->rel[i - 1];
	qsort(out, n, sizeof(*out), cmp_str);
	free(mark);
	*nr = n;
	return out;
}

/* Make the directories leading to rel (not rel itself), up to one in
 * made (the trace makes it and what is below); *last is the parent made
 * before, skipped when it is rel's too. */
static int make_parents(int work_fd, const char *rel, char **last, char **made,
			size_t nr_made)
{
	const char *slash = strrchr(rel, '/');
	char *p, *s;
	int ret = 0;

	if (!slash)
		return 0;
	if (*last && strlen(*last) == (size_t)(slash - rel) &&
	    !strncmp(*last, rel, (size_t)(slash - rel)))
		return 0;
	p = xstrdup(rel);

	for (s = strchr(p, '/'); s && !ret; s = strchr(s + 1, '/')) {
		*s = 0;
		if (nr_made &&
		    bsearch(&p, made, nr_made, sizeof(*made), cmp_str)) {
			break;
		}
		if (mkdirat(work_fd, p, 0755) && errno != EEXIST)
			ret = -errno;
		else {
			int fd = rp_open_beneath(work_fd, p,
						 O_PATH | O_DIRECTORY, 0);

			if (fd < 0)
				ret = fd; /* a link or a file in the way */
			else
				close(fd);
		}
		*s = '/';
	}
	free(*last);
	/* stopped or not, the next file of this directory fares alike */
	*last = ret ? NULL : xstrndup(rel, (size_t)(slash - rel));
	free(p);
	return ret;
}

/* Lay out one file: its directories and, if it existed, its bytes;
 * last[existed] is make_parents' for files that existed or not. */
static int lay_out(struct rp_state *st, size_t i, char *chunk, char **last,
		   char **made, size_t nr_made, struct strbuf *err)
{
	const struct trace_file *f = &st->t.files[i];
	const char *rel = st->rel[i];
	uint64_t off;
	int fd, ret;

	if (!rel || !strcmp(rel, "."))
		return 0;
	/* a file that was there has its directories whatever the trace
	 * did to them */
	ret = make_parents(st->work_fd, rel, &last[!f->existed], made,
			   f->existed ? 0 : nr_made);
	if (ret)
		return err_set(err, ret, "cannot lay out '%s': %s", rel,
			       strerror(-ret));
	if (!f->existed)
		return 0;
	if (f->kind == TFK_DIR) {
		if (mkdirat(st->work_fd, rel, 0755) && errno != EEXIST)
			return err_set(err, -errno, "cannot make '%s': %s", rel,
				       strerror(errno));
		return 0;
	}
	if (f->kind != TFK_REG)
		return 0;
	fd = rp_open_beneath(st->work_fd, rel, O_WRONLY | O_CREAT | O_TRUNC,
			     0644);
	if (fd < 0)
		return err_set(err, fd, "cannot lay out '%s': %s", rel,
			       strerror(-fd));
	/* a file the trace only names (stat, open and close) is there at
	 * its size, a hole: what would its bytes be written for? */
	if (!st->data[i]) {
		if (ftruncate(fd, (off_t)f->size_bytes))
			ret = err_set(err, -errno, "cannot lay out '%s': %s",
				      rel, strerror(errno));
		close(fd);
		return ret;
	}
	for (off = 0; off < f->size_bytes && !ret; off += RP_LAYOUT_CHUNK) {
		size_t n = f->size_bytes - off < RP_LAYOUT_CHUNK
			       ? (size_t)(f->size_bytes - off)
			       : RP_LAYOUT_CHUNK;

		if (pwrite(fd, chunk, n, (off_t)off) != (ssize_t)n)
			ret = err_set(err, -(errno ? errno : ENOSPC),
				      "cannot lay out '%s': %s", rel,
				      strerror(errno ? errno : ENOSPC));
	}
	if (!ret && fsync(fd))
		ret = err_set(err, -errno, "cannot lay out '%s': %s", rel,
			      strerror(errno));
	close(fd);
	return ret;
}

/*
 * Which files' bytes the replay uses (st->data): those it reads,
 * writes (by a call or an io_uring request), reads ahead, advises,
 * flushes a range of, truncates or allocates in, and a file whose name
 * a rename gave to one of those (the data moves with the name). The
 * others are only named.
 */
static void mark_data(struct rp_state *st)
{
	size_t i = st->t.nr_events;

	st->data = xcalloc(st->t.nr_files + 1, 1);
	while (i-- > 0) {
		const struct trace_event *e = &st->t.events[i];

		if (!e->file || trace_op_is_block(e->op))
			continue;
		switch (trace_op_base(e->op)) { /* an io_uring request's too */
		case TOP_READ:
		case TOP_WRITE:
		case TOP_READAHEAD:
		case TOP_FADVISE:
		case TOP_SYNC_RANGE:
		case TOP_FTRUNCATE:
		case TOP_FALLOCATE:
			st->data[e->file - 1] = 1;
			break;
		case TOP_RENAME: /* from the end: what it leads to is known */
			if (e->file2 && st->data[e->file2 - 1])
				st->data[e->file - 1] = 1;
			break;
		}
	}
}

/* Group the events by thread. */
static int split_threads(struct rp_state *st, struct strbuf *err)
{
	size_t i, j;

	for (i = 0; i < st->t.nr_events; i++) {
		uint32_t tid = st->t.events[i].tid;
		struct rp_thread *th = NULL;

		/* the device's requests follow from the calls: a file-layer
		 * replay makes its own */
		if (trace_op_is_block(st->t.events[i].op))
			continue;
		for (j = st->nr_th; j-- > 0;)
			if (st->th[j].tid == tid) {
				th = &st->th[j];
				break;
			}
		if (!th) {
			if (st->nr_th == RP_THREADS_MAX)
				return err_set(err, -E2BIG,
					       "the trace has more than %d "
					       "threads",
					       RP_THREADS_MAX);
			st->th =
			    xrealloc(st->th, (st->nr_th + 1) * sizeof(*st->th));
			th = &st->th[st->nr_th++];
			memset(th, 0, sizeof(*th));
			th->tid = tid;
		}
		ALLOC_GROW(th->idx, th->nr + 1, th->alloc);
		th->idx[th->nr++] = i;
	}
	if (!st->nr_th && st->t.nr_events)
		return err_set(err, -EINVAL,
			       "the trace holds block requests only: replay it "
			       "with --layer=block on a device");
	return 0;
}

/* --layer block: the trace's device requests on the device t. */
static int prepare_block(struct workload *w, struct target *t,
			 struct strbuf *err)
{
	const struct replay_params *p = w->params;
	struct rp_state *st = xcalloc(1, sizeof(*st));
	int ret;

	w->target = t;
	w->priv = st;
	pthread_mutex_init(&st->lock, NULL);
	st->work_fd = -1;
	st->stop = w->stop;
	st->open_loop = 1;
	ret = rp_parse_speed(p->speed, &st->speed, err);
	if (!ret)
		ret = trace_read_file(p->trace, &st->t, err);
	if (ret)
		return ret;
	if (st->t.end.lost && !p->allow_lost)
		return err_set(err, -EINVAL,
			       "the trace lost %llu events in its capture: a "
			       "replay of it would not be what ran; "
			       "--allow-lost replays it anyway (the run is "
			       "marked)",
			       (unsigned long long)st->t.end.lost);
	return rpb_prepare(st, w, t, err);
}

/* A file in the layout's order. */
struct file_order {
	const char *rel;
	size_t i;
};

static int by_rel(const void *a, const void *b)
{
	const struct file_order *x = a, *y = b;
	int c = strcmp(x->rel, y->rel);

	return c ? c : (x->i > y->i) - (x->i < y->i);
}

static int replay_prepare(struct workload *w, struct target *t,
			  struct strbuf *err)
{
	const struct replay_params *p = w->params;
	struct rp_state *st;
	uint64_t bytes = 0;
	char *chunk, *last[2] = {NULL, NULL}, **made;
	struct file_order *order;
	size_t i, nr_made;
	uint32_t nr_keys;
	int ret;

	if (replay_block(w))
		return prepare_block(w, t, err);
	ret = workload_need_files(w, t, "of a file-layer trace lays out files",
				  err);
	if (ret)
		return ret;
	w->target = t;
	st = xcalloc(1, sizeof(*st));
	w->priv = st;
	pthread_mutex_init(&st->lock, NULL);
	st->work_fd = t->work_fd;
	st->stop = w->stop;
	st->open_loop = !strcmp(p->mode, "open");
	st->end_capture = !strcmp(p->end, "capture");
	ret = rp_parse_speed(p->speed, &st->speed, err);
	if (!ret)
		ret = trace_read_file(p->trace, &st->t, err);
	if (ret)
		return ret;
	if (st->t.end.lost && !p->allow_lost)
		return err_set(err, -EINVAL,
			       "the trace lost %llu calls in its capture: a "
			       "replay of it would not be what ran; "
			       "--allow-lost replays it anyway (the run is "
			       "marked)",
			       (unsigned long long)st->t.end.lost);
	ret = rp_map_names(st, err);
	if (!ret)
		ret = split_threads(st, err);
	if (!ret)
		ret = rp_uring_prepare(st, err);
	if (ret)
		return ret;
	rp_deps_compute(&st->t, st->th, st->nr_th);
	for (i = 0; i < st->nr_th; i++)
		st->th[i].wanted = UINT32_MAX;
	st->parent = rp_parent_keys(&st->t, &nr_keys);
	rp_dirs_init(st);
	mark_data(st);
	for (i = 0; i < st->t.nr_files; i++) {
		const struct trace_file *f = &st->t.files[i];

		if (f->existed && f->kind == TFK_REG && st->data[i]) {
			if (f->size_bytes > RP_FILE_MAX)
				return err_set(err, -EFBIG,
					       "file %zu of the trace is "
					       "larger than 1 TiB",
					       i + 1);
			bytes += f->size_bytes;
		}
	}
	/* the trace's files: no --size or --jobs makes them smaller */
	ret = target_check_space(t, bytes,
				 "the trace's files are laid out at their "
				 "recorded sizes: pick another target",
				 err);
	if (ret)
		return ret;
	chunk = xmalloc(RP_LAYOUT_CHUNK);
	for (i = 0; i < RP_LAYOUT_CHUNK; i++)
		chunk[i] = (char)(w->ro.seed + i * 2654435761u);
	made = made_dirs(st, &nr_made);
	/* by path, so that files of one directory come together and
	 * make_parents makes their directories once */
	order = xcalloc(st->t.nr_files + 1, sizeof(*order));
	for (i = 0; i < st->t.nr_files; i++) {
		order[i].rel = st->rel[i] ? st->rel[i] : "";
		order[i].i = i;
	}
	qsort(order, st->t.nr_files, sizeof(*order), by_rel);
	for (i = 0; !ret && i < st->t.nr_files; i++)
		ret = lay_out(st, order[i].i, chunk, last, made, nr_made, err);
	if (!ret)
		rp_cache_plan(st);
	free(order);
	free(made);
	free(last[0]);
	free(last[1]);
	free(chunk);
	return ret;
}

/* workload_ops.knob_above: at the block layer, what acts above it */
static const char *replay_knob_above(const struct workload *w, const char *knob)
{
	static const char *const above[] = {"read_ahead_kb", "atime",
					    "vm.dirty_", "bdflush.",
					    "vm.vfs_cache_pressure"};
	size_t i;

	if (!replay_block(w))
		return NULL;
	for (i = 0; i < ARRAY_SIZE(above); i++)
		if (!strncmp(knob, above[i], strlen(above[i])))
			return "a block-layer replay issues the recorded "
			       "requests itself, with O_DIRECT: this knob "
			       "acts above the block layer (on the page cache "
			       "and the file system that made them), not on "
			       "the replay; replay the file layer of the "
			       "trace to measure it";
	return NULL;
}

/* workload_ops.needs_files: a file-layer replay lays out its files */
static int replay_needs_files(const struct workload *w)
{
	return !replay_block(w);
}

/* workload_ops.default_metric: how long the replay took */
static const char *replay_metric(const struct workload *w)
{
	(void)w;
	return "wall";
}

const struct workload_ops workload_replay = {
    .name = "replay",
    .summary = "play a recorded trace back: its files, threads, timing",
    .params = replay_rows,
    .params_size = sizeof(struct replay_params),
    .validate = replay_validate,
    .prepare = replay_prepare,
    .run = rp_run_judged,
    .cleanup = rp_cleanup,
    .default_metric = replay_metric,
    .knob_above = replay_knob_above,
    .needs_files = replay_needs_files,
    .short_run_advice = "record a longer trace",
    .untimed = 1,
};
