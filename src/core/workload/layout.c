/*
 * Work files for the block-I/O workloads; see layout.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "layout.h"
#include "../../util/error.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* Fill buf with bytes from rng: writes must not be trivially compressible. */
void layout_fill_random(void *buf, size_t bytes, struct rng *rng)
{
	uint64_t *p = buf;
	size_t i;

	for (i = 0; i < bytes / sizeof(*p); i++)
		p[i] = rng_next(rng);
}

/*
 * Create work file name as a new file: whatever had that name goes first
 * (a file of an earlier run), then O_CREAT | O_EXCL in the held work
 * directory, so nothing but a fresh file of ours is ever written. The
 * fd, or -errno with err set (path names the file for people).
 */
static int create_new(const struct target *t, const char *name,
		      const char *path, struct strbuf *err)
{
	int fd, r = target_unlink_file(t, name);

	if (r && r != -ENOENT)
		return err_set(err, r, "cannot replace '%s': %s", path,
			       strerror(-r));
	fd = target_open_file(t, name, O_WRONLY | O_CREAT | O_EXCL, 0600);
	if (fd < 0)
		return err_set(err, fd, "cannot create '%s': %s", path,
			       strerror(-fd));
	return fd;
}

int layout_fill_range(int fd, uint64_t from, uint64_t to, uint64_t seed,
		      const char *path, struct strbuf *err)
{
	const size_t chunk = 1 << 20;
	void *buf = xalloc_aligned(4096, chunk);
	uint64_t done = from;
	struct rng rng;
	int ret = 0;

	rng_seed(&rng, seed);
	layout_fill_random(buf, chunk, &rng);
	while (done < to) {
		size_t n = to - done < chunk ? to - done : chunk;
		ssize_t w = pwrite(fd, buf, n, (off_t)done);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			ret = err_set(err, w < 0 ? -errno : -ENOSPC,
				      "cannot lay out '%s': %s", path,
				      strerror(w < 0 ? errno : ENOSPC));
			goto out;
		}
		done += (uint64_t)w;
		/* vary the content so no two chunks are equal */
		((uint64_t *)buf)[0] = rng_next(&rng);
	}
	if (fsync(fd) < 0)
		ret = err_set(err, -errno, "cannot flush '%s': %s", path,
			      strerror(errno));
	/* start from a cold cache, as fio's invalidate=1 does */
	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
out:
	free(buf);
	return ret;
}

/* Write a read job's file in full, flush it, drop it from the cache. */
int layout_write(const struct target *t, const char *name, uint64_t bytes,
		 uint64_t seed, struct strbuf *err)
{
	struct strbuf where = STRBUF_INIT;
	int fd, ret;

	target_file_path(t, name, &where);
	fd = create_new(t, name, where.buf, err);
	ret =
	    fd < 0 ? fd : layout_fill_range(fd, 0, bytes, seed, where.buf, err);
	if (fd >= 0)
		close(fd);
	strbuf_release(&where);
	return ret;
}

/* Create a write job's file at full size without writing it. */
int layout_preallocate(const struct target *t, const char *name, uint64_t bytes,
		       struct strbuf *err)
{
	struct strbuf where = STRBUF_INIT;
	const char *path;
	int fd, e, ret = 0;

	target_file_path(t, name, &where);
	path = where.buf;
	fd = create_new(t, name, path, err);
	if (fd < 0) {
		strbuf_release(&where);
		return fd;
	}
	e = posix_fallocate(fd, 0, (off_t)bytes);
	/* a filesystem without fallocate gets a sparse file; a full one
	 * an error now, not a file that fails half-way through the run */
	if (e == EOPNOTSUPP || e == EINVAL)
		e = ftruncate(fd, (off_t)bytes) < 0 ? errno : 0;
	if (e)
		ret =
		    err_set(err, -e, "cannot allocate %llu bytes for '%s': %s",
			    (unsigned long long)bytes, path, strerror(e));
	close(fd);
	strbuf_release(&where);
	return ret;
}

/*
 * Can an earlier run's file serve again? Same size, and the cache is
 * dropped so the next run starts cold as a fresh layout would.
 */
int layout_reusable(const struct target *t, const char *name, uint64_t bytes)
{
	struct stat st;
	int fd;

	/* O_NONBLOCK: whatever it is, opening it must not wait */
	fd = target_open_file(t, name, O_RDONLY | O_NONBLOCK, 0);
	if (fd < 0)
		return 0;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    (uint64_t)st.st_size != bytes ||
	    (uint64_t)st.st_blocks * 512 < bytes) {
		close(fd);
		return 0;
	}
	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	close(fd);
	return 1;
}
