/*
 * The mount table reader (mountinfo.h).
 *
 * Fields are split at every single space, as the kernel writes them: a
 * space inside a name is always escaped, so a split never cuts a name,
 * and an empty source (a tmpfs mounted with "") shows up as an empty
 * field instead of shifting the ones after it. The optional fields run
 * until the first lone "-" after the sixth field, however many there are.
 *
 * Which mount holds a path is answered the way the kernel resolves it,
 * following parent ids from the top of the tree and crossing into the
 * first mount met along the path at each level. In a plain table that is
 * the mount with the longest mount point on a path boundary, the top of
 * a stack winning; but a longest-prefix match over the flat list alone
 * would also pick a mount that a later mount of one of its parent
 * directories hides, and the atime knob would then remount a filesystem
 * the path is not on.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include "mountinfo.h"
#include "../../util/error.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* Parse s, decimal digits only, into *out. 0 or -EINVAL. */
static int parse_uint(const char *s, unsigned *out)
{
	unsigned long v = 0;

	if (!*s)
		return -EINVAL;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -EINVAL;
		v = v * 10 + (unsigned long)(*s - '0');
		if (v > UINT_MAX)
			return -EINVAL;
	}
	*out = (unsigned)v;
	return 0;
}

/* Is c an octal digit up to max? */
static int is_odigit(char c, char max)
{
	return c >= '0' && c <= max;
}

/*
 * A copy of s with the kernel's octal escapes ("\040" a space, "\134" a
 * backslash) decoded. "\000" stays as written: a name cannot hold a NUL.
 */
static char *unescape_dup(const char *s)
{
	char *out = xstrdup(s), *w = out;

	while (*s) {
		if (s[0] == '\\' && is_odigit(s[1], '3') &&
		    is_odigit(s[2], '7') && is_odigit(s[3], '7') &&
		    (s[1] != '0' || s[2] != '0' || s[3] != '0')) {
			*w++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 +
				      (s[3] - '0'));
			s += 4;
		} else {
			*w++ = *s++;
		}
	}
	*w = '\0';
	return out;
}

/* Split copy at every space; the fields go to *out_f. Returns how many. */
static size_t split_fields(char *copy, char ***out_f)
{
	size_t n = 1, i = 0;
	char *p, **f;

	for (p = copy; *p; p++)
		n += *p == ' ';
	f = xcalloc(n, sizeof(*f));
	f[i++] = copy;
	for (p = copy; *p; p++)
		if (*p == ' ') {
			*p = '\0';
			f[i++] = p + 1;
		}
	*out_f = f;
	return n;
}

int mountinfo_parse_line(const char *line, size_t len,
			 struct mountinfo_entry *out)
{
	struct strbuf opt = STRBUF_INIT;
	size_t n, i, sep = 0;
	char *copy, **f = NULL, *colon;
	int ret = -EINVAL;

	memset(out, 0, sizeof(*out));
	if (memchr(line, '\0', len))
		return -EINVAL;
	copy = xstrndup(line, len);
	n = split_fields(copy, &f);
	/* id parent maj:min root mnt opts [optional...] - type src super */
	for (i = 6; i < n && !sep; i++)
		if (!strcmp(f[i], "-"))
			sep = i;
	if (!sep || sep + 3 >= n) /* fields past super options: ignored */
		goto out;
	if (parse_uint(f[0], &out->id) || parse_uint(f[1], &out->parent_id))
		goto out;
	colon = strchr(f[2], ':');
	if (!colon)
		goto out;
	*colon = '\0';
	if (parse_uint(f[2], &out->major) || parse_uint(colon + 1, &out->minor))
		goto out;
	if (!*f[3] || !*f[4] || !*f[5] || !*f[sep + 1])
		goto out;
	for (i = 6; i < sep; i++) {
		if (!*f[i])
			continue; /* a doubled space: nothing to keep */
		if (opt.len)
			strbuf_addch(&opt, ' ');
		strbuf_addstr(&opt, f[i]);
	}
	out->root = unescape_dup(f[3]);
	out->mnt = unescape_dup(f[4]);
	out->mnt_opts = unescape_dup(f[5]);
	out->optional = unescape_dup(opt.buf);
	out->fstype = unescape_dup(f[sep + 1]);
	out->source = unescape_dup(f[sep + 2]);
	out->super_opts = unescape_dup(f[sep + 3]);
	ret = 0;
out:
	if (ret)
		memset(out, 0, sizeof(*out));
	strbuf_release(&opt);
	free(f);
	free(copy);
	return ret;
}

