/*
 * The trace file format (docs/TRACE-FORMAT.md): an 16-byte header, then
 * records of a u32 type, a u32 payload length and the payload, all
 * little-endian. The writer streams records as the capture produces
 * them, and refuses what the reader (trace_read.c) would refuse; the
 * names of operations and the trace in memory are here too.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "trace.h"
#include "../../util/error.h"
#include "../../util/fdio.h"
#include "../../util/outfile.h"
#include "../../util/strbuf.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

#define BLOCK_EVENTS 4096 /* events per EVENTS record the writer makes */

static const char *const op_names[TOP__NR] = {
    [TOP_NONE] = "none",
    [TOP_OPEN] = "open",
    [TOP_CLOSE] = "close",
    [TOP_READ] = "read",
    [TOP_WRITE] = "write",
    [TOP_LSEEK] = "lseek",
    [TOP_FSYNC] = "fsync",
    [TOP_FDATASYNC] = "fdatasync",
    [TOP_SYNC_RANGE] = "sync_file_range",
    [TOP_FALLOCATE] = "fallocate",
    [TOP_FTRUNCATE] = "ftruncate",
    [TOP_UNLINK] = "unlink",
    [TOP_RENAME] = "rename",
    [TOP_MKDIR] = "mkdir",
    [TOP_RMDIR] = "rmdir",
    [TOP_STAT] = "stat",
    [TOP_FSTAT] = "fstat",
    [TOP_GETDENTS] = "getdents",
    [TOP_MMAP] = "mmap",
    [TOP_MSYNC] = "msync",
    [TOP_BLK_READ] = "blk_read",
    [TOP_BLK_WRITE] = "blk_write",
    [TOP_BLK_DISCARD] = "blk_discard",
    [TOP_BLK_FLUSH] = "blk_flush",
    [TOP_FADVISE] = "fadvise",
    [TOP_READAHEAD] = "readahead",
    [TOP_SYNC] = "sync",
    [TOP_SYNCFS] = "syncfs",
    [TOP_URING_READ] = "uring_read",
    [TOP_URING_WRITE] = "uring_write",
    [TOP_URING_FSYNC] = "uring_fsync",
    [TOP_URING_FDATASYNC] = "uring_fdatasync",
};

/* The advice values of posix_fadvise(2) on Linux, by number. */
static const char *const fadv_names[] = {
    "normal", "random", "sequential", "willneed", "dontneed", "noreuse",
};

const char *trace_fadv_name(uint32_t advice)
{
	return advice < ARRAY_SIZE(fadv_names) ? fadv_names[advice] : NULL;
}

unsigned trace_op_minor(unsigned op)
{
	if (op == TOP_SYNC || op == TOP_SYNCFS || trace_op_is_uring(op))
		return 3;
	if (op == TOP_FADVISE || op == TOP_READAHEAD)
		return 2;
	return trace_op_is_block(op) ? 1 : 0;
}

int trace_op_is_block(unsigned op)
{
	return op >= TOP_BLK_READ && op <= TOP_BLK_FLUSH;
}

int trace_op_is_uring(unsigned op)
{
	return op >= TOP_URING_READ && op <= TOP_URING_FDATASYNC;
}

unsigned trace_op_base(unsigned op)
{
	switch (op) {
	case TOP_URING_READ:
		return TOP_READ;
	case TOP_URING_WRITE:
		return TOP_WRITE;
	case TOP_URING_FSYNC:
		return TOP_FSYNC;
	case TOP_URING_FDATASYNC:
		return TOP_FDATASYNC;
	}
	return op;
}

int trace_op_known(unsigned op)
{
	return op && op < TOP__NR && op_names[op];
}

const char *trace_op_name(unsigned op)
{
	return trace_op_known(op) ? op_names[op] : "?";
}

unsigned trace_op_find(const char *name)
{
	unsigned i;

	for (i = 1; i < TOP__NR; i++)
		if (op_names[i] && !strcmp(op_names[i], name))
			return i;
	return TOP_NONE;
}

