/*
 * The knob registry: the one table of families, name resolution with
 * "did you mean", and the generic write-then-read-back that every change
 * goes through. It also works out where a target's knobs live: the disk
 * under a directory, file system or partition (a partition's queue/ is
 * its parent disk's), and the mount the atime knob remounts.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include "knob-int.h"
#include "../targets/mountinfo.h"
#include "../targets/target.h"
#include "../../util/error.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* Every family of KNOB_FAMILY_TABLE (knob.h), in its order. */
#define KNOB_FAMILY_PTR_(f) &knob_##f##_ops,
static const struct knob_ops *const families[] = {
    KNOB_FAMILY_TABLE(KNOB_FAMILY_PTR_)};
#undef KNOB_FAMILY_PTR_

void knob_list_add(struct knob_list *l, const char *s)
{
	ALLOC_GROW(l->v, l->nr + 1, l->alloc);
	l->v[l->nr++] = xstrdup(s);
}

int knob_list_has(const struct knob_list *l, const char *s)
{
	size_t i;

	for (i = 0; i < l->nr; i++)
		if (!strcmp(l->v[i], s))
			return 1;
	return 0;
}

void knob_list_release(struct knob_list *l)
{
	size_t i;

	if (!l)
		return;
	for (i = 0; i < l->nr; i++)
		free(l->v[i]);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

void knob_desc_init(struct knob_desc *d)
{
	strbuf_init(&d->shown, 0);
	strbuf_init(&d->unit, 0);
	strbuf_init(&d->allowed, 0);
	strbuf_init(&d->legacy, 0);
	strbuf_init(&d->notes, 0);
}

void knob_desc_release(struct knob_desc *d)
{
	if (!d)
		return;
	strbuf_release(&d->shown);
	strbuf_release(&d->unit);
	strbuf_release(&d->allowed);
	strbuf_release(&d->legacy);
	strbuf_release(&d->notes);
}

const char *knob_scope_name(enum knob_scope s)
{
	switch (s) {
	case KNOB_SCOPE_DEVICE:
		return "device";
	case KNOB_SCOPE_MOUNT:
		return "mount";
	case KNOB_SCOPE_SYSTEM:
		return "system";
	}
	return "?";
}

void knob_subject(struct strbuf *out, const char *name, const char *object)
{
	if (!strcmp(object, "system"))
		strbuf_addf(out, "'%s'", name);
	else
		strbuf_addf(out, "'%s' on '%s'", name, object);
}

void knob_ctx_init(struct knob_ctx *c)
{
	memset(c, 0, sizeof(*c));
	c->root = xstrdup("");
}

void knob_ctx_release(struct knob_ctx *c)
{
	if (!c)
		return;
	free(c->root);
	free(c->disk);
	free(c->mountpoint);
	free(c->why_no_disk);
	free(c->why_no_mount);
	free(c->pending_sched);
	memset(c, 0, sizeof(*c));
}

/*
 * The disk (not partition) for block device maj:min, via
 * /sys/dev/block/MAJ:MIN. NULL when there is no such block device.
 */
static char *disk_of_dev(const char *root, unsigned maj, unsigned min)
{
	char *link = knob_path(root, "/sys/dev/block/%u:%u", maj, min);
	char *real = realpath(link, NULL), *slash, *part, *res = NULL;
	char *q;

	free(link);
	if (!real)
		return NULL;
	part = knob_path("", "%s/partition", real);
	if (!access(part, F_OK)) {
		slash = strrchr(real, '/');
		if (slash)
			*slash = '\0';
	}
	free(part);
	slash = strrchr(real, '/');
	if (slash && slash[1]) {
		q = knob_path(root, "/sys/block/%s/queue", slash + 1);
		if (!access(q, F_OK))
			res = xstrdup(slash + 1);
		free(q);
	}
	free(real);
	return res;
}

char *knob_disk_of_dev(const char *root, unsigned maj, unsigned min)
{
	return disk_of_dev(root, maj, min);
}

/* Set why_no_disk for a directory whose file system has no device. */
static void no_disk_for_mount(struct knob_ctx *c, const char *path,
			      const struct knob_mount *m)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb,
		    "'%s' is on a '%s' file system, which has no block "
		    "device",
		    path, m ? m->fstype : "virtual");
	free(c->why_no_disk);
	c->why_no_disk = strbuf_detach(&sb, NULL);
}

/*
 * Say why no mount holds path: when the path's own file system can be
 * told (by st_dev), it is mounted outside this root, as in a chroot
 * whose root is a directory of the host's: nothing here can remount it.
 */
