/*
 * The workload's cgroup (cgroup.h). Files are written as the kernel's
 * cgroup documentation names them: v1 memory.limit_in_bytes and
 * memory.max_usage_in_bytes, cpuset.cpus and cpuset.mems (both needed
 * before a task may join a v1 cpuset); v2 memory.max, memory.peak,
 * cpuset.cpus and cpuset.mems. A process joins by writing its pid to
 * cgroup.procs, which moves every thread.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include "cgroup.h"
#include "mountinfo.h"
#include "made.h"
#include "workdir.h"
#include "../journal/session.h"
#include "../../util/error.h"
#include "../../util/rng.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

#define CGROUP1_MAGIC 0x27e0eb
#define CGROUP2_MAGIC 0x63677270
#define MIN_MEMORY    (16ull << 20) /* less would starve iotrial itself */
#define MAX_IDS	      4096	    /* CPUs and nodes a list may name */

int cgroup_limits_set(const struct cgroup_limits *l)
{
	return l && (l->memory_max || l->cpus || l->mems);
}

/* Read the small file dir/name into out, trailing newline cut. */
static int read_attr(const char *dir, const char *name, struct strbuf *out)
{
	struct strbuf p = STRBUF_INIT;
	int ret;

	strbuf_reset(out);
	strbuf_addf(&p, "%s/%s", dir, name);
	ret = strbuf_read_file(out, p.buf, 65536);
	strbuf_release(&p);
	while (!ret && out->len && out->buf[out->len - 1] == '\n')
		strbuf_setlen(out, out->len - 1);
	return ret;
}

/* Write value to dir/name; 0 or -errno. */
static int write_attr(const char *dir, const char *name, const char *value)
{
	struct strbuf p = STRBUF_INIT;
	size_t n = strlen(value);
	int fd, ret = 0;

	strbuf_addf(&p, "%s/%s", dir, name);
	fd = open(p.buf, O_WRONLY | O_CLOEXEC);
	strbuf_release(&p);
	if (fd < 0)
		return -errno;
	if (write(fd, value, n) != (ssize_t)n)
		ret = -errno;
	close(fd);
	return ret;
}

/* Is word one of the separator-delimited words of list? */
static int has_word(const char *list, const char *word, const char *seps)
{
	size_t n = strlen(word);
	const char *p = list;

	while (*p) {
		size_t len = strcspn(p, seps);

		if (len == n && !strncmp(p, word, n))
			return 1;
		p += len;
		p += strspn(p, seps);
	}
	return 0;
}

/* Where a controller lives: its hierarchy's mount and our place in it. */
struct place {
	struct strbuf mnt; /* the hierarchy's mount point */
	struct strbuf own; /* this process's cgroup: mnt + its path */
	int v2;
};

/* This process's path in the v1 hierarchy of ctl, or in v2 (ctl NULL),
 * from /proc/self/cgroup, into out. 0 or -ENOENT. */
static int own_path(const char *ctl, struct strbuf *out)
{
	struct strbuf f = STRBUF_INIT;
	const char *line;
	int ret = -ENOENT;

	if (strbuf_read_file(&f, "/proc/self/cgroup", 65536))
		goto out;
	for (line = f.buf; *line && ret; line = strchr(line, '\n') + 1) {
		const char *c1 = strchr(line, ':'), *c2, *nl;

		nl = strchr(line, '\n');
		if (!nl)
			nl = line + strlen(line);
		c2 = c1 && c1 < nl ? memchr(c1 + 1, ':', (size_t)(nl - c1 - 1))
				   : NULL;
		if (c2) {
			struct strbuf ctls = STRBUF_INIT;

			strbuf_add(&ctls, c1 + 1, (size_t)(c2 - c1 - 1));
			if (ctl ? has_word(ctls.buf, ctl, ",")
				: !ctls.len && !strncmp(line, "0:", 2)) {
				strbuf_reset(out);
				strbuf_add(out, c2 + 1, (size_t)(nl - c2 - 1));
				ret = 0;
			}
			strbuf_release(&ctls);
		}
		if (!*nl)
			break;
	}
out:
	strbuf_release(&f);
	return ret;
}

/*
 * Find where ctl ("memory", "cpuset") lives: a v1 hierarchy of its own,
 * else v2 when the root lists it. 0 with pl filled, or -ENODEV.
 */