int trace_op_is_name(unsigned op)
{
	switch (op) {
	case TOP_OPEN:
	case TOP_STAT:
	case TOP_UNLINK:
	case TOP_RENAME:
	case TOP_MKDIR:
	case TOP_RMDIR:
	case TOP_GETDENTS:
		return 1;
	}
	return 0;
}

const char *trace_meta_get(const struct trace *t, const char *key)
{
	size_t i;

	for (i = 0; i < t->nr_meta; i++)
		if (!strcmp(t->meta[i].key, key))
			return t->meta[i].value;
	return NULL;
}

const struct trace_file *trace_file_get(const struct trace *t, uint32_t id)
{
	if (!id || id > t->nr_files)
		return NULL;
	return &t->files[id - 1];
}

void trace_add_meta(struct trace *t, const char *key, const char *value)
{
	ALLOC_GROW(t->meta, t->nr_meta + 1, t->alloc_meta);
	t->meta[t->nr_meta].key = xstrdup(key);
	t->meta[t->nr_meta].value = xstrdup(value);
	t->nr_meta++;
}

uint32_t trace_add_file(struct trace *t, const struct trace_file *f)
{
	struct trace_file *n;

	ALLOC_GROW(t->files, t->nr_files + 1, t->alloc_files);
	n = &t->files[t->nr_files++];
	*n = *f;
	n->id = (uint32_t)t->nr_files;
	n->path = xstrdup(f->path ? f->path : "");
	t->nr_cached += n->have_cached != 0;
	return n->id;
}

void trace_release(struct trace *t)
{
	size_t i;

	if (!t)
		return;
	for (i = 0; i < t->nr_meta; i++) {
		free(t->meta[i].key);
		free(t->meta[i].value);
	}
	for (i = 0; i < t->nr_files; i++)
		free(t->files[i].path);
	free(t->meta);
	free(t->files);
	free(t->events);
	memset(t, 0, sizeof(*t));
}

/* Little-endian access, whatever the host. */
static void put16(unsigned char *p, uint16_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
}

static void put32(unsigned char *p, uint32_t v)
{
	put16(p, (uint16_t)v);
	put16(p + 2, (uint16_t)(v >> 16));
}

static void put64(unsigned char *p, uint64_t v)
{
	put32(p, (uint32_t)v);
	put32(p + 4, (uint32_t)(v >> 32));
}

/* e as its 64 bytes on disk. */
static void encode_event(unsigned char *p, const struct trace_event *e)
{
	put64(p, e->ts_ns);
	put64(p + 8, e->dur_ns);
	put32(p + 16, e->tid);
	put16(p + 20, e->op);
	put16(p + 22, e->flags);
	put32(p + 24, e->file);
	put32(p + 28, e->file2);
	put64(p + 32, e->offset);
	put64(p + 40, e->size);
	put64(p + 48, (uint64_t)e->ret);
	put32(p + 56, e->arg);
	put32(p + 60, (uint32_t)e->fd);
}

/* Append a record's type and length to sb. */
static void add_record_head(struct strbuf *sb, uint32_t type, uint32_t len)
{
	unsigned char h[8];

	put32(h, type);
	put32(h + 4, len);
	strbuf_add(sb, h, sizeof(h));
}

/* key (1..255 bytes) = the first vl bytes of value as a META record. */
static void encode_meta(struct strbuf *sb, const char *key, const char *value,
			size_t vl)
{
	size_t kl = strlen(key);
	unsigned char l[2];

	add_record_head(sb, TRACE_REC_META, (uint32_t)(4 + kl + vl));
	put16(l, (uint16_t)kl);
	strbuf_add(sb, l, 2);
	strbuf_add(sb, key, kl);
	put16(l, (uint16_t)vl);
	strbuf_add(sb, l, 2);
	strbuf_add(sb, value, vl);
}

void trace_anonymize_path(const char *path, struct strbuf *out)
{
	const char *p = path;

	strbuf_reset(out);
	while (*p) {
		uint64_t h = 1469598103934665603ull;
		size_t n = strcspn(p, "/"), i;

		for (i = 0; i < n; i++)
			h = (h ^ (unsigned char)p[i]) * 1099511628211ull;
		if (n)
			strbuf_addf(out, "%016llx", (unsigned long long)h);
		p += n;
		if (*p == '/')
			strbuf_addch(out, *p++);
	}
}

