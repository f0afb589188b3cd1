/*
 * The engine registry and the lifecycle every engine shares. Workloads
 * pick an engine by name (the --engine parameter), so the table here is
 * the one place that knows which engines exist; engine_init() copies the
 * caller's options so an engine never points into a caller's stack, and
 * checks what every engine would otherwise check itself. The synchronous
 * transfer loops live here too because two engines use them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "engine-int.h"
#include "../../util/error.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* Every engine of ENGINE_TABLE (engine.h), in its order. */
#define ENGINE_PTR_(n) &engine_##n,
const struct engine_ops *const engine_list[] = {ENGINE_TABLE(ENGINE_PTR_) NULL};
#undef ENGINE_PTR_

/* Their names, NULL-terminated, for help and "did you mean". */
#define ENGINE_NAME_(n) #n,
const char *const engine_name_list[] = {ENGINE_TABLE(ENGINE_NAME_) NULL};
#undef ENGINE_NAME_

/* The engine called name, or NULL (also for a NULL name). */
const struct engine_ops *engine_find(const char *name)
{
	if (!name)
		return NULL;
	for (size_t i = 0; engine_list[i]; i++)
		if (!strcmp(engine_list[i]->name, name))
			return engine_list[i];
	return NULL;
}

/* The engine whose name or fio_names hold fio_name, or NULL. */
const struct engine_ops *engine_find_fio(const char *fio_name)
{
	const struct engine_ops *ops = engine_find(fio_name);

	if (ops || !fio_name)
		return ops;
	for (size_t i = 0; engine_list[i]; i++) {
		const char *const *n = engine_list[i]->fio_names;

		for (; n && *n; n++)
			if (!strcmp(*n, fio_name))
				return engine_list[i];
	}
	return NULL;
}

/* Append the names of the engines that have every cap of caps. */
void engine_names_with(unsigned caps, const char *sep, const char *last,
		       struct strbuf *out)
{
	const struct engine_ops *have[ARRAY_SIZE(engine_list)];
	size_t i, n = 0;

	for (i = 0; engine_list[i]; i++)
		if ((engine_list[i]->caps & caps) == caps)
			have[n++] = engine_list[i];
	for (i = 0; i < n; i++)
		strbuf_addf(out, "%s%s",
			    !i		 ? ""
			    : i == n - 1 ? last
					 : sep,
			    have[i]->name);
}

/* The names engine_find() knows, NULL-terminated; static storage. */
const char *const *engine_names(void)
{
	return engine_name_list;
}

void engine_fio_names_text(struct strbuf *out)
{
	for (size_t i = 0; engine_list[i]; i++) {
		const char *const *n = engine_list[i]->fio_names;

		strbuf_addf(out, "%s%s",
			    !i			 ? ""
			    : engine_list[i + 1] ? ", "
						 : " and ",
			    engine_list[i]->name);
		if (!n || !*n)
			continue;
		strbuf_addstr(out, " (also for ");
		for (; *n; n++)
			strbuf_addf(out, "%s%s", *n,
				    !n[1]  ? ""
				    : n[2] ? ", "
					   : " and ");
		strbuf_addch(out, ')');
	}
}

/* engine_feature's names, bit by bit */
static const char *const feature_names[ENGINE_FEATS] = {
    "fixed_files",   "fixed_buffers", "registered_ring_fd", "single_issuer",
    "defer_taskrun", "coop_taskrun",  "taskrun_flag",	    "submit_all",
    "sqpoll",	     "batch_reap",
};

const char *engine_feature_name(unsigned feature)
{
	for (unsigned i = 0; i < ENGINE_FEATS; i++)
		if (feature == 1u << i)
			return feature_names[i];
	return NULL;
}

/* Free what engine_init() copied and zero e. */
static void engine_free_copies(struct engine *e)
{
	free((void *)e->opts.fds);
	free((void *)e->opts.bufs);
	free(e->note);
	memset(e, 0, sizeof(*e));
}

