/*
 * Finding the block devices to watch (disks.h). "Active" means the stat
 * file of a whole disk counts a read or a write or has a request in
 * flight, and the disk has a size: an idle loop device or an empty card
 * reader would only add lines of zeros, and a detached loop device keeps
 * the counters of its last use. Names people type are checked against
 * /sys/class/block, which has partitions too, and a wrong one is
 * answered with the names that would have worked.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "disks.h"
#include "diskstats.h"
#include "../../util/error.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* Append name to l. */
static void add_name(struct disk_names *l, const char *name)
{
	ALLOC_GROW(l->v, l->nr + 1, l->alloc);
	l->v[l->nr++] = xstrdup(name);
}

/* Every name under dir (sorted, no dot files), ", "-separated, to out. */
static void list_names(const char *dir, struct strbuf *out)
{
	struct dirent **ents = NULL;
	int n = scandir(dir, &ents, NULL, alphasort), i;

	for (i = 0; i < n; i++) {
		if (ents[i]->d_name[0] != '.')
			strbuf_addf(out, "%s%s", out->len ? ", " : "",
				    ents[i]->d_name);
		free(ents[i]);
	}
	free(ents);
}

/* The disk has no size (a detached loop device, no medium). A missing
 * size file says nothing. */
static int disk_empty(const char *sysfs_root, const char *name)
{
	struct strbuf path = STRBUF_INIT;
	char buf[32];
	ssize_t n = -1;
	int fd;

	strbuf_addf(&path, "%s/block/%s/size", sysfs_root, name);
	fd = open(path.buf, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
	}
	strbuf_release(&path);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	return strtoull(buf, NULL, 10) == 0;
}

void disks_active(const char *sysfs_root, struct disk_names *out)
{
	struct dirent **ents = NULL;
	struct strbuf path = STRBUF_INIT;
	int n, i;

	strbuf_addf(&path, "%s/block", sysfs_root);
	n = scandir(path.buf, &ents, NULL, alphasort);
	for (i = 0; i < n; i++) {
		struct diskstats s;
		int fd;

		if (ents[i]->d_name[0] == '.')
			goto next;
		strbuf_setf(&path, "%s/block/%s/stat", sysfs_root,
			    ents[i]->d_name);
		fd = open(path.buf, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			goto next;
		if (!diskstats_read_fd(fd, &s) &&
		    (s.v[DS_RD_IOS] || s.v[DS_WR_IOS] || s.v[DS_IN_FLIGHT]) &&
		    !disk_empty(sysfs_root, ents[i]->d_name))
			add_name(out, ents[i]->d_name);
		close(fd);
	next:
		free(ents[i]);
	}
	free(ents);
	strbuf_release(&path);
}

int disks_check(const char *sysfs_root, const char *const *names, unsigned nr,
		struct disk_names *out, struct strbuf *err)
{
	struct strbuf p = STRBUF_INIT, have = STRBUF_INIT;
	unsigned i;
	int ret = 0;

	for (i = 0; i < nr && !ret; i++) {
		disks_stat_path(sysfs_root, names[i], &p);
		if (!strchr(names[i], '/') && *names[i] &&
		    !access(p.buf, R_OK)) {
			add_name(out, names[i]);
			continue;
		}
		strbuf_setf(&p, "%s/class/block", sysfs_root);
		list_names(p.buf, &have);
		ret = err_set(err, -ENOENT,
			      "no block device '%s'; the devices here are: %s",
			      names[i], have.len ? have.buf : "none");
	}
	strbuf_release(&p);
	strbuf_release(&have);
	return ret;
}

void disks_stat_path(const char *sysfs_root, const char *name,
		     struct strbuf *out)
{
	strbuf_setf(out, "%s/class/block/%s/stat", sysfs_root, name);
}

void disk_names_release(struct disk_names *l)
{
	unsigned i;

	for (i = 0; i < l->nr; i++)
		free(l->v[i]);
	free(l->v);
	memset(l, 0, sizeof(*l));
}
