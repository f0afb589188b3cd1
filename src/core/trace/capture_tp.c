/*
 * The kernel's side of the capture that libbpf does not do for it: the
 * tracing file system's events (ids and layouts of the tracepoints),
 * attaching a program to a tracepoint by id, and the offsets of the
 * kernel's structures an open's exit reads, from the kernel's BTF. See
 * capture-int.h.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/mount.h>
#include <linux/perf_event.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "capture-int.h"
#include "../../util/strbuf.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* Where sched_process_fork keeps child_pid, from its format file; 0
 * when not known. */
unsigned tp_fork_child_offset(int dir)
{
	struct strbuf text = STRBUF_INIT;
	unsigned off = 0, size = 0;
	char *p, *o;

	if (!tp_read(dir, "sched", "sched_process_fork", "format", &text) &&
	    (p = strstr(text.buf, " child_pid;")) &&
	    (o = strstr(p, "offset:")) &&
	    (sscanf(o, "offset:%u;\tsize:%u", &off, &size) != 2 || size != 4))
		off = 0;
	strbuf_release(&text);
	return off;
}

#define CGROUP2_MAGIC 0x63677270 /* statfs's f_type of a cgroup2 */

int tp_cgroup_level(const char *dir, unsigned *level)
{
	struct strbuf p = STRBUF_INIT;
	struct statfs fs;
	int ret = 0;

	*level = 0;
	if (statfs(dir, &fs) || fs.f_type != CGROUP2_MAGIC)
		return -EINVAL;
	strbuf_addstr(&p, dir);
	/* each parent still in the hierarchy is a level above dir's */
	for (;;) {
		char *slash;

		while (p.len > 1 && p.buf[p.len - 1] == '/')
			strbuf_setlen(&p, p.len - 1);
		slash = strrchr(p.buf, '/');
		if (!slash)
			break;
		strbuf_setlen(&p, slash == p.buf ? 1 : (size_t)(slash - p.buf));
		if (statfs(p.buf, &fs) || fs.f_type != CGROUP2_MAGIC)
			break;
		if (++*level > 64) {
			ret = -ELOOP;
			break;
		}
		if (p.len == 1)
			break;
	}
	strbuf_release(&p);
	return ret;
}

/* A tracefs of its own, attached to no directory (gone when closed). */
static int tracefs_detached(void)
{
#if defined(SYS_fsopen) && defined(SYS_fsconfig) && defined(SYS_fsmount)
	int fs, mnt;

	fs = (int)syscall(SYS_fsopen, "tracefs", 1 /* FSOPEN_CLOEXEC */);
	if (fs < 0)
		return -errno;
	if (syscall(SYS_fsconfig, fs, FSCONFIG_CMD_CREATE, NULL, NULL, 0)) {
		int e = -errno;

		close(fs);
		return e;
	}
	mnt = (int)syscall(SYS_fsmount, fs, FSMOUNT_CLOEXEC, 0);
	if (mnt < 0)
		mnt = -errno;
	close(fs);
	return mnt;
#else
	return -ENOSYS;
#endif
}

