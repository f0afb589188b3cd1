/*
 * Where a target's bytes really go: path -> mount -> source device -> the
 * block device stack under it. A partition leads to its disk (whose
 * queue/ holds the scheduler and read-ahead knobs); a loop device to its
 * backing file and the device holding that file; a dm or md device to
 * its slaves. Every device in the stack is listed once, top first, with
 * the values an admin asks about first (model, size, rotational, logical
 * block size, scheduler, read_ahead_kb, nr_requests), so results can say
 * what was measured and the sampler knows which stat files to read.
 *
 * A filesystem with no block device (tmpfs, overlay, NFS) is not an
 * error: the stack is empty and no_device_reason says why.
 */
#ifndef IOTRIAL_DEVSTACK_H
#define IOTRIAL_DEVSTACK_H

#include <stdint.h>
#include <sys/types.h>
#include "target.h"
#include "../../util/strbuf.h"

/* What kind of block device an entry is. */
enum devstack_kind {
	DEVSTACK_DISK,	    /* a whole disk: owns a request queue */
	DEVSTACK_PARTITION, /* part of a disk; its queue is the disk's */
	DEVSTACK_LOOP,	    /* maps a file */
	DEVSTACK_DM,	    /* device-mapper: LVM, dm-crypt, ... */
	DEVSTACK_MD,	    /* software RAID */
};

/* How an entry relates to the one above it (its parent). */
enum devstack_via {
	DEVSTACK_VIA_TOP,     /* holds the filesystem, or is the target */
	DEVSTACK_VIA_DISK,    /* the disk the parent partition lives on */
	DEVSTACK_VIA_BACKING, /* holds the parent loop device's backing file */
	DEVSTACK_VIA_SLAVE,   /* a component of the parent dm/md device */
};

/* One block device of the stack. Strings are owned; NULL = not known. */
struct devstack_dev {
	char *name;	    /* kernel name: "vda", "vda1", "loop0" */
	char *sysfs_dir;    /* its directory under /sys/devices */
	char *queue_dev;    /* the device whose queue/ holds its knobs */
	char *model;	    /* device/model, trimmed */
	char *driver;	    /* "virtio_blk", "nvme", "loop", ... */
	char *label;	    /* dm name or md level */
	char *backing_file; /* loop: the file it maps */
	char *note;	    /* why the stack stops below this device */
	char *scheduler;    /* the active I/O scheduler */
	enum devstack_kind kind;
	enum devstack_via via;
	int parent;	/* index of the entry above; -1 for the top */
	unsigned depth; /* 0 for the top */
	dev_t devno;
	uint64_t size_bytes;
	int rotational;		      /* 1 spinning, 0 not, -1 unknown */
	unsigned logical_block_bytes; /* 0 when unknown */
	long read_ahead_kb;	      /* -1 when unknown */
	long nr_requests;	      /* -1 when unknown */
};

/* The mount a path lives on. Strings are owned. */
struct devstack_mount {
	char *target;	   /* mount point */
	char *source;	   /* "/dev/vda", "tmpfs", "host:/export" */
	char *fstype;	   /* "ext4" */
	char *vfs_options; /* per-mount options: "rw,relatime" */
	char *fs_options;  /* superblock options: "rw,discard" */
	dev_t devno;	   /* from mountinfo; major 0 for virtual fs */
	int unlisted;	   /* not in the mount table (a chroot whose root is
			    * not a mount): described from the path by st_dev,
			    * target the highest directory on its device */
};

/* A resolved target. */
struct devstack {
	char *path;	/* what was resolved (canonical) */
	int have_mount; /* mnt is filled */
	struct devstack_mount mnt;
	struct devstack_dev *devs; /* top first; parents before children */
	unsigned nr_devs, alloc_devs;
	char *no_device_reason; /* nr_devs == 0: one sentence saying why */
	char *sysfs_root;	/* "/sys", or a test tree */
};

/*
 * Resolve a directory or file path: its mount (from /proc/self/mountinfo,
 * mountinfo.h) and the device stack under it; a block device node
 * resolves as the device itself (with its mount, if mounted). When no
 * listed mount holds the path (in a chroot, whose root is not a mount it
 * can see), have_mount is 0 and the stack starts at the path's own device
 * number, if a block device has it. Returns 0,
 * also when there is no block device (ds->no_device_reason then says
 * why), or -errno with err set when path cannot be examined. ds is
 * initialised by the call; release it either way.
 */
int devstack_resolve_path(struct devstack *ds, const char *path,
			  struct strbuf *err);

/* Resolve a target opened by target_open(): its work directory, its
 * directory or its device node. Same contract as resolve_path. */
int devstack_resolve_target(struct devstack *ds, const struct target *t,
			    struct strbuf *err);

/*
 * Resolve the stack under device devno, reading sysfs below sysfs_root
 * ("/sys"; tests pass a fake tree). No mount is looked up for the device
 * itself; loop backing files are still resolved through the real mount
 * table. Returns 0 or -errno with err set (-ENODEV: no such device).
 */
int devstack_resolve_devno(struct devstack *ds, const char *sysfs_root,
			   dev_t devno, struct strbuf *err);

/* Re-read each device's changeable values (scheduler, read_ahead_kb,
 * nr_requests), e.g. after a knob was set. */
void devstack_refresh(struct devstack *ds);

/* Free the contents; ds is left zeroed. NULL is fine. */
void devstack_release(struct devstack *ds);

/* Index of the entry named name, or -1. */
int devstack_find(const struct devstack *ds, const char *name);

/*
 * The physical devices at the bottom of the stack, where bytes really
 * move: every whole disk in it. A partition leads to its disk, a loop
 * device to the disk under its backing file, dm and md to the disks of
 * their slaves; a stack that stops above any disk (a loop device backed
 * by a file on tmpfs) has none. Fills idx with up to max indices into
 * ds->devs, in stack order, and returns how many there are (which may be
 * more than max). A disk that is itself the top is its own bottom.
 */
unsigned devstack_bottom(const struct devstack *ds, int *idx, unsigned max);

/* "disk", "partition", "loop", "dm", "md". */
const char *devstack_kind_name(enum devstack_kind kind);
/* NULL for the top, else "disk", "backing", "slave". */
const char *devstack_via_name(enum devstack_via via);

/*
 * The active scheduler from the text of queue/scheduler
 * ("none [mq-deadline] kyber" -> "mq-deadline"; a single word without
 * brackets is the active one). Replaces out, which must not hold text.
 * Returns 0, or -EINVAL when
 * there is no active entry.
 */
int devstack_parse_scheduler(const char *text, struct strbuf *out);

#endif
