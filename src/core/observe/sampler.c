/*
 * The sampling thread and its time series; see sampler.h for what it
 * reads and why it is built to be cheap. Only one thread ever touches the
 * series at a time: the caller takes the first point before the thread
 * starts and the last after it is joined, so the points need no lock.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "sampler.h"
#include "cpustat.h"
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
		first_error(&ret, r);
	}
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
	sampler_series_release(&s->series);
	pthread_cond_destroy(&s->cond);
	pthread_mutex_destroy(&s->lock);
	memset(s, 0, sizeof(*s));
	s->mem_fd = s->stat_fd = s->io_fd = -1;
}
