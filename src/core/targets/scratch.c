/*
 * Scratch targets: a throw-away block device (and file system) to
 * experiment on, so that nobody has to point iotrial at a disk with data
 * on it. The steps are: a private directory under $TMPDIR (or /var/tmp),
 * a sparse image file in it, a loop device on the image (direct I/O when
 * the backing file system allows, so the host page cache does not hide
 * the device), and optionally mkfs plus a mount on a directory of ours.
 *
 * Each step is journaled before it is made and marked undone after it is
 * torn down, in reverse order; a loop device or mount left by a crash is
 * checked to still be ours (its backing file, its source) before the
 * next iotrial removes it.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/loop.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include "scratch.h"
#include "scratch-int.h"
#include "made.h"
#include "blockdev.h"
#include "workdir.h"
#include "../journal/session.h"
#include "../../util/clock.h"
#include "../../util/error.h"
#include "../../util/units.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

extern char **environ;

/* The smallest scratch we make, raw and with each file system. */
#define MIN_RAW_BYTES  (1ull << 20)
#define MIN_EXT4_BYTES (16ull << 20)
#define MIN_XFS_BYTES  (300ull << 20)

/* Has the caller been asked to stop (a signal) during set-up? */
static int stopped(const struct scratch *sc)
{
	return sc->stop && *sc->stop;
}

const char *scratch_device(const struct target *t)
{
	const struct scratch *sc = t ? t->scratch : NULL;

	return sc ? sc->dev : NULL;
}

const char *scratch_auto_fs(const struct target *t)
{
	const struct scratch *sc = t ? t->scratch : NULL;

	return sc ? sc->auto_fs : NULL;
}

struct session *scratch_session(const struct target *t)
{
	const struct scratch *sc = t ? t->scratch : NULL;

	return sc ? sc->s : NULL;
}

/* dir/name, for the caller to free. */
static char *in_dir(const char *dir, const char *name)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "%s/%s", dir, name);
	return strbuf_detach(&sb, NULL);
}

/*
 * Parse "SIZE[:FS]". With TARGET_FILES in flags a spec without FS gets
 * ext4, and *auto_fs is set.
 */
static int parse_spec(const char *spec, unsigned flags, uint64_t *bytes,
		      char **fs, int *auto_fs, struct strbuf *err)
{
	const char *colon = strchr(spec, ':');
	char *size =
	    colon ? xstrndup(spec, (size_t)(colon - spec)) : xstrdup(spec);
	struct strbuf why = STRBUF_INIT;
	uint64_t min = MIN_RAW_BYTES;
	int ret;

	*fs = xstrdup(colon ? colon + 1 : "");
	*auto_fs = !colon && (flags & TARGET_FILES);
	if (*auto_fs) {
		free(*fs);
		*fs = xstrdup("ext4");
	}
	ret = units_parse_size(size, 0, bytes, NULL, &why);
	if (ret) {
		err_set(err, ret, "bad scratch size in 'scratch:%s': %s", spec,
			why.buf);
		goto out;
	}
	if (!strcmp(*fs, "ext4"))
		min = MIN_EXT4_BYTES;
	else if (!strcmp(*fs, "xfs"))
		min = MIN_XFS_BYTES;
	else if (**fs) {
		ret = err_set(err, -EINVAL,
			      "unknown file system '%s' in 'scratch:%s'; give "
			      "ext4 or xfs, or nothing for a raw loop device",
			      *fs, spec);
		goto out;
	}
	if (*bytes % 4096) {
		ret = err_set(err, -EINVAL,
			      "scratch size '%s' is not a multiple of 4 KiB; "
			      "give a size such as 256M or 1G",
			      size);
		goto out;
	}
	if (*bytes < min) {
		strbuf_reset(&why);
		units_fmt_bytes(&why, min);
		ret = err_set(err, -EINVAL,
			      "scratch size '%s' is too small%s%s%s; give at "
			      "least %s",
			      size, **fs ? " for " : "", *fs,
			      *auto_fs ? " (the workload works on files, so "
					 "the scratch device gets a file "
					 "system)"
				       : "",
			      why.buf);
	}
out:
	free(size);
	strbuf_release(&why);
	return ret;
}

/*
 * Run argv (a mkfs), capturing its output into out. When *stop becomes
 * non-zero while it runs (a signal interrupts the read), the tool is
 * killed and waited for: -EINTR.
 */
