/*
 * A smallfiles client running the operation mix. It keeps its live
 * files in a ring, oldest first: a delete takes the oldest (so a file's
 * age decides when it goes, as on a server where files come and go), and
 * with a lifetime set, a file that has lived that long is deleted before
 * the client does anything else. Every other operation picks a live file
 * at random. Files are named dN/fM inside the client's directory, N
 * spreading them over the client's directories.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "smallfiles-int.h"
#include "../../util/clock.h"
#include "../../util/error.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* A live file. */
struct sf_file {
	uint64_t id;	  /* its name is d(id % dirs)/f(id) */
	uint64_t bytes;	  /* its size */
	uint64_t born_ns; /* when it was created */
	uint64_t born_op; /* the client's operation count then */
	uint64_t vid;	  /* --verify: its number at creation */
	uint64_t vseq;	  /* --verify: its latest write */
};

/* The mix's private state of one client. */
struct mix {
	struct sf_client *c;
	struct sf_state *st;
	struct sf_file *files; /* ring of max_files, oldest at head */
	unsigned head, nr;
	uint64_t next_id;
	uint64_t nr_ops; /* every operation, timed or not */
	uint64_t writes; /* creates and writes, for fsync=N */
	uint64_t vseq;	 /* --verify: the last write's sequence number */
	char name[48], name2[48];
};

static const char *file_name(struct mix *m, uint64_t id, char *buf)
{
	snprintf(buf, sizeof(m->name), "d%u/f%llu",
		 (unsigned)(id % m->st->dirs), (unsigned long long)id);
	return buf;
}

/* Write bytes of the client's buffer to fd from offset 0. */
static int write_from_start(struct mix *m, int fd, uint64_t bytes, int timed)
{
	struct sf_client *c = m->c;
	uint64_t done = 0;

	while (done < bytes) {
		size_t n =
		    bytes - done < c->buf_bytes ? bytes - done : c->buf_bytes;
		ssize_t got = pwrite(fd, c->buf, n, (off_t)done);

		if (got < 0)
			return -errno;
		if (got == 0)
			return -ENOSPC;
		done += (uint64_t)got;
		if (timed) {
			c->ios[1]++;
			c->bytes[1] += (uint64_t)got;
		}
	}
	return 0;
}

/* The header --verify puts in f's blocks: the client and the file's
 * number at creation (renames keep it), the seed, its latest write. */
static struct run_verify_hdr vhdr(const struct sf_client *c,
				  const struct sf_file *f)
{
	struct run_verify_hdr h = {((uint64_t)c->idx << 40) | f->vid, 0,
				   c->sh->w->ro.seed, f->vseq};

	return h;
}

/* A work file's path, for reports: DIR/clientN/dM/fK. */
static void vpath(const struct sf_client *c, const char *name,
		  struct strbuf *out)
{
	strbuf_reset(out);
	strbuf_addf(out, "%s/client%u/%s", c->sh->w->target->workdir, c->idx,
		    name);
}

/*
 * --verify: write f whole as verify blocks, under a new sequence number,
 * as many blocks per pwrite as the buffer holds.
 */
static int write_verified(struct mix *m, int fd, struct sf_file *f, int timed)
{
	struct sf_client *c = m->c;
	struct run_verify_hdr h;
	uint64_t k = 0, nb = verify_file_blocks(f->bytes);

	f->vseq = ++m->vseq;
	h = vhdr(c, f);
	while (k < nb) {
		size_t bytes, done = 0;
		uint64_t n =
		    verify_file_span(f->bytes, k, c->buf_bytes, &bytes);
		off_t at = (off_t)(k * VERIFY_FILE_BLOCK_BYTES);

		verify_file_fill(c->vfy, c->buf, f->bytes, k, n, &h);
		while (done < bytes) {
			ssize_t got = pwrite(fd, c->buf + done, bytes - done,
					     at + (off_t)done);

			if (got < 0)
				return -errno;
			if (got == 0)
				return -ENOSPC;
			done += (size_t)got;
			if (timed) {
				c->ios[1]++;
				c->bytes[1] += (uint64_t)got;
			}
		}
		k += n;
	}
	return 0;
}

/* Write f's contents to fd: random bytes, or verify blocks. */
static int write_file(struct mix *m, int fd, struct sf_file *f, int timed)
{
	if (m->c->vfy)
		return write_verified(m, fd, f, timed);
	return write_from_start(m, fd, f->bytes, timed);
}

/*
 * --verify: read f whole from fd and check every block against its
 * latest write. timed: count the reads. 0 or -errno (a read failed or
 * the file is short: -ENODATA).
 */