static void no_mount_for_path(struct knob_ctx *c, const char *path)
{
	struct strbuf sb = STRBUF_INIT, sys = STRBUF_INIT;
	struct mountinfo_entry e;

	strbuf_addf(&sys, "%s/sys", c->root ? c->root : "");
	if (!mountinfo_entry_of_path(path, sys.buf, &e)) {
		strbuf_addf(&sb,
			    "no mount holding '%s' is visible here: its file "
			    "system (%s%s%s) is mounted outside this root, as "
			    "in a chroot whose root is not a mount",
			    path, e.fstype, *e.source ? " on " : "", e.source);
		mountinfo_entry_release(&e);
	} else {
		strbuf_addf(&sb, "no mount was found for '%s'", path);
	}
	free(c->why_no_mount);
	c->why_no_mount = strbuf_detach(&sb, NULL);
	strbuf_release(&sys);
}

int knob_ctx_from_target(struct knob_ctx *c, const struct target *t,
			 struct strbuf *err)
{
	struct knob_mount m;
	struct strbuf sb = STRBUF_INIT;
	unsigned maj = major(t->dev), min = minor(t->dev);

	(void)err;
	if (t->kind == TARGET_BLOCKDEV) {
		c->disk = disk_of_dev(c->root, maj, min);
		if (!c->disk) {
			strbuf_addf(&sb, "'%s' has no queue in /sys/block",
				    t->path);
			c->why_no_disk = strbuf_detach(&sb, NULL);
		}
		if (!knob_mount_of_dev(maj, min, &m)) {
			c->mountpoint = xstrdup(m.mnt);
			knob_mount_release(&m);
		} else {
			strbuf_addf(&sb, "'%s' is not mounted", t->path);
			c->why_no_mount = strbuf_detach(&sb, NULL);
		}
		return 0;
	}
	/* a directory (scratch with a file system included) */
	if (!knob_mount_of_path(t->path, &m)) {
		c->mountpoint = xstrdup(m.mnt);
		if (maj)
			c->disk = disk_of_dev(c->root, maj, min);
		if (!c->disk)
			no_disk_for_mount(c, t->path, &m);
		knob_mount_release(&m);
	} else {
		c->disk = disk_of_dev(c->root, maj, min);
		if (!c->disk)
			no_disk_for_mount(c, t->path, NULL);
		no_mount_for_path(c, t->path);
	}
	return 0;
}

int knob_ctx_from_device(struct knob_ctx *c, const char *dev,
			 struct strbuf *err)
{
	struct strbuf node = STRBUF_INIT, sb = STRBUF_INIT;
	struct knob_mount m;
	struct stat st;
	int ret = 0;

	if (strchr(dev, '/'))
		strbuf_addstr(&node, dev);
	else
		strbuf_addf(&node, "/dev/%s", dev);
	if (stat(node.buf, &st) < 0) {
		ret = err_set(err, -ENODEV,
			      "device '%s' does not exist; give a block device "
			      "such as /dev/loop0 (see 'lsblk')",
			      dev);
		goto out;
	}
	if (!S_ISBLK(st.st_mode)) {
		ret =
		    err_set(err, -ENODEV,
			    "'%s' is not a block device; give one such as "
			    "/dev/loop0 (see 'lsblk'), or a directory with -t",
			    dev);
		goto out;
	}
	c->disk = disk_of_dev(c->root, major(st.st_rdev), minor(st.st_rdev));
	if (!c->disk) {
		ret = err_set(err, -ENODEV,
			      "'%s' has no request queue in /sys/block; its "
			      "I/O knobs cannot be changed",
			      dev);
		goto out;
	}
	if (!knob_mount_of_dev(major(st.st_rdev), minor(st.st_rdev), &m)) {
		c->mountpoint = xstrdup(m.mnt);
		knob_mount_release(&m);
	} else {
		strbuf_addf(&sb, "'%s' is not mounted", node.buf);
		c->why_no_mount = strbuf_detach(&sb, NULL);
	}
out:
	strbuf_release(&node);
	strbuf_release(&sb);
	return ret;
}

void knob_release(struct knob *k)
{
	if (!k)
		return;
	free(k->name);
	free(k->group);
	free(k->object);
	free(k->path);
	free(k->ident);
	free(k->root);
	memset(k, 0, sizeof(*k));
}

void knob_names(const struct knob_ctx *ctx, struct knob_list *out)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(families); i++)
		if (families[i]->names)
			families[i]->names(ctx, out);
}

/* Names carried over from other tools: blockdev's "readahead", the
 * kernel's old "elevator=" (knob.h). */