static int run_tool(char *const argv[], volatile int *stop, struct strbuf *out)
{
	posix_spawn_file_actions_t fa;
	int pipefd[2], status = 0, ret, killed = 0;
	pid_t pid;
	char buf[512];
	ssize_t n;

	if (pipe2(pipefd, O_CLOEXEC) < 0)
		return -errno;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, pipefd[1], 1);
	posix_spawn_file_actions_adddup2(&fa, pipefd[1], 2);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	ret = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(pipefd[1]);
	if (ret) {
		close(pipefd[0]);
		return -ret;
	}
	while ((n = read(pipefd[0], buf, sizeof(buf))) > 0 ||
	       (n < 0 && errno == EINTR)) {
		if (n > 0 && out->len < 4096)
			strbuf_add(out, buf, (size_t)n);
		if (stop && *stop && !killed)
			killed = !kill(pid, SIGKILL);
	}
	close(pipefd[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	strbuf_trim(out);
	if (killed || (stop && *stop))
		return -EINTR;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
		return -ENOENT;
	return WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : -EIO;
}

/* Make the private directory, journaled first. */
static int make_dir(struct scratch *sc, uint64_t bytes, struct strbuf *err)
{
	const char *env = getenv("TMPDIR");
	struct strbuf p = STRBUF_INIT, need = STRBUF_INIT, have = STRBUF_INIT;
	struct statvfs vfs;
	char *tmp;
	int tries, ret = 0;

	if (!env || !*env)
		env = "/var/tmp";
	/* canonical, so that the journaled paths are exactly the ones
	 * recovery accepts (scratch_undo) */
	tmp = realpath(env, NULL);
	if (!tmp || statvfs(tmp, &vfs) < 0) {
		ret = err_set(err, -errno,
			      "cannot use '%s' for the scratch image: %s", env,
			      strerror(errno));
		free(tmp);
		return ret;
	}
	if ((uint64_t)vfs.f_bavail * vfs.f_frsize < bytes) {
		units_fmt_bytes(&need, bytes);
		units_fmt_bytes(&have, (uint64_t)vfs.f_bavail * vfs.f_frsize);
		ret = err_set(err, -ENOSPC,
			      "a %s scratch target may fill %s in '%s', which "
			      "has %s free; give a smaller size or point "
			      "TMPDIR elsewhere",
			      need.buf, need.buf, tmp, have.buf);
		goto out;
	}
	for (tries = 0; tries < 16; tries++) {
		strbuf_setf(&p, "%s/%s%ld-%06" PRIx64, tmp,
			    made_scratch_dir.prefix, (long)getpid(),
			    (clock_now_ns() / 1000) & 0xffffff);
		ret =
		    session_scratch(sc->s, "dir", p.buf, "", &sc->seq_dir, err);
		if (ret)
			goto out;
		if (!mkdir(p.buf, 0700))
			break;
		ret = -errno;
		session_done(sc->s, sc->seq_dir, NULL);
		sc->seq_dir = 0;
		if (ret != -EEXIST) {
			err_set(err, ret, "cannot create '%s': %s", p.buf,
				strerror(-ret));
			goto out;
		}
	}
	if (!sc->seq_dir) {
		ret = err_set(err, -EEXIST, "cannot find a free name in '%s'",
			      tmp);
		goto out;
	}
	ret = 0;
	sc->dir = strbuf_detach(&p, NULL);
out:
	free(tmp);
	strbuf_release(&p);
	strbuf_release(&need);
	strbuf_release(&have);
	return ret;
}

/* Create the sparse image; returns its fd (>= 0) or -errno. */
static int make_image(struct scratch *sc, uint64_t bytes, struct strbuf *err)
{
	int fd, ret;

	sc->image = in_dir(sc->dir, "disk.img");
	ret =
	    session_scratch(sc->s, "file", sc->image, "", &sc->seq_image, err);
	if (ret)
		return ret;
	fd = open(sc->image, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0 || ftruncate(fd, (off_t)bytes) < 0) {
		ret = -errno;
		if (fd >= 0)
			close(fd);
		return err_set(err, ret,
			       "cannot create the scratch image "
			       "'%s': %s",
			       sc->image, strerror(-ret));
	}
	return fd;
}

/* Attach a free loop device to the image, journaled first. */
static int attach_loop(struct scratch *sc, int img_fd, struct strbuf *err)
{
	struct loop_config cfg;
	struct strbuf dev = STRBUF_INIT;
	int ctl, fd = -1, nr, tries, ret = 0, dio = 1;

	ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
	if (ctl < 0)
		return err_set(err, -errno,
			       "cannot open '/dev/loop-control': "
			       "%s (is the loop module loaded?)",
			       strerror(errno));
	for (tries = 0; tries < 32; tries++) {
		nr = ioctl(ctl, LOOP_CTL_GET_FREE);
		if (nr < 0) {
			ret = err_set(err, -errno, "no free loop device: %s",
				      strerror(errno));
			break;
		}
		strbuf_setf(&dev, "/dev/loop%d", nr);
		ret = session_scratch(sc->s, "loop", dev.buf, sc->image,
				      &sc->seq_loop, err);
		if (ret)
			break;
		fd = open(dev.buf, O_RDWR | O_CLOEXEC);
		memset(&cfg, 0, sizeof(cfg));
		cfg.fd = (unsigned)img_fd;
		cfg.info.lo_flags = dio ? LO_FLAGS_DIRECT_IO : 0;
		snprintf((char *)cfg.info.lo_file_name,
			 sizeof(cfg.info.lo_file_name), "%s", sc->image);
		ret = fd < 0 ? -errno : 0;
		if (!ret && ioctl(fd, LOOP_CONFIGURE, &cfg) < 0)
			ret = -errno;
		if (fd >= 0)
			close(fd);
		if (!ret)
			break;
		/* not attached: the record announced nothing */
		session_done(sc->s, sc->seq_loop, NULL);
		sc->seq_loop = 0;
		if (ret == -EINVAL && dio) {
			dio = 0; /* the backing file system lacks O_DIRECT */
			continue;
		}
		if (ret != -EBUSY) {
			err_set(err, ret, "cannot attach '%s' to '%s': %s",
				dev.buf, sc->image, strerror(-ret));
			break;
		}
	}
	close(ctl);
	if (!ret && sc->seq_loop)
		sc->dev = strbuf_detach(&dev, NULL);
	else if (!ret)
		ret = err_set(err, -EBUSY,
			      "every free loop device was taken "
			      "by someone else; try again");
	strbuf_release(&dev);
	return ret;
}

/*
 * mkfs and mount on a directory of ours. files: the workload works on
 * files, so a raw device is no way out when mkfs is missing.
 */
static int make_fs(struct scratch *sc, const char *fs, int files,
		   struct strbuf *err)
{
	char *ext4[] = {"mkfs.ext4",
			"-q",
			"-F",
			"-E",
			"nodiscard,lazy_itable_init=0,lazy_journal_init=0",
			sc->dev,
			NULL};
	char *xfs[] = {"mkfs.xfs", "-q", "-f", "-K", sc->dev, NULL};
	struct strbuf out = STRBUF_INIT;
	char *const *argv = strcmp(fs, "xfs") ? ext4 : xfs;
	int ret;

	ret = run_tool(argv, sc->stop, &out);
	if (ret == -EINTR)
		goto out;
	if (ret == -ENOENT) {
		ret = err_set(
		    err, -ENOENT,
		    "cannot make an %s file system: '%s' was not "
		    "found; install %s, or use %s",
		    fs, argv[0], strcmp(fs, "xfs") ? "e2fsprogs" : "xfsprogs",
		    strcmp(fs, "xfs") ? files ? "scratch:SIZE:xfs or a "
						"directory"
					      : "a raw scratch:SIZE"
				      : "scratch:SIZE:ext4");
		goto out;
	}
	if (ret) {
		ret = err_set(err, ret, "%s failed on '%s': %s", argv[0],
			      sc->dev, out.len ? out.buf : "no message");
		goto out;
	}
	if (stopped(sc)) {
		ret = -EINTR;
		goto out;
	}
	sc->mnt = in_dir(sc->dir, "mnt");
	ret = session_scratch(sc->s, "dir", sc->mnt, "", &sc->seq_mnt_dir, err);
	if (ret)
		goto out;
	if (mkdir(sc->mnt, 0700) < 0) {
		ret = err_set(err, -errno, "cannot create '%s': %s", sc->mnt,
			      strerror(errno));
		goto out;
	}
	ret = session_scratch(sc->s, "mount", sc->mnt, sc->dev, &sc->seq_mount,
			      err);
	if (ret)
		goto out;
	if (mount(sc->dev, sc->mnt, fs, 0, NULL) < 0) {
		ret = err_set(err, -errno, "cannot mount '%s' on '%s': %s",
			      sc->dev, sc->mnt, strerror(errno));
		session_done(sc->s, sc->seq_mount, NULL);
		sc->seq_mount = 0;
	}
out:
	strbuf_release(&out);
	return ret;
}

/* Point t at the scratch device or file system. */
static int fill_target(struct target *t, struct scratch *sc, struct strbuf *err)
{
	struct stat st;

	if (!sc->mnt) {
		t->kind = TARGET_BLOCKDEV;
		t->path = xstrdup(sc->dev);
		if (stat(sc->dev, &st) < 0)
			return err_set(err, -errno, "cannot stat '%s': %s",
				       sc->dev, strerror(errno));
		t->dev = st.st_rdev;
		return target_blockdev_geometry(
		    sc->dev, &t->logical_block_bytes, &t->capacity_bytes, err);
	}
	t->kind = TARGET_SCRATCH;
	t->path = xstrdup(sc->mnt);
	if (stat(sc->mnt, &st) < 0)
		return err_set(err, -errno, "cannot stat '%s': %s", sc->mnt,
			       strerror(errno));
	t->dev = st.st_dev;
	t->logical_block_bytes = 4096;
	if (t->flags & TARGET_NO_WORKDIR)
		return 0;
	return target_make_workdir(t, sc->mnt, err);
}

int scratch_open(struct target *t, const char *spec, volatile int *stop,
		 struct strbuf *err)
{
	return scratch_open_in(t, spec, NULL, stop, err);
}

int scratch_open_in(struct target *t, const char *spec, struct session *s,
		    volatile int *stop, struct strbuf *err)
{
	struct scratch *sc = xcalloc(1, sizeof(*sc));
	uint64_t bytes = 0;
	char *fs = NULL;
	int ret, img_fd = -1, auto_fs = 0;

	ret = parse_spec(spec, t->flags, &bytes, &fs, &auto_fs, err);
	if (ret)
		goto fail;
	if (geteuid()) {
		ret = err_set(err, -EACCES,
			      "a scratch target needs root (it attaches a loop "
			      "device%s)",
			      *fs ? " and mounts it" : "");
		goto fail;
	}
	sc->stop = stop;
	if (s)
		sc->s = session_ref(s);
	else
		ret = session_open(&sc->s, NULL, 0, NULL, err);
	if (ret)
		goto fail;
	t->scratch = sc;
	/* each step is checked for a stop request: set-up can take long
	 * (mkfs on a large image), and a signal must not leave it behind */
	ret = stopped(sc) ? -EINTR : make_dir(sc, bytes, err);
	if (!ret)
		ret = img_fd =
		    stopped(sc) ? -EINTR : make_image(sc, bytes, err);
	if (ret >= 0)
		ret = stopped(sc) ? -EINTR : attach_loop(sc, img_fd, err);
	if (img_fd >= 0)
		close(img_fd);
	if (!ret && *fs)
		ret = stopped(sc)
			  ? -EINTR
			  : make_fs(sc, fs, t->flags & TARGET_FILES, err);
	if (!ret && auto_fs)
		sc->auto_fs = "ext4";
	if (!ret)
		ret = stopped(sc) ? -EINTR : fill_target(t, sc, err);
	if (ret)
		goto fail;
	sc->stop = NULL;
	free(fs);
	return 0;
fail:
	if (ret == -EINTR || stopped(sc))
		ret = err_set(err, -EINTR,
			      "interrupted while setting up 'scratch:%s'; what "
			      "was made is removed",
			      spec);
	t->scratch = sc;
	scratch_release(t);
	free(fs);
	return ret < 0 ? ret : -EIO;
}

/* umount, retrying briefly: files the workload just closed may linger. */
int scratch_umount(const char *mnt)
{
	int i;

	for (i = 0; i < 20; i++) {
		if (!umount2(mnt, UMOUNT_NOFOLLOW) || errno == EINVAL ||
		    errno == ENOENT)
			return 0;
		if (errno != EBUSY)
			return -errno;
		usleep(50000);
	}
	/* still busy: detach it now, the kernel finishes when it can */
	return umount2(mnt, MNT_DETACH | UMOUNT_NOFOLLOW) < 0 ? -errno : 0;
}

/* Detach /dev/loopN; the kernel defers it while someone has it open. */
int scratch_detach_loop(const char *dev)
{
	int fd = open(dev, O_RDWR | O_CLOEXEC), ret = 0;

	if (fd < 0)
		return -errno;
	if (ioctl(fd, LOOP_CLR_FD, 0) < 0 && errno != ENXIO)
		ret = -errno;
	close(fd);
	return ret;
}

void scratch_release(struct target *t)
{
	struct scratch *sc = t ? t->scratch : NULL;

	if (!sc)
		return;
	t->scratch = NULL;
	if (sc->seq_mount && !scratch_umount(sc->mnt))
		session_done(sc->s, sc->seq_mount, NULL);
	if (sc->seq_mnt_dir && (!rmdir(sc->mnt) || errno == ENOENT))
		session_done(sc->s, sc->seq_mnt_dir, NULL);
	if (sc->seq_loop && !scratch_detach_loop(sc->dev))
		session_done(sc->s, sc->seq_loop, NULL);
	if (sc->seq_image && (!unlink(sc->image) || errno == ENOENT))
		session_done(sc->s, sc->seq_image, NULL);
	if (sc->seq_dir && (!rmdir(sc->dir) || errno == ENOENT))
		session_done(sc->s, sc->seq_dir, NULL);
	/* whatever failed above is still live: close retries it */
	session_close(sc->s, NULL);
	free(sc->dir);
	free(sc->image);
	free(sc->mnt);
	free(sc->dev);
	free(sc);
}
