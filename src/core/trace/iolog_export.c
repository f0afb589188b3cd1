/*
 * A trace as a fio version 3 iolog (iolog.h). fio replays an iolog as
 * one job: reads, writes and file syncs on files it adds, opens and
 * closes by name, at the timestamps of the lines. What the trace holds
 * beyond that is carried over where it can be and counted where not:
 *
 * - names: with a root, every path lands beneath it as a replay maps
 *   it (trace_paths.h); without one, the trace's own paths stay, and
 *   the caller warns if the iolog writes there;
 * - renames: fio renames nothing, so the data a file gets under one
 *   name and keeps under the next is written and read under its last
 *   name (a dump written as "x.tmp" and renamed "x" is "x" throughout);
 * - descriptors: each file is opened at its first line and closed after
 *   its last, so fio holds open only the files in use at once (a tree
 *   of 22,401 files opened all at once ran out of descriptors);
 * - what has no line (name operations, ftruncate, fallocate,
 *   sync_file_range, sync, syncfs, fadvise, readahead, the threads) is
 *   counted in the report, never approximated.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "iolog.h"
#include "trace_paths.h"
#include "../../util/error.h"
#include "../../util/strbuf.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* The fio action of an op, or NULL for one fio cannot replay. */
static const char *fio_action(unsigned op)
{
	switch (trace_op_base(op)) { /* an io_uring request's as its call's */
	case TOP_READ:
		return "read";
	case TOP_WRITE:
		return "write";
	case TOP_FSYNC:
		return "sync";
	case TOP_FDATASYNC:
		return "datasync";
	}
	return NULL;
}

/* Is e a line of the iolog (before names are checked)? */
static int exported(const struct trace *t, const struct trace_event *e)
{
	const struct trace_file *f = trace_file_get(t, e->file);

	if (!fio_action(e->op) || !f || f->kind != TFK_REG || e->ret < 0)
		return 0;
	return (trace_op_base(e->op) != TOP_READ &&
		trace_op_base(e->op) != TOP_WRITE) ||
	       e->ret > 0;
}

/* Events by start time, in trace order among equals. */
static int by_start(const void *a, const void *b)
{
	const struct trace_event *const *x = a, *const *y = b;

	if ((*x)->ts_ns != (*y)->ts_ns)
		return (*x)->ts_ns < (*y)->ts_ns ? -1 : 1;
	return *x < *y ? -1 : *x > *y;
}

/* The indexes of t's events in the order they started: a trace is in
 * the order the calls ended, io_uring requests end out of the order
 * they were submitted in, and fio issues the lines in their order. */
static size_t *start_order(const struct trace *t)
{
	const struct trace_event **ev = xcalloc(t->nr_events + 1, sizeof(*ev));
	size_t *idx = xcalloc(t->nr_events + 1, sizeof(*idx)), i;

	for (i = 0; i < t->nr_events; i++)
		ev[i] = &t->events[i];
	qsort(ev, t->nr_events, sizeof(*ev), by_start);
	for (i = 0; i < t->nr_events; i++)
		idx[i] = (size_t)(ev[i] - t->events);
	free(ev);
	return idx;
}

/*
 * Which file's name each event's data has in the end: a generation of
 * a name (from its first use to a rename away or an unlink) whose data
 * a rename moved to another name is played under that one's, following
 * renames to the last. final[i]: the file id whose path event i's line
 * takes (0: the event has no file).
 */
