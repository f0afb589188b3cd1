/*
 * The directories a replay's name calls work in, kept open per thread:
 * a create, unlink, rename or stat resolves one name beneath its
 * directory's descriptor instead of the whole path beneath the work
 * directory each time (smallfiles' trace makes several name calls per
 * file). Each descriptor was opened O_PATH with openat2(RESOLVE_BENEATH
 * | RESOLVE_NO_SYMLINKS) from the work directory, and a name below it
 * is one plain component (replay.c refuses ".." and "."), resolved with
 * the same flags: nothing outside the work directory is reached.
 *
 * A replayed rmdir or rename of a directory moves the tree under the
 * descriptors: it bumps a generation, and every thread drops what it
 * kept before its next call. The threads keep at most RP_DIRS_FDS
 * descriptors together.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/openat2.h>
#include <sys/syscall.h>
#include "replay-int.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* openat2 beneath dirfd, no symbolic link followed. The fd or -errno. */
int rp_open_beneath(int dirfd, const char *rel, int flags, mode_t mode)
{
	struct open_how how = {0};
	long fd;

	how.flags = (uint64_t)(flags | O_NOFOLLOW | O_CLOEXEC);
	/* O_TMPFILE holds O_DIRECTORY's bit: a mode with a plain
	 * O_DIRECTORY is refused (EINVAL) */
	if ((flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE)
		how.mode = mode;
	how.resolve =
	    RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;
	fd = syscall(SYS_openat2, dirfd, rel, &how, sizeof(how));
	return fd < 0 ? -errno : (int)fd;
}

/* The parent of rel (beneath work_fd) opened as a path, *base its last
 * component. The fd or -errno. */
int rp_open_parent(int work_fd, const char *rel, const char **base)
{
	const char *slash = strrchr(rel, '/');
	char *dir;
	int fd;

	if (!slash) {
		*base = rel;
		fd = fcntl(work_fd, F_DUPFD_CLOEXEC, 0);
		return fd < 0 ? -errno : fd;
	}
	dir = xstrndup(rel, (size_t)(slash - rel));
	fd = rp_open_beneath(work_fd, dir, O_PATH | O_DIRECTORY, 0);
	free(dir);
	*base = slash + 1;
	return fd;
}

#define RP_DIRS_FDS	   256 /* kept by all threads */
#define RP_DIRS_PER_THREAD 16

void rp_dirs_init(struct rp_state *st)
{
	size_t per = st->nr_th ? RP_DIRS_FDS / st->nr_th : 0, i;

	if (per > RP_DIRS_PER_THREAD)
		per = RP_DIRS_PER_THREAD;
	for (i = 0; i < st->nr_th; i++) {
		st->th[i].nr_dirs = per;
		st->th[i].dirs =
		    per ? xcalloc(per, sizeof(*st->th[i].dirs)) : NULL;
	}
}

static void drop(struct rp_thread *th)
{
	size_t i;

	for (i = 0; i < th->nr_dirs; i++)
		if (th->dirs[i].key) {
			close(th->dirs[i].fd);
			th->dirs[i].key = 0;
		}
}

void rp_dirs_release(struct rp_thread *th)
{
	drop(th);
	free(th->dirs);
	th->dirs = NULL;
	th->nr_dirs = 0;
}

void rp_dirs_changed(struct rp_state *st)
{
	__atomic_add_fetch(&st->dir_gen, 1, __ATOMIC_SEQ_CST);
}

void rp_dirs_sync(struct rp_thread *th)
{
	unsigned gen = __atomic_load_n(&th->st->dir_gen, __ATOMIC_SEQ_CST);

	if (gen != th->dir_gen) {
		drop(th);
		th->dir_gen = gen;
	}
}

int rp_dirs_collide(const struct rp_thread *th, uint32_t a, uint32_t b)
{
	const uint32_t *p = th->st->parent;

	return th->nr_dirs && p[a - 1] != p[b - 1] &&
	       p[a - 1] % th->nr_dirs == p[b - 1] % th->nr_dirs;
}

int rp_dir_of(struct rp_thread *th, uint32_t id, const char **base, int *owned)
{
	struct rp_state *st = th->st;
	const char *rel = st->rel[id - 1], *slash = strrchr(rel, '/');
	struct rp_dir *c;
	int fd;

	*owned = 0;
	if (!slash) {
		*base = rel;
		return st->work_fd;
	}
	c = th->nr_dirs ? &th->dirs[st->parent[id - 1] % th->nr_dirs] : NULL;
	if (c && c->key == st->parent[id - 1] + 1) {
		*base = slash + 1;
		return c->fd;
	}
	fd = rp_open_parent(st->work_fd, rel, base);
	if (fd < 0 || !c) {
		*owned = fd >= 0;
		return fd;
	}
	if (c->key)
		close(c->fd);
	c->key = st->parent[id - 1] + 1;
	c->fd = fd;
	return fd;
}