/* Does meta key name something anonymize takes out? */
static int meta_names(const char *key)
{
	return !strcmp(key, "command") || !strcmp(key, "pid") ||
	       !strcmp(key, "cgroup") || !strcmp(key, "host");
}

void trace_anonymize(struct trace *t)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i, n = 0;

	for (i = 0; i < t->nr_files; i++) {
		trace_anonymize_path(t->files[i].path, &sb);
		free(t->files[i].path);
		t->files[i].path = strbuf_detach(&sb, NULL);
	}
	for (i = 0; i < t->nr_meta; i++) {
		if (meta_names(t->meta[i].key)) {
			free(t->meta[i].key);
			free(t->meta[i].value);
			continue;
		}
		t->meta[n++] = t->meta[i];
	}
	t->nr_meta = n;
	strbuf_release(&sb);
}

/* f (its path 1..TRACE_PATH_MAX bytes) as a FILE record. */
static void encode_file(struct strbuf *sb, const struct trace_file *f)
{
	unsigned char p[TRACE_FILE_FIXED_BYTES];
	size_t pl = strlen(f->path);

	add_record_head(sb, TRACE_REC_FILE,
			(uint32_t)(TRACE_FILE_FIXED_BYTES + pl));
	put32(p, f->id);
	p[4] = f->kind;
	p[5] = f->existed;
	put16(p + 6, (uint16_t)pl);
	put64(p + 8, f->dev);
	put64(p + 16, f->ino);
	put64(p + 24, f->size_bytes);
	strbuf_add(sb, p, sizeof(p));
	strbuf_add(sb, f->path, pl);
}

static void encode_end(struct strbuf *sb, const struct trace_end *end)
{
	unsigned char p[TRACE_END_BYTES];

	add_record_head(sb, TRACE_REC_END, TRACE_END_BYTES);
	put64(p, end->nr_events);
	put64(p + 8, end->lost);
	put64(p + 16, end->duration_ns);
	put64(p + 24, end->bpf_ns);
	put64(p + 32, end->user_ns);
	put64(p + 40, end->bpf_calls);
	strbuf_add(sb, p, sizeof(p));
}

static void encode_header(struct strbuf *sb)
{
	unsigned char h[TRACE_HEADER_BYTES] = {0};

	memcpy(h, TRACE_MAGIC, 8);
	put16(h + 8, TRACE_VERSION_MAJOR);
	put16(h + 10, TRACE_VERSION_MINOR);
	put32(h + 12, TRACE_HEADER_BYTES);
	strbuf_add(sb, h, sizeof(h));
}

/* Write all of sb to w's file and empty it. */
static int writer_put(struct trace_writer *w, struct strbuf *sb,
		      struct strbuf *err)
{
	int ret;

	if (w->failed)
		return err_set(err, -EIO, "the trace file failed before");
	ret = fd_write_all(w->fd, sb->buf, sb->len);
	if (ret) {
		w->failed = 1;
		return err_set(err, ret, "cannot write the trace: %s",
			       strerror(-ret));
	}
	w->bytes += sb->len;
	strbuf_reset(sb);
	return 0;
}

/* Start w on its fd: the header. */
static int writer_begin(struct trace_writer *w, struct strbuf *err)
{
	struct strbuf sb = STRBUF_INIT;
	int ret;

	w->block = xcalloc(1, sizeof(*w->block));
	strbuf_init(w->block, 0);
	encode_header(&sb);
	ret = writer_put(w, &sb, err);
	strbuf_release(&sb);
	return ret;
}

/* Open path as flags say (util/outfile.h) and start w on it. */
static int writer_open_as(struct trace_writer *w, const char *path,
			  unsigned flags, struct strbuf *err)
{
	int ret;

	memset(w, 0, sizeof(*w));
	w->fd = -1;
	w->out = xcalloc(1, sizeof(*w->out));
	ret = outfile_open(w->out, path, flags, err);
	if (ret) {
		free(w->out);
		w->out = NULL;
		return ret;
	}
	w->fd = w->out->fd;
	return writer_begin(w, err);
}

