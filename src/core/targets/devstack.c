/*
 * Resolving a target down to the block devices that carry its bytes.
 *
 * The mount comes from the program's one mount table reader
 * (mountinfo.h). A mount's device number leads to /sys/dev/block/MAJ:MIN,
 * a symlink into /sys/devices where the device's directory says what it
 * is: a "partition" file (its disk is the parent directory), a
 * "loop/backing_file", "slaves/" for dm and md. We follow those links
 * depth first, listing each device once, so a diamond (two LVM volumes on
 * one disk) or a cycle cannot repeat or loop. Inside a chroot no mount
 * holds its root, so there a file's own st_dev leads to its device.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include "devstack.h"
#include "mountinfo.h"
#include "../../util/error.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

#define MAX_DEPTH 8 /* dm on md on loop on dm ... deeper is a loop */

/* State shared by one resolution. */
struct resolve_ctx {
	struct devstack *ds;
	struct mountinfo mi; /* loaded on first need */
	int mi_state;	     /* 0 not yet, 1 loaded, -1 unreadable */
};

/* Read a sysfs attribute dir/name into sb, trimmed. 0 or -errno. */
static int read_attr(const char *dir, const char *name, struct strbuf *sb)
{
	struct strbuf path = STRBUF_INIT;
	int ret;

	strbuf_addf(&path, "%s/%s", dir, name);
	ret = strbuf_read_file(sb, path.buf, 64 * 1024);
	strbuf_release(&path);
	if (!ret)
		strbuf_trim(sb);
	return ret;
}

/* The attribute as a duplicated string, or NULL. */
static char *attr_str(const char *dir, const char *name)
{
	struct strbuf sb = STRBUF_INIT;

	if (read_attr(dir, name, &sb) || !sb.len) {
		strbuf_release(&sb);
		return NULL;
	}
	return strbuf_detach(&sb, NULL);
}

/* The attribute as a non-negative number, or -1. */
static long long attr_num(const char *dir, const char *name)
{
	struct strbuf sb = STRBUF_INIT;
	long long v = -1;
	char *end;

	if (!read_attr(dir, name, &sb) && sb.len) {
		errno = 0;
		v = strtoll(sb.buf, &end, 10);
		if (errno || *end || v < 0)
			v = -1;
	}
	strbuf_release(&sb);
	return v;
}

/* Does dir/name exist? */
static int has_entry(const char *dir, const char *name)
{
	struct strbuf path = STRBUF_INIT;
	struct stat st;
	int ret;

	strbuf_addf(&path, "%s/%s", dir, name);
	ret = lstat(path.buf, &st) == 0;
	strbuf_release(&path);
	return ret;
}

/* Parse "MAJ:MIN" (a sysfs "dev" file). 0 or -EINVAL. */
static int parse_devno(const char *text, dev_t *out)
{
	unsigned maj, min;
	char extra;

	if (sscanf(text, "%u:%u%c", &maj, &min, &extra) != 2)
		return -EINVAL;
	*out = makedev(maj, min);
	return 0;
}

int devstack_parse_scheduler(const char *text, struct strbuf *out)
{
	const char *open = strchr(text, '['), *close;
	size_t n;

	strbuf_reset(out);
	if (open) {
		close = strchr(open + 1, ']');
		if (!close || close == open + 1)
			return -EINVAL;
		strbuf_add(out, open + 1, (size_t)(close - open - 1));
		return 0;
	}
	/* some drivers print just the one they have */
	while (*text == ' ' || *text == '\t' || *text == '\n')
		text++;
	n = strcspn(text, " \t\n");
	if (!n || text[n + strspn(text + n, " \t\n")] || memchr(text, ']', n))
		return -EINVAL;
	strbuf_add(out, text, n);
	return 0;
}

/* The last component of a path, in place. */
static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* The driver bound to the device behind sysfs dir, or NULL. */
static char *driver_of(const char *dir)
{
	static const char *const links[] = {"device/driver",
					    "device/device/driver"};
	struct strbuf path = STRBUF_INIT;
	char target[PATH_MAX];
	char *ret = NULL;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(links) && !ret; i++) {
		ssize_t n;

		strbuf_setf(&path, "%s/%s", dir, links[i]);
		n = readlink(path.buf, target, sizeof(target) - 1);
		if (n <= 0)
			continue;
		target[n] = '\0';
		ret = xstrdup(base_name(target));
	}
	strbuf_release(&path);
	return ret;
}

