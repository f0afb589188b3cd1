/*
 * libFuzzer target for the replay's planning, below the trace reader
 * that fuzz_trace.c drives: the bytes are not a trace file but describe
 * one directly (its files' paths from a small alphabet of components,
 * ".." and "." and empty ones among them; its events' operations,
 * threads, files, open flags, start times that may go backwards along
 * a thread, durations that may wrap), so that every input reaches the
 * planning. Then:
 *
 * - where the paths land (rp_map_names()): a path that is not plain
 *   and absolute refuses the trace; otherwise every replayed file gets
 *   a plain relative name (or "." for the shared directory) that is its
 *   path below one directory all of them share, the deepest one, at
 *   most the first file's own directory; what is not replayed gets
 *   none;
 * - the directories of the names (rp_parent_keys()): a file's key is
 *   its first listed twin's, one directory one key, a listed directory
 *   its own file's key;
 * - the order between threads (rp_deps_compute()): against a model of
 *   its rule for reads and writes of one file, a read or write that
 *   another thread's write (or a write that another thread's read or
 *   write) preceded in the capture waits for it, or for the calls
 *   before it when it had not ended; no event waits for one that
 *   started after it; each wait is for another thread, within its
 *   events, once per thread and event, never one already met; and
 *   playing the waits runs every event (no deadlock).
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "core/trace/trace.h"
#include "core/workload/replay-int.h"
#include "util/strbuf.h"
#include "util/xalloc.h"
#include "util/banned.h"

#define MAX_FILES   16
#define MAX_COMPS   5
#define MAX_EVENTS  512
#define MAX_THREADS 6
#define EVENT_BYTES 8

static void check(int ok)
{
	if (!ok)
		__builtin_trap();
}

/* The fuzz bytes, read from the front; zeros once they run out. */
struct input {
	const uint8_t *p;
	size_t n;
};

static uint8_t next(struct input *in)
{
	if (!in->n)
		return 0;
	in->n--;
	return *in->p++;
}

/* The components a path is made of. */
static const char *const comps[] = {
    "a", "b", "c", "dir", "sub", "..", ".", "", "x y", "-", "a.b", "...",
};

/* A path of the trace: components from the alphabet, absolute or not. */
static void gen_path(struct input *in, struct strbuf *p)
{
	uint8_t b = next(in);
	unsigned n = b % (MAX_COMPS + 1), i;

	strbuf_reset(p);
	for (i = 0; i < n; i++) {
		if (i || !(b & 0x80))
			strbuf_addch(p, '/');
		strbuf_addstr(
		    p, comps[next(in) % (sizeof(comps) / sizeof(comps[0]))]);
	}
	if (b & 0x40)
		strbuf_addch(p, '/'); /* a trailing slash */
	if (!p->len)
		strbuf_addch(p, '/'); /* a trace has no empty path */
}

/* A trace of files and events from in. */
static void gen_trace(struct input *in, struct trace *t)
{
	struct strbuf p = STRBUF_INIT;
	uint64_t ts[MAX_THREADS] = {0};
	unsigned nr_files = 1 + next(in) % MAX_FILES, i;

	for (i = 0; i < nr_files; i++) {
		struct trace_file f = {0};
		uint8_t b = next(in);

		f.kind = b % 4;
		f.existed = (b >> 2) & 1;
		gen_path(in, &p);
		f.path = p.buf;
		trace_add_file(t, &f);
	}
	while (in->n >= EVENT_BYTES && t->nr_events < MAX_EVENTS) {
		struct trace_event e = {0};
		uint8_t b[EVENT_BYTES];
		uint64_t step;

		for (i = 0; i < EVENT_BYTES; i++)
			b[i] = next(in);
		e.op = 1 + b[0] % (TOP__NR - 1);
		e.tid = 100 + b[1] % MAX_THREADS;
		e.file = b[2] % (nr_files + 1);
		e.file2 = b[3] % (nr_files + 1);
		e.arg = ((b[4] & 1) ? O_CREAT : 0) | ((b[4] & 2) ? O_TRUNC : 0);
		step = (uint64_t)(b[5] & 0x7f) * 1000;
		/* untrusted: a thread's next start may come earlier */
		ts[b[1] % MAX_THREADS] =
		    (b[5] & 0x80) && ts[b[1] % MAX_THREADS] >= step
			? ts[b[1] % MAX_THREADS] - step
			: ts[b[1] % MAX_THREADS] + step;
		e.ts_ns = ts[b[1] % MAX_THREADS];
		e.dur_ns =
		    b[6] == 255 ? UINT64_MAX - b[7] : (uint64_t)b[6] * 500;
		e.ret = (int8_t)b[7];
		e.fd = -1;
		ALLOC_GROW(t->events, t->nr_events + 1, t->alloc_events);
		t->events[t->nr_events++] = e;
	}
	strbuf_release(&p);
}