int trace_writer_open(struct trace_writer *w, const char *path, int replace,
		      struct strbuf *err)
{
	return writer_open_as(
	    w, path, OUTFILE_IN_PLACE | (replace ? OUTFILE_REPLACE : 0), err);
}

int trace_writer_open_fd(struct trace_writer *w, int fd, struct strbuf *err)
{
	memset(w, 0, sizeof(*w));
	w->fd = fd;
	return writer_begin(w, err);
}

/* Write the events held, as one EVENTS record. */
static int writer_flush(struct trace_writer *w, struct strbuf *err)
{
	struct strbuf sb = STRBUF_INIT;
	int ret;

	if (!w->block->len)
		return 0;
	add_record_head(&sb, TRACE_REC_EVENTS, (uint32_t)w->block->len);
	strbuf_add(&sb, w->block->buf, w->block->len);
	strbuf_reset(w->block);
	ret = writer_put(w, &sb, err);
	strbuf_release(&sb);
	return ret;
}

int trace_writer_meta(struct trace_writer *w, const char *key,
		      const char *value, struct strbuf *err)
{
	struct strbuf sb = STRBUF_INIT;
	size_t kl = strlen(key), vl = strlen(value);
	int ret;

	if (w->anonymize && meta_names(key))
		return 0;
	if (!kl || kl > 255)
		return err_set(err, -EINVAL,
			       "a trace's meta key is 1 to 255 bytes, not %zu",
			       kl);
	if (w->nr_meta >= TRACE_META_MAX)
		return err_set(err, -EFBIG, "more than %u meta entries",
			       TRACE_META_MAX);
	if (vl > TRACE_PATH_MAX) {
		/* cut, but not inside a UTF-8 character */
		vl = TRACE_PATH_MAX;
		while (vl && ((unsigned char)value[vl] & 0xc0) == 0x80)
			vl--;
	}
	encode_meta(&sb, key, value, vl);
	ret = writer_put(w, &sb, err);
	strbuf_release(&sb);
	if (!ret)
		w->nr_meta++;
	return ret;
}

/* Can f be the next file record of w, as a reader checks it? */
static int check_file(const struct trace_writer *w, const struct trace_file *f,
		      size_t pl, struct strbuf *err)
{
	if (f->id != w->nr_files + 1)
		return err_set(err, -EINVAL,
			       "file %u comes where file %u should", f->id,
			       w->nr_files + 1);
	if (w->nr_files >= TRACE_FILES_MAX)
		return err_set(err, -EFBIG, "more than %u files",
			       TRACE_FILES_MAX);
	if (!pl || pl > TRACE_PATH_MAX)
		return err_set(err, -EINVAL,
			       "file %u: a path of %zu bytes (a trace holds "
			       "1 to %u)",
			       f->id, pl, TRACE_PATH_MAX);
	if (f->kind > TFK_OTHER || f->existed > 1)
		return err_set(err, -EINVAL, "file %u has an unknown kind",
			       f->id);
	return 0;
}

int trace_writer_file(struct trace_writer *w, const struct trace_file *f,
		      struct strbuf *err)
{
	struct strbuf sb = STRBUF_INIT;
	int ret;

	/* the events before it may name it: a reader checks at the end,
	 * but a file comes before the block that first uses it anyway */
	struct trace_file a = *f;
	struct strbuf p = STRBUF_INIT;

	if (!f->path)
		a.path = "";
	else if (w->anonymize) {
		trace_anonymize_path(f->path, &p);
		a.path = p.buf;
	}
	ret = check_file(w, &a, strlen(a.path), err);
	if (!ret)
		ret = writer_flush(w, err);
	if (!ret) {
		encode_file(&sb, &a);
		ret = writer_put(w, &sb, err);
	}
	if (!ret)
		w->nr_files++;
	strbuf_release(&p);
	strbuf_release(&sb);
	return ret;
}

