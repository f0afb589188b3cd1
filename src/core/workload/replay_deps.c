/*
 * The order between recorded threads that a replay keeps: an event
 * waits for what other threads had finished on the same file or name
 * before it started in the capture, at any speed (so at --speed max a
 * consumer does not read a dump its producer has not written yet).
 *
 * Each event touches keys: its file (by path, as the trace names files)
 * and, for a call that changes a directory (a create, unlink, rename,
 * mkdir, rmdir), the directory its name is in; a getdents touches the
 * directory as its file. A touch reads the key or changes it. An event
 * depends on the last change and, if it changes the key itself, on the
 * last touch of every other thread that ended before it started; when
 * that thread's last touch had not ended yet, on the thread's calls
 * before it (they ended before it started). A dependency is "thread u
 * has done n events", and one already waited for is not repeated.
 *
 * A flush of a whole file system (sync, syncfs) waits for what every
 * other thread had changed before it started, and a change (a write, an
 * unlink that drops what was written, ...) for the flushes that had
 * ended before it: one key stands for "the data", a flush changes it
 * and a change only reads it, so changes of different threads still
 * wait for nothing of each other.
 *
 * The events are taken in the order of their start, made nondecreasing
 * along each thread (a trace is untrusted): every dependency then points
 * to an event earlier in that order, so the waits cannot form a cycle.
 */
#include <fcntl.h>
#include <linux/futex.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include "replay-int.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* What one thread last did to one key. */
struct key_use {
	uint32_t th;
	uint32_t any_seq, chg_seq; /* its event numbers, + 1 (0: none) */
	uint64_t any_end, chg_end; /* when they ended */
};

struct key {
	struct key_use *use;
	size_t nr, alloc;
};

/* One event in start order. */
struct ord {
	uint64_t start;
	size_t idx; /* in the trace: ties keep the trace's order */
	uint32_t th, seq;
};

/* Paths to keys: a file's key is its id - 1, a directory the trace does
 * not list gets one after them. */
struct names {
	const char **path; /* per slot, NULL: free */
	size_t *len;
	uint32_t *key;
	size_t mask;
	uint32_t nr_keys;
};

