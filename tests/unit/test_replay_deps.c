/*
 * Tests for the replay's cross-thread order (core/workload/replay_deps):
 * a consumer that opened a dump after its producer renamed it waits for
 * the producer's calls up to the rename; calls that overlapped in the
 * capture, reads after reads and calls on other files wait for nothing;
 * a create waits for an earlier create in the same directory; a sync
 * waits for the writes before it and an unlink after it for the sync; a
 * wait
 * already made is not repeated; and any trace, timestamps out of order
 * included, gives waits that a replay can always finish (no cycle).
 */
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "core/workload/replay-int.h"
#include "util/rng.h"
#include "util/xalloc.h"
#include "util/banned.h"

struct fixture {
	struct trace t;
	struct rp_thread th[8];
	size_t nr_th;
};

static void add_file(struct fixture *fx, const char *path)
{
	struct trace_file f = {0};

	f.kind = TFK_REG;
	f.path = (char *)path;
	trace_add_file(&fx->t, &f);
}

/* An event of thread th (0..) from ts to ts + dur. */
static void ev(struct fixture *fx, uint32_t th, unsigned op, uint32_t file,
	       uint32_t file2, uint32_t arg, uint64_t ts, uint64_t dur)
{
	struct trace_event *e;
	struct rp_thread *t = &fx->th[th];

	ALLOC_GROW(fx->t.events, fx->t.nr_events + 1, fx->t.alloc_events);
	e = &fx->t.events[fx->t.nr_events];
	memset(e, 0, sizeof(*e));
	e->ts_ns = ts;
	e->dur_ns = dur;
	e->tid = 100 + th;
	e->op = (uint16_t)op;
	e->file = file;
	e->file2 = file2;
	e->arg = arg;
	ALLOC_GROW(t->idx, t->nr + 1, t->alloc);
	t->idx[t->nr++] = fx->t.nr_events++;
	if (th + 1 > fx->nr_th)
		fx->nr_th = th + 1;
}

static void release(struct fixture *fx)
{
	size_t i;

	for (i = 0; i < fx->nr_th; i++) {
		free(fx->th[i].idx);
		free(fx->th[i].dep_off);
		free(fx->th[i].deps);
	}
	free(fx->t.events);
	for (i = 0; i < fx->t.nr_files; i++)
		free(fx->t.files[i].path);
	free(fx->t.files);
	memset(fx, 0, sizeof(*fx));
}

/* How many waits event k of thread th has. */
static size_t nr_deps(const struct fixture *fx, size_t th, size_t k)
{
	return fx->th[th].dep_off[k + 1] - fx->th[th].dep_off[k];
}

static const struct rp_dep *dep(const struct fixture *fx, size_t th, size_t k)
{
	return &fx->th[th].deps[fx->th[th].dep_off[k]];
}

static void test_producer_consumer(void **state)
{
	struct fixture fx = {0};

	(void)state;
	add_file(&fx, "/spool/3f/.tmp1");
	add_file(&fx, "/spool/3f/dump1");
	/* the producer writes under a temporary name and renames */
	ev(&fx, 0, TOP_OPEN, 1, 0, O_CREAT | O_WRONLY, 10, 5);
	ev(&fx, 0, TOP_WRITE, 1, 0, 0, 20, 5);
	ev(&fx, 0, TOP_CLOSE, 1, 0, 0, 30, 1);
	ev(&fx, 0, TOP_RENAME, 1, 2, 0, 40, 5);
	/* the consumer opens the renamed dump, reads it, deletes it */
	ev(&fx, 1, TOP_OPEN, 2, 0, O_RDONLY, 50, 5);
	ev(&fx, 1, TOP_READ, 2, 0, 0, 60, 5);
	ev(&fx, 1, TOP_CLOSE, 2, 0, 0, 70, 1);
	ev(&fx, 1, TOP_UNLINK, 2, 0, 0, 80, 5);
	rp_deps_compute(&fx.t, fx.th, fx.nr_th);
	/* nothing before the producer */
	assert_int_equal(fx.th[0].nr_deps, 0);
	/* the open waits for the four calls up to the rename, once */
	assert_int_equal(nr_deps(&fx, 1, 0), 1);
	assert_int_equal(dep(&fx, 1, 0)->th, 0);
	assert_int_equal(dep(&fx, 1, 0)->count, 4);
	assert_int_equal(fx.th[1].nr_deps, 1);
	release(&fx);
}

/* A flush and page cache advice order the threads that follow: the
 * advice waits for the other thread's fsync (pages under writeback are
 * not dropped), a read after the advice waits for the advice. */
