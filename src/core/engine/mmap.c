/*
 * mmap: every file is mapped shared once at init and I/O is memcpy to or
 * from the map, so page faults and writeback of dirty pages are what the
 * workload measures (the mmapdirty workload, databases that mmap their
 * files). Requests complete inside submit, like psync. An fsync request is
 * msync(MS_SYNC) of the whole map, which on Linux writes the dirty pages
 * and syncs the file's data. O_DIRECT is refused: a mapping always goes
 * through the page cache. An I/O error on a mapped page raises SIGBUS;
 * that cannot be turned into a result, so init refuses files shorter than
 * the map.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <linux/fs.h>
#include "engine-int.h"
#include "../../util/error.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* The engine's state. */
struct mmap_engine {
	char **maps;	  /* nr_files mappings of map_bytes each */
	unsigned nr_maps; /* mappings made so far (for cleanup) */
	size_t map_bytes; /* opts.file_bytes */
	int writable;	  /* mapped PROT_WRITE */
	struct done_fifo done;
};

/* Size of fd's file or block device in bytes, or -errno. */
static int64_t fd_size_bytes(int fd)
{
	struct stat st;
	uint64_t bytes;

	if (fstat(fd, &st) < 0)
		return -errno;
	if (S_ISBLK(st.st_mode)) {
		if (ioctl(fd, BLKGETSIZE64, &bytes) < 0)
			return -errno;
		return (int64_t)bytes;
	}
	return st.st_size;
}

/* Unmap what was mapped and free the state. */
static void mmap_free(struct mmap_engine *m)
{
	for (unsigned i = 0; i < m->nr_maps; i++)
		munmap(m->maps[i], m->map_bytes);
	free(m->maps);
	done_fifo_release(&m->done);
	free(m);
}

/* Map every file. Refuses O_DIRECT, an empty size, and files shorter than
 * the size to map. */
static int mmap_init(struct engine *e, const struct engine_opts *o,
		     struct strbuf *err)
{
	struct mmap_engine *m;
	int prot = PROT_READ;
	int ret = 0;

	if (o->direct)
		return err_set(err, -EINVAL,
			       "the mmap engine cannot do O_DIRECT; use "
			       "--direct=0 or another engine");
	if (!o->file_bytes)
		return err_set(err, -EINVAL,
			       "the mmap engine needs the file size to map; "
			       "it was given 0 bytes");
	if (o->file_bytes > SIZE_MAX)
		return err_set(err, -EFBIG,
			       "files of %llu bytes are too large to map here",
			       (unsigned long long)o->file_bytes);
	if (o->writable)
		prot |= PROT_WRITE;

	m = xcalloc(1, sizeof(*m));
	m->maps = xcalloc(o->nr_files, sizeof(*m->maps));
	m->map_bytes = (size_t)o->file_bytes;
	m->writable = o->writable;
	done_fifo_init(&m->done, o->iodepth);

	for (unsigned i = 0; i < o->nr_files; i++) {
		int64_t have = fd_size_bytes(o->fds[i]);
		void *p;

		if (have < 0) {
			ret =
			    err_set(err, (int)have,
				    "cannot size file %u for the mmap engine: "
				    "%s",
				    i, strerror((int)-have));
			goto out;
		}
		if ((uint64_t)have < o->file_bytes) {
			ret = err_set(err, -EINVAL,
				      "file %u is %lld bytes, shorter than the "
				      "%llu bytes the mmap engine must map; "
				      "lay the file out to full size first",
				      i, (long long)have,
				      (unsigned long long)o->file_bytes);
			goto out;
		}
		p = mmap(NULL, m->map_bytes, prot, MAP_SHARED, o->fds[i], 0);
		if (p == MAP_FAILED) {
			ret = -errno;
			if (ret == -EACCES && o->writable)
				err_set(err, ret,
					"cannot map file %u for writing: %s; "
					"the mmap engine needs files opened "
					"read-write",
					i, strerror(-ret));
			else
				err_set(err, ret,
					"cannot map file %u (%llu bytes): %s",
					i, (unsigned long long)o->file_bytes,
					strerror(-ret));
			goto out;
		}
		m->maps[m->nr_maps++] = p;
	}
	e->priv = m;
out:
	if (ret < 0)
		mmap_free(m);
	return ret;
}

/* Copy between the map and the buffer; returns the bytes copied (short at
 * the end of the map) or -errno. */
static int32_t mmap_copy(const struct mmap_engine *m, const struct io_req *r)
{
	char *map = m->maps[r->file_idx];
	uint64_t len = r->len_bytes;

	if (r->offset_bytes >= m->map_bytes) {
		/* A read at end of file reads nothing; a write there would
		 * need the file to grow, which a mapping cannot do. */
		return r->dir == IO_READ ? 0 : -ENOSPC;
	}
	if (len > m->map_bytes - r->offset_bytes)
		len = m->map_bytes - r->offset_bytes;
	if (r->dir == IO_READ) {
		memcpy(r->buf, map + r->offset_bytes, len);
	} else {
		if (!m->writable)
			return -EBADF;
		memcpy(map + r->offset_bytes, r->buf, len);
	}
	return (int32_t)len;
}

/* Do one request and record its result. */
static void mmap_do(const struct engine_opts *o, const struct mmap_engine *m,
		    struct io_req *r)
{
	int32_t bad = engine_check_req(o, r);

	if (bad) {
		r->result = bad;
	} else if (io_dir_is_rw(r->dir)) {
		r->result = mmap_copy(m, r);
	} else if (msync(m->maps[r->file_idx], m->map_bytes, MS_SYNC) < 0) {
		r->result = -errno;
	} else {
		r->result = 0;
	}
}

/* Do up to the free slots' worth of requests; they complete here. */
static int mmap_submit(struct engine *e, struct io_req **reqs, unsigned n)
{
	struct mmap_engine *m = e->priv;
	unsigned room = m->done.cap - m->done.nr;

	if (n > room)
		n = room;
	for (unsigned i = 0; i < n; i++) {
		mmap_do(&e->opts, m, reqs[i]);
		done_fifo_push(&m->done, reqs[i]);
	}
	return (int)n;
}

/* Hand back what submit finished; nothing is ever pending. */
static int mmap_reap(struct engine *e, struct io_req **done, unsigned min,
		     unsigned max)
{
	struct mmap_engine *m = e->priv;

	(void)min;
	return (int)done_fifo_pop(&m->done, done, max);
}

/* Unmap the files. Dirty pages stay in the page cache and are written
 * back by the kernel as usual. */
static void mmap_cleanup(struct engine *e)
{
	if (!e->priv)
		return;
	mmap_free(e->priv);
	e->priv = NULL;
}

const struct engine_ops engine_mmap = {
    .name = "mmap",
    .caps = ENGINE_SYNC | ENGINE_NO_DIRECT,
    .init = mmap_init,
    .submit = mmap_submit,
    .reap = mmap_reap,
    .cleanup = mmap_cleanup,
};