static int find_place(const char *ctl, struct place *pl)
{
	struct strbuf path = STRBUF_INIT, have = STRBUF_INIT;
	struct mountinfo mi;
	const struct mountinfo_entry *v2 = NULL;
	size_t i;
	int ret = -ENODEV;

	if (mountinfo_read(&mi, NULL))
		goto out;
	for (i = 0; i < mi.nr && ret; i++) {
		const struct mountinfo_entry *e = &mi.entries[i];

		if (!strcmp(e->fstype, "cgroup2") && !v2)
			v2 = e;
		if (strcmp(e->fstype, "cgroup") ||
		    !has_word(e->super_opts, ctl, ","))
			continue;
		if (own_path(ctl, &path))
			continue;
		pl->v2 = 0;
		strbuf_addstr(&pl->mnt, e->mnt);
		ret = 0;
	}
	if (ret && v2 && !read_attr(v2->mnt, "cgroup.controllers", &have) &&
	    has_word(have.buf, ctl, " ") && !own_path(NULL, &path)) {
		pl->v2 = 1;
		strbuf_addstr(&pl->mnt, v2->mnt);
		ret = 0;
	}
	if (!ret) {
		/* a hierarchy mounted from a sub-cgroup (a container) has
		 * our path relative to that root already */
		const struct mountinfo_entry *e = NULL;

		for (i = 0; i < mi.nr; i++)
			if (!strcmp(mi.entries[i].mnt, pl->mnt.buf))
				e = &mi.entries[i];
		strbuf_add(&pl->own, pl->mnt.buf, pl->mnt.len);
		if (e && strcmp(e->root, "/") &&
		    !strncmp(path.buf, e->root, strlen(e->root)))
			strbuf_addstr(&pl->own, path.buf + strlen(e->root));
		else if (strcmp(path.buf, "/"))
			strbuf_add(&pl->own, path.buf, path.len);
	}
out:
	mountinfo_release(&mi);
	strbuf_release(&path);
	strbuf_release(&have);
	return ret;
}

static void place_release(struct place *pl)
{
	strbuf_release(&pl->mnt);
	strbuf_release(&pl->own);
}

/* How to get controller ctl, for the error that it is missing. */
static int no_controller(const char *ctl, struct strbuf *err)
{
	return err_set(err, -ENODEV,
		       "the %s controller is not available: no cgroup v1 "
		       "hierarchy has it and the cgroup v2 root does not list "
		       "it; mount it ('mkdir -p /sys/fs/cgroup/%s && mount -t "
		       "cgroup -o %s none /sys/fs/cgroup/%s'), or, where it "
		       "is off, boot with 'cgroup_enable=%s'",
		       ctl, ctl, ctl, ctl, ctl);
}

/*
 * Parse a CPU or node list ("0-3,8,10-11") into set[MAX_IDS]. 0, or
 * -EINVAL for anything else.
 */
static int parse_list(const char *s, unsigned char *set)
{
	const char *p = s;

	memset(set, 0, MAX_IDS);
	if (!*p)
		return -EINVAL;
	while (*p) {
		char *end;
		unsigned long a, b;

		if (*p < '0' || *p > '9')
			return -EINVAL;
		a = strtoul(p, &end, 10);
		b = a;
		if (*end == '-') {
			if (end[1] < '0' || end[1] > '9')
				return -EINVAL;
			b = strtoul(end + 1, &end, 10);
		}
		if (a > b || b >= MAX_IDS)
			return -EINVAL;
		while (a <= b)
			set[a++] = 1;
		if (*end == ',' && end[1])
			end++;
		else if (*end)
			return -EINVAL;
		p = end;
	}
	return 0;
}

/* Check list (opt "--cpus") against the online ones in file online. */
static int check_list(const char *opt, const char *list, const char *online,
		      const char *what, struct strbuf *err)
{
	unsigned char want[MAX_IDS], have[MAX_IDS];
	struct strbuf on = STRBUF_INIT;
	unsigned i;
	int ret = 0;

	if (parse_list(list, want)) {
		ret = err_set(err, -EINVAL,
			      "%s '%s' is not a list of %s numbers; give "
			      "e.g. '0', '0-1' or '0,2-3'",
			      opt, list, what);
		goto out;
	}
	if (strbuf_read_file(&on, online, 65536))
		goto out; /* cannot tell: the kernel will */
	while (on.len && on.buf[on.len - 1] == '\n')
		strbuf_setlen(&on, on.len - 1);
	if (parse_list(on.buf, have))
		goto out;
	for (i = 0; i < MAX_IDS; i++)
		if (want[i] && !have[i]) {
			ret = err_set(err, -EINVAL,
				      "%s '%s' names %s %u, which is not "
				      "online; this machine has %s",
				      opt, list, what, i, on.buf);
			break;
		}
out:
	strbuf_release(&on);
	return ret;
}

