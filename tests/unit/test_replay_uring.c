/*
 * Tests for the replay of io_uring requests (core/workload/replay_uring):
 * a thread's events come in the order of their starts (a request is
 * written at its completion); the depth each request had in the
 * capture is the count of its thread's requests then in flight,
 * itself included, a call counting none and a request not completed
 * staying in flight, and the ring is sized for the most; which earlier
 * requests a request or a call waits for.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "core/workload/replay-int.h"
#include "util/xalloc.h"
#include "util/banned.h"

/* Append an event of op on file 1 from ts to ts + dur to t. */
static struct trace_event *ev(struct trace *t, unsigned op, uint64_t ts,
			      uint64_t dur)
{
	struct trace_event *e;

	ALLOC_GROW(t->events, t->nr_events + 1, t->alloc_events);
	e = &t->events[t->nr_events++];
	memset(e, 0, sizeof(*e));
	e->op = (uint16_t)op;
	e->ts_ns = ts;
	e->dur_ns = dur;
	e->file = 1;
	e->size = 4096;
	return e;
}

static void test_order_and_depth(void **state)
{
	struct trace t = {0};
	size_t idx[7] = {0, 1, 2, 3, 4, 5, 6};
	uint32_t depth[7];
	static const size_t want_order[7] = {5, 3, 2, 0, 1, 4, 6};
	static const uint32_t want_depth[7] = {0, 1, 2, 2, 3, 2, 2};
	size_t i;

	(void)state;
	/* as a capture writes them: at their completions */
	ev(&t, TOP_URING_READ, 30, 40);	 /* 0: in flight 30..70 */
	ev(&t, TOP_URING_READ, 50, 10);	 /* 1: 50..60 */
	ev(&t, TOP_URING_READ, 20, 100); /* 2: 20..120 */
	ev(&t, TOP_URING_READ, 10, 15);	 /* 3: 10..25 */
	ev(&t, TOP_URING_WRITE, 90, 5);	 /* 4: 90..95 */
	ev(&t, TOP_OPEN, 0, 5);		 /* 5: a call */
	ev(&t, TOP_URING_FSYNC, 110, 0); /* 6: never completed */
	t.events[6].flags |= TEV_UNDONE;
	rp_uring_order(&t, idx, 7);
	for (i = 0; i < 7; i++)
		assert_int_equal(idx[i], want_order[i]);
	/* 5 (a call) none; 3 alone; 2 with 3; 0 with 2 (3 ended at 25);
	 * 1 with 2, 0; 4 with 2 (0 ended at 70, 1 at 60); 6 with 2 (4
	 * ended at 95) */
	assert_int_equal(rp_uring_depth(&t, idx, 7, depth), 3);
	for (i = 0; i < 7; i++)
		assert_int_equal(depth[i], want_depth[i]);
	/* equal starts keep the trace's order */
	t.events[1].ts_ns = 30;
	rp_uring_order(&t, idx, 7);
	assert_int_equal(idx[3], 0);
	assert_int_equal(idx[4], 1);
	trace_release(&t);
}

/* A request not completed in the capture stays in flight: what comes
 * after counts it. */
static void test_depth_undone(void **state)
{
	struct trace t = {0};
	size_t idx[3] = {0, 1, 2};
	uint32_t depth[3];

	(void)state;
	ev(&t, TOP_URING_READ, 10, 0)->flags |= TEV_UNDONE;
	ev(&t, TOP_URING_READ, 20, 5);
	ev(&t, TOP_URING_READ, 1000, 5);
	assert_int_equal(rp_uring_depth(&t, idx, 3, depth), 2);
	assert_int_equal(depth[0], 1);
	assert_int_equal(depth[1], 2);
	assert_int_equal(depth[2], 2);
	assert_int_equal(rp_uring_depth(&t, idx, 3, NULL), 2);
	trace_release(&t);
}

/* More in flight than a replay's ring takes: the depth stops at 4096. */
static void test_depth_bound(void **state)
{
	struct trace t = {0};
	size_t *idx = xcalloc(5000, sizeof(*idx)), i;
	uint32_t *depth = xcalloc(5000, sizeof(*depth));

	(void)state;
	for (i = 0; i < 5000; i++) {
		ev(&t, TOP_URING_READ, 10 + i, 1000000);
		idx[i] = i;
	}
	assert_int_equal(rp_uring_depth(&t, idx, 5000, depth), 4096);
	assert_int_equal(depth[4095], 4096);
	assert_int_equal(depth[4999], 4096);
	trace_release(&t);
	free(idx);
	free(depth);
}

static void test_ordered(void **state)
{
	struct trace_event r = {0}, e = {0};

	(void)state;
	r.file = e.file = 1;
	r.size = e.size = 4096;
	r.op = e.op = TOP_URING_READ;
	assert_false(rp_uring_ordered(&r, &e)); /* reads after reads */
	e.op = TOP_READ;
	assert_true(rp_uring_ordered(&r, &e)); /* a call after any */
	e.op = TOP_URING_WRITE;
	assert_true(rp_uring_ordered(&r, &e)); /* a write over a read */
	e.offset = 4096;
	assert_false(rp_uring_ordered(&r, &e)); /* next to it */
	e.offset = 4095;
	assert_true(rp_uring_ordered(&r, &e));
	e.file = 2;
	assert_false(rp_uring_ordered(&r, &e)); /* another file */
	e.file = 1;
	e.op = TOP_URING_FDATASYNC;
	e.offset = 1 << 20;
	assert_true(rp_uring_ordered(&r, &e)); /* a flush after a read */
	r.op = TOP_URING_FSYNC;
	e.op = TOP_URING_READ;
	assert_true(rp_uring_ordered(&r, &e)); /* and what comes after it */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_order_and_depth),
	    cmocka_unit_test(test_depth_undone),
	    cmocka_unit_test(test_depth_bound),
	    cmocka_unit_test(test_ordered),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