int mountinfo_parse(struct mountinfo *mi, const char *buf, size_t len)
{
	const char *p = buf, *end = buf + len;

	memset(mi, 0, sizeof(*mi));
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t line_len = nl ? (size_t)(nl - p) : (size_t)(end - p);
		struct mountinfo_entry e;

		if (line_len) {
			if (mountinfo_parse_line(p, line_len, &e)) {
				mi->nr_bad++;
			} else {
				ALLOC_GROW(mi->entries, mi->nr + 1, mi->alloc);
				mi->entries[mi->nr++] = e;
			}
		}
		p += line_len + 1;
	}
	return 0;
}

int mountinfo_read_file(struct mountinfo *mi, const char *path,
			struct strbuf *err)
{
	struct strbuf sb = STRBUF_INIT;
	int ret;

	memset(mi, 0, sizeof(*mi));
	ret = strbuf_read_file(&sb, path, 0);
	if (ret)
		ret = err_set(err, ret, "cannot read '%s': %s", path,
			      strerror(-ret));
	else
		ret = mountinfo_parse(mi, sb.buf, sb.len);
	strbuf_release(&sb);
	return ret;
}

int mountinfo_read(struct mountinfo *mi, struct strbuf *err)
{
	return mountinfo_read_file(mi, "/proc/self/mountinfo", err);
}

void mountinfo_entry_release(struct mountinfo_entry *e)
{
	if (!e)
		return;
	free(e->root);
	free(e->mnt);
	free(e->mnt_opts);
	free(e->optional);
	free(e->fstype);
	free(e->source);
	free(e->super_opts);
	memset(e, 0, sizeof(*e));
}

void mountinfo_entry_copy(struct mountinfo_entry *dst,
			  const struct mountinfo_entry *src)
{
	*dst = *src;
	dst->root = xstrdup(src->root);
	dst->mnt = xstrdup(src->mnt);
	dst->mnt_opts = xstrdup(src->mnt_opts);
	dst->optional = xstrdup(src->optional);
	dst->fstype = xstrdup(src->fstype);
	dst->source = xstrdup(src->source);
	dst->super_opts = xstrdup(src->super_opts);
}

void mountinfo_release(struct mountinfo *mi)
{
	size_t i;

	if (!mi)
		return;
	for (i = 0; i < mi->nr; i++)
		mountinfo_entry_release(&mi->entries[i]);
	free(mi->entries);
	memset(mi, 0, sizeof(*mi));
}

/* Is mount point mnt path itself or one of its parent directories? */
static int covers(const char *mnt, const char *path)
{
	size_t n = strlen(mnt);

	if (!n || strncmp(path, mnt, n))
		return 0;
	return !path[n] || path[n] == '/' || mnt[n - 1] == '/';
}

/* Compare two mount ids, for qsort and bsearch. */
static int cmp_id(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return x < y ? -1 : x > y;
}

/*
 * Which entries are at the top of the tree: their parent is not in the
 * table (it lies outside our root) or is themselves (a namespace root).
 * Returns a calloc'd flag per entry.
 */
