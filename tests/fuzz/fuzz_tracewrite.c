/*
 * libFuzzer target for the trace writer (core/trace/trace.c): the
 * input is a little program of writer calls (meta entries, files and
 * events with fuzzed fields, ids in order or not, paths of any bytes and
 * length), run against a writer on a memory file. The writer refuses
 * some calls; when it has taken them all and finished, the reader must
 * read back exactly what was written (a meta value cut at its documented
 * limit), and, when every event came after the files it names (as the
 * capture writes them), the file cut anywhere past its header must read
 * as an incomplete trace: the writer never writes what the reader
 * refuses.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "core/trace/trace.h"
#include "util/strbuf.h"
#include "util/xalloc.h"
#include "util/banned.h"

static void check(int ok)
{
	if (!ok)
		__builtin_trap();
}

/* The input, read from the front. */
struct cur {
	const uint8_t *p;
	size_t n;
};

static uint8_t byte(struct cur *c)
{
	if (!c->n)
		return 0;
	c->n--;
	return *c->p++;
}

static uint64_t u64(struct cur *c)
{
	uint64_t v = 0;
	unsigned i, n = byte(c) % 9; /* small numbers are common */

	for (i = 0; i < n; i++)
		v = v << 8 | byte(c);
	return v;
}

/* A string of the input's bytes (no NUL), short, or long by repeating
 * one byte up to past the format's limit. */
static char *str(struct cur *c)
{
	uint8_t how = byte(c), len = byte(c);
	size_t n, i;
	char *s;

	if (how == 0xff) { /* long: around TRACE_PATH_MAX */
		n = TRACE_PATH_MAX - 8 + len % 16;
		s = xmalloc(n + 1);
		for (i = 0; i < n; i++)
			s[i] =
			    (char)(0x80 | (i % 3 ? 0x20 : 0x40)); /* UTF-8ish */
	} else {
		n = len % 24;
		s = xmalloc(n + 1);
		for (i = 0; i < n; i++) {
			s[i] = (char)byte(c);
			if (!s[i])
				s[i] = '/';
		}
	}
	s[n] = 0;
	return s;
}

/* What the writer was given and took, to compare with what is read. */
struct want {
	struct trace t;
	int ordered; /* every event came after the files it names */
};

/* The value a meta entry reads back as: cut at TRACE_PATH_MAX, not
 * inside a UTF-8 character (trace.h). */
static char *cut_value(const char *v)
{
	size_t n = strlen(v);

	if (n > TRACE_PATH_MAX) {
		n = TRACE_PATH_MAX;
		while (n && ((unsigned char)v[n] & 0xc0) == 0x80)
			n--;
	}
	return xstrndup(v, n);
}

