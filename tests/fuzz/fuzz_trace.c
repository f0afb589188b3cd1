/*
 * libFuzzer target for the trace reader (core/trace/trace.c) and
 * what reads a trace after it: the summary and both renderings. A trace
 * is untrusted input (sent from another machine, or made by hand), so
 * whatever the bytes, the reader either refuses them with a sentence or
 * gives a trace whose every event names a listed file and a known
 * operation, and every file a path without a NUL; a block request
 * (format 1.1) names no file, an io_uring request (1.3) may name a
 * ring in file2. The replay's waits between its threads
 * never deadlock.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "core/trace/trace.h"
#include "core/trace/trace_summary.h"
#include "core/workload/replay-int.h"
#include "util/strbuf.h"
#include "util/xalloc.h"
#include "util/banned.h"

static void check(int ok)
{
	if (!ok)
		__builtin_trap();
}

/*
 * The replay's waits between threads (core/workload/replay_deps.c) of
 * the file-layer events, grouped by tid as a replay groups them: each
 * names another thread and a count it reaches, and playing them (any
 * thread whose next event's waits are met goes) runs every event, so a
 * replay of the trace cannot deadlock.
 */
static void check_deps(const struct trace *t)
{
	struct rp_thread *th = NULL;
	size_t nr_th = 0, i, j, left = 0, *done;
	int moved = 1;

	for (i = 0; i < t->nr_events; i++) {
		const struct trace_event *e = &t->events[i];

		if (trace_op_is_block(e->op))
			continue;
		for (j = 0; j < nr_th && th[j].tid != e->tid; j++)
			;
		if (j == nr_th) {
			if (nr_th == 64)
				continue;
			th = xrealloc(th, (nr_th + 1) * sizeof(*th));
			memset(&th[nr_th], 0, sizeof(*th));
			th[nr_th++].tid = e->tid;
		}
		ALLOC_GROW(th[j].idx, th[j].nr + 1, th[j].alloc);
		th[j].idx[th[j].nr++] = i;
		left++;
	}
	/* a thread with io_uring requests takes its events by their
	 * starts, as the replay does (requests are written as they end) */
	for (i = 0; i < nr_th; i++) {
		for (j = 0; j < th[i].nr; j++)
			if (trace_op_is_uring(t->events[th[i].idx[j]].op))
				break;
		if (j < th[i].nr) {
			rp_uring_order(t, th[i].idx, th[i].nr);
			check(rp_uring_depth(t, th[i].idx, th[i].nr, NULL) <=
			      4096);
		}
	}
	rp_deps_compute(t, th, nr_th);
	done = calloc(nr_th + 1, sizeof(*done));
	check(done != NULL);
	for (i = 0; i < nr_th; i++)
		for (j = 0; j < th[i].nr_deps; j++) {
			check(th[i].deps[j].th < nr_th &&
			      th[i].deps[j].th != i);
			check(th[i].deps[j].count <= th[th[i].deps[j].th].nr);
		}
	while (left && moved) {
		moved = 0;
		for (i = 0; i < nr_th; i++) {
			int ok = done[i] < th[i].nr;

			for (j = ok ? th[i].dep_off[done[i]] : 0;
			     ok && j < th[i].dep_off[done[i] + 1]; j++)
				ok = done[th[i].deps[j].th] >=
				     th[i].deps[j].count;
			if (ok) {
				done[i]++;
				left--;
				moved = 1;
			}
		}
	}
	check(!left);
	for (i = 0; i < nr_th; i++) {
		free(th[i].idx);
		free(th[i].dep_off);
		free(th[i].deps);
	}
	free(th);
	free(done);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
	struct trace t = {0};
	struct trace_summary s;
	uint8_t *buf = malloc(size ? size : 1);
	size_t i;
	int ret;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	ret = trace_read_mem(buf, size, &t, &err);
	if (ret) {
		check(ret < 0 && err.len > 0);
		goto out;
	}
	check(err.len == 0);
	for (i = 0; i < t.nr_files; i++) {
		check(t.files[i].id == i + 1);
		check(strlen(t.files[i].path) > 0);
	}
	for (i = 0; i < t.nr_events; i++) {
		check(trace_op_known(t.events[i].op));
		check(trace_op_minor(t.events[i].op) <= t.version_minor);
		if (t.events[i].op == TOP_FADVISE)
			check(trace_fadv_name(t.events[i].arg) != NULL);
		if (trace_op_is_block(t.events[i].op)) {
			/* a block request names no file (file2 is a time) */
			check(t.events[i].file == 0);
			check(t.version_minor >= 1);
			continue;
		}
		check(t.events[i].file <= t.nr_files);
		/* an io_uring request's file2 is its ring */
		check(t.events[i].file2 <= t.nr_files ||
		      trace_op_is_uring(t.events[i].op));
	}
	check_deps(&t);
	trace_summarize(&t, &s);
	check(trace_summary_total(&s) == t.nr_events);
	trace_stats_text(&t, &s, &out);
	trace_summary_release(&s);
	trace_show_text(&t, 100, &out);
	check(strlen(out.buf) == out.len);
out:
	trace_release(&t);
	strbuf_release(&err);
	strbuf_release(&out);
	free(buf);
	return 0;
}
