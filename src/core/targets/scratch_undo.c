/*
 * Undoing scratch resources found in the journal by recovery. What the
 * journal says is taken as a claim, not as an order: the journal lives
 * in a directory of its own, but what it names is removed as root, so
 * every path is checked to be exactly one that scratch_open() makes
 * (TMPDIR/iotrial-scratch.PID-XXXXXX, its disk.img and mnt, /dev/loopN
 * backed by that disk.img), reached from "/" without following a link,
 * and owned by this user. Anything else is left alone: a warning says
 * so, and the session retires the record (-EPERM).
 *
 * Each kind of scratch resource is a row of struct undo_ops, which the
 * journal finds in journal_undo_kinds[].
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include "scratch.h"
#include "scratch-int.h"
#include "workdir.h"
#include "made.h"
#include "mountinfo.h"
#include "../journal/session.h"
#include "../../util/atfile.h"
#include "../../util/error.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* "/dev/loop3" -> "loop3". */
static const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');

	return s ? s + 1 : p;
}

/* Is dev a loop device node, "/dev/loopN"? */
static int loop_shape(const char *dev)
{
	const char *p = dev + 9;

	if (strncmp(dev, "/dev/loop", 9) || !*p || strlen(p) > 9)
		return 0;
	for (; *p; p++)
		if (*p < '0' || *p > '9')
			return 0;
	return 1;
}

/*
 * Split a scratch path read from the journal into its scratch directory
 * (into dir) and what it names inside it (*rest: "" for the directory
 * itself, "disk.img" or "mnt"): the only shapes make_dir(), make_image()
 * and make_fs() create. Anything else, a "..", an extra component, a
 * relative path, is -EPERM with why set.
 */
static int split_scratch_path(const char *path, struct strbuf *dir,
			      const char **rest, struct strbuf *why)
{
	const char *slash;

	strbuf_reset(dir);
	if (!atfile_path_plain(path))
		return err_set(why, -EPERM, "it is not a plain absolute path");
	strbuf_addstr(dir, path);
	*rest = "";
	slash = strrchr(path, '/');
	if (!strcmp(slash + 1, "disk.img") || !strcmp(slash + 1, "mnt")) {
		*rest = slash + 1;
		strbuf_setlen(dir, (size_t)(slash - path));
	}
	if (!dir->len || !made_name_ok(&made_scratch_dir, base_name(dir->buf)))
		return err_set(why, -EPERM,
			       "it is not a path iotrial makes for a scratch "
			       "target");
	return 0;
}

/* For a failed unlinkat: gone (-ESTALE) or the error. */
static int remove_failed(int e, struct strbuf *why)
{
	if (e == -ENOENT)
		return err_set(why, -ESTALE, "it is already gone");
	return err_set(why, e, "%s", strerror(-e));
}

/* Remove the scratch directory dir itself (made_dir_open() checks it). */
static int undo_scratch_dir(const char *dir, struct strbuf *why)
{
	struct made_dir d;
	int ret = made_dir_open(&d, dir, &made_scratch_dir, "it", why);

	if (!ret && unlinkat(d.parent_fd, d.name, AT_REMOVEDIR) < 0)
		ret = remove_failed(-errno, why);
	made_dir_close(&d);
	return ret;
}

/* Remove rest ("disk.img" or "mnt") inside scratch directory dir. */
static int undo_in_dir(const char *dir, const char *rest, struct strbuf *why)
{
	int is_file = !strcmp(rest, "disk.img");
	struct made_dir d;
	struct stat st;
	int ret;

	ret = made_dir_open(&d, dir, &made_scratch_dir, "its scratch directory",
			    why);
	if (ret)
		return ret;
	if (fstatat(d.fd, rest, &st, AT_SYMLINK_NOFOLLOW) < 0)
		ret = made_open_refused(-errno, dir, why);
	else if (is_file ? !S_ISREG(st.st_mode) : !S_ISDIR(st.st_mode))
		ret = err_set(why, -EPERM, "it is not a %s",
			      is_file ? "regular file" : "directory");
	else if (unlinkat(d.fd, rest, is_file ? 0 : AT_REMOVEDIR) < 0)
		ret = remove_failed(-errno, why);
	made_dir_close(&d);
	return ret;
}

/* Detach loop device a if it still backs image b. */
static int undo_loop(const char *a, const char *b, struct strbuf *why)
{
	struct strbuf v = STRBUF_INIT, dir = STRBUF_INIT, p = STRBUF_INIT;
	const char *rest;
	int ret;

	if (!loop_shape(a))
		return err_set(why, -EPERM, "it is not a loop device node");
	ret = split_scratch_path(b, &dir, &rest, why);
	strbuf_release(&dir);
	if (!ret && strcmp(rest, "disk.img"))
		ret = err_set(why, -EPERM,
			      "its backing file is not a scratch image");
	if (ret)
		return ret;
	strbuf_addf(&p, "/sys/block/%s/loop/backing_file", base_name(a));
	if (strbuf_read_file(&v, p.buf, 4096))
		ret = err_set(why, -ESTALE, "it is not attached");
	strbuf_trim(&v);
	if (!ret && v.len > 10 && !strcmp(v.buf + v.len - 10, " (deleted)"))
		strbuf_setlen(&v, v.len - 10);
	if (!ret && strcmp(v.buf, b))
		ret = err_set(why, -ESTALE, "it now backs '%s'", v.buf);
	if (!ret && (ret = scratch_detach_loop(a)))
		err_set(why, ret, "cannot detach: %s", strerror(-ret));
	strbuf_release(&p);
	strbuf_release(&v);
	return ret;
}