static void same(const struct want *w, const struct trace *r)
{
	size_t i;

	check(r->complete);
	check(r->nr_meta == w->t.nr_meta);
	for (i = 0; i < r->nr_meta; i++) {
		check(!strcmp(r->meta[i].key, w->t.meta[i].key));
		check(!strcmp(r->meta[i].value, w->t.meta[i].value));
	}
	check(r->nr_files == w->t.nr_files);
	for (i = 0; i < r->nr_files; i++) {
		const struct trace_file *a = &r->files[i], *b = &w->t.files[i];

		check(a->id == b->id && a->kind == b->kind &&
		      a->existed == b->existed && a->dev == b->dev &&
		      a->ino == b->ino && a->size_bytes == b->size_bytes);
		check(!strcmp(a->path, b->path));
	}
	check(r->nr_events == w->t.nr_events);
	for (i = 0; i < r->nr_events; i++)
		check(!memcmp(&r->events[i], &w->t.events[i],
			      sizeof(r->events[i])));
	check(r->end.nr_events == r->nr_events);
	check(r->end.lost == w->t.end.lost);
	check(r->end.duration_ns == w->t.end.duration_ns);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cur c = {data, size};
	struct strbuf err = STRBUF_INIT, file = STRBUF_INIT;
	struct trace_writer w;
	struct want want = {.ordered = 1};
	struct trace r = {0};
	struct trace_end end = {0};
	int fd = memfd_create("trace", MFD_CLOEXEC), ret = 0, steps = 0;
	off_t len;
	size_t at;

	if (fd < 0)
		return 0;
	check(trace_writer_open_fd(&w, fd, &err) == 0);
	while (c.n && !ret && steps++ < 200) {
		uint8_t op = byte(&c) % 4;

		if (op == 0) {
			char *k = str(&c), *v = str(&c);

			ret = trace_writer_meta(&w, k, v, &err);
			if (!ret) {
				char *cv = cut_value(v);

				trace_add_meta(&want.t, k, cv);
				free(cv);
			}
			free(k);
			free(v);
		} else if (op == 1) {
			struct trace_file f = {0};
			uint8_t b = byte(&c);

			f.id = (uint32_t)want.t.nr_files + 1;
			if (b & 0x80) /* out of order now and then */
				f.id += (b & 3) - 1;
			f.kind = (uint8_t)(byte(&c) % 5);
			f.existed = (uint8_t)(byte(&c) % 3);
			f.dev = u64(&c);
			f.ino = u64(&c);
			f.size_bytes = u64(&c);
			f.path = str(&c);
			ret = trace_writer_file(&w, &f, &err);
			if (!ret)
				trace_add_file(&want.t, &f);
			free(f.path);
		} else {
			struct trace_event e = {0};

			e.ts_ns = u64(&c);
			e.dur_ns = u64(&c);
			e.tid = (uint32_t)u64(&c);
			e.op = (uint16_t)(byte(&c) % (TOP__NR + 2));
			e.flags = (uint16_t)u64(&c);
			e.file = (uint32_t)(byte(&c) % 6);
			e.file2 = (uint32_t)(byte(&c) % 6);
			e.offset = u64(&c);
			e.size = u64(&c);
			e.ret = (int64_t)u64(&c);
			e.arg = (uint32_t)(byte(&c) % 8);
			e.fd = (int32_t)u64(&c);
			if (trace_op_is_block(e.op) && (byte(&c) & 1))
				e.file = 0; /* mostly as the capture writes */
			ret = trace_writer_event(&w, &e, &err);
			if (!ret) {
				if (!trace_op_is_block(e.op) &&
				    (e.file > want.t.nr_files ||
				     e.file2 > want.t.nr_files))
					want.ordered = 0;
				ALLOC_GROW(want.t.events, want.t.nr_events + 1,
					   want.t.alloc_events);
				want.t.events[want.t.nr_events++] = e;
			}
		}
		if (ret)
			check(ret < 0 && err.len > 0);
	}
	if (ret)
		goto out; /* refused: the writer is done with */
	end.lost = u64(&c);
	end.duration_ns = u64(&c);
	want.t.end = end;
	ret = trace_writer_finish(&w, &end, &err);
	if (ret) {
		/* only an event naming a file never written is refused here */
		check(!want.ordered && err.len > 0);
		goto out;
	}
	len = lseek(fd, 0, SEEK_END);
	check(len >= 16);
	strbuf_grow(&file, (size_t)len);
	check(pread(fd, file.buf, (size_t)len, 0) == len);
	strbuf_setlen(&file, (size_t)len);
	check(trace_read_mem(file.buf, file.len, &r, &err) == 0);
	same(&want, &r);
	trace_release(&r);
	/* cut short anywhere past its header: read to the last whole record */
	if (want.ordered) {
		at = 16 + (size_t)(u64(&c) % (file.len - 16 + 1));
		memset(&r, 0, sizeof(r));
		check(trace_read_mem(file.buf, at, &r, &err) == 0);
		check(r.complete == (at == file.len));
		check(r.nr_events <= want.t.nr_events);
		trace_release(&r);
	}
out:
	trace_writer_release(&w); /* closes fd */
	trace_release(&want.t);
	strbuf_release(&err);
	strbuf_release(&file);
	return 0;
}