/* Is p plain and absolute: "/" or no empty, "." or ".." component? */
static int plain_abs(const char *p)
{
	const char *s = p + 1;

	if (p[0] != '/')
		return 0;
	if (!*s)
		return 1;
	for (;;) {
		const char *e = strchr(s, '/');
		size_t n = e ? (size_t)(e - s) : strlen(s);

		if (!n || (n == 1 && s[0] == '.') ||
		    (n == 2 && s[0] == '.' && s[1] == '.'))
			return 0;
		if (!e)
			return 1;
		s = e + 1;
	}
}

/* Does every replayed path of t lie at or below first[0..root)? */
static int all_below(const struct trace *t, const char *first, size_t root)
{
	size_t i;

	for (i = 0; i < t->nr_files; i++) {
		const char *p = t->files[i].path;

		if (t->files[i].kind == TFK_OTHER)
			continue;
		if (strncmp(first, p, root) || (p[root] && p[root] != '/'))
			return 0;
	}
	return 1;
}

/* Where the paths land: see the head of the file. */
static void check_names(const struct trace *t)
{
	struct strbuf err = STRBUF_INIT, abs = STRBUF_INIT;
	struct rp_state st;
	const char *first = NULL;
	size_t i, root = 0, dir;
	int ret, plain = 1;

	memset(&st, 0, sizeof(st));
	st.t = *t;
	for (i = 0; i < t->nr_files; i++)
		plain &= plain_abs(t->files[i].path);
	ret = rp_map_names(&st, &err);
	check(plain ? ret == 0 && !err.len : ret < 0 && err.len);
	for (i = 0; ret == 0 && i < t->nr_files; i++) {
		const char *p = t->files[i].path, *rel = st.rel[i];
		size_t n;

		if (t->files[i].kind == TFK_OTHER) {
			check(!rel);
			continue;
		}
		check(rel != NULL);
		if (!first) {
			first = p;
			root = !strcmp(p, "/")	  ? 0
			       : strcmp(rel, ".") ? strlen(p) - strlen(rel) - 1
						  : strlen(p);
		}
		if (!strcmp(rel, ".")) {
			/* the shared directory itself */
			check(strlen(p) == root || (!root && !strcmp(p, "/")));
			check(!strncmp(p, first, root));
			continue;
		}
		/* a plain relative name: p is the root, '/' and it */
		strbuf_setf(&abs, "/%s", rel);
		check(rel[0] != '/' && plain_abs(abs.buf));
		n = strlen(rel);
		check(strlen(p) == root + 1 + n && p[root] == '/');
		check(!strcmp(p + root + 1, rel));
		check(!strncmp(p, first, root));
	}
	if (first) {
		/* the deepest: no deeper directory of the first file's
		 * holds them all */
		dir = (size_t)(strrchr(first, '/') - first);
		check(root <= dir);
		for (i = root + 1; i <= dir; i++)
			if (first[i] == '/')
				check(!all_below(t, first, i));
	}
	for (i = 0; st.rel && i < t->nr_files; i++)
		free(st.rel[i]);
	free(st.rel);
	strbuf_release(&err);
	strbuf_release(&abs);
}

/* The directories of the names: see the head of the file. */
static void check_parents(const struct trace *t)
{
	uint32_t nr_keys, *parent = rp_parent_keys(t, &nr_keys);
	size_t i, j, k;

	check(nr_keys >= t->nr_files);
	for (i = 0; i < t->nr_files; i++) {
		const char *p = t->files[i].path, *s = strrchr(p, '/');
		size_t n = s && s != p ? (size_t)(s - p) : 1;
		const char *d = s && s != p ? p : "/";

		check(parent[i] < nr_keys);
		/* a listed directory: its first listed file's key */
		for (j = 0; j < t->nr_files; j++)
			if (strlen(t->files[j].path) == n &&
			    !strncmp(t->files[j].path, d, n))
				break;
		if (j < t->nr_files)
			check(parent[i] == j);
		else
			check(parent[i] >= t->nr_files);
		/* one directory, one key */
		for (k = 0; k < i; k++) {
			const char *q = t->files[k].path, *r = strrchr(q, '/');
			size_t m = r && r != q ? (size_t)(r - q) : 1;
			const char *e = r && r != q ? q : "/";

			check((parent[k] == parent[i]) ==
			      (m == n && !strncmp(d, e, n)));
		}
	}
	free(parent);
}