static unsigned char *top_flags(const struct mountinfo *mi)
{
	unsigned *ids = xcalloc(mi->nr ? mi->nr : 1, sizeof(*ids));
	unsigned char *top = xcalloc(mi->nr ? mi->nr : 1, 1);
	size_t i;

	for (i = 0; i < mi->nr; i++)
		ids[i] = mi->entries[i].id;
	qsort(ids, mi->nr, sizeof(*ids), cmp_id);
	for (i = 0; i < mi->nr; i++) {
		const struct mountinfo_entry *e = &mi->entries[i];

		top[i] =
		    e->parent_id == e->id ||
		    !bsearch(&e->parent_id, ids, mi->nr, sizeof(*ids), cmp_id);
	}
	free(ids);
	return top;
}

const struct mountinfo_entry *mountinfo_find_path(const struct mountinfo *mi,
						  const char *path)
{
	const struct mountinfo_entry *cur = NULL;
	unsigned char *top;
	size_t step, i;

	if (!mi->nr || !path || path[0] != '/')
		return NULL;
	top = top_flags(mi);
	/*
	 * Each step crosses into the child of cur whose mount point comes
	 * first along path: the shortest one, the last listed among equals
	 * (a mount stacked on cur's own root is the shortest of all). A
	 * table with a cycle stops after as many steps as it has mounts.
	 */
	for (step = 0; step <= mi->nr; step++) {
		const struct mountinfo_entry *next = NULL;

		for (i = 0; i < mi->nr; i++) {
			const struct mountinfo_entry *e = &mi->entries[i];
			int child =
			    cur ? !top[i] && e != cur && e->parent_id == cur->id
				: top[i];

			if (child && covers(e->mnt, path) &&
			    (!next || strlen(e->mnt) <= strlen(next->mnt)))
				next = e;
		}
		if (!next)
			break;
		cur = next;
	}
	free(top);
	return cur;
}

const struct mountinfo_entry *
mountinfo_find_mountpoint(const struct mountinfo *mi, const char *mnt)
{
	const struct mountinfo_entry *e = mountinfo_find_path(mi, mnt);

	return e && !strcmp(e->mnt, mnt) ? e : NULL;
}

const struct mountinfo_entry *mountinfo_find_dev(const struct mountinfo *mi,
						 unsigned major, unsigned minor,
						 enum mountinfo_pick pick)
{
	const struct mountinfo_entry *found = NULL;
	size_t i;

	for (i = 0; i < mi->nr; i++) {
		const struct mountinfo_entry *e = &mi->entries[i];

		if (e->major != major || e->minor != minor)
			continue;
		found = e;
		if (pick == MOUNTINFO_FIRST)
			break;
	}
	return found;
}

int mountinfo_has_opt(const char *opts, const char *opt)
{
	size_t n = strlen(opt);
	const char *p = opts;

	if (!n)
		return 0;
	while (p && *p) {
		if (!strncmp(p, opt, n) && (p[n] == ',' || !p[n]))
			return 1;
		p = strchr(p, ',');
		if (p)
			p++;
	}
	return 0;
}