int cgroup_check(const struct cgroup_limits *l, struct strbuf *err)
{
	struct place pl = {STRBUF_INIT, STRBUF_INIT, 0};
	int ret = 0;

	if (!cgroup_limits_set(l))
		return 0;
	if (l->cpus)
		ret = check_list("--cpus", l->cpus,
				 "/sys/devices/system/cpu/online", "CPU", err);
	if (!ret && l->mems)
		ret =
		    check_list("--mems", l->mems,
			       "/sys/devices/system/node/online", "node", err);
	if (!ret && l->memory_max && l->memory_max < MIN_MEMORY)
		ret = err_set(err, -ERANGE,
			      "--memory-limit below 16 MiB would starve "
			      "iotrial itself; give at least 16M");
	if (ret)
		return ret;
	if (geteuid() != 0)
		return err_set(err, -EPERM,
			       "%s needs root: iotrial makes a cgroup for "
			       "the workload",
			       l->memory_max ? "--memory-limit"
			       : l->cpus     ? "--cpus"
					     : "--mems");
	if (l->memory_max && find_place("memory", &pl))
		ret = no_controller("memory", err);
	place_release(&pl);
	if (!ret && (l->cpus || l->mems) && find_place("cpuset", &pl))
		ret = no_controller("cpuset", err);
	place_release(&pl);
	return ret;
}

/* Is the cgroup controller ctl enabled for the children of dir (v2)? */
static int v2_enabled(const char *dir, const char *ctl)
{
	struct strbuf v = STRBUF_INIT;
	int ok = !read_attr(dir, "cgroup.subtree_control", &v) &&
		 has_word(v.buf, ctl, " ");

	strbuf_release(&v);
	return ok;
}

/*
 * The directory for pl's new cgroup, into d (path and home): inside our
 * own on v1; beside it on v2 (in its parent; in the root when we are
 * there), where the controllers must be enabled for children.
 */
static int plan_dir(struct cgroup_dir *d, const struct place *pl,
		    const char *name, const struct cgroup_limits *l,
		    struct strbuf *err)
{
	struct strbuf parent = STRBUF_INIT;
	int ret = 0;

	strbuf_add(&parent, pl->own.buf, pl->own.len);
	if (pl->v2 && strcmp(pl->own.buf, pl->mnt.buf))
		strbuf_setlen(&parent,
			      (size_t)(strrchr(parent.buf, '/') - parent.buf));
	if (pl->v2 && ((d->memory && !v2_enabled(parent.buf, "memory")) ||
		       (d->cpuset && !v2_enabled(parent.buf, "cpuset")))) {
		const char *ctl = d->memory && !v2_enabled(parent.buf, "memory")
				      ? "memory"
				      : "cpuset";

		ret = err_set(err, -ENODEV,
			      "cgroup v2: the %s controller is not enabled "
			      "for the children of '%s'; enable it with 'echo "
			      "+%s > %s/cgroup.subtree_control' (a cgroup that "
			      "holds processes cannot: run iotrial in a cgroup "
			      "of its own, e.g. 'systemd-run --scope -p "
			      "Delegate=yes iotrial ...')",
			      ctl, parent.buf, ctl, parent.buf);
		goto out;
	}
	(void)l;
	d->v2 = pl->v2;
	d->home = xstrdup(pl->own.buf);
	strbuf_addf(&parent, "/%s", name);
	d->path = strbuf_detach(&parent, NULL);
out:
	strbuf_release(&parent);
	return ret;
}

/* Write the limits of l that belong in d. */
static int set_limits(const struct cgroup_dir *d, const struct cgroup_limits *l,
		      struct strbuf *err)
{
	struct strbuf v = STRBUF_INIT, up = STRBUF_INIT;
	const char *file = NULL;
	int ret = 0;