static int read_verified(struct sf_client *c, int fd, const struct sf_file *f,
			 const char *name, int timed, int in_read)
{
	struct run_verify_hdr h = vhdr(c, f);
	struct strbuf path = STRBUF_INIT;
	uint64_t k = 0, nb = verify_file_blocks(f->bytes);
	int ret = 0;

	vpath(c, name, &path);
	while (!ret && k < nb) {
		size_t bytes, done = 0;
		uint64_t n =
		    verify_file_span(f->bytes, k, c->buf_bytes, &bytes);
		off_t at = (off_t)(k * VERIFY_FILE_BLOCK_BYTES);

		while (done < bytes) {
			ssize_t got = pread(fd, c->buf + done, bytes - done,
					    at + (off_t)done);

			if (got < 0 && errno == EINTR)
				continue;
			if (got <= 0) {
				ret = got < 0 ? -errno : -ENODATA;
				break;
			}
			done += (size_t)got;
			if (timed) {
				c->ios[0]++;
				c->bytes[0] += (uint64_t)got;
			}
		}
		if (!ret)
			verify_file_check(c->vfy, c->buf, f->bytes, k, n, &h,
					  path.buf, in_read);
		k += n;
	}
	strbuf_release(&path);
	return ret;
}

/* fsync fd when the policy says so after a create or write. */
static int maybe_fsync(struct mix *m, int fd, int timed)
{
	int due = m->st->fsync_mode == SF_FSYNC_CLOSE;

	m->writes++;
	if (m->st->fsync_mode == SF_FSYNC_EVERY)
		due = m->writes % m->st->fsync_every == 0;
	if (!due)
		return 0;
	if (fsync(fd) < 0)
		return -errno;
	if (timed)
		m->c->fsyncs++;
	return 0;
}

/* The oldest file goes. */
static int op_delete(struct mix *m, int timed)
{
	struct sf_file *f = &m->files[m->head];
	uint64_t t0 = clock_now_ns();

	file_name(m, f->id, m->name);
	if (unlinkat(m->c->root_fd, m->name, 0) < 0)
		return sf_client_fail(m->c, errno, "delete", m->name);
	m->head = (m->head + 1) % m->st->max_files;
	m->nr--;
	sf_client_done(m->c, SF_DELETE, t0, timed);
	return 0;
}

/* A new file with its data; at the file limit the oldest goes first. */
static int op_create(struct mix *m, int timed)
{
	struct sf_client *c = m->c;
	struct sf_file *f;
	uint64_t t0;
	int fd, ret;

	if (m->nr == m->st->max_files) {
		ret = op_delete(m, timed);
		if (ret)
			return ret;
		m->nr_ops++;
	}
	f = &m->files[(m->head + m->nr) % m->st->max_files];
	f->id = m->next_id++;
	f->bytes = sizedist_sample(&m->st->sizes, &c->rng);
	file_name(m, f->id, m->name);
	t0 = clock_now_ns();
	f->born_ns = t0;
	f->born_op = m->nr_ops;
	f->vid = f->id;
	fd = openat(c->root_fd, m->name,
		    O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0)
		return sf_client_fail(c, errno, "create", m->name);
	m->nr++; /* it exists now: cleanup and deletes must know it */
	ret = write_file(m, fd, f, timed);
	if (!ret)
		ret = maybe_fsync(m, fd, timed);
	if (close(fd) < 0 && !ret)
		ret = -errno;
	if (ret)
		return sf_client_fail(c, -ret, "write", m->name);
	sf_client_done(c, SF_CREATE, t0, timed);
	return 0;
}

static struct sf_file *pick(struct mix *m)
{
	unsigned i = (unsigned)rng_below(&m->c->rng, m->nr);

	return &m->files[(m->head + i) % m->st->max_files];
}