/* Re-read the values a knob can change, from the device's queue. */
static void read_queue_values(struct devstack_dev *d)
{
	struct strbuf qdir = STRBUF_INIT, sb = STRBUF_INIT;
	struct strbuf active = STRBUF_INIT;
	long long v;

	/* a partition's queue is its disk's: one directory up */
	if (d->kind == DEVSTACK_PARTITION) {
		const char *slash = strrchr(d->sysfs_dir, '/');

		strbuf_add(&qdir, d->sysfs_dir, (size_t)(slash - d->sysfs_dir));
	} else {
		strbuf_addstr(&qdir, d->sysfs_dir);
	}
	strbuf_addstr(&qdir, "/queue");
	free(d->scheduler);
	d->scheduler = NULL;
	if (!read_attr(qdir.buf, "scheduler", &sb) &&
	    !devstack_parse_scheduler(sb.buf, &active))
		d->scheduler = strbuf_detach(&active, NULL);
	v = attr_num(qdir.buf, "read_ahead_kb");
	d->read_ahead_kb = v >= 0 ? (long)v : -1;
	v = attr_num(qdir.buf, "nr_requests");
	d->nr_requests = v >= 0 ? (long)v : -1;
	v = attr_num(qdir.buf, "rotational");
	d->rotational = v >= 0 ? (v != 0) : -1;
	v = attr_num(qdir.buf, "logical_block_size");
	d->logical_block_bytes = v > 0 && v <= UINT_MAX ? (unsigned)v : 0;
	strbuf_release(&qdir);
	strbuf_release(&sb);
	strbuf_release(&active);
}

/* Is devno already listed? */
static int have_devno(const struct devstack *ds, dev_t devno)
{
	unsigned i;

	for (i = 0; i < ds->nr_devs; i++)
		if (ds->devs[i].devno == devno)
			return 1;
	return 0;
}

/* Load the mount table once. NULL when it cannot be read. */
static const struct mountinfo *mount_table(struct resolve_ctx *c)
{
	if (!c->mi_state)
		c->mi_state = mountinfo_read(&c->mi, NULL) ? -1 : 1;
	return c->mi_state > 0 ? &c->mi : NULL;
}

/* Copy e's fields into m. */
static void fill_mount(struct devstack_mount *m,
		       const struct mountinfo_entry *e)
{
	m->target = xstrdup(e->mnt);
	m->source = xstrdup(e->source);
	m->fstype = xstrdup(e->fstype);
	m->vfs_options = xstrdup(e->mnt_opts);
	m->fs_options = xstrdup(e->super_opts);
	m->devno = makedev(e->major, e->minor);
}

/* Is e a mount of device dev? */
static int is_dev(const struct mountinfo_entry *e, dev_t dev)
{
	return makedev(e->major, e->minor) == dev;
}

/* Free a mount's strings. */
static void release_mount(struct devstack_mount *m)
{
	free(m->target);
	free(m->source);
	free(m->fstype);
	free(m->vfs_options);
	free(m->fs_options);
	memset(m, 0, sizeof(*m));
}

/*
 * The mount holding path (canonical; its st_dev is dev): the mount the
 * path resolves to, cross-checked against dev. NULL if none.
 */
static const struct mountinfo_entry *find_mount(struct resolve_ctx *c,
						const char *path, dev_t dev)
{
	const struct mountinfo *mi = mount_table(c);
	const struct mountinfo_entry *e;

	if (!mi)
		return NULL;
	e = mountinfo_find_path(mi, path);
	if (e && is_dev(e, dev))
		return e;
	/* bind mounts, btrfs subvolumes: fall back to the device number */
	return mountinfo_find_dev(mi, major(dev), minor(dev), MOUNTINFO_LAST)
		   ?: e;
}

/*
 * The block device behind mount m: its own device number unless that is
 * anonymous (btrfs, or a virtual fs), else its source when that names a
 * block device node. -ENODEV with why set when there is none.
 */
static int mount_blockdev(const struct devstack_mount *m, dev_t *out,
			  struct strbuf *why)
{
	struct stat st;

	if (m->devno && major(m->devno)) {
		*out = m->devno;
		return 0;
	}
	if (m->source && m->source[0] == '/' && !stat(m->source, &st) &&
	    S_ISBLK(st.st_mode)) {
		*out = st.st_rdev;
		return 0;
	}
	strbuf_setf(why,
		    "'%s' is on a '%s' filesystem (source '%s', mounted on "
		    "'%s'), which has no block device; device columns are "
		    "not available",
		    m->target ? m->target : "?", m->fstype ? m->fstype : "?",
		    m->source ? m->source : "none",
		    m->target ? m->target : "?");
	return -ENODEV;
}

static int add_dev(struct resolve_ctx *c, dev_t devno, int parent,
		   enum devstack_via via, unsigned depth);