/* One replayed event's place in the order the planning takes. */
struct ev {
	uint64_t start, end;
	size_t idx;
	uint32_t th, seq;
};

/* Is a before b in the order of starts (ties: the trace's order)? */
static int before(const struct ev *a, const struct ev *b)
{
	return a->start != b->start ? a->start < b->start : a->idx < b->idx;
}

/* The most events of thread u that th's events 0..seq wait for. */
static uint32_t waited(const struct rp_thread *th, uint32_t seq, uint32_t u)
{
	uint32_t w = 0;
	size_t j;

	for (j = 0; j < th->dep_off[seq + 1]; j++)
		if (th->deps[j].th == u && th->deps[j].count > w)
			w = th->deps[j].count;
	return w;
}

/* The order between threads: see the head of the file. */
static void check_deps(const struct trace *t)
{
	struct rp_thread th[MAX_THREADS];
	struct ev *ev = xcalloc(t->nr_events + 1, sizeof(*ev));
	struct ev **of[MAX_THREADS] = {0};
	size_t nr_th = 0, nr_ev = 0, i, j, k, left = 0;
	size_t done[MAX_THREADS] = {0};
	int moved = 1;

	memset(th, 0, sizeof(th));
	for (i = 0; i < t->nr_events; i++) {
		if (trace_op_is_block(t->events[i].op))
			continue; /* a file-layer replay leaves them */
		for (j = 0; j < nr_th && th[j].tid != t->events[i].tid; j++)
			;
		if (j == nr_th)
			th[nr_th++].tid = t->events[i].tid;
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
		if (j < th[i].nr)
			rp_uring_order(t, th[i].idx, th[i].nr);
	}
	rp_deps_compute(t, th, nr_th);
	/* each thread's events as the planning orders them: starts made
	 * nondecreasing along the thread, ends wrapping as it adds */
	for (i = 0, k = 0; i < nr_th; i++) {
		uint64_t prev = 0;

		of[i] = xcalloc(th[i].nr + 1, sizeof(*of[i]));
		for (j = 0; j < th[i].nr; j++, k++) {
			const struct trace_event *e = &t->events[th[i].idx[j]];

			prev = e->ts_ns > prev ? e->ts_ns : prev;
			ev[k].start = prev;
			ev[k].end = prev + e->dur_ns;
			ev[k].idx = th[i].idx[j];
			ev[k].th = (uint32_t)i;
			ev[k].seq = (uint32_t)j;
			of[i][j] = &ev[k];
		}
	}
	nr_ev = k;
	for (i = 0; i < nr_th; i++) {
		check(th[i].dep_off[0] == 0);
		check(th[i].dep_off[th[i].nr] == th[i].nr_deps);
		for (j = 0; j < th[i].nr; j++) {
			uint32_t seen[MAX_THREADS] = {0};

			check(th[i].dep_off[j] <= th[i].dep_off[j + 1]);
			for (k = th[i].dep_off[j]; k < th[i].dep_off[j + 1];
			     k++) {
				const struct rp_dep *d = &th[i].deps[k];

				check(d->th < nr_th && d->th != i);
				check(d->count >= 1 &&
				      d->count <= th[d->th].nr);
				/* once per thread and event, never met */
				check(!seen[d->th]++);
				check(!j ||
				      d->count > waited(&th[i], (uint32_t)j - 1,
							d->th));
				/* for an event that started before */
				check(
				    before(of[d->th][d->count - 1], of[i][j]));
			}
		}
	}
	/* the model: reads and writes of one file by two threads, a write
	 * among them, keep their order */
	for (i = 0; i < nr_ev; i++) {
		const struct trace_event *a = &t->events[ev[i].idx];

		if ((a->op != TOP_READ && a->op != TOP_WRITE) || !a->file)
			continue;
		for (j = 0; j < nr_ev; j++) {
			const struct trace_event *b = &t->events[ev[j].idx];
			uint32_t need;

			if (ev[j].th == ev[i].th || b->file != a->file ||
			    (b->op != TOP_READ && b->op != TOP_WRITE) ||
			    (a->op != TOP_WRITE && b->op != TOP_WRITE) ||
			    !before(&ev[i], &ev[j]))
				continue;
			need = ev[i].end <= ev[j].start ? ev[i].seq + 1
							: ev[i].seq;
			check(waited(&th[ev[j].th], ev[j].seq, ev[i].th) >=
			      need);
		}
	}
	/* playing the waits runs every event */
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
		free(of[i]);
	}
	free(ev);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct input in = {data, size};
	struct trace t = {0};

	gen_trace(&in, &t);
	check_names(&t);
	check_parents(&t);
	check_deps(&t);
	trace_release(&t);
	return 0;
}
