/*
 * The sampling thread and its time series; see sampler.h for what it
 * reads and why it is built to be cheap. Only one thread ever touches the
 * series at a time: the caller takes the first point before the thread
 * starts and the last after it is joined, so the points need no lock.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "sampler.h"
#include "cpustat.h"
#include "kvstat.h"
#include "meminfo.h"
#include "procfile.h"
#include "../../util/clock.h"
#include "../../util/error.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* CPU time this thread has used, in ns. */
static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts))
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

int sampler_init(struct sampler *s, const struct sampler_dev *devs, unsigned nr,
		 uint64_t interval_ns, unsigned max_points, struct strbuf *err)
{
	pthread_condattr_t attr;
	unsigned i;

	memset(s, 0, sizeof(*s));
	s->ready = 1;
	pthread_mutex_init(&s->lock, NULL);
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&s->cond, &attr);
	pthread_condattr_destroy(&attr);
	s->interval_ns =
	    interval_ns ? interval_ns : SAMPLER_DEFAULT_INTERVAL_NS;
	s->max_points = max_points;
	s->mem_fd = procfile_open("/proc/meminfo");
	s->stat_fd = procfile_open("/proc/stat");
	s->io_fd = procfile_open("/proc/self/io");
	s->vmstat_fd = procfile_open("/proc/vmstat");
	s->loadavg_fd = procfile_open("/proc/loadavg");
	schedstat_tasks_init(&s->tasks);
	s->cg_stat_fd = s->cg_cur_fd = -1;
	s->page_bytes = (uint64_t)sysconf(_SC_PAGESIZE);
	s->series.nr_devs = nr;
	s->series.dev_names = xcalloc(nr ? nr : 1, sizeof(char *));
	s->dev_fds = xcalloc(nr ? nr : 1, sizeof(int));
	for (i = 0; i < nr; i++)
		s->dev_fds[i] = -1;
	for (i = 0; i < nr; i++) {
		s->series.dev_names[i] = xstrdup(devs[i].name);
		s->dev_fds[i] = procfile_open(devs[i].stat_path);
		if (s->dev_fds[i] < 0) {
			int ret = s->dev_fds[i];

			sampler_release(s);
			return err_set(err, ret,
				       "cannot read the counters of '%s' "
				       "('%s'): %s",
				       devs[i].name, devs[i].stat_path,
				       strerror(-ret));
		}
	}
	return 0;
}

int sampler_watch_cgroup(struct sampler *s, const char *dir, int version)
{
	char path[4096];
	int fd;

	s->cg_stat_fd = procfile_close(s->cg_stat_fd);
	s->cg_cur_fd = procfile_close(s->cg_cur_fd);
	s->series.cg_version = 0;
	snprintf(path, sizeof(path), "%s/memory.stat", dir);
	fd = procfile_open(path);
	if (fd < 0)
		return fd;
	s->cg_stat_fd = fd;
	snprintf(path, sizeof(path), "%s/%s", dir,
		 version == 2 ? "memory.current" : "memory.usage_in_bytes");
	s->cg_cur_fd = procfile_open(path);
	s->series.cg_version = version == 2 ? 2 : 1;
	s->series.cg_memory_max_bytes = 0;
	snprintf(path, sizeof(path), "%s/%s", dir,
		 version == 2 ? "memory.max" : "memory.limit_in_bytes");
	fd = procfile_open(path);
	if (fd >= 0) {
		char buf[64];
		ssize_t n = procfile_read(fd, buf, sizeof(buf));
		size_t pos = 0;
		uint64_t max;

		/* "max" (v2) leaves it 0: no limit */
		if (n > 0 && !procfile_scan_u64(buf, (size_t)n, &pos, &max))
			s->series.cg_memory_max_bytes = max;
		procfile_close(fd);
	}
	return 0;
}

/*
 * The thresholds the kernel computes now (/proc/vmstat, pages), with
 * dirtyable, what /proc/meminfo says it may dirty (0: unknown).
 */
static int sample_vmstat(struct sampler *s, struct sampler_point *p,
			 uint64_t dirtyable)
{
	static const char *const names[] = {"nr_dirty_threshold",
					    "nr_dirty_background_threshold"};
	uint64_t v[2] = {0};
	int r = kvstat_read_fd(s->vmstat_fd, names, 2, v);

	if (r < 0)
		return r;
	if (r != 3 || !dirtyable)
		return 0; /* a kernel without them (before 2.6.37) */
	p->dirty_thresh_bytes = v[0] * s->page_bytes;
	p->dirty_bg_thresh_bytes = v[1] * s->page_bytes;
	p->dirtyable_bytes = dirtyable;
	p->have |= SAMPLER_HAVE_VMSTAT;
	return 0;
}