int tp_events_open(int *own)
{
	static const char *const dirs[] = {"/sys/kernel/tracing/events",
					   "/sys/kernel/debug/tracing/events"};
	size_t i;
	int fd, mnt;

	*own = 0;
	for (i = 0; i < ARRAY_SIZE(dirs); i++) {
		fd = open(dirs[i], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd >= 0)
			return fd;
	}
	mnt = tracefs_detached();
	if (mnt < 0)
		return mnt;
	fd = openat(mnt, "events", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		fd = -errno;
	close(mnt); /* the directory keeps the mount */
	if (fd >= 0)
		*own = 1;
	return fd;
}

int tp_read(int dir, const char *cat, const char *name, const char *file,
	    struct strbuf *out)
{
	struct strbuf path = STRBUF_INIT;
	int ret;

	strbuf_reset(out);
	strbuf_addf(&path, "/proc/self/fd/%d/%s/%s/%s", dir, cat, name, file);
	ret = strbuf_read_file(out, path.buf, 65536);
	strbuf_release(&path);
	return ret;
}

struct bpf_link *tp_attach(int dir, struct bpf_program *prog, const char *cat,
			   const char *name)
{
	struct strbuf id = STRBUF_INIT;
	struct perf_event_attr attr;
	struct bpf_link *link;
	long pfd;
	int e;

	if (tp_read(dir, cat, name, "id", &id)) {
		strbuf_release(&id);
		errno = ENOENT;
		return NULL;
	}
	memset(&attr, 0, sizeof(attr));
	attr.type = PERF_TYPE_TRACEPOINT;
	attr.size = sizeof(attr);
	attr.config = strtoull(id.buf, NULL, 10);
	strbuf_release(&id);
	/* the program runs on every CPU whichever CPU the event is on */
	pfd = syscall(SYS_perf_event_open, &attr, -1, 0, -1,
		      PERF_FLAG_FD_CLOEXEC);
	if (pfd < 0)
		return NULL;
	link = bpf_program__attach_perf_event(prog, (int)pfd);
	if (!link) {
		e = errno;
		close((int)pfd);
		errno = e;
	}
	return link;
}

/* Field line's name (before the first ';'), offset and size: 0, or
 * -1 for a line that is no field ("\tfield:TYPE NAME;\toffset:O;\tsize:S;"). */
static int format_line(const char *line, size_t len, const char **name,
		       size_t *n, unsigned *off, unsigned *size)
{
	const char *semi = memchr(line, ';', len), *s;

	if (len < 7 || memcmp(line, "\tfield:", 7) || !semi)
		return -1;
	for (s = semi; s > line && !strchr(" *\t:", s[-1]); s--)
		;
	*name = s;
	*n = (size_t)(semi - s);
	return sscanf(semi + 1, "\toffset:%u;\tsize:%u;", off, size) == 2 ? 0
									  : -1;
}

int tp_syscall_nargs(const char *text, int exit)
{
	const char *line = text, *name;
	unsigned off, size, nargs = 0;
	int nr = 0, ret = 0;
	size_t n;

	while (line && *line) {
		const char *cur = line, *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);

		line = nl ? nl + 1 : NULL;
		if (format_line(cur, len, &name, &n, &off, &size))
			continue;
		if (n == 12 && !memcmp(name, "__syscall_nr", 12)) {
			nr = off == 8 && size == 4;
			continue;
		}
		if (off < 16)
			continue; /* the common fields */
		if (exit) {	  /* ret, a long at 16 */
			ret = n == 3 && !memcmp(name, "ret", 3) && off == 16 &&
			      size == 8;
			if (!ret)
				return -ENOTSUP;
			continue;
		}
		/* the arguments, 8 bytes each from 16 */
		if (off != 16 + 8 * nargs || size != 8 || nargs == 6)
			return -ENOTSUP;
		nargs++;
	}
	if (!nr || (exit && !ret))
		return -ENOTSUP;
	return exit ? 0 : (int)nargs;
}

/* The byte offset of member name of struct id (in its anonymous
 * members too), with the size of its type; -1 if not there. */
static long btf_member(const struct btf *btf, int id, const char *name,
		       long *size, int depth)
{
	const struct btf_type *t = btf__type_by_id(btf, id);
	const struct btf_member *m;
	int i;

	if (!t || depth > 4 || (!btf_is_struct(t) && !btf_is_union(t)))
		return -1;
	m = btf_members(t);
	for (i = 0; i < btf_vlen(t); i++, m++) {
		const char *mn = btf__name_by_offset(btf, m->name_off);
		long bits = (long)btf_member_bit_offset(t, (__u32)i), in;

		if (btf_member_bitfield_size(t, (__u32)i) || bits % 8)
			continue;
		if (mn && !strcmp(mn, name)) {
			*size = btf__resolve_size(btf, m->type);
			return bits / 8;
		}
		if (mn && *mn)
			continue;
		in = btf_member(btf, btf__resolve_type(btf, m->type), name,
				size, depth + 1);
		if (in >= 0)
			return bits / 8 + in;
	}
	return -1;
}

