/*
 * What a smallfiles client does around each operation, for both of its
 * loops (sf_mix.c, sf_replay.c): whether to go on and to count, the
 * tally of a finished operation, and the error that ends a run. Below
 * smallfiles.c, which starts the clients and folds their tallies.
 */
#include <errno.h>
#include <stdatomic.h>
#include <string.h>
#include "smallfiles-int.h"
#include "../../util/clock.h"
#include "../../util/error.h"
#include "../../util/banned.h"

int sf_errno_fatal(int e)
{
	return e == ENOSPC || e == EDQUOT || e == EIO || e == EROFS ||
	       e == ENOMEM || e == EMFILE || e == ENFILE;
}

int sf_client_fail(struct sf_client *c, int e, const char *what,
		   const char *path)
{
	const struct target *t = c->sh->w->target;

	if (e == ENOSPC || e == EDQUOT)
		err_set(&c->err, -e,
			"the filesystem of '%s' is full: client %u cannot %s "
			"'client%u/%s' (%s); the run is stopped and its "
			"files removed",
			t->path, c->idx, what, c->idx, path, strerror(e));
	else
		err_set(&c->err, -e, "client %u cannot %s '%s/client%u/%s': %s",
			c->idx, what, t->workdir, c->idx, path, strerror(e));
	c->ret = -e;
	atomic_store(&c->sh->failed, 1);
	return -e;
}

int sf_client_next(struct sf_client *c, int *timed)
{
	int phase = atomic_load_explicit(&c->sh->phase, memory_order_acquire);

	if (phase == SF_PHASE_DRAIN || *c->sh->w->stop ||
	    atomic_load_explicit(&c->sh->failed, memory_order_relaxed))
		return 0;
	if (phase == SF_PHASE_RUN)
		thread_cpu_start(&c->cpu);
	*timed = phase == SF_PHASE_RUN;
	if (*timed && c->quota && c->counted >= c->quota)
		return 0;
	return 1;
}

void sf_client_done(struct sf_client *c, unsigned k, uint64_t t0_ns, int timed)
{
	uint64_t now;

	if (!timed)
		return;
	now = clock_now_ns();
	hist_record(&c->ops[k].lat, now - t0_ns);
	c->counted++;
	c->last_done_ns = now;
}