/*
 * The block device holding the file at path (whose stat is st): that of
 * its mount, which fills m and sets *have_mount. When no mount holds it,
 * as in a chroot, whose own root is not a mount it can see, the file's
 * device number is used if a block device has it. 0, or -ENODEV with why
 * set.
 */
static int file_blockdev(struct resolve_ctx *c, const char *path,
			 const struct stat *st, struct devstack_mount *m,
			 int *have_mount, dev_t *out, struct strbuf *why)
{
	const struct mountinfo_entry *fs = find_mount(c, path, st->st_dev);
	struct mountinfo_entry here;
	struct strbuf link = STRBUF_INIT;
	int found;

	if (fs) {
		fill_mount(m, fs);
		*have_mount = 1;
		return mount_blockdev(m, out, why);
	}
	/* a chroot's root is no mount it can see: ask the path itself */
	if (!mountinfo_entry_of_path(path, c->ds->sysfs_root, &here)) {
		fill_mount(m, &here);
		m->unlisted = 1;
		*have_mount = 1;
		mountinfo_entry_release(&here);
		return mount_blockdev(m, out, why);
	}
	strbuf_addf(&link, "%s/dev/block/%u:%u", c->ds->sysfs_root,
		    major(st->st_dev), minor(st->st_dev));
	found = major(st->st_dev) && !access(link.buf, F_OK);
	strbuf_release(&link);
	if (found) {
		*out = st->st_dev;
		return 0;
	}
	strbuf_setf(why,
		    "no mount holding '%s' is listed in /proc/self/mountinfo "
		    "and its device number %u:%u is no block device's; device "
		    "columns are not available",
		    path, major(st->st_dev), minor(st->st_dev));
	return -ENODEV;
}

/* A loop device's backing file and, below it, that file's device. */
static void add_loop_backing(struct resolve_ctx *c, int idx, unsigned depth)
{
	struct devstack *ds = c->ds;
	struct strbuf why = STRBUF_INIT, path = STRBUF_INIT;
	struct devstack_mount m = {0};
	struct stat st;
	dev_t devno;
	int have_mount = 0;
	char *file = attr_str(ds->devs[idx].sysfs_dir, "loop/backing_file");
	static const char deleted[] = " (deleted)";

	if (!file) {
		ds->devs[idx].note = xstrdup("the loop device is not bound "
					     "to a file");
		return;
	}
	ds->devs[idx].backing_file = file;
	strbuf_addstr(&path, file);
	if (path.len > sizeof(deleted) - 1 &&
	    !strcmp(path.buf + path.len - (sizeof(deleted) - 1), deleted))
		strbuf_setlen(&path, path.len - (sizeof(deleted) - 1));
	if (stat(path.buf, &st)) {
		strbuf_setf(&why, "cannot examine backing file '%s': %s",
			    path.buf, strerror(errno));
		goto out;
	}
	if (S_ISBLK(st.st_mode)) {
		add_dev(c, st.st_rdev, idx, DEVSTACK_VIA_BACKING, depth + 1);
		goto out;
	}
	if (file_blockdev(c, path.buf, &st, &m, &have_mount, &devno, &why))
		goto out;
	if (add_dev(c, devno, idx, DEVSTACK_VIA_BACKING, depth + 1) == -ENODEV)
		strbuf_setf(&why,
			    "the device %u:%u holding backing file '%s' has "
			    "no entry under '%s/dev/block'",
			    major(devno), minor(devno), path.buf,
			    ds->sysfs_root);
out:
	if (why.len)
		ds->devs[idx].note = strbuf_detach(&why, NULL);
	release_mount(&m);
	strbuf_release(&why);
	strbuf_release(&path);
}

/* Compare two directory entry names, for a stable slave order. */
static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The components of a dm or md device, in name order. */
static void add_slaves(struct resolve_ctx *c, int idx, unsigned depth)
{
	struct strbuf dir = STRBUF_INIT, sb = STRBUF_INIT;
	char **names = NULL;
	size_t nr = 0, alloc = 0, i;
	struct dirent *de;
	DIR *d;

	strbuf_addf(&dir, "%s/slaves", c->ds->devs[idx].sysfs_dir);
	d = opendir(dir.buf);
	if (!d)
		goto out;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		ALLOC_GROW(names, nr + 1, alloc);
		names[nr++] = xstrdup(de->d_name);
	}
	closedir(d);
	qsort(names, nr, sizeof(*names), cmp_names);
	for (i = 0; i < nr; i++) {
		struct strbuf sdir = STRBUF_INIT;
		dev_t devno;

		strbuf_addf(&sdir, "%s/%s", dir.buf, names[i]);
		if (!read_attr(sdir.buf, "dev", &sb) &&
		    !parse_devno(sb.buf, &devno))
			add_dev(c, devno, idx, DEVSTACK_VIA_SLAVE, depth + 1);
		strbuf_release(&sdir);
	}
