/*
 * The mount table, from /proc/self/mountinfo: the one reader the whole
 * program uses to learn which mount a path lives on, whether a device is
 * mounted, and with which options.
 *
 * Each line is (proc(5)), here with one optional field:
 *   36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw
 * that is: mount id, parent id, major:minor, root, mount point, mount
 * options, zero or more optional fields ended by a lone "-", filesystem
 * type, source, superblock options. Spaces, tabs, newlines and
 * backslashes in names are written as octal escapes ("\040").
 */
#ifndef IOTRIAL_MOUNTINFO_H
#define IOTRIAL_MOUNTINFO_H

#include <stddef.h>
#include "../../util/strbuf.h"

/* One mount. Strings are owned, octal escapes decoded. */
struct mountinfo_entry {
	unsigned id;	    /* mount id, unique in the table */
	unsigned parent_id; /* the mount this one is mounted on */
	unsigned major, minor;
	char *root;	  /* what of its filesystem is mounted: "/", "/sub" */
	char *mnt;	  /* mount point: "/srv/my disk" */
	char *mnt_opts;	  /* per-mount options: "rw,noatime" */
	char *optional;	  /* optional fields, space separated; "" if none */
	char *fstype;	  /* "ext4" */
	char *source;	  /* "/dev/vda1", "tmpfs", "" */
	char *super_opts; /* superblock options: "rw,discard" */
};

/* A whole table, in the order the kernel listed it. */
struct mountinfo {
	struct mountinfo_entry *entries;
	size_t nr, alloc;
	size_t nr_bad; /* lines that were not mountinfo lines, skipped */
};

/*
 * Parse one line (len bytes, no newline needed, need not be
 * NUL-terminated) into out. Returns 0 with out filled (release it), or
 * -EINVAL with out zeroed when the line is not a mountinfo line.
 */
int mountinfo_parse_line(const char *line, size_t len,
			 struct mountinfo_entry *out);

/*
 * Parse len bytes of mountinfo text (need not be NUL-terminated) into
 * mi, which is initialised by the call. Lines that do not parse are
 * skipped and counted in nr_bad. Always returns 0; release mi.
 */
int mountinfo_parse(struct mountinfo *mi, const char *buf, size_t len);

/*
 * Read and parse the file at path ("/proc/self/mountinfo"; tests give
 * their own). Returns 0, or -errno with err set; mi is initialised
 * either way, release it.
 */
int mountinfo_read_file(struct mountinfo *mi, const char *path,
			struct strbuf *err);

/* mountinfo_read_file() of /proc/self/mountinfo. */
int mountinfo_read(struct mountinfo *mi, struct strbuf *err);

/* Free e's strings; e is left zeroed. NULL is fine. */
void mountinfo_entry_release(struct mountinfo_entry *e);

/* Deep-copy src into dst (release dst later). */
void mountinfo_entry_copy(struct mountinfo_entry *dst,
			  const struct mountinfo_entry *src);

/* Free every entry; mi is left zeroed. NULL is fine. */
void mountinfo_release(struct mountinfo *mi);

/*
 * The mount that path (absolute and canonical: no "..", no symlinks, no
 * doubled '/') lives on, or NULL. In a plain table that is the mount
 * whose mount point is the longest prefix of path ending on a '/'
 * boundary, the last of stacked mounts winning. The table is walked as
 * the kernel walks a path, following parent ids from the top, so a mount
 * hidden under a later mount of one of its parent directories is passed
 * over. The pointer lives as long as mi.
 */
const struct mountinfo_entry *mountinfo_find_path(const struct mountinfo *mi,
						  const char *path);

/* The mount visible exactly at mount point mnt (the top of a stack), or
 * NULL when nothing is mounted there. */
const struct mountinfo_entry *
mountinfo_find_mountpoint(const struct mountinfo *mi, const char *mnt);

/* Which mount of a device to return when it is mounted more than once. */
enum mountinfo_pick {
	MOUNTINFO_FIRST, /* the first listed: usually its main mount */
	MOUNTINFO_LAST,	 /* the last listed: usually the newest */
};

/* A mount of device major:minor, or NULL when it has none. */
const struct mountinfo_entry *mountinfo_find_dev(const struct mountinfo *mi,
						 unsigned major, unsigned minor,
						 enum mountinfo_pick pick);

/*
 * When no listed mount holds path (canonical, absolute), as in a chroot
 * whose root is a directory of the host's disk and not a mount (the
 * mount table then lists only what was mounted inside it): describe
 * its file system from the path itself, by st_dev. out gets major:minor
 * of st_dev, fstype from statfs(2) (ext4 told from ext2/3 by
 * sysfs_root/fs/ext4/DEV), source "/dev/NAME" of the block device with
 * that number in sysfs_root ("/sys"; "" when none), mnt the highest
 * directory above path on the same device (where the file system is
 * reached here: not a mount point), mnt_opts from statvfs(2) flags
 * ("rw,nosuid,relatime"), id 0 and super_opts "". Returns 0 or -errno
 * (stat or statfs failed).
 */
int mountinfo_entry_of_path(const char *path, const char *sysfs_root,
			    struct mountinfo_entry *out);

/* Is opt one of the comma-separated options in opts ("rw,noatime")? */
int mountinfo_has_opt(const char *opts, const char *opt);

#endif
