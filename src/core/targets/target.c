/*
 * Opening targets safely. The rule (docs/ARCHITECTURE.md, "Work
 * directories and scratch targets"): iotrial deletes only what it
 * created and never writes to a device that holds data unless told.
 * For a directory that means a private subdirectory, held open,
 * that is the only thing target_release() removes (workdir.c); for a
 * block device it means refusing a mounted device or one where libblkid
 * finds a filesystem, RAID member or partition table.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <blkid.h>
#include "target.h"
#include "mountinfo.h"
#include "scratch.h"
#include "workdir.h"
#include "../../util/error.h"
#include "../../util/units.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* Is the device node (by rdev) the source of any mount? */
static int blockdev_is_mounted(dev_t rdev, struct strbuf *where)
{
	const struct mountinfo_entry *e;
	struct mountinfo mi;

	if (mountinfo_read(&mi, NULL))
		return 0;
	e = mountinfo_find_dev(&mi, major(rdev), minor(rdev), MOUNTINFO_FIRST);
	if (e)
		strbuf_addstr(where, e->mnt);
	mountinfo_release(&mi);
	return !!e;
}

/* Does someone hold the device exclusively (mounts and holders do)? */
static int blockdev_claimed(const char *path)
{
	int fd = open(path, O_RDONLY | O_EXCL | O_CLOEXEC);

	if (fd >= 0) {
		close(fd);
		return 0;
	}
	return errno == EBUSY;
}

/*
 * Name every signature libblkid's low-level probing finds, one per step,
 * into list ("'xfs', 'swap'"). Used when safe probing is ambivalent.
 */
static void list_signatures(blkid_probe pr, struct strbuf *list)
{
	const char *type;
	int n = 0;

	blkid_reset_probe(pr);
	while (n < 8 && blkid_do_probe(pr) == 0) {
		if (blkid_probe_lookup_value(pr, "TYPE", &type, NULL) &&
		    blkid_probe_lookup_value(pr, "PTTYPE", &type, NULL))
			continue;
		strbuf_addf(list, "%s'%s'", n++ ? ", " : "", type);
	}
}

/*
 * May the device be written without --allow-destroy? Only when libblkid
 * says cleanly that it found no filesystem, RAID or partition-table
 * signature. Anything else (a signature, conflicting signatures, a probe
 * that failed or could not start) refuses, with why saying what was
 * found: "holds a 'xfs' filesystem". 0 when blank, 1 when something was
 * found, 2 when the device could not be checked.
 */
static int blockdev_signature(const char *path, struct strbuf *why)
{
	struct strbuf types = STRBUF_INIT;
	blkid_probe pr;
	const char *type = NULL;
	int rc;

	errno = 0;
	pr = blkid_new_probe_from_filename(path);
	if (!pr) {
		strbuf_addf(why, "libblkid cannot open it: %s",
			    strerror(errno ? errno : EIO));
		return 2;
	}
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE);
	blkid_probe_enable_partitions(pr, 1);
	blkid_probe_set_partitions_flags(pr, BLKID_PARTS_MAGIC);
	rc = blkid_do_safeprobe(pr);
	if (rc == 1) {
		blkid_free_probe(pr);
		return 0; /* nothing found: blank */
	}
	if (rc == 0) {
		if (!blkid_probe_lookup_value(pr, "TYPE", &type, NULL))
			strbuf_addf(why, "holds a '%s' filesystem", type);
		else if (!blkid_probe_lookup_value(pr, "PTTYPE", &type, NULL))
			strbuf_addf(why, "holds a '%s' partition table", type);
		else
			strbuf_addstr(why, "holds a known signature");
	} else if (rc == -2) {
		list_signatures(pr, &types);
		strbuf_addf(why, "holds conflicting signatures%s%s%s",
			    types.len ? " (" : "", types.buf,
			    types.len ? ")" : "");
	} else {
		strbuf_addstr(why, "libblkid failed to probe it");
	}
	strbuf_release(&types);
	blkid_free_probe(pr);
	return rc == 0 || rc == -2 ? 1 : 2;
}

