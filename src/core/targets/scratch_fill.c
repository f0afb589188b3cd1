/*
 * Filling a raw scratch device before it is read. The image under the
 * loop device is sparse: reading a hole (or an unwritten extent) returns
 * zeros without touching the disk, so a read workload on a fresh
 * scratch:SIZE measures memory while claiming to measure a device. The
 * region a workload reads is therefore written once with random data,
 * through the loop device with O_DIRECT, flushed to the disk (the
 * device's flush reaches the image; the image is synced too, in case the
 * loop device could not use direct I/O) and dropped from the page cache,
 * so the first timed read starts cold and every read reaches the disk.
 *
 * Only devices that scratch.c made are ever written, and only once per
 * target: the filled extent is kept in struct scratch, so the later runs
 * and arms of an experiment reuse it and a larger region fills only the
 * part beyond it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include "scratch.h"
#include "scratch-int.h"
#include "target-types.h"
#include "../journal/session.h"
#include "../../util/clock.h"
#include "../../util/error.h"
#include "../../util/rng.h"
#include "../../util/units.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

#define FILL_CHUNK_BYTES (4u << 20)
#define FILL_ALIGN_BYTES 4096u
/* room for the image's metadata: block maps of 1 KiB-block ext2 take
 * 4 bytes a block (1/256), so 1/128 and a little more is plenty */
#define FILL_META_DIVISOR 128u
#define FILL_META_BYTES	  (256u << 10)
/* a note on how far the fill is, this often (a large image takes long) */
#define FILL_PROGRESS_NS (5ull * 1000000000ull)

void scratch_set_log(struct target *t, const struct session_log *log)
{
	struct scratch *sc = t ? t->scratch : NULL;

	if (sc)
		sc->log = log;
}

/*
 * Bytes of [from, to) that are holes in the file open at fd (what a fill
 * must allocate; an unwritten extent may count as one) into *out. -1
 * when the file system cannot say (no SEEK_DATA), else 0.
 */
static int hole_bytes(int fd, uint64_t from, uint64_t to, uint64_t *out)
{
	uint64_t off = from;

	*out = 0;
	while (off < to) {
		off_t data = lseek(fd, (off_t)off, SEEK_DATA);
		off_t hole;

		if (data < 0 && errno != ENXIO)
			return -1;
		if (data < 0 || (uint64_t)data >= to) {
			*out += to - off;
			return 0;
		}
		*out += (uint64_t)data - off;
		hole = lseek(fd, data, SEEK_HOLE);
		if (hole < 0)
			return -1;
		off = (uint64_t)hole;
	}
	return 0;
}

/*
 * Enough free space where the image lives to allocate [from, to)? Room
 * for the file system's own blocks is asked too: a loop device writing
 * to a full file system can lose the end of a write without an error,
 * so running short must be found before, not during, the fill.
 */
static int check_space(const struct scratch *sc, int img_fd, uint64_t from,
		       uint64_t to, struct strbuf *err)
{
	struct strbuf need = STRBUF_INIT, have = STRBUF_INIT;
	uint64_t holes, avail;
	struct statvfs vfs;
	int ret = 0;

	if (hole_bytes(img_fd, from, to, &holes))
		holes = to - from;
	if (fstatvfs(img_fd, &vfs) < 0)
		return err_set(err, -errno,
			       "cannot check the free space of '%s': %s",
			       sc->dir, strerror(errno));
	avail = (uint64_t)vfs.f_bavail * vfs.f_frsize;
	if (holes)
		holes += holes / FILL_META_DIVISOR + FILL_META_BYTES;
	if (holes <= avail)
		return 0;
	units_fmt_bytes(&need, holes);
	units_fmt_bytes(&have, avail);
	ret = err_set(err, -ENOSPC,
		      "reading '%s' needs its image filled first (a hole "
		      "reads without touching the disk), which needs %s "
		      "free in '%s'; it has %s: give a smaller --size or "
		      "scratch size, or point TMPDIR at a larger file system",
		      sc->dev, need.buf, sc->dir, have.buf);
	strbuf_release(&need);
	strbuf_release(&have);
	return ret;
}

