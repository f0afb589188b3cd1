/*
 * Readers of the scheduler's view of our threads; see schedstat.h for
 * why these two numbers and not the process's CPU time.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "schedstat.h"
#include "procfile.h"
#include "procio.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

void schedstat_tasks_init(struct schedstat_tasks *t)
{
	memset(t, 0, sizeof(*t));
}

void schedstat_tasks_release(struct schedstat_tasks *t)
{
	if (!t)
		return;
	free(t->v);
	memset(t, 0, sizeof(*t));
}

int schedstat_parse(const char *text, uint64_t *run_ns, uint64_t *wait_ns)
{
	size_t len = strlen(text), pos = 0;

	if (procfile_scan_u64(text, len, &pos, run_ns) ||
	    procfile_scan_u64(text, len, &pos, wait_ns))
		return -EINVAL;
	return 0;
}

int schedstat_parse_loadavg(const char *text, unsigned *out_running)
{
	const char *slash = strchr(text, '/');
	const char *p;
	uint64_t v;
	size_t pos = 0;

	if (!slash)
		return -EINVAL;
	for (p = slash; p > text && p[-1] >= '0' && p[-1] <= '9'; p--)
		;
	if (p == slash || procfile_scan_u64(p, (size_t)(slash - p), &pos, &v) ||
	    v > 1000000)
		return -EINVAL;
	*out_running = (unsigned)v;
	return 0;
}

/* The known entry of tid, or NULL. */
static struct schedstat_task *find(struct schedstat_tasks *t, pid_t tid)
{
	unsigned i;

	for (i = 0; i < t->nr; i++)
		if (t->v[i].tid == tid)
			return &t->v[i];
	return NULL;
}

/* One thread's reading: add its increment, or remember it when new. */
static void account(struct schedstat_tasks *t, pid_t tid, uint64_t run_ns,
		    uint64_t wait_ns)
{
	struct schedstat_task *k = find(t, tid);

	if (!k) {
		ALLOC_GROW(t->v, t->nr + 1, t->alloc);
		k = &t->v[t->nr++];
		k->tid = tid;
	} else if (run_ns >= k->run_ns && wait_ns >= k->wait_ns) {
		t->run_ns += run_ns - k->run_ns;
		t->wait_ns += wait_ns - k->wait_ns;
	}
	k->run_ns = run_ns;
	k->wait_ns = wait_ns;
	k->seen = t->reading;
}

int schedstat_tasks_read(struct schedstat_tasks *t)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *de;
	unsigned i, kept = 0, found = 0;
	int dfd;

	if (!d)
		return -errno;
	dfd = dirfd(d);
	t->reading++;
	while ((de = readdir(d))) {
		char path[64], buf[128];
		uint64_t run_ns, wait_ns;
		long tid;
		ssize_t n;
		int fd;

		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		tid = strtol(de->d_name, NULL, 10);
		if (tid <= 0 || tid > 0x3fffffff)
			continue;
		snprintf(path, sizeof(path), "%ld/schedstat", tid);
		fd = openat(dfd, path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue; /* gone, or no schedstat in this kernel */
		n = procfile_read(fd, buf, sizeof(buf));
		close(fd);
		if (n <= 0 || schedstat_parse(buf, &run_ns, &wait_ns))
			continue;
		account(t, (pid_t)tid, run_ns, wait_ns);
		found++;
	}
	closedir(d);
	/* forget the threads that are gone */
	for (i = 0; i < t->nr; i++)
		if (t->v[i].seen == t->reading)
			t->v[kept++] = t->v[i];
	t->nr = kept;
	return found ? 0 : -ENOENT;
}

/* The parent and process group of a process from its stat text ("PID
 * (COMM) S PPID PGRP ..."); -1 when unreadable. */
static long stat_ppid(const char *buf, long *out_pgrp)
{
	const char *p = strrchr(buf, ')');
	size_t pos = 0;
	uint64_t ppid, pgrp;

	*out_pgrp = -1;
	if (!p || !p[1] || !p[2] || !p[3])
		return -1;
	p += 4;
	if (procfile_scan_u64(p, strlen(p), &pos, &ppid) ||
	    procfile_scan_u64(p, strlen(p), &pos, &pgrp))
		return -1;
	*out_pgrp = (long)pgrp;
	return (long)ppid;
}

int schedstat_is_other(const char *stat_text, pid_t group)
{
	long pgrp, ppid = stat_ppid(stat_text, &pgrp);

	/* a kernel thread, or one of ours (compare --duet's other runs are
	 * its process group) */
	return ppid >= 0 && ppid != 2 && pgrp >= 0 && pgrp != group;
}

int schedstat_others_io(uint64_t *out_read_bytes, uint64_t *out_write_bytes)
{
	DIR *d = opendir("/proc");
	pid_t self = getpid(), group = getpgrp();
	struct dirent *de;
	int dfd;

	*out_read_bytes = *out_write_bytes = 0;
	if (!d)
		return -errno;
	dfd = dirfd(d);
	while ((de = readdir(d))) {
		char path[64], buf[512];
		struct procio io;
		long pid;
		ssize_t n;
		int fd;

		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		pid = strtol(de->d_name, NULL, 10);
		if (pid <= 2 || pid == self || pid > 0x3fffffff)
			continue;
		snprintf(path, sizeof(path), "%ld/stat", pid);
		fd = openat(dfd, path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		n = procfile_read(fd, buf, sizeof(buf));
		close(fd);
		if (n <= 0 || !schedstat_is_other(buf, group))
			continue;
		snprintf(path, sizeof(path), "%ld/io", pid);
		fd = openat(dfd, path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		n = procfile_read(fd, buf, sizeof(buf));
		close(fd);
		if (n <= 0 || procio_parse(buf, (size_t)n, &io))
			continue;
		*out_read_bytes += io.read_bytes;
		*out_write_bytes += io.write_bytes;
	}
	closedir(d);
	return 0;
}