out:
	for (i = 0; i < nr; i++)
		free(names[i]);
	free(names);
	strbuf_release(&dir);
	strbuf_release(&sb);
}

/* The kind of device behind sysfs dir. */
static enum devstack_kind kind_of(const char *dir)
{
	if (has_entry(dir, "partition"))
		return DEVSTACK_PARTITION;
	if (has_entry(dir, "loop"))
		return DEVSTACK_LOOP;
	if (has_entry(dir, "dm"))
		return DEVSTACK_DM;
	if (has_entry(dir, "md"))
		return DEVSTACK_MD;
	return DEVSTACK_DISK;
}

/*
 * Append device devno (below parent, related by via) and, depth first,
 * what it rests on. Devices already listed and paths deeper than
 * MAX_DEPTH are skipped. Returns the new index, or -errno.
 */
static int add_dev(struct resolve_ctx *c, dev_t devno, int parent,
		   enum devstack_via via, unsigned depth)
{
	struct devstack *ds = c->ds;
	struct strbuf link = STRBUF_INIT, sb = STRBUF_INIT;
	struct devstack_dev *d;
	char *dir;
	long long sectors;
	int idx;

	if (depth > MAX_DEPTH || have_devno(ds, devno))
		return -ELOOP;
	strbuf_addf(&link, "%s/dev/block/%u:%u", ds->sysfs_root, major(devno),
		    minor(devno));
	dir = realpath(link.buf, NULL);
	strbuf_release(&link);
	if (!dir)
		return -ENODEV;
	ALLOC_GROW(ds->devs, ds->nr_devs + 1, ds->alloc_devs);
	idx = (int)ds->nr_devs++;
	d = &ds->devs[idx];
	memset(d, 0, sizeof(*d));
	d->sysfs_dir = dir;
	d->name = xstrdup(base_name(dir));
	d->devno = devno;
	d->parent = parent;
	d->via = via;
	d->depth = depth;
	d->kind = kind_of(dir);
	sectors = attr_num(dir, "size");
	d->size_bytes = sectors > 0 ? (uint64_t)sectors * 512u : 0;
	read_queue_values(d);

	switch (d->kind) {
	case DEVSTACK_PARTITION: {
		char *disk = xstrndup(dir, (size_t)(strrchr(dir, '/') - dir));
		dev_t disk_devno;

		d->queue_dev = xstrdup(base_name(disk));
		d->model = attr_str(disk, "device/model");
		d->driver = driver_of(disk);
		if (!read_attr(disk, "dev", &sb) &&
		    !parse_devno(sb.buf, &disk_devno))
			add_dev(c, disk_devno, idx, DEVSTACK_VIA_DISK,
				depth + 1);
		free(disk);
		break;
	}
	case DEVSTACK_LOOP:
		ds->devs[idx].queue_dev = xstrdup(ds->devs[idx].name);
		ds->devs[idx].driver = xstrdup("loop");
		add_loop_backing(c, idx, depth);
		break;
	case DEVSTACK_DM:
	case DEVSTACK_MD:
		d->queue_dev = xstrdup(d->name);
		d->driver =
		    xstrdup(d->kind == DEVSTACK_DM ? "device-mapper" : "md");
		d->label = attr_str(dir, d->kind == DEVSTACK_DM ? "dm/name"
								: "md/level");
		add_slaves(c, idx, depth);
		break;
	case DEVSTACK_DISK:
		d->queue_dev = xstrdup(d->name);
		d->model = attr_str(dir, "device/model");
		d->driver = driver_of(dir);
		break;
	}
	strbuf_release(&sb);
	return idx;
}

/* Start a resolution: zero ds, set the sysfs root and the path. */
static void begin(struct devstack *ds, const char *sysfs_root, const char *path)
{
	memset(ds, 0, sizeof(*ds));
	ds->sysfs_root = xstrdup(sysfs_root);
	ds->path = path ? xstrdup(path) : NULL;
}

/* The top device and everything below it; sets the reason if absent. */
static int resolve_top(struct resolve_ctx *c, dev_t devno, struct strbuf *err)
{
	struct devstack *ds = c->ds;
	int ret = add_dev(c, devno, -1, DEVSTACK_VIA_TOP, 0);

	if (ret >= 0)
		return 0;
	return err_set(err, -ENODEV,
		       "device %u:%u has no entry under '%s/dev/block'; is "
		       "it a block device?",
		       major(devno), minor(devno), ds->sysfs_root);
}

