/*
 * fio iolog export and import. See iolog.h; the format is fio's
 * (fio(1), "I/O REPLAY - MERGING TRACES" and "Trace file format"):
 * a header line "fio version N iolog", then "[timestamp] filename
 * action [offset length]" lines, timestamps (version 3) in
 * microseconds since the start, "wait" (version 2 only) a pause in
 * microseconds.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include "iolog.h"
#include "../../util/error.h"
#include "../../util/strbuf.h"
#include "../../util/text.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

#define LINE_MAX_BYTES 8192	    /* one line of an iolog */
#define EXTENT_MAX     (1ull << 50) /* offset + length of one I/O */

int iolog_name_ok(const char *path)
{
	size_t n = strlen(path), i;
	char *copy;
	int ok;

	if (!n || n > IOLOG_NAME_MAX)
		return 0;
	for (i = 0; i < n; i++)
		if ((unsigned char)path[i] <= ' ' ||
		    (unsigned char)path[i] == 0x7f)
			return 0;
	/* C1 controls and bytes that are not UTF-8 */
	copy = xstrdup(path);
	ok = !text_make_printable(copy);
	free(copy);
	return ok;
}

size_t iolog_left_out(const struct trace *t)
{
	size_t i, n = 0;

	for (i = 0; i < t->nr_events; i++)
		if (t->events[i].op == TOP_FADVISE ||
		    t->events[i].op == TOP_READAHEAD)
			n++;
	return n;
}

/* The id of the file named name, made on first sight. */
static uint32_t file_named(struct trace *t, const char *name)
{
	struct trace_file f = {.kind = TFK_REG, .existed = 1};
	struct strbuf abs = STRBUF_INIT;
	uint32_t id;
	size_t i;

	if (name[0] == '/')
		strbuf_addstr(&abs, name);
	else
		strbuf_addf(&abs, "/fio/%s", name);
	for (i = 0; i < t->nr_files; i++)
		if (!strcmp(t->files[i].path, abs.buf)) {
			strbuf_release(&abs);
			return t->files[i].id;
		}
	f.path = abs.buf;
	id = trace_add_file(t, &f);
	strbuf_release(&abs);
	return id;
}

/* Is the name one a trace can hold: no "." or ".." component, no
 * empty one past the first, no control character? */