int tp_kernel_offsets(uint32_t off[IOT_KO__NR])
{
	static const struct {
		const char *type, *member;
		long size;
	} want[IOT_KO__NR] = {
	    [IOT_KO_FILES] = {"task_struct", "files", 8},
	    [IOT_KO_FDT] = {"files_struct", "fdt", 8},
	    [IOT_KO_MAX_FDS] = {"fdtable", "max_fds", 4},
	    [IOT_KO_FD] = {"fdtable", "fd", 8},
	    [IOT_KO_F_MODE] = {"file", "f_mode", 4},
	    [IOT_KO_F_INODE] = {"file", "f_inode", 8},
	    [IOT_KO_I_MODE] = {"inode", "i_mode", 2},
	    [IOT_KO_I_SIZE] = {"inode", "i_size", 8},
	    [IOT_KO_I_MAPPING] = {"inode", "i_mapping", 8},
	    [IOT_KO_NRPAGES] = {"address_space", "nrpages", 8},
	};
	struct btf *btf = btf__load_vmlinux_btf();
	int i, ret = 0;

	memset(off, 0, IOT_KO__NR * sizeof(*off));
	if (!btf)
		return errno ? -errno : -ENOENT;
	for (i = 0; i < IOT_KO__NR && !ret; i++) {
		int id =
		    btf__find_by_name_kind(btf, want[i].type, BTF_KIND_STRUCT);
		long size = 0,
		     o = id > 0 ? btf_member(btf, id, want[i].member, &size, 0)
				: -1;

		if (o < 0 || o > 65535 || size != want[i].size)
			ret = -ENOTSUP;
		else
			off[i] = (uint32_t)o;
	}
	btf__free(btf);
	if (ret)
		memset(off, 0, IOT_KO__NR * sizeof(*off));
	return ret;
}

/*
 * Let the tracepoints go. The kernel lets go of a tracepoint's last perf
 * event only after an RCU grace period, one tracepoint at a time (under
 * its event_mutex): with the hundred of the per-syscall programs that
 * is seconds (60-100 ms each on a loaded 2-CPU machine). The programs
 * were told to stop (they return at once), so a child of our own closes
 * the events, out of the way: its stdio on /dev/null, every other
 * descriptor closed; this process's closes are not the last and are
 * quick. Without a child (fork fails), here.
 */
void tp_detach(struct bpf_link **links, size_t n)
{
	size_t i;
	pid_t pid = -1;

	if (n > 8)
		pid = fork();
	if (!pid) {
		char link[64], path[64];
		struct dirent *d;
		DIR *dir = opendir("/proc/self/fd");
		int fd = open("/dev/null", O_RDWR | O_CLOEXEC), dfd;

		setsid();
		/* nor the capture's directory: a file system its command
		 * ran in would stay busy (umount refused) until done */
		if (chdir("/"))
			_exit(0);
		if (fd >= 0) {
			dup2(fd, 0);
			dup2(fd, 1);
			dup2(fd, 2);
		}
		dfd = dir ? dirfd(dir) : -1;
		while (dir && (d = readdir(dir))) {
			int k = atoi(d->d_name);
			ssize_t len;

			if (k <= 2 || k == dfd)
				continue;
			snprintf(path, sizeof(path), "/proc/self/fd/%d", k);
			len = readlink(path, link, sizeof(link) - 1);
			link[len > 0 ? len : 0] = 0;
			if (strcmp(link, "anon_inode:[perf_event]") &&
			    strcmp(link, "anon_inode:bpf_link"))
				close(k);
		}
		if (dir)
			closedir(dir);
		for (i = 0; i < n; i++)
			bpf_link__destroy(links[i]);
		_exit(0);
	}
	for (i = 0; i < n; i++)
		bpf_link__destroy(links[i]);
	if (pid > 0)
		waitpid(pid, NULL, WNOHANG);
}