/* The watched cgroup's dirty and file pages and its use (bytes). */
static int sample_cgroup(struct sampler *s, struct sampler_point *p)
{
	static const char *const v2[] = {"file_dirty", "file_writeback",
					 "active_file", "inactive_file"};
	static const char *const v1[] = {"dirty", "writeback", "active_file",
					 "inactive_file"};
	uint64_t v[4] = {0}, cur = 0;
	char buf[64];
	size_t pos = 0;
	ssize_t n;
	int r = kvstat_read_fd(s->cg_stat_fd,
			       s->series.cg_version == 2 ? v2 : v1, 4, v);

	if (r < 0)
		return r;
	if ((r & 1) != 1)
		return -EINVAL;
	if (s->cg_cur_fd >= 0) {
		n = procfile_read(s->cg_cur_fd, buf, sizeof(buf));
		if (n < 0)
			return (int)n;
		r = procfile_scan_u64(buf, (size_t)n, &pos, &cur);
		if (r)
			return r;
	}
	p->cg_dirty_bytes = v[0];
	p->cg_writeback_bytes = v[1];
	p->cg_file_lru_bytes = v[2] + v[3];
	p->cg_current_bytes = cur;
	p->have |= SAMPLER_HAVE_CG;
	return 0;
}

/* Make room for one more point, dropping the oldest when at max_points. */
static struct sampler_point *next_point(struct sampler *s,
					struct diskstats **out_disk)
{
	struct sampler_series *ser = &s->series;
	unsigned nd = ser->nr_devs;

	if (s->max_points && ser->nr_points >= s->max_points) {
		memmove(ser->points, ser->points + 1,
			(ser->nr_points - 1) * sizeof(*ser->points));
		if (nd)
			memmove(ser->disk, ser->disk + nd,
				(size_t)(ser->nr_points - 1) * nd *
				    sizeof(*ser->disk));
		ser->nr_points--;
	}
	if (ser->nr_points + 1 > ser->alloc_points) {
		unsigned alloc = ser->alloc_points ? ser->alloc_points * 2 : 64;

		ser->points =
		    xrealloc(ser->points, alloc * sizeof(*ser->points));
		ser->disk = xrealloc(ser->disk, (size_t)alloc * (nd ? nd : 1) *
						    sizeof(*ser->disk));
		ser->alloc_points = alloc;
	}
	*out_disk = ser->disk + (size_t)ser->nr_points * nd;
	return &ser->points[ser->nr_points++];
}

/* Remember the first error of a sample. */
static void first_error(int *ret, int r)
{
	if (r < 0 && !*ret)
		*ret = r;
}

int sampler_sample(struct sampler *s)
{
	uint64_t cpu0 = thread_cpu_ns();
	struct diskstats *disk;
	struct sampler_point *p = next_point(s, &disk);
	char buf[4096];
	uint64_t dirtyable = 0;
	unsigned i;
	int ret = 0, r;

	memset(p, 0, sizeof(*p));
	p->t_ns = clock_now_ns();
	for (i = 0; i < s->series.nr_devs; i++) {
		r = diskstats_read_fd(s->dev_fds[i], &disk[i]);
		if (r)
			disk[i].nr_fields = 0;
		first_error(&ret, r);
	}
	if (s->mem_fd >= 0) {
		struct meminfo mi;

		r = meminfo_read_fd(s->mem_fd, &mi);
		if (!r && (mi.have & MEMINFO_DIRTY)) {
			p->dirty_bytes = mi.dirty_bytes;
			p->writeback_bytes = mi.writeback_bytes;
			p->have |= SAMPLER_HAVE_MEM;
		}
		/* what the kernel may let be dirty: free pages and the
		 * file LRU (global_dirtyable_memory(), before reserves) */
		if (!r && (mi.have & MEMINFO_FREE) &&
		    (mi.have & MEMINFO_FILE_LRU))
			dirtyable = mi.free_bytes + mi.active_file_bytes +
				    mi.inactive_file_bytes;
		first_error(&ret, r);
	}
	if (s->vmstat_fd >= 0)
		first_error(&ret, sample_vmstat(s, p, dirtyable));
	if (s->cg_stat_fd >= 0)
		first_error(&ret, sample_cgroup(s, p));
	if (s->stat_fd >= 0) {
		/* the "cpu " line comes first; the rest may be long */
		ssize_t n = procfile_read(s->stat_fd, buf, sizeof(buf));

		r = n < 0 ? (int)n
			  : cpustat_parse_proc_stat(buf, &p->cpu_busy_ticks,
						    &p->cpu_total_ticks, NULL);
		if (!r)
			p->have |= SAMPLER_HAVE_CPU;
		first_error(&ret, r);
	}
	if (s->io_fd >= 0) {
		r = procio_read_fd(s->io_fd, &p->io);
		if (!r)
			p->have |= SAMPLER_HAVE_IO;
		first_error(&ret, r);
	}
	/* no schedstat in the kernel is no read error: it is not there */
	if (!schedstat_tasks_read(&s->tasks)) {
		p->sched_run_ns = s->tasks.run_ns;
		p->sched_wait_ns = s->tasks.wait_ns;
		p->have |= SAMPLER_HAVE_SCHED;
	}
	p->wake_late_ns = s->wake_late_ns;
	if (s->loadavg_fd >= 0) {
		ssize_t n = procfile_read(s->loadavg_fd, buf, sizeof(buf));

		if (n > 0 && !schedstat_parse_loadavg(buf, &p->runnable))
			p->have |= SAMPLER_HAVE_RUNQ;
	}
	if (ret)
		s->read_errors++;
	s->cpu_ns += thread_cpu_ns() - cpu0;
	return ret;
}