/* The name of a statfs(2) f_type, for the file systems people test on. */
static const char *fs_name(unsigned long type)
{
	static const struct {
		unsigned long magic;
		const char *name;
	} names[] = {
	    {0xef53, "ext4"},	      {0x58465342, "xfs"},
	    {0x9123683e, "btrfs"},    {0x01021994, "tmpfs"},
	    {0xf2f52010, "f2fs"},     {0x794c7630, "overlay"},
	    {0x6969, "nfs"},	      {0x2fc12fc1, "zfs"},
	    {0x65735546, "fuse"},     {0x4d44, "vfat"},
	    {0x2011bab0, "exfat"},    {0x73717368, "squashfs"},
	    {0x858458f6, "ramfs"},    {0x5346544e, "ntfs"},
	    {0xca451a4e, "bcachefs"}, {0x3153464a, "jfs"},
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (names[i].magic == (type & 0xffffffffu))
			return names[i].name;
	return NULL;
}

/* The kernel name of block device maj:min in sysfs ("vda"), or NULL. */
static char *block_name(const char *sysfs_root, unsigned maj, unsigned min)
{
	struct strbuf link = STRBUF_INIT, target = STRBUF_INIT;
	char *name = NULL, *slash;
	ssize_t n;

	strbuf_addf(&link, "%s/dev/block/%u:%u", sysfs_root, maj, min);
	strbuf_grow(&target, PATH_MAX);
	n = readlink(link.buf, target.buf, target.alloc - 1);
	if (n > 0) {
		strbuf_setlen(&target, (size_t)n);
		slash = strrchr(target.buf, '/');
		name = xstrdup(slash ? slash + 1 : target.buf);
	}
	strbuf_release(&link);
	strbuf_release(&target);
	return name;
}

int mountinfo_entry_of_path(const char *path, const char *sysfs_root,
			    struct mountinfo_entry *out)
{
	struct strbuf top = STRBUF_INIT, opts = STRBUF_INIT;
	struct strbuf probe = STRBUF_INIT;
	struct stat st, up;
	struct statfs sf;
	struct statvfs sv;
	const char *fs;
	char *dev;

	memset(out, 0, sizeof(*out));
	if (stat(path, &st) < 0 || statfs(path, &sf) < 0)
		return -errno;
	/* climb while the parent is on the same device */
	strbuf_addstr(&top, path);
	while (top.len > 1) {
		char *slash = strrchr(top.buf, '/');
		size_t keep = slash == top.buf ? 1 : (size_t)(slash - top.buf);
		char saved = top.buf[keep];

		top.buf[keep] = '\0';
		if (stat(top.buf, &up) < 0 || up.st_dev != st.st_dev) {
			top.buf[keep] = saved;
			break;
		}
		strbuf_setlen(&top, keep);
	}
	out->major = major(st.st_dev);
	out->minor = minor(st.st_dev);
	dev =
	    out->major ? block_name(sysfs_root, out->major, out->minor) : NULL;
	fs = fs_name((unsigned long)sf.f_type);
	if (fs && !strcmp(fs, "ext4") && dev) {
		strbuf_addf(&probe, "%s/fs/ext4/%s", sysfs_root, dev);
		if (access(probe.buf, F_OK))
			fs = "ext2/ext3";
	}
	strbuf_reset(&probe);
	if (fs)
		strbuf_addstr(&probe, fs);
	else
		strbuf_addf(&probe, "unknown (statfs type 0x%lx)",
			    (unsigned long)sf.f_type);
	out->fstype = strbuf_detach(&probe, NULL);
	if (dev)
		strbuf_addf(&probe, "/dev/%s", dev);
	out->source = strbuf_detach(&probe, NULL);
	if (!statvfs(path, &sv)) {
		strbuf_addstr(&opts, sv.f_flag & ST_RDONLY ? "ro" : "rw");
		if (sv.f_flag & ST_NOSUID)
			strbuf_addstr(&opts, ",nosuid");
		if (sv.f_flag & ST_NODEV)
			strbuf_addstr(&opts, ",nodev");
		if (sv.f_flag & ST_NOEXEC)
			strbuf_addstr(&opts, ",noexec");
		if (sv.f_flag & ST_NOATIME)
			strbuf_addstr(&opts, ",noatime");
		else if (sv.f_flag & ST_RELATIME)
			strbuf_addstr(&opts, ",relatime");
		if (sv.f_flag & ST_NODIRATIME)
			strbuf_addstr(&opts, ",nodiratime");
	}
	out->mnt_opts = strbuf_detach(&opts, NULL);
	out->mnt = strbuf_detach(&top, NULL);
	out->root = xstrdup("/");
	out->optional = xstrdup("");
	out->super_opts = xstrdup("");
	free(dev);
	strbuf_release(&probe);
	return 0;
}