/* Unmount a if loop device b is still what is mounted there. */
static int undo_mount(const char *a, const char *b, struct strbuf *why)
{
	struct strbuf dir = STRBUF_INIT;
	const struct mountinfo_entry *m;
	struct mountinfo mi;
	const char *rest;
	struct stat st;
	int ret, fd;

	ret = split_scratch_path(a, &dir, &rest, why);
	strbuf_release(&dir);
	if (!ret && strcmp(rest, "mnt"))
		ret = err_set(why, -EPERM, "it is not a scratch mount point");
	if (!ret && !loop_shape(b))
		ret = err_set(why, -EPERM, "'%s' is not a loop device node", b);
	if (ret)
		return ret;
	/* no symbolic link on the way: umount must reach only our dir */
	fd = atfile_open_nofollow(a);
	if (fd < 0 && fd != -ENOENT)
		return made_open_refused(fd, a, why);
	if (fd >= 0)
		close(fd);
	/* a table that cannot be read counts as nothing mounted */
	m = mountinfo_read(&mi, NULL) ? NULL
				      : mountinfo_find_mountpoint(&mi, a);
	if (!m)
		ret = err_set(why, -ESTALE, "nothing is mounted there");
	else if (strcmp(m->source, b) &&
		 !(stat(b, &st) == 0 && major(st.st_rdev) == m->major &&
		   minor(st.st_rdev) == m->minor))
		ret = err_set(why, -ESTALE, "it is now a mount of '%s'",
			      m->source);
	mountinfo_release(&mi);
	if (!ret && (ret = scratch_umount(a)))
		err_set(why, ret, "cannot unmount: %s", strerror(-ret));
	return ret;
}

int scratch_undo(const char *what, const char *a, const char *b,
		 struct strbuf *why)
{
	struct strbuf dir = STRBUF_INIT;
	const char *rest;
	int ret;

	if (!strcmp(what, "loop"))
		return undo_loop(a, b, why);
	if (!strcmp(what, "mount"))
		return undo_mount(a, b, why);
	if (strcmp(what, "dir") && strcmp(what, "file"))
		return err_set(why, -EPERM,
			       "'%s' is not a part of a scratch target", what);
	ret = split_scratch_path(a, &dir, &rest, why);
	if (!ret && !strcmp(what, "file") && strcmp(rest, "disk.img"))
		ret = err_set(why, -EPERM, "it is not a scratch image");
	else if (!ret && strcmp(what, "file") && !strcmp(rest, "disk.img"))
		ret = err_set(why, -EPERM, "it is not a scratch directory");
	if (!ret)
		ret = *rest ? undo_in_dir(dir.buf, rest, why)
			    : undo_scratch_dir(dir.buf, why);
	strbuf_release(&dir);
	return ret;
}

/* As undo_ops.describe: "scratch WHAT 'A'", and B in the listing (the
 * words workdir.c uses for a work directory too). */
static void describe_rec(const struct journal *j, const struct jrec *r,
			 enum undo_view view, struct strbuf *out)
{
	(void)j;
	strbuf_addf(out, "scratch %s '%s'", r->f[JF_WHAT], r->f[JF_A]);
	if (view == UNDO_LIST && *r->f[JF_B])
		strbuf_addf(out, " ('%s')", r->f[JF_B]);
}

/* As undo_ops.undo for the parts of a scratch target. */
static int undo_rec(const struct jrec *r, const struct undo_ctx *ctx,
		    struct strbuf *why)
{
	const char *what = r->f[JF_WHAT];
	int ret = scratch_undo(what, r->f[JF_A], r->f[JF_B], why);

	return target_undo_said(
	    r, ret,
	    !strcmp(what, "mount")  ? "unmounted scratch file system"
	    : !strcmp(what, "loop") ? "detached scratch loop device"
	    : !strcmp(what, "file") ? "deleted scratch image"
				    : "removed scratch directory",
	    ctx, why);
}

const struct undo_ops scratch_dir_undo_ops = {
    .kind = "dir",
    .survives_reboot = 1, /* a directory on disk */
    .undo = undo_rec,
    .describe = describe_rec,
};

const struct undo_ops scratch_file_undo_ops = {
    .kind = "file",
    .survives_reboot = 1, /* the image on disk */
    .undo = undo_rec,
    .describe = describe_rec,
};

const struct undo_ops scratch_loop_undo_ops = {
    .kind = "loop",
    .survives_reboot = 0, /* loop devices start detached */
    .undo = undo_rec,
    .describe = describe_rec,
};

const struct undo_ops scratch_mount_undo_ops = {
    .kind = "mount",
    .survives_reboot = 0, /* nothing is mounted after a reboot */
    .undo = undo_rec,
    .describe = describe_rec,
};