static int name_ok(const char *name)
{
	const char *s = name;

	if (!*name || strlen(name) > TRACE_PATH_MAX - 8)
		return 0;
	for (; *s; s++)
		if ((unsigned char)*s < 0x20)
			return 0;
	for (s = name[0] == '/' ? name + 1 : name;;) {
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

/* Split line (NUL-terminated, changed) into at most 6 words. */
static int split(char *line, char **w)
{
	int n = 0;
	char *p = line;

	while (*p && n < 6) {
		while (*p == ' ' || *p == '\t' || *p == '\r')
			*p++ = 0;
		if (!*p)
			break;
		w[n++] = p;
		while (*p && *p != ' ' && *p != '\t' && *p != '\r')
			p++;
	}
	while (*p == ' ' || *p == '\t' || *p == '\r')
		p++;
	return *p ? 7 : n;
}

/* A decimal u64 of s, or -1. */
static int parse_u64(const char *s, uint64_t *v)
{
	char *end;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return *end || errno ? -1 : 0;
}

/* One line of an iolog of version ver, the lineno-th. */
static int import_line(struct trace *t, int ver, char *line, unsigned lineno,
		       uint64_t *clock_us, struct strbuf *err)
{
	struct trace_event e = {.tid = 1, .fd = -1};
	char *w[6];
	int n = split(line, w), k = 0;
	uint64_t ts, off = 0, len = 0;
	struct trace_file *f;
	const char *act;

	if (!n)
		return 0;
	if (n > 6)
		return err_set(err, -EINVAL, "line %u: too many words", lineno);
	if (ver == 3) {
		if (parse_u64(w[0], &ts) || ts > EXTENT_MAX)
			return err_set(err, -EINVAL,
				       "line %u: expected a timestamp first",
				       lineno);
		*clock_us = ts;
		k = 1;
	}
	if (n - k < 2)
		return err_set(err, -EINVAL,
			       "line %u: expected a file name and an action",
			       lineno);
	act = w[k + 1];
	if (ver == 2 && !strcmp(act, "wait")) {
		if (n - k != 4 || parse_u64(w[k + 2], &ts) || ts > EXTENT_MAX)
			return err_set(err, -EINVAL,
				       "line %u: wait needs microseconds",
				       lineno);
		*clock_us += ts;
		return 0;
	}
	if (!name_ok(w[k]))
		return err_set(err, -EINVAL,
			       "line %u: a file name iotrial "
			       "cannot replay",
			       lineno);
	if (n - k == 4 &&
	    (parse_u64(w[k + 2], &off) || parse_u64(w[k + 3], &len) ||
	     off > EXTENT_MAX || len > EXTENT_MAX))
		return err_set(err, -EINVAL, "line %u: bad offset or length",
			       lineno);
	if (!strcmp(act, "add"))
		return t->nr_files < TRACE_FILES_MAX
			   ? (file_named(t, w[k]), 0)
			   : err_set(err, -EFBIG, "more than %u files",
				     TRACE_FILES_MAX);
	if (t->nr_files >= TRACE_FILES_MAX)
		return err_set(err, -EFBIG, "more than %u files",
			       TRACE_FILES_MAX);
	e.file = file_named(t, w[k]);
	e.fd = (int32_t)(2 + e.file);
	if (!strcmp(act, "open") || !strcmp(act, "close")) {
		e.op = act[0] == 'o' ? TOP_OPEN : TOP_CLOSE;
		e.arg = e.op == TOP_OPEN ? O_RDWR : 0;
		e.ret = e.op == TOP_OPEN ? e.fd : 0;
	} else if (!strcmp(act, "read") || !strcmp(act, "write")) {
		if (n - k != 4)
			return err_set(err, -EINVAL,
				       "line %u: %s needs an offset and a "
				       "length",
				       lineno, act);
		e.op = act[0] == 'r' ? TOP_READ : TOP_WRITE;
		e.flags = TEV_POSITIONAL;
		e.offset = off;
		e.size = len;
		e.ret = (int64_t)len;
		f = &t->files[e.file - 1];
		if (off + len > f->size_bytes)
			f->size_bytes = off + len;
	} else if (!strcmp(act, "sync") || !strcmp(act, "datasync")) {
		e.op = act[0] == 's' ? TOP_FSYNC : TOP_FDATASYNC;
	} else if (!strcmp(act, "trim")) {
		return 0; /* no file-layer call does it: skipped */
	} else {
		return err_set(err, -EINVAL, "line %u: unknown action '%.32s'",
			       lineno, act);
	}
	if (t->nr_events >= TRACE_EVENTS_MAX)
		return err_set(err, -EFBIG, "more than %u events",
			       TRACE_EVENTS_MAX);
	e.ts_ns = *clock_us * 1000;
	ALLOC_GROW(t->events, t->nr_events + 1, t->alloc_events);
	t->events[t->nr_events++] = e;
	return 0;
}

int iolog_import(const char *data, size_t len, struct trace *t,
		 struct strbuf *err)
{
	const char *p = data, *end = data + len;
	char line[LINE_MAX_BYTES + 1];
	uint64_t clock_us = 0;
	unsigned lineno = 0;
	int ver = 0, ret = 0;

	while (p < end && !ret) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

		lineno++;
		if (n > LINE_MAX_BYTES)
			return err_set(err, -EINVAL, "line %u is too long",
				       lineno);
		memcpy(line, p, n);
		line[n] = 0;
		p += n + (nl != NULL);
		if (memchr(line, 0, n))
			return err_set(err, -EINVAL, "line %u holds a NUL",
				       lineno);
		if (!ver) {
			if (n && line[n - 1] == '\r')
				line[n - 1] = 0;
			if (!strcmp(line, "fio version 2 iolog"))
				ver = 2;
			else if (!strcmp(line, "fio version 3 iolog"))
				ver = 3;
			else
				return err_set(err, -EINVAL,
					       "not a fio iolog of version 2 "
					       "or 3 (the first line says so)");
			continue;
		}
		ret = import_line(t, ver, line, lineno, &clock_us, err);
	}
	if (!ver && !ret)
		return err_set(err, -EINVAL, "an empty file is no fio iolog");
	if (!ret) {
		trace_add_meta(t, "imported",
			       ver == 2 ? "fio iolog version 2"
					: "fio iolog version 3");
		t->end.nr_events = t->nr_events;
		t->end.duration_ns =
		    t->nr_events ? t->events[t->nr_events - 1].ts_ns : 0;
		t->complete = 1;
	}
	return ret;
}
