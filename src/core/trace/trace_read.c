/*
 * Reading a trace file (docs/TRACE-FORMAT.md): the reader takes a whole
 * file and checks every bound, since a trace comes from elsewhere as
 * often as from here; a file cut short in a record (a recorder killed,
 * a full disk) is read to its last whole record.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "trace.h"
#include "../../util/error.h"
#include "../../util/strbuf.h"
#include "../../util/userfile.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* Little-endian access, whatever the host. */
static uint16_t get16(const unsigned char *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t get32(const unsigned char *p)
{
	return get16(p) | (uint32_t)get16(p + 2) << 16;
}

static uint64_t get64(const unsigned char *p)
{
	return get32(p) | (uint64_t)get32(p + 4) << 32;
}

/* An event from its 64 bytes on disk. */
static void decode_event(const unsigned char *p, struct trace_event *e)
{
	e->ts_ns = get64(p);
	e->dur_ns = get64(p + 8);
	e->tid = get32(p + 16);
	e->op = get16(p + 20);
	e->flags = get16(p + 22);
	e->file = get32(p + 24);
	e->file2 = get32(p + 28);
	e->offset = get64(p + 32);
	e->size = get64(p + 40);
	e->ret = (int64_t)get64(p + 48);
	e->arg = get32(p + 56);
	e->fd = (int32_t)get32(p + 60);
}

/* A string of n bytes from p, refused if it holds a NUL. */
static char *take_string(const unsigned char *p, size_t n)
{
	if (memchr(p, 0, n))
		return NULL;
	return xstrndup((const char *)p, n);
}

/* A META record's payload (len bytes at p) into t. */
static int read_meta(const unsigned char *p, uint32_t len, struct trace *t,
		     struct strbuf *err)
{
	size_t kl, vl;
	char *k, *v;

	if (len < 4 || (kl = get16(p)) + 4 > len)
		return err_set(err, -EINVAL, "a meta record is truncated");
	vl = get16(p + 2 + kl);
	if (2 + kl + 2 + vl != len || !kl || vl > TRACE_PATH_MAX)
		return err_set(err, -EINVAL, "a meta record is malformed");
	if (t->nr_meta >= TRACE_META_MAX)
		return err_set(err, -EFBIG, "more than %u meta entries",
			       TRACE_META_MAX);
	k = take_string(p + 2, kl);
	v = take_string(p + 4 + kl, vl);
	if (!k || !v) {
		free(k);
		free(v);
		return err_set(err, -EINVAL, "a meta entry holds a NUL byte");
	}
	ALLOC_GROW(t->meta, t->nr_meta + 1, t->alloc_meta);
	t->meta[t->nr_meta].key = k;
	t->meta[t->nr_meta].value = v;
	t->nr_meta++;
	return 0;
}

/* A FILE record's payload into t, checked: in order, a path, a kind. */
static int read_file_rec(const unsigned char *p, uint32_t len, struct trace *t,
			 struct strbuf *err)
{
	struct trace_file f = {0};
	size_t pl;

	if (len < TRACE_FILE_FIXED_BYTES)
		return err_set(err, -EINVAL, "a file record is truncated");
	pl = get16(p + 6);
	if (TRACE_FILE_FIXED_BYTES + pl != len || !pl || pl > TRACE_PATH_MAX)
		return err_set(err, -EINVAL, "a file record is malformed");
	f.id = get32(p);
	if (f.id != t->nr_files + 1)
		return err_set(err, -EINVAL,
			       "file %u comes where file %zu should", f.id,
			       t->nr_files + 1);
	if (t->nr_files >= TRACE_FILES_MAX)
		return err_set(err, -EFBIG, "more than %u files",
			       TRACE_FILES_MAX);
	f.kind = p[4];
	f.existed = p[5];
	if (f.kind > TFK_OTHER || f.existed > 1)
		return err_set(err, -EINVAL, "file %u has an unknown kind",
			       f.id);
	f.dev = get64(p + 8);
	f.ino = get64(p + 16);
	f.size_bytes = get64(p + 24);
	f.path = take_string(p + TRACE_FILE_FIXED_BYTES, pl);
	if (!f.path)
		return err_set(err, -EINVAL, "the path of file %u holds a NUL",
			       f.id);
	ALLOC_GROW(t->files, t->nr_files + 1, t->alloc_files);
	t->files[t->nr_files++] = f;
	return 0;
}

/* An EVENTS record's payload into t, each event's operation checked. */
static int read_events(const unsigned char *p, uint32_t len, struct trace *t,
		       struct strbuf *err)
{
	size_t n = len / TRACE_EVENT_BYTES, i;

	if (len % TRACE_EVENT_BYTES)
		return err_set(err, -EINVAL,
			       "an events record is not a whole number of "
			       "events");
	if (t->nr_events + n > TRACE_EVENTS_MAX)
		return err_set(err, -EFBIG, "more than %u events",
			       TRACE_EVENTS_MAX);
	ALLOC_GROW(t->events, t->nr_events + n, t->alloc_events);
	for (i = 0; i < n; i++) {
		struct trace_event *e = &t->events[t->nr_events];

		decode_event(p + i * TRACE_EVENT_BYTES, e);
		if (!trace_op_known(e->op) ||
		    trace_op_minor(e->op) > t->version_minor)
			return err_set(err, -EINVAL,
				       "event %zu has an unknown operation %u",
				       t->nr_events + 1, e->op);
		if (e->op == TOP_FADVISE && !trace_fadv_name(e->arg))
			return err_set(err, -EINVAL,
				       "event %zu is a fadvise of an unknown "
				       "advice %u",
				       t->nr_events + 1, e->arg);
		t->nr_events++;
	}
	return 0;
}

/* A CACHED record's payload into t: entries of files listed before, one
 * each, in a trace that says 1.3 at least. */
static int read_cached(const unsigned char *p, uint32_t len, struct trace *t,
		       struct strbuf *err)
{
	size_t n = len / TRACE_CACHED_BYTES, i;

	if (len % TRACE_CACHED_BYTES || t->version_minor < 3)
		return err_set(err, -EINVAL,
			       "a cache record is malformed or in a trace "
			       "older than 1.3");
	for (i = 0; i < n; i++) {
		uint32_t id = get32(p + i * TRACE_CACHED_BYTES);
		struct trace_file *f;

		if (!id || id > t->nr_files)
			return err_set(err, -EINVAL,
				       "a cache record names file %u, not "
				       "listed before it",
				       id);
		f = &t->files[id - 1];
		if (f->have_cached)
			return err_set(err, -EINVAL,
				       "file %u has two cache records", id);
		f->cached_bytes = get64(p + i * TRACE_CACHED_BYTES + 8);
		f->have_cached = 1;
		t->nr_cached++;
	}
	return 0;
}

/* The END record's payload (TRACE_END_BYTES at least) into t. */
static void read_end(const unsigned char *p, struct trace *t)
{
	t->end.nr_events = get64(p);
	t->end.lost = get64(p + 8);
	t->end.duration_ns = get64(p + 16);
	t->end.bpf_ns = get64(p + 24);
	t->end.user_ns = get64(p + 32);
	t->end.bpf_calls = get64(p + 40);
	t->complete = 1;
}

/* What holds together across records: files named exist, the count of
 * events is the one the END record gives. */
static int check_whole(const struct trace *t, struct strbuf *err)
{
	size_t i;

	for (i = 0; i < t->nr_events; i++) {
		const struct trace_event *e = &t->events[i];

		if (trace_op_is_block(e->op)) { /* file2 is a time there */
			if (e->file)
				return err_set(err, -EINVAL,
					       "event %zu is a block request "
					       "naming a file",
					       i + 1);
			continue;
		}
		/* an io_uring request's file2 is its ring */
		if (e->file > t->nr_files ||
		    (e->file2 > t->nr_files && !trace_op_is_uring(e->op)))
			return err_set(
			    err, -EINVAL,
			    "event %zu names file %u, which the "
			    "trace does not list",
			    i + 1, e->file > t->nr_files ? e->file : e->file2);
	}
	if (t->complete && t->end.nr_events != t->nr_events)
		return err_set(
		    err, -EINVAL, "the trace says %llu events but holds %zu",
		    (unsigned long long)t->end.nr_events, t->nr_events);
	return 0;
}

int trace_read_mem(const void *data, size_t len, struct trace *t,
		   struct strbuf *err)
{
	const unsigned char *p = data;
	size_t at, hdr;
	unsigned major;
	int ret = 0;

	if (!len)
		return err_set(err, -EINVAL,
			       "an empty file, not an iotrial "
			       "trace");
	if (len < TRACE_HEADER_BYTES || memcmp(p, TRACE_MAGIC, 8))
		return err_set(err, -EINVAL, "not an iotrial trace");
	major = get16(p + 8);
	t->version_minor = get16(p + 10);
	hdr = get32(p + 12);
	if (major != TRACE_VERSION_MAJOR)
		return err_set(err, -ENOTSUP,
			       "trace format version %u; this iotrial reads "
			       "version %u",
			       major, TRACE_VERSION_MAJOR);
	if (hdr < TRACE_HEADER_BYTES || hdr > len)
		return err_set(err, -EINVAL, "the trace's header is malformed");
	for (at = hdr; at < len && !ret;) {
		uint32_t type, rlen;

		if (t->complete)
			return err_set(err, -EINVAL,
				       "data after the trace's end record");
		/* cut short (the recorder killed, the disk full): read to
		 * the last whole record, as an incomplete trace */
		if (len - at < 8) {
			t->cut_bytes = len - at;
			break;
		}
		type = get32(p + at);
		rlen = get32(p + at + 4);
		if (rlen > TRACE_RECORD_MAX)
			return err_set(err, -EINVAL,
				       "a record at byte %zu is longer than "
				       "the limit",
				       at);
		if (rlen > len - at - 8) {
			t->cut_bytes = len - at;
			break;
		}
		at += 8;
		switch (type) {
		case TRACE_REC_META:
			ret = read_meta(p + at, rlen, t, err);
			break;
		case TRACE_REC_FILE:
			ret = read_file_rec(p + at, rlen, t, err);
			break;
		case TRACE_REC_EVENTS:
			ret = read_events(p + at, rlen, t, err);
			break;
		case TRACE_REC_CACHED:
			ret = read_cached(p + at, rlen, t, err);
			break;
		case TRACE_REC_END:
			if (rlen < TRACE_END_BYTES)
				return err_set(err, -EINVAL,
					       "the end record is truncated");
			read_end(p + at, t);
			break;
		default: /* a later minor's record: skipped */
			break;
		}
		at += rlen;
	}
	if (!ret)
		ret = check_whole(t, err);
	return ret;
}

int trace_read_file(const char *path, struct trace *t, struct strbuf *err)
{
	struct strbuf sb = STRBUF_INIT, why = STRBUF_INIT;
	struct stat st;
	int fd, ret;

	/* O_NONBLOCK: the open of a FIFO returns at once, to be refused */
	fd = open(path,
		  O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		if (ret == -ELOOP && !lstat(path, &st) && S_ISLNK(st.st_mode))
			return err_set(err, ret,
				       "cannot read '%s': a symbolic link (a "
				       "trace is not read through one)",
				       path);
		return err_set(err, ret, "cannot read '%s': %s", path,
			       strerror(-ret));
	}
	ret = userfile_read_fd(fd, path,
			       (size_t)TRACE_EVENTS_MAX * TRACE_EVENT_BYTES * 2,
			       &sb, &why);
	if (ret == -EFBIG)
		ret = err_set(err, ret, "'%s' is too large for a trace", path);
	else if (ret)
		ret = err_set(err, ret, "%s", why.buf);
	else if ((ret = trace_read_mem(sb.buf, sb.len, t, &why)))
		err_set(err, ret, "'%s': %s", path, why.buf);
	strbuf_release(&sb);
	strbuf_release(&why);
	return ret;
}