int devstack_resolve_devno(struct devstack *ds, const char *sysfs_root,
			   dev_t devno, struct strbuf *err)
{
	struct resolve_ctx c = {.ds = ds};
	int ret;

	begin(ds, sysfs_root, NULL);
	ret = resolve_top(&c, devno, err);
	mountinfo_release(&c.mi);
	return ret;
}

int devstack_resolve_path(struct devstack *ds, const char *path,
			  struct strbuf *err)
{
	struct resolve_ctx c = {.ds = ds};
	struct strbuf why = STRBUF_INIT;
	const struct mountinfo_entry *fs;
	struct stat st;
	char *real;
	dev_t devno;
	int ret = 0;

	real = realpath(path, NULL);
	if (!real || stat(real, &st)) {
		int e = errno;

		begin(ds, "/sys", path);
		ret = err_set(err, -e, "cannot examine '%s': %s", path,
			      strerror(e));
		goto out;
	}
	begin(ds, "/sys", real);
	if (S_ISBLK(st.st_mode)) {
		ret = resolve_top(&c, st.st_rdev, err);
		fs = NULL;
		if (mount_table(&c))
			fs = mountinfo_find_dev(&c.mi, major(st.st_rdev),
						minor(st.st_rdev),
						MOUNTINFO_FIRST);
		if (fs) {
			fill_mount(&ds->mnt, fs);
			ds->have_mount = 1;
		}
		goto out;
	}
	if (file_blockdev(&c, real, &st, &ds->mnt, &ds->have_mount, &devno,
			  &why)) {
		ds->no_device_reason = strbuf_detach(&why, NULL);
		goto out;
	}
	if (add_dev(&c, devno, -1, DEVSTACK_VIA_TOP, 0) < 0)
		ds->no_device_reason = xstrdup(
		    "the target's device has no entry in /sys/dev/block; "
		    "device columns are not available");
out:
	free(real);
	mountinfo_release(&c.mi);
	strbuf_release(&why);
	return ret;
}

int devstack_resolve_target(struct devstack *ds, const struct target *t,
			    struct strbuf *err)
{
	return devstack_resolve_path(ds, t->workdir ? t->workdir : t->path,
				     err);
}

void devstack_refresh(struct devstack *ds)
{
	unsigned i;

	for (i = 0; i < ds->nr_devs; i++)
		read_queue_values(&ds->devs[i]);
}

void devstack_release(struct devstack *ds)
{
	unsigned i;

	if (!ds)
		return;
	for (i = 0; i < ds->nr_devs; i++) {
		struct devstack_dev *d = &ds->devs[i];

		free(d->name);
		free(d->sysfs_dir);
		free(d->queue_dev);
		free(d->model);
		free(d->driver);
		free(d->label);
		free(d->backing_file);
		free(d->note);
		free(d->scheduler);
	}
	free(ds->devs);
	release_mount(&ds->mnt);
	free(ds->no_device_reason);
	free(ds->sysfs_root);
	free(ds->path);
	memset(ds, 0, sizeof(*ds));
}

int devstack_find(const struct devstack *ds, const char *name)
{
	unsigned i;

	for (i = 0; i < ds->nr_devs; i++)
		if (!strcmp(ds->devs[i].name, name))
			return (int)i;
	return -1;
}

unsigned devstack_bottom(const struct devstack *ds, int *idx, unsigned max)
{
	unsigned i, n = 0;

	/* every device is listed once and the stack is followed down to
	 * the disks, so the disks are its bottom, shared or not */
	for (i = 0; ds && i < ds->nr_devs; i++) {
		if (ds->devs[i].kind != DEVSTACK_DISK)
			continue;
		if (n < max)
			idx[n] = (int)i;
		n++;
	}
	return n;
}

const char *devstack_kind_name(enum devstack_kind kind)
{
	switch (kind) {
	case DEVSTACK_DISK:
		return "disk";
	case DEVSTACK_PARTITION:
		return "partition";
	case DEVSTACK_LOOP:
		return "loop";
	case DEVSTACK_DM:
		return "dm";
	case DEVSTACK_MD:
		return "md";
	}
	return "?";
}

const char *devstack_via_name(enum devstack_via via)
{
	switch (via) {
	case DEVSTACK_VIA_TOP:
		return NULL;
	case DEVSTACK_VIA_DISK:
		return "disk";
	case DEVSTACK_VIA_BACKING:
		return "backing";
	case DEVSTACK_VIA_SLAVE:
		return "slave";
	}
	return NULL;
}
