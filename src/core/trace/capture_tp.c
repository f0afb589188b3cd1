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
 * members too), with the size of its type (and its type's id, when
 * type is not NULL); -1 if not there. */
static long btf_member_type(const struct btf *btf, int id, const char *name,
			    long *size, int *type, int depth);

static long btf_member(const struct btf *btf, int id, const char *name,
		       long *size, int depth)
{
	return btf_member_type(btf, id, name, size, NULL, depth);
}

static long btf_member_type(const struct btf *btf, int id, const char *name,
			    long *size, int *type, int depth)
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
			if (type)
				*type = btf__resolve_type(btf, m->type);
			return bits / 8;
		}
		if (mn && *mn)
			continue;
		in = btf_member_type(btf, btf__resolve_type(btf, m->type), name,
				     size, type, depth + 1);
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

/* The offset of field path ("cqe.fd": members of members) in struct
 * type, with its size; -1 when not there. */
static long btf_path(const struct btf *btf, const char *type, const char *path,
		     long *size)
{
	int id = btf__find_by_name_kind(btf, type, BTF_KIND_STRUCT);
	long off = 0;
	char name[64];

	while (id > 0 && *path) {
		size_t n = strcspn(path, ".");
		long o;

		if (n >= sizeof(name))
			return -1;
		memcpy(name, path, n);
		name[n] = 0;
		o = btf_member_type(btf, id, name, size, &id, 0);
		if (o < 0)
			return -1;
		off += o;
		path += n + (path[n] == '.');
	}
	return id > 0 && !*path ? off : -1;
}

int tp_uring_offsets(uint32_t off[IOT_UO__NR])
{
	/* the command area (io_kiocb.cmd) is the operation's own struct:
	 * io_rw for reads and writes, io_sync for fsync */
	static const struct {
		const char *type, *path;
		long size;
		int in_cmd;
	} want[IOT_UO__NR] = {
	    [IOT_UO_FD] = {"io_kiocb", "cqe.fd", 4, 0},
	    [IOT_UO_POS] = {"io_rw", "kiocb.ki_pos", 8, 1},
	    [IOT_UO_LEN] = {"io_rw", "len", 4, 1},
	    [IOT_UO_SYNC_OFF] = {"io_sync", "off", 8, 1},
	    [IOT_UO_SYNC_LEN] = {"io_sync", "len", 8, 1},
	    [IOT_UO_SYNC_FLAGS] = {"io_sync", "flags", 4, 1},
	    [IOT_UO_FILE] = {"io_kiocb", "file", 8, 0},
	    [IOT_UO_F_INODE] = {"file", "f_inode", 8, 0},
	    [IOT_UO_I_INO] = {"inode", "i_ino", 8, 0},
	    [IOT_UO_I_SB] = {"inode", "i_sb", 8, 0},
	    [IOT_UO_S_DEV] = {"super_block", "s_dev", 4, 0},
	};
	struct btf *btf = btf__load_vmlinux_btf();
	long cmd, cmd_size = 0, size = 0, o;
	int i, ret = 0;

	memset(off, 0, IOT_UO__NR * sizeof(*off));
	if (!btf)
		return errno ? -errno : -ENOENT;
	cmd = btf_path(btf, "io_kiocb", "cmd", &cmd_size);
	if (cmd < 0 || cmd_size <= 0)
		ret = -ENOTSUP;
	for (i = 0; i < IOT_UO__NR && !ret; i++) {
		o = btf_path(btf, want[i].type, want[i].path, &size);
		if (o >= 0 && want[i].in_cmd) {
			/* the operation's struct fits the command area */
			if (o + size > cmd_size)
				o = -1;
			else
				o += cmd;
		}
		if (o < 0 || o > 65535 || size != want[i].size)
			ret = -ENOTSUP;
		else
			off[i] = (uint32_t)o;
	}
	btf__free(btf);
	if (ret)
		memset(off, 0, IOT_UO__NR * sizeof(*off));
	return ret;
}