const char *knob_folklore_name(const char *name)
{
	static const struct {
		const char *said, *means;
	} names[] = {
	    {"readahead", "read_ahead_kb"}, {"read_ahead", "read_ahead_kb"},
	    {"ra", "read_ahead_kb"},	    {"setra", "read_ahead_kb"},
	    {"elevator", "scheduler"},	    {"iosched", "scheduler"},
	    {"io_scheduler", "scheduler"},  {"noatime", "atime"},
	    {"relatime", "atime"},
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcasecmp(name, names[i].said))
			return names[i].means;
	return NULL;
}

void knob_names_anywhere(struct knob_list *out)
{
	struct knob_ctx any;
	struct knob_list all = {0};
	size_t i;

	knob_ctx_init(&any);
	any.anywhere = 1;
	knob_names(&any, &all);
	for (i = 0; i < all.nr; i++)
		if (!knob_list_has(out, all.v[i]))
			knob_list_add(out, all.v[i]);
	knob_list_release(&all);
	knob_ctx_release(&any);
}

void knob_persist(const struct knob *k, struct knob_persist *p)
{
	const char *path = k->path, *q;
	size_t rl = k->root ? strlen(k->root) : 0;

	memset(p, 0, sizeof(*p));
	strbuf_init(&p->sysctl, 0);
	if (path && rl && !strncmp(path, k->root, rl))
		path += rl;
	if (k->scope == KNOB_SCOPE_SYSTEM && path &&
	    !strncmp(path, "/proc/sys/", 10))
		for (q = path + 10; *q; q++)
			strbuf_addch(&p->sysctl, *q == '/' ? '.' : *q);
	if (k->scope == KNOB_SCOPE_DEVICE && path &&
	    (q = strstr(path, "/queue/")))
		p->udev_attr = q + 1;
	p->mount_option = k->scope == KNOB_SCOPE_MOUNT;
	if (k->ops && k->ops->persist)
		k->ops->persist(k, p);
}

void knob_persist_release(struct knob_persist *p)
{
	if (!p)
		return;
	strbuf_release(&p->sysctl);
}

int knob_resolve(const struct knob_ctx *ctx, const char *name, struct knob *k,
		 struct strbuf *note, struct strbuf *err)
{
	struct knob_list names = {0};
	const char *near;
	size_t i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(families); i++) {
		memset(k, 0, sizeof(*k));
		k->ops = families[i];
		ret = families[i]->resolve(ctx, name, k, note, err);
		if (ret != KNOB_NOT_MINE) {
			if (ret)
				knob_release(k);
			return ret;
		}
		knob_release(k);
	}
	knob_names_anywhere(&names);
	knob_names(ctx, &names);
	near = knob_folklore_name(name);
	if (!near)
		near = suggest_nearest(name, (const char *const *)names.v,
				       names.nr);
	if (near)
		err_set(err, -ENOENT, "unknown knob '%s'; did you mean '%s'?",
			name, near);
	else
		err_set(err, -ENOENT,
			"unknown knob '%s'; 'iotrial knobs' lists them, and "
			"'sysfs:PATH' or 'sysctl:NAME' reach any other",
			name);
	knob_list_release(&names);
	return -ENOENT;
}

int knob_apply(const struct knob *k, const char *canon, struct strbuf *now,
	       struct strbuf *note, struct strbuf *err)
{
	int ret, ok;

	ret = k->ops->write(k, canon, err);
	if (ret)
		return ret;
	ret = k->ops->read(k, now, err);
	if (ret)
		return ret;
	if (k->ops->verify)
		ok = k->ops->verify(k, canon, now->buf, note);
	else
		ok = !strcmp(canon, now->buf);
	if (!ok)
		return err_set(err, -EIO,
			       "wrote '%s' to '%s' on '%s' but it reads back "
			       "as '%s'",
			       canon, k->name, k->object, now->buf);
	return 0;
}

int knob_save(const struct knob *k, struct strbuf *orig, struct strbuf *err)
{
	strbuf_reset(orig);
	if (k->ops->save)
		return k->ops->save(k, orig, err);
	return k->ops->read(k, orig, err);
}

int knob_restore(const struct knob *k, const char *orig, struct strbuf *err)
{
	struct strbuf now = STRBUF_INIT;
	int ret;

	if (k->ops->restore)
		return k->ops->restore(k, orig, err);
	ret = knob_apply(k, orig, &now, NULL, err);
	strbuf_release(&now);
	return ret;
}

int knob_describe(const struct knob *k, struct strbuf *value,
		  struct knob_desc *d, struct strbuf *err)
{
	int ret = k->ops->read(k, value, err);

	if (ret)
		return ret;
	if (k->ops->describe)
		k->ops->describe(k, value->buf, d);
	if (!d->shown.len)
		strbuf_addstr(&d->shown, value->buf);
	return 0;
}