	if (d->cpuset) {
		/* v1 wants both before a task joins; take the parent's */
		strbuf_addstr(&up, d->path);
		strbuf_setlen(&up, (size_t)(strrchr(up.buf, '/') - up.buf));
		file = "cpuset.cpus";
		if (l->cpus)
			ret = write_attr(d->path, file, l->cpus);
		else if (!d->v2 && !read_attr(up.buf, file, &v))
			ret = write_attr(d->path, file, v.buf);
		if (!ret) {
			file = "cpuset.mems";
			if (l->mems)
				ret = write_attr(d->path, file, l->mems);
			else if (!d->v2 && !read_attr(up.buf, file, &v))
				ret = write_attr(d->path, file, v.buf);
		}
	}
	if (!ret && d->memory) {
		file = d->v2 ? "memory.max" : "memory.limit_in_bytes";
		strbuf_setf(&v, "%llu", (unsigned long long)l->memory_max);
		ret = write_attr(d->path, file, v.buf);
	}
	if (ret)
		err_set(err, ret, "cannot set '%s/%s': %s", d->path, file,
			strerror(-ret));
	strbuf_release(&v);
	strbuf_release(&up);
	return ret;
}

/* Move this process into dir (its cgroup.procs). */
static int join(const char *dir)
{
	char pid[24];

	snprintf(pid, sizeof(pid), "%ld", (long)getpid());
	return write_attr(dir, "cgroup.procs", pid);
}

int cgroup_enter(struct cgroup *cg, const struct cgroup_limits *l,
		 struct session *s, struct strbuf *err)
{
	struct place pl[2] = {{STRBUF_INIT, STRBUF_INIT, 0},
			      {STRBUF_INIT, STRBUF_INIT, 0}};
	const char *ctl[2] = {"memory", "cpuset"};
	int want[2] = {l->memory_max != 0, l->cpus || l->mems};
	char name[48];
	struct rng rng;
	unsigned i, k;
	int ret = 0;

	memset(cg, 0, sizeof(*cg));
	cg->s = s;
	rng_seed(&rng, rng_seed_from_env());
	snprintf(name, sizeof(name), "%s%ld-%06x", made_cgroup.prefix,
		 (long)getpid(), (unsigned)(rng_next(&rng) & 0xffffff));
	for (i = 0; i < 2 && !ret; i++) {
		struct cgroup_dir *d = NULL;

		if (!want[i])
			continue;
		if (find_place(ctl[i], &pl[i])) {
			ret = no_controller(ctl[i], err);
			break;
		}
		for (k = 0; k < cg->nr; k++)
			if (!strcmp(pl[i].own.buf, cg->d[k].home) ||
			    (pl[i].v2 && cg->d[k].v2))
				d = &cg->d[k]; /* the same hierarchy */
		if (d) {
			d->memory |= i == 0;
			d->cpuset |= i == 1;
			continue;
		}
		d = &cg->d[cg->nr];
		d->memory = i == 0;
		d->cpuset = i == 1;
		ret = plan_dir(d, &pl[i], name, l, err);
		if (!ret)
			cg->nr++;
	}
	/* the second controller may share a v2 directory planned for the
	 * first; check it is enabled there too */
	for (k = 0; k < cg->nr && !ret; k++) {
		struct strbuf up = STRBUF_INIT;

		if (!cg->d[k].v2)
			continue;
		strbuf_addstr(&up, cg->d[k].path);
		strbuf_setlen(&up, (size_t)(strrchr(up.buf, '/') - up.buf));
		for (i = 0; i < 2 && !ret; i++)
			if (((i == 0 && cg->d[k].memory) ||
			     (i == 1 && cg->d[k].cpuset)) &&
			    !v2_enabled(up.buf, ctl[i]))
				ret =
				    err_set(err, -ENODEV,
					    "cgroup v2: the %s controller is "
					    "not enabled for the children of "
					    "'%s'; enable it with 'echo +%s > "
					    "%s/cgroup.subtree_control'",
					    ctl[i], up.buf, ctl[i], up.buf);
		strbuf_release(&up);
	}
	for (k = 0; k < cg->nr && !ret; k++) {
		struct cgroup_dir *d = &cg->d[k];

		ret = session_scratch(s, "cgroup", d->path, d->home, &d->seq,
				      err);
		if (ret)
			break;
		if (mkdir(d->path, 0755) < 0) {
			ret = err_set(err, -errno,
				      "cannot make the cgroup "
				      "'%s': %s",
				      d->path, strerror(errno));
			session_done(s, d->seq, NULL);
			d->seq = 0;
			break;
		}
		ret = set_limits(d, l, err);
	}
	for (k = 0; k < cg->nr && !ret; k++) {
		ret = join(cg->d[k].path);
		if (ret)
			err_set(err, ret, "cannot move iotrial into '%s': %s",
				cg->d[k].path, strerror(-ret));
		else
			cg->entered = 1;
	}
	for (i = 0; i < 2; i++)
		place_release(&pl[i]);
	if (ret) {
		struct strbuf e = STRBUF_INIT;

		cgroup_leave(cg, &e);
		strbuf_release(&e);
	}
	return ret;
}