/* Rewrite a live file in full. */
static int op_write(struct mix *m, int timed)
{
	struct sf_file *f = pick(m);
	uint64_t t0 = clock_now_ns();
	int fd, ret;

	file_name(m, f->id, m->name);
	fd = openat(m->c->root_fd, m->name, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return sf_client_fail(m->c, errno, "open", m->name);
	ret = write_file(m, fd, f, timed);
	if (!ret)
		ret = maybe_fsync(m, fd, timed);
	if (close(fd) < 0 && !ret)
		ret = -errno;
	if (ret)
		return sf_client_fail(m->c, -ret, "write", m->name);
	sf_client_done(m->c, SF_WRITE, t0, timed);
	return 0;
}

/* Read a live file to its end. */
static int op_read(struct mix *m, int timed)
{
	struct sf_client *c = m->c;
	struct sf_file *f = pick(m);
	uint64_t t0 = clock_now_ns();
	ssize_t got;
	int fd;

	file_name(m, f->id, m->name);
	fd = openat(c->root_fd, m->name, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return sf_client_fail(c, errno, "open", m->name);
	if (c->vfy) {
		int ret = read_verified(c, fd, f, m->name, timed, 1);

		close(fd);
		if (ret)
			return sf_client_fail(c, -ret, "read", m->name);
		sf_client_done(c, SF_READ, t0, timed);
		return 0;
	}
	while ((got = read(fd, c->buf, c->buf_bytes)) > 0) {
		if (timed) {
			c->ios[0]++;
			c->bytes[0] += (uint64_t)got;
		}
	}
	if (got < 0) {
		int e = errno;

		close(fd);
		return sf_client_fail(c, e, "read", m->name);
	}
	close(fd);
	sf_client_done(c, SF_READ, t0, timed);
	return 0;
}

static int op_stat(struct mix *m, int timed)
{
	struct sf_file *f = pick(m);
	uint64_t t0 = clock_now_ns();
	struct stat st;

	file_name(m, f->id, m->name);
	if (fstatat(m->c->root_fd, m->name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return sf_client_fail(m->c, errno, "stat", m->name);
	sf_client_done(m->c, SF_STAT, t0, timed);
	return 0;
}

/* A live file gets a new name (and, with several, maybe directory). */
static int op_rename(struct mix *m, int timed)
{
	struct sf_file *f = pick(m);
	uint64_t t0 = clock_now_ns(), id = m->next_id++;

	file_name(m, f->id, m->name);
	file_name(m, id, m->name2);
	if (renameat(m->c->root_fd, m->name, m->c->root_fd, m->name2) < 0)
		return sf_client_fail(m->c, errno, "rename", m->name);
	f->id = id;
	sf_client_done(m->c, SF_RENAME, t0, timed);
	return 0;
}

/* Is the oldest file past its lifetime? */
static int expired(struct mix *m)
{
	const struct sf_file *f;

	if (!m->nr || (!m->st->lifetime_ns && !m->st->lifetime_ops))
		return 0;
	f = &m->files[m->head];
	if (m->st->lifetime_ops)
		return m->nr_ops - f->born_op >= m->st->lifetime_ops;
	return clock_now_ns() - f->born_ns >= m->st->lifetime_ns;
}

/* The operation the weights pick this time. */
static enum sf_kind choose(struct mix *m)
{
	uint64_t x = rng_below(&m->c->rng, m->st->mix_total);
	unsigned k;

	for (k = 0; k < SF_KINDS - 1; k++) {
		if (x < m->st->mix[k])
			break;
		x -= m->st->mix[k];
	}
	return (enum sf_kind)k;
}

int sf_mix_loop(struct sf_client *c)
{
	struct mix m;
	int timed = 0, ret = 0;

	memset(&m, 0, sizeof(m));
	m.c = c;
	m.st = c->sh->st;
	m.files = xcalloc(m.st->max_files, sizeof(*m.files));
	while (!ret && sf_client_next(c, &timed)) {
		enum sf_kind k = expired(&m) ? SF_DELETE : choose(&m);

		if (!m.nr && k != SF_CREATE)
			k = SF_CREATE; /* nothing to work on yet */
		switch (k) {
		case SF_CREATE:
			ret = op_create(&m, timed);
			break;
		case SF_WRITE:
			ret = op_write(&m, timed);
			break;
		case SF_READ:
			ret = op_read(&m, timed);
			break;
		case SF_STAT:
			ret = op_stat(&m, timed);
			break;
		case SF_RENAME:
			ret = op_rename(&m, timed);
			break;
		default:
			ret = op_delete(&m, timed);
			break;
		}
		m.nr_ops++;
	}
	if (c->vfy) {
		/* the read-back comes after the measured part: keep the
		 * live files, in a ring no longer, for it */
		struct sf_file *live = xcalloc(m.nr + 1, sizeof(*live));
		unsigned i;

		for (i = 0; i < m.nr; i++)
			live[i] = m.files[(m.head + i) % m.st->max_files];
		live[m.nr].bytes = UINT64_MAX; /* the end */
		c->vlive = live;
	}
	free(m.files);
	return ret;
}

int sf_mix_readback(struct sf_client *c, struct strbuf *err)
{
	struct sf_file *f = c->vlive;
	struct strbuf path = STRBUF_INIT;
	struct mix m = {.c = c, .st = c->sh->st};
	int ret = 0;

	for (; !ret && f && f->bytes != UINT64_MAX; f++) {
		uint64_t t0 = clock_now_ns();
		int fd;

		file_name(&m, f->id, m.name);
		vpath(c, m.name, &path);
		fd = openat(c->root_fd, m.name, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			ret = err_set(err, -errno,
				      "cannot open '%s' to verify it: %s",
				      path.buf, strerror(errno));
			break;
		}
		/* as the block workloads: flushed, then read from the disk */
		if (fsync(fd) < 0 ||
		    (ret = verify_test_hook(c->vfy, path.buf, err)) ||
		    fsync(fd) < 0) {
			if (!ret)
				ret = err_set(err, -errno,
					      "cannot flush '%s' before "
					      "verifying it: %s",
					      path.buf, strerror(errno));
			close(fd);
			break;
		}
		posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
		ret = read_verified(c, fd, f, m.name, 0, 0);
		if (ret)
			ret = err_set(err, ret,
				      "cannot read back '%s' to verify it: %s",
				      path.buf,
				      ret == -ENODATA ? "the file is shorter"
						      : strerror(-ret));
		close(fd);
		c->vfy->readback_ns += clock_now_ns() - t0;
	}
	strbuf_release(&path);
	return ret;
}