static int open_blockdev(struct target *t, const struct stat *st,
			 struct strbuf *err)
{
	struct strbuf why = STRBUF_INIT;
	int ret = 0;

	t->kind = TARGET_BLOCKDEV;
	t->dev = st->st_rdev;
	/* a mounted disk first: opening it may fail (EPERM where the
	 * kernel guards mounted devices), and the mount is the reason */
	if (!(t->flags & TARGET_NO_WORKDIR) &&
	    blockdev_is_mounted(st->st_rdev, &why)) {
		/* even --allow-destroy does not write under a live fs */
		ret = err_set(err, -EBUSY,
			      "'%s' is mounted on '%s'; unmount it, or give "
			      "a directory on it as the target",
			      t->path, why.buf);
		goto out;
	}
	ret = target_blockdev_geometry(t->path, &t->logical_block_bytes,
				       &t->capacity_bytes, err);
	if ((ret == -EPERM || ret == -EACCES) &&
	    (t->flags & TARGET_NO_WORKDIR) &&
	    !target_blockdev_geometry_sysfs(
		st->st_rdev, &t->logical_block_bytes, &t->capacity_bytes)) {
		/* only looked at (info): sysfs knows as much */
		strbuf_reset(err);
		ret = 0;
	}
	if (ret || (t->flags & TARGET_NO_WORKDIR))
		goto out;
	if (blockdev_claimed(t->path)) {
		/* a mounted partition, a device-mapper or RAID holder: the
		 * kernel refuses an exclusive open, and so do we */
		ret = err_set(err, -EBUSY,
			      "'%s' is in use (a mounted partition, or a "
			      "device-mapper or RAID device on it); free it "
			      "first, or give a directory as the target",
			      t->path);
		goto out;
	}
	if (t->flags & TARGET_ALLOW_DESTROY)
		goto out;
	switch (blockdev_signature(t->path, &why)) {
	case 0:
		break;
	case 1:
		if (t->flags & TARGET_READS_ONLY) {
			/* reads destroy nothing; what writes is refused
			 * before it starts (target_refuse_writes()) */
			t->holds = xstrdup(why.buf);
			break;
		}
		ret = err_set(err, -EEXIST,
			      "'%s' %s; writing would destroy it. "
			      "Pass --allow-destroy if that is what you want",
			      t->path, why.buf);
		break;
	default:
		if (t->flags & TARGET_READS_ONLY) {
			struct strbuf h = STRBUF_INIT;

			strbuf_addf(&h, "may hold data (%s)", why.buf);
			t->holds = strbuf_detach(&h, NULL);
			break;
		}
		ret = err_set(err, -EIO,
			      "cannot tell whether '%s' holds data (%s), so "
			      "it is not written. Pass --allow-destroy if it "
			      "holds nothing you need",
			      t->path, why.buf);
		break;
	}
out:
	strbuf_release(&why);
	return ret;
}

static int open_dir(struct target *t, const struct stat *st, struct strbuf *err)
{
	struct statvfs vfs;

	t->kind = TARGET_DIR;
	t->dev = st->st_dev;
	/* O_DIRECT wants the device's logical block; 4096 is safe for
	 * every filesystem we know when we cannot ask the device */
	t->logical_block_bytes = 4096;
	if (!statvfs(t->path, &vfs) && vfs.f_bsize >= 512 &&
	    vfs.f_bsize < t->logical_block_bytes)
		t->logical_block_bytes = (unsigned)vfs.f_bsize;
	if (t->flags & TARGET_NO_WORKDIR)
		return 0;
	return target_make_workdir(t, t->path, err);
}