static uint64_t hash(const char *s, size_t n)
{
	uint64_t h = 1469598103934665603ull;
	size_t i;

	for (i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
	return h;
}

/* The key of the n bytes at p, added when new. */
static uint32_t name_key(struct names *nm, const char *p, size_t n)
{
	size_t i = (size_t)hash(p, n) & nm->mask;

	while (nm->path[i]) {
		if (nm->len[i] == n && !memcmp(nm->path[i], p, n))
			return nm->key[i];
		i = (i + 1) & nm->mask;
	}
	nm->path[i] = p;
	nm->len[i] = n;
	nm->key[i] = nm->nr_keys++;
	return nm->key[i];
}

uint32_t *rp_parent_keys(const struct trace *t, uint32_t *nr_keys)
{
	struct names nm = {0};
	uint32_t *parent =
	    xcalloc(t->nr_files ? t->nr_files : 1, sizeof(*parent));
	size_t slots = 16, i;

	while (slots < 4 * t->nr_files)
		slots *= 2;
	nm.path = xcalloc(slots, sizeof(*nm.path));
	nm.len = xcalloc(slots, sizeof(*nm.len));
	nm.key = xcalloc(slots, sizeof(*nm.key));
	nm.mask = slots - 1;
	/* the files first, so that each gets its id - 1 (paths in a trace
	 * are unique: the capture numbers files by path) */
	for (i = 0; i < t->nr_files; i++) {
		nm.nr_keys = (uint32_t)i; /* a repeated path adds none */
		name_key(&nm, t->files[i].path, strlen(t->files[i].path));
	}
	nm.nr_keys = (uint32_t)t->nr_files;
	for (i = 0; i < t->nr_files; i++) {
		const char *p = t->files[i].path, *s = strrchr(p, '/');
		size_t n = s ? (size_t)(s - p) : 0;

		parent[i] = name_key(&nm, n ? p : "/", n ? n : 1);
	}
	*nr_keys = nm.nr_keys;
	free(nm.path);
	free(nm.len);
	free(nm.key);
	return parent;
}

static int by_start(const void *a, const void *b)
{
	const struct ord *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/*
 * Does e change its file (not only read it)? A flush and the page cache
 * advice count: they change what a later call finds (clean pages, pages
 * gone), so another thread's fadvise(DONTNEED) after a flush waits for
 * the flush, as it came after it in the capture, and a read after the
 * advice waits for the advice.
 */
static int changes_file(const struct trace_event *e)
{
	switch (
	    trace_op_base(e->op)) { /* an io_uring request's as its call's */
	case TOP_FSYNC:
	case TOP_FDATASYNC:
	case TOP_SYNC_RANGE:
	case TOP_FADVISE:
	case TOP_READAHEAD:
	case TOP_WRITE:
	case TOP_FTRUNCATE:
	case TOP_FALLOCATE:
	case TOP_UNLINK:
	case TOP_RENAME:
	case TOP_MKDIR:
	case TOP_RMDIR:
		return 1;
	case TOP_OPEN:
		return (e->arg & (O_CREAT | O_TRUNC)) != 0;
	}
	return 0;
}

/* Is e a flush of a whole file system? */
static int fs_flush(const struct trace_event *e)
{
	return e->op == TOP_SYNC || e->op == TOP_SYNCFS;
}

/* Does e change the directory its file's name is in? */
static int changes_dir(const struct trace_event *e)
{
	switch (e->op) {
	case TOP_UNLINK:
	case TOP_RENAME:
	case TOP_MKDIR:
	case TOP_RMDIR:
		return 1;
	case TOP_OPEN:
		return (e->arg & O_CREAT) != 0;
	}
	return 0;
}

/* Add to th's current event a wait for thread u to have done n events,
 * unless th waited for that already; first: its first dependency. */
static void need(struct rp_thread *th, uint32_t *waited, uint32_t u, uint32_t n,
		 size_t first)
{
	size_t i;

	if (n <= waited[u])
		return;
	waited[u] = n;
	for (i = first; i < th->nr_deps; i++)
		if (th->deps[i].th == u) {
			th->deps[i].count = n;
			return;
		}
	ALLOC_GROW(th->deps, th->nr_deps + 1, th->alloc_deps);
	th->deps[th->nr_deps].th = u;
	th->deps[th->nr_deps].count = n;
	th->nr_deps++;
}

/* The dependencies of event o on key k, and its own use of k noted. */
static void touch(struct rp_thread *ths, uint32_t *waited, struct key *k,
		  const struct ord *o, uint64_t end, int chg, size_t first)
{
	struct rp_thread *th = &ths[o->th];
	struct key_use *mine = NULL;
	size_t i;

	for (i = 0; i < k->nr; i++) {
		struct key_use *u = &k->use[i];

		if (u->th == o->th) {
			mine = u;
			continue;
		}
		/* its last change, and for a change its last touch */
		if (u->chg_seq)
			need(th, waited, u->th,
			     u->chg_end <= o->start ? u->chg_seq
						    : u->chg_seq - 1,
			     first);
		if (chg && u->any_seq)
			need(th, waited, u->th,
			     u->any_end <= o->start ? u->any_seq
						    : u->any_seq - 1,
			     first);
	}
	if (!mine) {
		ALLOC_GROW(k->use, k->nr + 1, k->alloc);
		mine = &k->use[k->nr++];
		memset(mine, 0, sizeof(*mine));
		mine->th = o->th;
	}
	mine->any_seq = o->seq + 1;
	mine->any_end = end;
	if (chg) {
		mine->chg_seq = o->seq + 1;
		mine->chg_end = end;
	}
}

void rp_deps_compute(const struct trace *t, struct rp_thread *ths, size_t nr_th)
{
	uint32_t nr_keys, *parent = rp_parent_keys(t, &nr_keys), *waited;
	struct ord *ord;
	struct key *keys;
	size_t nr = 0, i, k;

	for (i = 0; i < nr_th; i++)
		nr += ths[i].nr;
	ord = xcalloc(nr ? nr : 1, sizeof(*ord));
	nr = 0;
	for (i = 0; i < nr_th; i++) {
		uint64_t prev = 0;

		ths[i].dep_off = xcalloc(ths[i].nr + 1, sizeof(size_t));
		for (k = 0; k < ths[i].nr; k++) {
			const struct trace_event *e = &t->events[ths[i].idx[k]];

			prev = e->ts_ns > prev ? e->ts_ns : prev;
			ord[nr].start = prev;
			ord[nr].idx = ths[i].idx[k];
			ord[nr].th = (uint32_t)i;
			ord[nr].seq = (uint32_t)k;
			nr++;
		}
	}
	qsort(ord, nr, sizeof(*ord), by_start);
	/* and one more: the data, for the flushes of a file system */
	keys = xcalloc(nr_keys + 1, sizeof(*keys));
	waited = xcalloc(nr_th ? nr_th * nr_th : 1, sizeof(*waited));
	for (i = 0; i < nr; i++) {
		const struct ord *o = &ord[i];
		const struct trace_event *e = &t->events[o->idx];
		struct rp_thread *th = &ths[o->th];
		uint32_t *w = &waited[(size_t)o->th * nr_th];
		uint64_t end = o->start + e->dur_ns;
		size_t first = th->nr_deps;

		/* the events of a thread come in its order */
		th->dep_off[o->seq] = first;
		if (e->op == TOP_MMAP || e->op == TOP_MSYNC)
			continue; /* not replayed */
		if (e->file) {
			touch(ths, w, &keys[e->file - 1], o, end,
			      changes_file(e), first);
			if (changes_dir(e))
				touch(ths, w, &keys[parent[e->file - 1]], o,
				      end, 1, first);
		}
		if (e->op == TOP_RENAME && e->file2) {
			touch(ths, w, &keys[e->file2 - 1], o, end, 1, first);
			touch(ths, w, &keys[parent[e->file2 - 1]], o, end, 1,
			      first);
		}
		if (changes_file(e) || fs_flush(e))
			touch(ths, w, &keys[nr_keys], o, end, fs_flush(e),
			      first);
	}
	for (i = 0; i < nr_th; i++)
		ths[i].dep_off[ths[i].nr] = ths[i].nr_deps;
	for (k = 0; k <= nr_keys; k++)
		free(keys[k].use);
	free(keys);
	free(waited);
	free(ord);
	free(parent);
}

static long futex(uint32_t *word, int op, uint32_t val,
		  const struct timespec *ts)
{
	return syscall(SYS_futex, word, op, val, ts, NULL, 0);
}

/* Lower th's wanted count to count. */
static void want(struct rp_thread *th, uint32_t count)
{
	uint32_t w = __atomic_load_n(&th->wanted, __ATOMIC_SEQ_CST);

	while (count < w &&
	       !__atomic_compare_exchange_n(&th->wanted, &w, count, 0,
					    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
		;
}

int rp_wait_done(struct rp_thread *th, uint32_t count, volatile int *stop)
{
	/* a stop is seen within this, as the timed loops see it */
	const struct timespec tick = {.tv_sec = 0, .tv_nsec = 50000000};
	uint32_t v;
	int waited = 0;

	while ((v = __atomic_load_n(&th->completed, __ATOMIC_SEQ_CST)) <
		   count &&
	       !*stop) {
		waited = 1;
		__atomic_add_fetch(&th->waiters, 1, __ATOMIC_SEQ_CST);
		want(th, count);
		/* a wake-up after this read, or the value moved: no
		 * sleep, and the want is made again */
		if (__atomic_load_n(&th->completed, __ATOMIC_SEQ_CST) == v)
			futex(&th->completed, FUTEX_WAIT_PRIVATE, v, &tick);
		__atomic_sub_fetch(&th->waiters, 1, __ATOMIC_SEQ_CST);
	}
	return waited;
}

void rp_set_done(struct rp_thread *th, uint32_t count)
{
	__atomic_store_n(&th->completed, count, __ATOMIC_SEQ_CST);
	/* only when the least count a waiter wants is reached: a thread
	 * waited for all along would wake its waiter at every call */
	if (__atomic_load_n(&th->waiters, __ATOMIC_SEQ_CST) &&
	    count >= __atomic_load_n(&th->wanted, __ATOMIC_SEQ_CST)) {
		__atomic_store_n(&th->wanted, UINT32_MAX, __ATOMIC_SEQ_CST);
		futex(&th->completed, FUTEX_WAKE_PRIVATE, INT32_MAX, NULL);
	}
}