int trace_writer_cached(struct trace_writer *w, uint32_t id,
			uint64_t cached_bytes, struct strbuf *err)
{
	unsigned char p[TRACE_CACHED_BYTES] = {0};
	struct strbuf sb = STRBUF_INIT;
	int ret;

	if (!id || id > w->nr_files)
		return err_set(err, -EINVAL,
			       "the cache state of file %u before its record",
			       id);
	put32(p, id);
	put64(p + 8, cached_bytes);
	add_record_head(&sb, TRACE_REC_CACHED, TRACE_CACHED_BYTES);
	strbuf_add(&sb, p, sizeof(p));
	ret = writer_put(w, &sb, err);
	strbuf_release(&sb);
	return ret;
}

int trace_writer_event(struct trace_writer *w, const struct trace_event *e,
		       struct strbuf *err)
{
	unsigned char p[TRACE_EVENT_BYTES];

	if (!trace_op_known(e->op))
		return err_set(err, -EINVAL, "an unknown operation %u", e->op);
	if (e->op == TOP_FADVISE && !trace_fadv_name(e->arg))
		return err_set(err, -EINVAL,
			       "a fadvise of an unknown advice %u", e->arg);
	if (trace_op_is_block(e->op) && e->file)
		return err_set(err, -EINVAL, "a block request naming file %u",
			       e->file);
	if (w->nr_events >= TRACE_EVENTS_MAX)
		return err_set(err, -EFBIG, "more than %u events",
			       TRACE_EVENTS_MAX);
	if (!trace_op_is_block(e->op)) {
		if (e->file > w->max_file)
			w->max_file = e->file;
		/* an io_uring request's file2 is its ring */
		if (e->file2 > w->max_file && !trace_op_is_uring(e->op))
			w->max_file = e->file2;
	}
	if (w->on_event)
		w->on_event(w->on_event_ctx, e);
	encode_event(p, e);
	strbuf_add(w->block, p, sizeof(p));
	w->nr_events++;
	if (w->block->len >= BLOCK_EVENTS * TRACE_EVENT_BYTES)
		return writer_flush(w, err);
	return 0;
}

int trace_writer_finish(struct trace_writer *w, struct trace_end *end,
			struct strbuf *err)
{
	struct strbuf sb = STRBUF_INIT;
	int ret = writer_flush(w, err);

	if (!ret && w->max_file > w->nr_files)
		ret = err_set(err, -EINVAL,
			      "an event names file %u, which the trace does "
			      "not list",
			      w->max_file);
	end->nr_events = w->nr_events;
	if (!ret) {
		encode_end(&sb, end);
		ret = writer_put(w, &sb, err);
	}
	if (!ret && fsync(w->fd))
		ret = err_set(err, -errno, "cannot write the trace: %s",
			      strerror(errno));
	strbuf_release(&sb);
	return ret;
}

void trace_writer_release(struct trace_writer *w)
{
	if (!w)
		return;
	if (w->out) { /* it holds fd; a temporary goes */
		outfile_release(w->out);
		free(w->out);
		w->out = NULL;
	} else if (w->fd >= 0) {
		close(w->fd);
	}
	w->fd = -1;
	if (w->block) {
		strbuf_release(w->block);
		free(w->block);
		w->block = NULL;
	}
}

int trace_write_file(const struct trace *t, const char *path, int replace,
		     struct strbuf *err)
{
	struct trace_writer w;
	struct trace_end end = t->end;
	size_t i;
	int ret;

	ret = writer_open_as(&w, path, replace ? OUTFILE_REPLACE : 0, err);
	for (i = 0; !ret && i < t->nr_meta; i++)
		ret = trace_writer_meta(&w, t->meta[i].key, t->meta[i].value,
					err);
	for (i = 0; !ret && i < t->nr_files; i++) {
		ret = trace_writer_file(&w, &t->files[i], err);
		if (!ret && t->files[i].have_cached)
			ret = trace_writer_cached(
			    &w, t->files[i].id, t->files[i].cached_bytes, err);
	}
	for (i = 0; !ret && i < t->nr_events; i++)
		ret = trace_writer_event(&w, &t->events[i], err);
	if (!ret)
		ret = trace_writer_finish(&w, &end, err);
	if (!ret) {
		ret = outfile_commit(w.out, err);
		w.fd = -1;
	}
	trace_writer_release(&w);
	return ret;
}