/* The thread: sample at absolute deadlines until told to stop. */
static void *sampler_thread(void *arg)
{
	struct sampler *s = arg;
	uint64_t cpu0 = thread_cpu_ns(), sampled0 = s->cpu_ns;
	uint64_t deadline = clock_now_ns();

	pthread_mutex_lock(&s->lock);
	while (!s->stop) {
		struct timespec ts;
		uint64_t now;

		deadline += s->interval_ns;
		ts.tv_sec = (time_t)(deadline / 1000000000ull);
		ts.tv_nsec = (long)(deadline % 1000000000ull);
		while (!s->stop && pthread_cond_timedwait(&s->cond, &s->lock,
							  &ts) != ETIMEDOUT)
			;
		if (s->stop)
			break;
		pthread_mutex_unlock(&s->lock);
		now = clock_now_ns();
		if (now > deadline)
			s->wake_late_ns += now - deadline;
		sampler_sample(s);
		now = clock_now_ns();
		if (now > deadline + s->interval_ns) /* fell behind: skip */
			deadline = now;
		pthread_mutex_lock(&s->lock);
	}
	pthread_mutex_unlock(&s->lock);
	/* count the whole thread, wake-ups included, not just the reads */
	s->cpu_ns = sampled0 + (thread_cpu_ns() - cpu0);
	return NULL;
}

int sampler_start(struct sampler *s, struct strbuf *err)
{
	int ret;

	if (s->running)
		sampler_stop(s);
	s->series.nr_points = 0;
	s->stop = 0;
	s->cpu_ns = 0;
	s->wake_late_ns = 0;
	schedstat_tasks_release(&s->tasks);
	s->read_errors = 0;
	sampler_sample(s);
	ret = pthread_create(&s->thread, NULL, sampler_thread, s);
	if (ret)
		return err_set(err, -ret, "cannot start the sampler thread: %s",
			       strerror(ret));
	s->running = 1;
	return 0;
}

void sampler_stop(struct sampler *s)
{
	if (s->running) {
		pthread_mutex_lock(&s->lock);
		s->stop = 1;
		pthread_cond_signal(&s->cond);
		pthread_mutex_unlock(&s->lock);
		pthread_join(s->thread, NULL);
		s->running = 0;
	}
	sampler_sample(s);
}

const struct diskstats *sampler_disk(const struct sampler_series *ser,
				     unsigned p, unsigned d)
{
	return &ser->disk[(size_t)p * ser->nr_devs + d];
}

void sampler_take_series(struct sampler *s, struct sampler_series *out)
{
	unsigned i, nd = s->series.nr_devs;

	*out = s->series;
	memset(&s->series, 0, sizeof(s->series));
	/* the sampler keeps sampling the same devices */
	s->series.nr_devs = nd;
	s->series.cg_version = out->cg_version;
	s->series.cg_memory_max_bytes = out->cg_memory_max_bytes;
	s->series.dev_names = xcalloc(nd ? nd : 1, sizeof(char *));
	for (i = 0; i < nd; i++)
		s->series.dev_names[i] = xstrdup(out->dev_names[i]);
}

void sampler_series_release(struct sampler_series *ser)
{
	unsigned i;

	if (!ser)
		return;
	for (i = 0; ser->dev_names && i < ser->nr_devs; i++)
		free(ser->dev_names[i]);
	free(ser->dev_names);
	free(ser->points);
	free(ser->disk);
	memset(ser, 0, sizeof(*ser));
}

void sampler_release(struct sampler *s)
{
	unsigned i;

	if (!s || !s->ready)
		return;
	if (s->running) {
		pthread_mutex_lock(&s->lock);
		s->stop = 1;
		pthread_cond_signal(&s->cond);
		pthread_mutex_unlock(&s->lock);
		pthread_join(s->thread, NULL);
		s->running = 0;
	}
	for (i = 0; s->dev_fds && i < s->series.nr_devs; i++)
		procfile_close(s->dev_fds[i]);
	free(s->dev_fds);
	procfile_close(s->mem_fd);
	procfile_close(s->stat_fd);
	procfile_close(s->io_fd);
	procfile_close(s->vmstat_fd);
	procfile_close(s->loadavg_fd);
	schedstat_tasks_release(&s->tasks);
	procfile_close(s->cg_stat_fd);
	procfile_close(s->cg_cur_fd);
	sampler_series_release(&s->series);
	pthread_cond_destroy(&s->cond);
	pthread_mutex_destroy(&s->lock);
	memset(s, 0, sizeof(*s));
	s->mem_fd = s->stat_fd = s->io_fd = -1;
	s->vmstat_fd = s->cg_stat_fd = s->cg_cur_fd = -1;
	s->loadavg_fd = -1;
}