void tp_uring_ops_text(const uint64_t n[256], struct strbuf *out)
{
	struct btf *btf = btf__load_vmlinux_btf();
	const struct btf_type *t = NULL;
	const struct btf_enum *v = NULL;
	const char *name;
	unsigned op, i, vlen = 0;
	int id;

	if (btf) {
		id = btf__find_by_name_kind(btf, "io_uring_op", BTF_KIND_ENUM);
		t = id > 0 ? btf__type_by_id(btf, id) : NULL;
	}
	if (t) {
		v = btf_enum(t);
		vlen = btf_vlen(t);
	}
	for (op = 0; op < 256; op++) {
		if (!n[op])
			continue;
		name = NULL;
		for (i = 0; i < vlen && !name; i++)
			if (v[i].val == (int)op)
				name = btf__name_by_offset(btf, v[i].name_off);
		if (name && !strncmp(name, "IORING_OP_", 10) && name[10]) {
			strbuf_addstr(out, out->len ? ", " : "");
			for (name += 10; *name; name++)
				strbuf_addch(
				    out, (char)((*name >= 'A' && *name <= 'Z')
						    ? *name - 'A' + 'a'
						    : *name));
		} else {
			strbuf_addf(out, "%sopcode %u", out->len ? ", " : "",
				    op);
		}
		strbuf_addf(out, " %llu", (unsigned long long)n[op]);
	}
	btf__free(btf);
}

int tp_uring_format(const char *text, unsigned tp, uint32_t off[IOT_UF__NR])
{
	/* the fields each tracepoint must have, with their sizes (0: 4
	 * or 8, the flags, which grew) */
	static const struct {
		unsigned tp, field;
		const char *name;
		unsigned size;
	} want[] = {
	    {IOT_URING_SUBMIT, IOT_UF_CTX, "ctx", 8},
	    {IOT_URING_SUBMIT, IOT_UF_REQ, "req", 8},
	    {IOT_URING_SUBMIT, IOT_UF_OPCODE, "opcode", 1},
	    {IOT_URING_SUBMIT, IOT_UF_FLAGS, "flags", 0},
	    {IOT_URING_SUBMIT, IOT_UF_SQ_THREAD, "sq_thread", 1},
	    {IOT_URING_COMPLETE, IOT_UF_CTX, "ctx", 8},
	    {IOT_URING_COMPLETE, IOT_UF_REQ, "req", 8},
	    {IOT_URING_COMPLETE, IOT_UF_RES, "res", 4},
	    {IOT_URING_COMPLETE, IOT_UF_CFLAGS, "cflags", 4},
	    {IOT_URING_CREATE, IOT_UF_CTX, "ctx", 8},
	    {IOT_URING_CREATE, IOT_UF_FD, "fd", 4},
	};
	size_t i;

	memset(off, 0, IOT_UF__NR * sizeof(*off));
	for (i = 0; i < ARRAY_SIZE(want); i++) {
		const char *line = text, *name;
		unsigned o = 0, size = 0;
		int found = 0;
		size_t n;

		if (want[i].tp != tp)
			continue;
		while (line && *line && !found) {
			const char *cur = line, *nl = strchr(line, '\n');
			size_t len = nl ? (size_t)(nl - line) : strlen(line);

			line = nl ? nl + 1 : NULL;
			if (format_line(cur, len, &name, &n, &o, &size) ||
			    n != strlen(want[i].name) ||
			    memcmp(name, want[i].name, n))
				continue;
			found = 1;
		}
		/* past the common fields, within what the program reads */
		if (!found || o < 8 || o > 256 ||
		    (want[i].size ? size != want[i].size
				  : size != 4 && size != 8))
			return -ENOTSUP;
		off[want[i].field] = o;
		if (want[i].field == IOT_UF_FLAGS)
			off[IOT_UF_FLAGS_SIZE] = size;
	}
	return 0;
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
