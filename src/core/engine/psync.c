/*
 * psync: one pread(2) or pwrite(2) per request, done inside submit. It is
 * the engine every kernel and filesystem supports and the baseline the
 * asynchronous engines are measured against; at iodepth 1 it is also the
 * lowest-latency way to do a single synchronous I/O. Finished requests
 * wait in a small queue until reap hands them back, so workloads drive
 * every engine with the same submit/reap loop.
 */
#include <errno.h>
#include <stdlib.h>
#include "engine-int.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* The engine's state: just the finished requests. */
struct psync {
	struct done_fifo done;
};

/* Make room for iodepth finished requests. Cannot fail. */
static int psync_init(struct engine *e, const struct engine_opts *o,
		      struct strbuf *err)
{
	struct psync *p = xcalloc(1, sizeof(*p));

	(void)err;
	done_fifo_init(&p->done, o->iodepth);
	e->priv = p;
	return 0;
}

/* Run one request to completion and record its result. */
static void psync_do(const struct engine_opts *o, struct io_req *r)
{
	int32_t bad = engine_check_req(o, r);

	if (bad)
		r->result = bad;
	else if (io_dir_is_rw(r->dir))
		r->result = engine_sync_rw(o->fds[r->file_idx], r);
	else
		r->result = engine_sync_flush(o->fds[r->file_idx], r);
}

/* Do up to the free slots' worth of requests now; they complete here. */
static int psync_submit(struct engine *e, struct io_req **reqs, unsigned n)
{
	struct psync *p = e->priv;
	unsigned room = p->done.cap - p->done.nr;

	if (n > room)
		n = room;
	for (unsigned i = 0; i < n; i++) {
		psync_do(&e->opts, reqs[i]);
		done_fifo_push(&p->done, reqs[i]);
	}
	return (int)n;
}

/* Hand back what submit finished; nothing is ever pending, so min is met
 * by whatever is queued. */
static int psync_reap(struct engine *e, struct io_req **done, unsigned min,
		      unsigned max)
{
	struct psync *p = e->priv;

	(void)min;
	return (int)done_fifo_pop(&p->done, done, max);
}

/* Free the queue; requests still in it were finished already. */
static void psync_cleanup(struct engine *e)
{
	struct psync *p = e->priv;

	if (!p)
		return;
	done_fifo_release(&p->done);
	free(p);
	e->priv = NULL;
}

/* fio's synchronous engines that do what psync does, one I/O at a time */
static const char *const psync_fio_names[] = {"sync", "pvsync", NULL};

const struct engine_ops engine_psync = {
    .name = "psync",
    .caps = ENGINE_SYNC,
    .fio_names = psync_fio_names,
    .fio_note = "one synchronous I/O at a time, the same pattern",
    .init = psync_init,
    .submit = psync_submit,
    .reap = psync_reap,
    .cleanup = psync_cleanup,
};