static uint32_t *final_names(const struct trace *t)
{
	size_t nf = t->nr_files + 1, i, nr_gen = 0, alloc = 0;
	uint32_t *gen = xcalloc(nf, sizeof(*gen)), *final;
	struct genrow {
		uint32_t id;   /* whose path */
		uint32_t next; /* the generation it moved to + 1, 0: none */
	} *g = NULL;
	uint32_t *ev_gen = xcalloc(t->nr_events + 1, sizeof(*ev_gen));

	/* generation 0 of each name: rows 0 .. nf - 1 */
	ALLOC_GROW(g, nf, alloc);
	for (i = 0; i < nf; i++) {
		g[i].id = (uint32_t)i;
		g[i].next = 0;
		gen[i] = (uint32_t)i;
	}
	nr_gen = nf;
	for (i = 0; i < t->nr_events; i++) {
		const struct trace_event *e = &t->events[i];

		if (!e->file || e->file >= nf || trace_op_is_block(e->op))
			continue;
		ev_gen[i] = gen[e->file] + 1;
		if (e->ret < 0)
			continue;
		if (e->op == TOP_RENAME && e->file2 && e->file2 < nf &&
		    e->file2 != e->file) {
			/* the target name starts over, holding this data */
			ALLOC_GROW(g, nr_gen + 1, alloc);
			g[nr_gen].id = e->file2;
			g[nr_gen].next = 0;
			g[gen[e->file]].next = (uint32_t)nr_gen + 1;
			gen[e->file2] = (uint32_t)nr_gen++;
		}
		if (e->op == TOP_RENAME || e->op == TOP_UNLINK) {
			/* the old name starts over, empty */
			ALLOC_GROW(g, nr_gen + 1, alloc);
			g[nr_gen].id = e->file;
			g[nr_gen].next = 0;
			gen[e->file] = (uint32_t)nr_gen++;
		}
	}
	final = xcalloc(t->nr_events + 1, sizeof(*final));
	for (i = 0; i < t->nr_events; i++) {
		uint32_t k = ev_gen[i], hops = 0;

		if (!k)
			continue;
		k--;
		/* each rename makes a later row: the chain ends */
		while (g[k].next && hops++ < nr_gen)
			k = g[k].next - 1;
		final[i] = g[k].id;
	}
	free(g);
	free(gen);
	free(ev_gen);
	return final;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The iolog's name of file id: its path, or beneath root as mapped. */
static void name_of(const struct trace *t, uint32_t id, const char *root,
		    char **rel, struct strbuf *out)
{
	strbuf_reset(out);
	if (!root) {
		strbuf_addstr(out, t->files[id - 1].path);
		return;
	}
	strbuf_addstr(out, root);
	if (out->len > 1 && out->buf[out->len - 1] == '/')
		strbuf_setlen(out, out->len - 1);
	if (rel[id - 1] && strcmp(rel[id - 1], "."))
		strbuf_addf(out, "%s%s", out->len == 1 ? "" : "/", rel[id - 1]);
}

/* What has no line: counted in rep. */
static void count_left_out(const struct trace *t, struct iolog_report *rep)
{
	uint32_t *tids = xcalloc(t->nr_events + 1, sizeof(*tids));
	size_t i, j, n = 0;

	for (i = 0; i < t->nr_events; i++) {
		const struct trace_event *e = &t->events[i];

		if (trace_op_is_block(e->op))
			continue;
		for (j = 0; j < n && tids[j] != e->tid; j++)
			;
		if (j == n && n < t->nr_events)
			tids[n++] = e->tid;
		switch (e->op) {
		case TOP_FADVISE:
		case TOP_READAHEAD:
			rep->left_advice++;
			break;
		case TOP_FTRUNCATE:
		case TOP_FALLOCATE:
		case TOP_SYNC_RANGE:
		case TOP_SYNC:
		case TOP_SYNCFS:
			rep->left_other++;
			break;
		case TOP_UNLINK:
		case TOP_RENAME:
		case TOP_MKDIR:
		case TOP_RMDIR:
		case TOP_STAT:
		case TOP_GETDENTS:
			rep->left_names++;
			break;
		}
	}
	rep->threads = n;
	free(tids);
}

int iolog_export(const struct trace *t, const char *root, struct strbuf *out,
		 struct iolog_report *rep, struct strbuf *err)
{
	struct strbuf name = STRBUF_INIT;
	char **dirv = NULL;
	size_t nr_dirv = 0, alloc_dirv = 0;
	uint32_t *final = NULL;
	size_t *last = NULL, *order = NULL, i, k, open_now = 0;
	unsigned char *state = NULL; /* 0 unseen, 1 open, 2 closed,
					3 unnameable */
	char **rel = NULL;
	uint64_t last_us = 0;
	int ret = 0;

	memset(rep, 0, sizeof(*rep));
	if (root && (!trace_path_plain(root)))
		return err_set(err, -EINVAL,
			       "--root '%s' is not a plain absolute path",
			       root);
	if (root && (ret = trace_map_names(t, &rel, err)))
		goto out;
	final = final_names(t);
	order = start_order(t);
	/* each name's last line, so it is closed there */
	last = xcalloc(t->nr_files + 1, sizeof(*last));
	for (k = 0; k < t->nr_events; k++)
		if (exported(t, &t->events[order[k]]))
			last[final[order[k]]] = k + 1;
	state = xcalloc(t->nr_files + 1, 1);
	strbuf_addstr(out, "fio version 3 iolog\n");
	for (k = 0; k < t->nr_events; k++) {
		const struct trace_event *e = &t->events[order[k]];
		uint32_t id = final[order[k]];
		unsigned base = trace_op_base(e->op);
		uint64_t us = e->ts_ns / 1000;
		const struct trace_file *f;

		if (!exported(t, e))
			continue;
		f = &t->files[id - 1];
		name_of(t, id, root, rel, &name);
		if (!state[id] && !iolog_name_ok(name.buf)) {
			state[id] = 3;
			if (!rep->un.nr_files++)
				rep->un.first = id;
		}
		if (state[id] == 3) {
			rep->un.nr_events++;
			continue;
		}
		/* fio wants the lines in time order */
		if (us < last_us)
			us = last_us;
		last_us = us;
		if (!state[id]) {
			state[id] = 1;
			rep->files++;
			if (base == TOP_READ && f->existed) {
				rep->files_existed++;
				rep->existed_bytes += f->size_bytes;
			}
			/* the directory it sits in below the root */
			if (root &&
			    strrchr(name.buf, '/') > name.buf + strlen(root)) {
				ALLOC_GROW(dirv, nr_dirv + 1, alloc_dirv);
				dirv[nr_dirv++] = xstrndup(
				    name.buf, (size_t)(strrchr(name.buf, '/') -
						       name.buf));
			}
			strbuf_addf(out, "%llu %s add\n%llu %s open\n",
				    (unsigned long long)us, name.buf,
				    (unsigned long long)us, name.buf);
			if (++open_now > rep->max_open)
				rep->max_open = open_now;
		}
		if (base == TOP_READ || base == TOP_WRITE) {
			strbuf_addf(out, "%llu %s %s %llu %llu\n",
				    (unsigned long long)us, name.buf,
				    fio_action(e->op),
				    (unsigned long long)e->offset,
				    (unsigned long long)e->ret);
			rep->writes += base == TOP_WRITE;
		} else {
			strbuf_addf(out, "%llu %s %s\n", (unsigned long long)us,
				    name.buf, fio_action(e->op));
		}
		rep->lines++;
		if (last[id] == k + 1) { /* its last line: fio lets it go */
			strbuf_addf(out, "%llu %s close\n",
				    (unsigned long long)us, name.buf);
			state[id] = 2;
			open_now--;
		}
	}
	count_left_out(t, rep);
	if (nr_dirv)
		qsort(dirv, nr_dirv, sizeof(*dirv), cmp_str);
	for (i = 0; i < nr_dirv; i++)
		rep->dirs += !i || strcmp(dirv[i], dirv[i - 1]);
	for (i = 0; i < t->nr_events; i++)
		if (final[i] && final[i] != t->events[i].file &&
		    exported(t, &t->events[i]))
			rep->renamed++;
out:
	free(final);
	free(order);
	free(last);
	free(state);
	trace_names_free(rel, t->nr_files);
	while (nr_dirv)
		free(dirv[--nr_dirv]);
	free(dirv);
	strbuf_release(&name);
	return ret;
}