/* The directory that has the memory controller, or NULL. */
static const struct cgroup_dir *memory_dir(const struct cgroup *cg)
{
	unsigned k;

	for (k = 0; k < cg->nr; k++)
		if (cg->d[k].memory && cg->d[k].path)
			return &cg->d[k];
	return NULL;
}

void cgroup_peak_reset(const struct cgroup *cg)
{
	const struct cgroup_dir *d = memory_dir(cg);

	/* v1 resets on any write; v2's memory.peak is since creation */
	if (d && !d->v2)
		write_attr(d->path, "memory.max_usage_in_bytes", "0");
}

uint64_t cgroup_memory_peak(const struct cgroup *cg)
{
	const struct cgroup_dir *d = memory_dir(cg);
	struct strbuf v = STRBUF_INIT;
	uint64_t peak = 0;

	if (d &&
	    !read_attr(d->path,
		       d->v2 ? "memory.peak" : "memory.max_usage_in_bytes", &v))
		peak = strtoull(v.buf, NULL, 10);
	strbuf_release(&v);
	return peak;
}

/* rmdir the cgroup name in dfd (or a path, with AT_FDCWD); a moment's
 * wait when its last task is still leaving. */
static int remove_dir(int dfd, const char *name)
{
	int tries;

	for (tries = 0; tries < 50; tries++) {
		if (!unlinkat(dfd, name, AT_REMOVEDIR) || errno == ENOENT)
			return 0;
		if (errno != EBUSY)
			return -errno;
		usleep(10000);
	}
	return -EBUSY;
}

int cgroup_leave(struct cgroup *cg, struct strbuf *err)
{
	unsigned k = cg->nr;
	int ret = 0, r;

	while (k--) {
		struct cgroup_dir *d = &cg->d[k];

		if (cg->entered && (r = join(d->home)) && !ret)
			ret = err_set(err, r,
				      "cannot move iotrial back to "
				      "'%s': %s",
				      d->home, strerror(-r));
		if (d->seq) {
			r = remove_dir(AT_FDCWD, d->path);
			if (r && !ret)
				ret = err_set(err, r,
					      "cannot remove the cgroup '%s': "
					      "%s",
					      d->path, strerror(-r));
			if (!r)
				session_done(cg->s, d->seq, NULL);
		}
		free(d->path);
		free(d->home);
	}
	memset(cg, 0, sizeof(*cg));
	return ret;
}

/*
 * Undo a "cgroup" record: remove the cgroup if it is still one iotrial
 * makes, on a cgroup file system, with no process left in it. A journal
 * is a claim, so the path is checked before anything is removed.
 */
static int undo_rec(const struct jrec *r, const struct undo_ctx *ctx,
		    struct strbuf *why)
{
	struct made_dir d;
	struct statfs fs;
	int ret;

	ret = made_dir_open(&d, r->f[JF_A], &made_cgroup, "it", why);
	if (ret)
		goto out;
	if (fstatfs(d.fd, &fs) < 0)
		ret = err_set(why, -errno, "%s", strerror(errno));
	else if (fs.f_type != CGROUP1_MAGIC && fs.f_type != CGROUP2_MAGIC)
		ret = err_set(why, -EPERM, "it is not on a cgroup file system");
	else if ((ret = remove_dir(d.parent_fd, d.name)) == -EBUSY)
		err_set(why, ret, "processes are still in it");
	else if (ret)
		err_set(why, ret, "%s", strerror(-ret));
out:
	made_dir_close(&d);
	return target_undo_said(r, ret, "removed cgroup", ctx, why);
}

static void describe_rec(const struct journal *j, const struct jrec *r,
			 enum undo_view view, struct strbuf *out)
{
	(void)j;
	strbuf_addf(out, "cgroup '%s'", r->f[JF_A]);
	if (view == UNDO_LIST && r->f[JF_B] && *r->f[JF_B])
		strbuf_addf(out, " (made from '%s')", r->f[JF_B]);
}

const struct undo_ops cgroup_undo_ops = {
    .kind = "cgroup",
    .survives_reboot = 0, /* cgroups are gone after a reboot */
    .undo = undo_rec,
    .describe = describe_rec,
};