int target_open(struct target *t, const char *spec, unsigned flags,
		volatile int *stop, struct strbuf *err)
{
	struct stat st;
	int ret;

	memset(t, 0, sizeof(*t));
	t->spec = xstrdup(spec);
	t->flags = flags;
	if (!*spec) {
		ret = err_set(err, -EINVAL,
			      "empty target; give a directory, a block "
			      "device or scratch:SIZE");
		goto fail;
	}
	if (!strncmp(spec, "scratch:", 8)) {
		/* a loop device (and file system) of our own: scratch.c */
		ret = scratch_open(t, spec + 8, stop, err);
		if (ret)
			goto fail;
		return 0;
	}
	t->path = realpath(spec, NULL);
	if (!t->path && !strcmp(spec, "scratch")) {
		ret = err_set(err, -ENOENT,
			      "a scratch target needs a size: "
			      "scratch:SIZE[:ext4|xfs], e.g. scratch:2G:ext4 "
			      "(there is no directory 'scratch' here)");
		goto fail;
	}
	if (!t->path) {
		ret = err_set(err, -errno,
			      "target '%s' does not exist; give an existing "
			      "directory, a block device or "
			      "scratch:SIZE[:ext4|xfs]",
			      spec);
		goto fail;
	}
	if (stat(t->path, &st) < 0) {
		ret = err_set(err, -errno, "cannot stat '%s': %s", spec,
			      strerror(errno));
		goto fail;
	}
	if (S_ISDIR(st.st_mode))
		ret = open_dir(t, &st, err);
	else if (S_ISBLK(st.st_mode))
		ret = open_blockdev(t, &st, err);
	else
		ret = err_set(err, -EINVAL,
			      "target '%s' is neither a directory nor a block "
			      "device",
			      spec);
	if (!ret)
		return 0;
fail:
	target_release(t);
	return ret;
}

int target_open_twin(struct target *t, const struct target *first,
		     volatile int *stop, struct strbuf *err)
{
	int ret;

	memset(t, 0, sizeof(*t));
	if (!first->scratch || strncmp(first->spec, "scratch:", 8))
		return err_set(err, -EINVAL,
			       "only a scratch target can have a twin; '%s' "
			       "is not one",
			       first->spec);
	t->spec = xstrdup(first->spec);
	t->flags = first->flags;
	ret = scratch_open_in(t, first->spec + 8, scratch_session(first), stop,
			      err);
	if (ret)
		target_release(t);
	return ret;
}

int target_check_space(const struct target *t, uint64_t bytes,
		       const char *advice, struct strbuf *err)
{
	struct strbuf need = STRBUF_INIT, have = STRBUF_INIT;
	uint64_t avail;
	struct statvfs vfs;
	int ret = 0;

	if (t->kind == TARGET_BLOCKDEV) {
		avail = t->capacity_bytes;
	} else {
		if ((t->workdir ? fstatvfs(t->work_fd, &vfs)
				: statvfs(t->path, &vfs)) < 0)
			return err_set(err, -errno, "cannot stat '%s': %s",
				       t->path, strerror(errno));
		avail = (uint64_t)vfs.f_bavail * vfs.f_frsize;
	}
	if (bytes > avail) {
		units_fmt_bytes(&need, bytes);
		units_fmt_bytes(&have, avail);
		ret = err_set(err, -ENOSPC,
			      "the workload needs %s but '%s' has %s %s; "
			      "%s",
			      need.buf, t->path, have.buf,
			      t->kind == TARGET_BLOCKDEV ? "in all" : "free",
			      advice ? advice : "pick another target");
	}
	strbuf_release(&need);
	strbuf_release(&have);
	return ret;
}

void target_file_path(const struct target *t, const char *name,
		      struct strbuf *out)
{
	strbuf_reset(out);
	strbuf_addf(out, "%s/%s", t->workdir ? t->workdir : t->path, name);
}

void target_release(struct target *t)
{
	if (!t)
		return;
	workdir_release(t); /* first: it may be inside a scratch mount */
	if (t->scratch)
		scratch_release(t); /* unmount, detach, delete: journaled */
	free(t->path);
	free(t->spec);
	free(t->holds);
	memset(t, 0, sizeof(*t));
}

int target_refuse_writes(const struct target *t, const char *what,
			 struct strbuf *err)
{
	if (!t->holds)
		return 0;
	return err_set(err, -EEXIST,
		       "'%s' %s; %s writes, which would destroy it. Pass "
		       "--allow-destroy if that is what you want",
		       t->path, t->holds, what);
}