/*
 * Copy *o into e (with its fds and bufs arrays) and run ops->init. On
 * failure e is left zeroed and err says why.
 */
int engine_init(struct engine *e, const struct engine_ops *ops,
		const struct engine_opts *o, struct strbuf *err)
{
	int *fds;
	void **bufs = NULL;
	int ret;

	memset(e, 0, sizeof(*e));
	if (!ops)
		return err_set(err, -EINVAL, "no engine given");
	if (!o->iodepth)
		return err_set(err, -EINVAL,
			       "iodepth 0 is not allowed for engine '%s'; "
			       "use an iodepth of 1 or more",
			       ops->name);
	if (!o->nr_files || !o->fds)
		return err_set(err, -EINVAL,
			       "engine '%s' was given no files to work on",
			       ops->name);
	if (o->nr_files > UINT16_MAX + 1u)
		return err_set(err, -EINVAL,
			       "engine '%s' was given %u files; at most %u "
			       "are supported",
			       ops->name, o->nr_files, UINT16_MAX + 1u);
	if (o->nr_bufs && !o->bufs)
		return err_set(err, -EINVAL,
			       "engine '%s' was given %u buffers but no "
			       "buffer array",
			       ops->name, o->nr_bufs);

	fds = xmalloc(o->nr_files * sizeof(*fds));
	memcpy(fds, o->fds, o->nr_files * sizeof(*fds));
	if (o->nr_bufs) {
		bufs = xmalloc(o->nr_bufs * sizeof(*bufs));
		memcpy(bufs, o->bufs, o->nr_bufs * sizeof(*bufs));
	}
	e->ops = ops;
	e->opts = *o;
	e->opts.fds = fds;
	e->opts.bufs = bufs;

	ret = ops->init(e, &e->opts, err);
	if (ret < 0) {
		engine_free_copies(e);
		return ret;
	}
	return 0;
}

/* Run the engine's cleanup (which waits for requests in flight) and free
 * everything engine_init() made. */
void engine_release(struct engine *e)
{
	if (!e)
		return;
	if (e->ops && e->ops->cleanup)
		e->ops->cleanup(e);
	engine_free_copies(e);
}

/* Allocate the queue's slots; the queue starts empty. */
void done_fifo_init(struct done_fifo *q, unsigned cap)
{
	q->slots = xcalloc(cap, sizeof(*q->slots));
	q->cap = cap;
	q->head = 0;
	q->nr = 0;
}

/* Free the slots and leave q empty. */
void done_fifo_release(struct done_fifo *q)
{
	if (!q)
		return;
	free(q->slots);
	memset(q, 0, sizeof(*q));
}

/*
 * pread/pwrite until the whole request is done, end of file is reached
 * (a read returns 0) or the kernel refuses. A write that makes no
 * progress stops too, rather than spinning. An error after some bytes
 * moved reports the bytes: the next request will meet the error again.
 */
int32_t engine_sync_rw(int fd, const struct io_req *r)
{
	char *buf = r->buf;
	uint32_t done = 0;

	while (done < r->len_bytes) {
		size_t want = r->len_bytes - done;
		off_t at = (off_t)(r->offset_bytes + done);
		ssize_t n;

		if (r->dir == IO_READ)
			n = pread(fd, buf + done, want, at);
		else
			n = pwrite(fd, buf + done, want, at);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return done ? (int32_t)done : -errno;
		}
		if (n == 0)
			break;
		done += (uint32_t)n;
	}
	return (int32_t)done;
}

/* fsync(2) or fdatasync(2), as the request asks, retried on EINTR. */
int32_t engine_sync_flush(int fd, const struct io_req *r)
{
	int ret;

	do {
		if (r->dir == IO_FDATASYNC)
			ret = fdatasync(fd);
		else
			ret = fsync(fd);
	} while (ret < 0 && errno == EINTR);
	return ret < 0 ? -errno : 0;
}