static void test_flush_then_advice(void **state)
{
	struct fixture fx = {0};
	size_t i, found = 0;

	(void)state;
	add_file(&fx, "/w/fa");
	ev(&fx, 0, TOP_OPEN, 1, 0, O_CREAT | O_WRONLY, 10, 5);
	ev(&fx, 0, TOP_WRITE, 1, 0, 0, 20, 5);
	ev(&fx, 0, TOP_FSYNC, 1, 0, 0, 30, 50);
	ev(&fx, 0, TOP_CLOSE, 1, 0, 0, 90, 1);
	ev(&fx, 1, TOP_OPEN, 1, 0, O_RDONLY, 100, 5);
	ev(&fx, 1, TOP_FADVISE, 1, 0, 4, 110, 5);
	ev(&fx, 1, TOP_CLOSE, 1, 0, 0, 120, 1);
	ev(&fx, 2, TOP_OPEN, 1, 0, O_RDONLY, 130, 5);
	ev(&fx, 2, TOP_READ, 1, 0, 0, 140, 5);
	rp_deps_compute(&fx.t, fx.th, fx.nr_th);
	/* the advice's thread waits for the fsync, the third call */
	assert_int_equal(nr_deps(&fx, 1, 0), 1);
	assert_int_equal(dep(&fx, 1, 0)->th, 0);
	assert_int_equal(dep(&fx, 1, 0)->count, 3);
	/* the reader waits for the advice, the second call of thread 1 */
	for (i = 0; i < nr_deps(&fx, 2, 0); i++)
		found +=
		    dep(&fx, 2, 0)[i].th == 1 && dep(&fx, 2, 0)[i].count == 2;
	assert_int_equal(found, 1);
	release(&fx);
}

/* A sync (no file) waits for the writes other threads had finished
 * before it, and an unlink after it ended waits for it (the data it
 * flushed is not dropped first); writes of two threads to two files
 * wait for nothing of each other. */
static void test_sync_orders(void **state)
{
	struct fixture fx = {0};
	size_t i, found = 0;

	(void)state;
	add_file(&fx, "/w/a");
	add_file(&fx, "/w/b");
	ev(&fx, 0, TOP_OPEN, 1, 0, O_CREAT | O_WRONLY, 10, 5);
	ev(&fx, 0, TOP_WRITE, 1, 0, 0, 20, 5);
	ev(&fx, 3, TOP_OPEN, 2, 0, O_CREAT | O_WRONLY, 11, 5);
	ev(&fx, 3, TOP_WRITE, 2, 0, 0, 21, 5);
	ev(&fx, 1, TOP_SYNC, 0, 0, 0, 40, 30);
	ev(&fx, 2, TOP_UNLINK, 1, 0, 0, 80, 5);
	rp_deps_compute(&fx.t, fx.th, fx.nr_th);
	/* the sync waits for both writers' writes */
	for (i = 0; i < nr_deps(&fx, 1, 0); i++)
		found +=
		    dep(&fx, 1, 0)[i].count == 2 &&
		    (dep(&fx, 1, 0)[i].th == 0 || dep(&fx, 1, 0)[i].th == 3);
	assert_int_equal(found, 2);
	/* the second writer waits for nothing of the first */
	assert_int_equal(fx.th[3].nr_deps, 0);
	/* the unlink waits for the sync */
	for (i = 0, found = 0; i < nr_deps(&fx, 2, 0); i++)
		found +=
		    dep(&fx, 2, 0)[i].th == 1 && dep(&fx, 2, 0)[i].count == 1;
	assert_int_equal(found, 1);
	release(&fx);
}

static void test_overlap_and_reads(void **state)
{
	struct fixture fx = {0};

	(void)state;
	add_file(&fx, "/d/a");
	add_file(&fx, "/d/b");
	/* two reads of a at the same time, then a read after a read */
	ev(&fx, 0, TOP_READ, 1, 0, 0, 10, 100);
	ev(&fx, 1, TOP_READ, 1, 0, 0, 20, 100);
	ev(&fx, 1, TOP_READ, 1, 0, 0, 200, 10);
	/* a write of a while thread 0's read of it was still going: it
	 * waits for nothing, the read had not ended */
	ev(&fx, 2, TOP_WRITE, 1, 0, 0, 50, 10);
	/* a write of another file waits for nothing */
	ev(&fx, 3, TOP_WRITE, 2, 0, 0, 300, 10);
	rp_deps_compute(&fx.t, fx.th, fx.nr_th);
	assert_int_equal(fx.th[0].nr_deps, 0);
	assert_int_equal(fx.th[2].nr_deps, 0);
	assert_int_equal(fx.th[3].nr_deps, 0);
	/* thread 1's second read comes after thread 2's write ended */
	assert_int_equal(nr_deps(&fx, 1, 0), 0);
	assert_int_equal(nr_deps(&fx, 1, 1), 1);
	assert_int_equal(dep(&fx, 1, 1)->th, 2);
	assert_int_equal(dep(&fx, 1, 1)->count, 1);
	release(&fx);
}