/* Write [from, to) of the device open at fd with random data. */
static int write_range(const struct scratch *sc, int fd, uint64_t from,
		       uint64_t to, volatile int *stop, struct strbuf *err)
{
	uint64_t *buf = xalloc_aligned(FILL_ALIGN_BYTES, FILL_CHUNK_BYTES);
	uint64_t off = from, t0 = clock_now_ns(), last = t0;
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	struct rng rng;
	size_t i;
	int ret = 0;

	rng_seed(&rng, from ^ 0x5c7a7c4f111ull);
	for (i = 0; i < FILL_CHUNK_BYTES / sizeof(*buf); i++)
		buf[i] = rng_next(&rng);
	while (off < to) {
		size_t n = to - off < FILL_CHUNK_BYTES ? (size_t)(to - off)
						       : FILL_CHUNK_BYTES;
		ssize_t w;

		if (stop && *stop) {
			ret =
			    err_set(err, -EINTR,
				    "interrupted while filling '%s'", sc->dev);
			break;
		}
		/* no two chunks alike, so nothing below can dedupe them */
		buf[0] = rng_next(&rng);
		w = pwrite(fd, buf, n, (off_t)off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			int e = w < 0 ? errno : ENOSPC;

			ret = err_set(err, -e,
				      "cannot fill '%s' at byte %llu (its "
				      "image is in '%s'): %s",
				      sc->dev, (unsigned long long)off, sc->dir,
				      strerror(e));
			break;
		}
		off += (uint64_t)w;
		if (clock_now_ns() - last >= FILL_PROGRESS_NS && off < to) {
			last = clock_now_ns();
			strbuf_reset(&a);
			strbuf_reset(&b);
			units_fmt_bytes(&a, off - from);
			units_fmt_bytes(&b, to - from);
			session_say(sc->log, SESSION_SAY_NOTE,
				    "filling '%s': %s of %s written", sc->dev,
				    a.buf, b.buf);
		}
	}
	strbuf_release(&a);
	strbuf_release(&b);
	free(buf);
	return ret;
}

/* Flush fd (a device or the image) and drop its cached pages. */
static int flush_and_drop(int fd, const char *what, struct strbuf *err)
{
	if (fsync(fd) < 0)
		return err_set(err, -errno, "cannot flush '%s': %s", what,
			       strerror(errno));
	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	return 0;
}

/*
 * Did the fill reach the image? A write the file system had no room for
 * can be dropped by the loop device without an error reaching us, which
 * leaves a hole: -ENOSPC then.
 */
static int check_filled(const struct scratch *sc, int img_fd, uint64_t from,
			uint64_t to, struct strbuf *err)
{
	struct strbuf a = STRBUF_INIT;
	uint64_t holes;
	int ret;

	if (hole_bytes(img_fd, from, to, &holes) || !holes)
		return 0; /* cannot tell, or all there */
	units_fmt_bytes(&a, holes);
	ret =
	    err_set(err, -ENOSPC,
		    "cannot fill '%s': %s of it did not reach its image in "
		    "'%s', whose file system is full; give a smaller --size "
		    "or scratch size, or point TMPDIR at a larger file system",
		    sc->dev, a.buf, sc->dir);
	strbuf_release(&a);
	return ret;
}

int scratch_fill(struct target *t, uint64_t bytes, volatile int *stop,
		 struct strbuf *err)
{
	struct scratch *sc = t ? t->scratch : NULL;
	struct strbuf a = STRBUF_INIT;
	uint64_t from, t0;
	int dev_fd = -1, img_fd = -1, ret = 0;
	double s;

	/* only a raw device we made: a file system's files are laid out by
	 * the workload, and a user's device is never written here */
	if (!sc || sc->mnt || !sc->dev || t->kind != TARGET_BLOCKDEV)
		return 0;
	if (bytes > t->capacity_bytes)
		bytes = t->capacity_bytes;
	bytes = (bytes + FILL_ALIGN_BYTES - 1) / FILL_ALIGN_BYTES *
		FILL_ALIGN_BYTES;
	if (bytes > t->capacity_bytes)
		bytes = t->capacity_bytes / FILL_ALIGN_BYTES * FILL_ALIGN_BYTES;
	if (bytes <= sc->filled_bytes)
		return 0;
	from = sc->filled_bytes;
	img_fd = open(sc->image, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (img_fd < 0) {
		ret = err_set(err, -errno, "cannot open '%s': %s", sc->image,
			      strerror(errno));
		goto out;
	}
	ret = check_space(sc, img_fd, from, bytes, err);
	if (ret)
		goto out;
	dev_fd = open(sc->dev, O_WRONLY | O_DIRECT | O_CLOEXEC);
	if (dev_fd < 0) {
		ret = err_set(err, -errno, "cannot open '%s' to fill it: %s",
			      sc->dev, strerror(errno));
		goto out;
	}
	units_fmt_bytes(&a, bytes - from);
	session_say(sc->log, SESSION_SAY_NOTE,
		    "writing %s of data to '%s' so that reads reach the disk "
		    "under its image (a fresh image is holes, read without "
		    "I/O); once per target",
		    a.buf, sc->dev);
	t0 = clock_now_ns();
	ret = write_range(sc, dev_fd, from, bytes, stop, err);
	if (!ret)
		ret = flush_and_drop(dev_fd, sc->dev, err);
	if (!ret)
		ret = flush_and_drop(img_fd, sc->image, err);
	if (!ret)
		ret = check_filled(sc, img_fd, from, bytes, err);
	if (ret)
		goto out;
	sc->filled_bytes = bytes;
	s = (double)(clock_now_ns() - t0) / 1e9;
	session_say(sc->log, SESSION_SAY_NOTE,
		    "filled '%s' with %s in %.1f s (%.0f MB/s)", sc->dev, a.buf,
		    s, s > 0 ? (double)(bytes - from) / s / 1e6 : 0.0);
out:
	if (dev_fd >= 0)
		close(dev_fd);
	if (img_fd >= 0)
		close(img_fd);
	strbuf_release(&a);
	return ret;
}