static void test_directory(void **state)
{
	struct fixture fx = {0};

	(void)state;
	add_file(&fx, "/w/d");
	add_file(&fx, "/w/d/x");
	add_file(&fx, "/w/d/y");
	add_file(&fx, "/w/e/z");
	ev(&fx, 0, TOP_MKDIR, 1, 0, 0, 10, 5);
	/* creates in d wait for the mkdir and for each other */
	ev(&fx, 1, TOP_OPEN, 2, 0, O_CREAT | O_WRONLY, 20, 5);
	ev(&fx, 2, TOP_OPEN, 3, 0, O_CREAT | O_WRONLY, 30, 5);
	/* a create elsewhere does not */
	ev(&fx, 3, TOP_OPEN, 4, 0, O_CREAT | O_WRONLY, 40, 5);
	/* a listing of d waits for the last create in it; its reads are
	 * already ordered after the others through it */
	ev(&fx, 0, TOP_OPEN, 1, 0, O_RDONLY | O_DIRECTORY, 50, 5);
	ev(&fx, 0, TOP_GETDENTS, 1, 0, 0, 60, 5);
	rp_deps_compute(&fx.t, fx.th, fx.nr_th);
	assert_int_equal(nr_deps(&fx, 1, 0), 1);
	assert_int_equal(dep(&fx, 1, 0)->th, 0);
	assert_int_equal(dep(&fx, 1, 0)->count, 1);
	assert_int_equal(nr_deps(&fx, 2, 0), 2);
	assert_int_equal(fx.th[3].nr_deps, 0);
	/* the open of d reads d: the creates changed it */
	assert_int_equal(nr_deps(&fx, 0, 1), 2);
	assert_int_equal(nr_deps(&fx, 0, 2), 0);
	release(&fx);
}

/* Play the waits: step any thread whose next event's waits are met
 * until none can; 1 if every event ran. */
static int playable(const struct fixture *fx)
{
	uint32_t done[8] = {0};
	size_t i, j, left = 0;
	int moved = 1;

	for (i = 0; i < fx->nr_th; i++)
		left += fx->th[i].nr;
	while (left && moved) {
		moved = 0;
		for (i = 0; i < fx->nr_th; i++) {
			const struct rp_thread *t = &fx->th[i];
			int ok = done[i] < t->nr;

			for (j = ok ? t->dep_off[done[i]] : 0;
			     ok && j < t->dep_off[done[i] + 1]; j++)
				ok = done[t->deps[j].th] >= t->deps[j].count &&
				     t->deps[j].th != i;
			if (ok) {
				done[i]++;
				left--;
				moved = 1;
			}
		}
	}
	return !left;
}

static void test_random_traces_finish(void **state)
{
	static const unsigned ops[] = {TOP_OPEN,  TOP_READ,   TOP_WRITE,
				       TOP_CLOSE, TOP_RENAME, TOP_UNLINK,
				       TOP_STAT,  TOP_MKDIR,  TOP_GETDENTS};
	struct fixture fx = {0};
	struct rng r;
	unsigned round, i;

	(void)state;
	rng_seed(&r, 22);
	for (round = 0; round < 200; round++) {
		add_file(&fx, "/s");
		add_file(&fx, "/s/a");
		add_file(&fx, "/s/b");
		add_file(&fx, "/s/c/d");
		for (i = 0; i < 60; i++) {
			unsigned op = ops[rng_below(&r, ARRAY_SIZE(ops))];

			/* timestamps anywhere: out of order too */
			ev(&fx, (uint32_t)rng_below(&r, 8), op,
			   (uint32_t)rng_below(&r, 5),
			   (uint32_t)rng_below(&r, 5),
			   rng_below(&r, 2) ? O_CREAT : 0, rng_below(&r, 50),
			   rng_below(&r, 20));
		}
		rp_deps_compute(&fx.t, fx.th, fx.nr_th);
		assert_true(playable(&fx));
		release(&fx);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_producer_consumer),
	    cmocka_unit_test(test_overlap_and_reads),
	    cmocka_unit_test(test_flush_then_advice),
	    cmocka_unit_test(test_sync_orders),
	    cmocka_unit_test(test_directory),
	    cmocka_unit_test(test_random_traces_finish),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
