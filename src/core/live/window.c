/*
 * One window's measurements (window.h). The device and memory come
 * from the same readers the sampler uses (observe/diskstats.c,
 * observe/meminfo.c); the user's number from a command or a log file.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "window.h"
#include "../../util/clock.h"
#include "../../util/error.h"
#include "../../util/text.h"
#include "../../util/userfile.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

#define LW_CMD_MAX_OUTPUT 4096
#define LW_LOG_MAX_READ	  (16u << 20) /* per window */

static void source_zero(struct lw_source *src)
{
	memset(src, 0, sizeof(*src));
	src->fd = -1;
	strbuf_init(&src->partial, 0);
}

int lw_source_cmd(struct lw_source *src, const char *cmd, bool counter,
		  struct strbuf *err)
{
	(void)err;
	source_zero(src);
	src->kind = LW_SRC_CMD;
	src->cmd = xstrdup(cmd);
	src->counter = counter;
	return 0;
}

/* --metric-file names what is not a log (mode): -EINVAL, err set. */
static int not_a_log(const char *path, unsigned mode, struct strbuf *err)
{
	return err_set(err, -EINVAL,
		       "cannot follow --metric-file '%s': %s, not a regular "
		       "file (a log is followed as it grows)",
		       path, userfile_kind(mode));
}

int lw_source_file(struct lw_source *src, const char *path, const char *re,
		   struct strbuf *err)
{
	char msg[256];
	int rc;

	struct stat st;

	source_zero(src);
	src->kind = LW_SRC_FILE;
	src->path = xstrdup(path);
	/* a log missing yet is said when it is opened, at the start */
	if (!stat(path, &st) && !S_ISREG(st.st_mode))
		return not_a_log(path, st.st_mode, err);
	rc = regcomp(&src->re, re, REG_EXTENDED);
	if (rc) {
		regerror(rc, &src->re, msg, sizeof(msg));
		return err_set(err, -EINVAL,
			       "cannot use --metric-regex '%s': %s", re, msg);
	}
	src->re_ok = true;
	src->extract = src->re.re_nsub > 0;
	return 0;
}

void lw_source_release(struct lw_source *src)
{
	if (!src)
		return;
	if (src->fd >= 0)
		close(src->fd);
	if (src->re_ok)
		regfree(&src->re);
	free(src->cmd);
	free(src->path);
	strbuf_release(&src->partial);
	src->fd = -1;
	src->re_ok = false;
	src->cmd = src->path = NULL;
}

int lw_cmd_number(const char *cmd, const char *out, size_t len, double *v,
		  struct strbuf *err)
{
	struct strbuf o = STRBUF_INIT;
	char *end;
	int ret = 0;

	strbuf_add(&o, out, len);
	strbuf_trim(&o);
	errno = 0;
	*v = strtod(o.buf, &end);
	if (end == o.buf || errno || !isfinite(*v)) {
		/* its start, whole characters, nothing for a terminal */
		size_t n = o.len < 40 ? o.len : 40;

		while (n < o.len && n &&
		       ((unsigned char)o.buf[n] & 0xc0) == 0x80)
			n--;
		strbuf_setlen(&o, n);
		text_make_printable(o.buf);
		ret = err_set(err, -EINVAL,
			      "--metric-cmd '%s' printed no number ('%s')", cmd,
			      o.buf);
		*v = NAN;
	}
	strbuf_release(&o);
	return ret;
}

/* Run src's command and parse the first number it prints. */
static int run_cmd(struct lw_source *src, double *out, struct strbuf *err)
{
	struct strbuf o = STRBUF_INIT;
	char buf[512];
	FILE *p = popen(src->cmd, "r");
	size_t n;
	int st, ret = 0;

	if (!p)
		return err_set(err, -errno, "cannot run --metric-cmd '%s': %s",
			       src->cmd, strerror(errno));
	while ((n = fread(buf, 1, sizeof(buf), p)) > 0)
		if (o.len < LW_CMD_MAX_OUTPUT)
			strbuf_add(&o, buf, n);
	st = pclose(p);
	if (st == -1 || !WIFEXITED(st) || WEXITSTATUS(st))
		ret = err_set(err, -EIO, "--metric-cmd '%s' failed (status %d)",
			      src->cmd, st == -1 ? -1 : WEXITSTATUS(st));
	else
		ret = lw_cmd_number(src->cmd, o.buf, o.len, out, err);
	strbuf_release(&o);
	return ret;
}

/* Open the log (again, after it was rotated away) and seek to its end
 * when at_end, else to its start. */
static int open_log(struct lw_source *src, bool at_end, struct strbuf *err)
{
	struct stat st;

	if (src->fd >= 0)
		close(src->fd);
	/* O_NONBLOCK: a FIFO put there is refused, not waited on */
	src->fd = open(src->path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (src->fd < 0)
		return err_set(err, -errno,
			       "cannot open --metric-file '%s': %s", src->path,
			       strerror(errno));
	if (fstat(src->fd, &st))
		return err_set(err, -errno, "cannot stat '%s': %s", src->path,
			       strerror(errno));
	if (!S_ISREG(st.st_mode)) {
		close(src->fd);
		src->fd = -1;
		return not_a_log(src->path, st.st_mode, err);
	}
	src->pos = at_end ? st.st_size : 0;
	strbuf_reset(&src->partial);
	src->too_long = false;
	return 0;
}

int lw_source_start(struct lw_source *src, struct strbuf *err)
{
	if (src->kind == LW_SRC_FILE)
		return open_log(src, true, err);
	if (src->kind == LW_SRC_CMD && src->counter) {
		int ret = run_cmd(src, &src->last, err);

		src->have_last = !ret;
		return ret;
	}
	return 0;
}

/* One complete line of the log against the regex. */
static void match_line(struct lw_source *src, const char *line,
		       struct lw_tally *t)
{
	regmatch_t m[2];
	char *end;
	double v;

	if (regexec(&src->re, line, 2, m, 0))
		return;
	t->lines++;
	if (!src->extract || m[1].rm_so < 0)
		return;
	v = strtod(line + m[1].rm_so, &end);
	if (end != line + m[1].rm_so && isfinite(v)) {
		t->sum += v;
		t->nr++;
	}
}

/* Hold n more bytes of the line being read, unless it is too long. */
static void hold(struct lw_source *src, const char *p, size_t n)
{
	if (src->too_long)
		return;
	if (src->partial.len + n > LW_LINE_MAX) {
		src->too_long = true;
		strbuf_reset(&src->partial);
		return;
	}
	strbuf_add(&src->partial, p, n);
}

void lw_log_feed(struct lw_source *src, const char *buf, size_t n,
		 struct lw_tally *t)
{
	size_t i, start = 0;

	for (i = 0; i < n; i++) {
		if (buf[i] != '\n')
			continue;
		hold(src, buf + start, i - start);
		/* a NUL inside a line ends what the regex sees of it */
		if (!src->too_long)
			match_line(src, src->partial.buf, t);
		strbuf_reset(&src->partial);
		src->too_long = false;
		start = i + 1;
	}
	hold(src, buf + start, n - start);
}

/* The log's lines added since the last window: count per second, or the
 * mean of the extracted numbers. A file now shorter than what was read
 * was truncated or replaced: it is read again from its start. */
static int read_log(struct lw_source *src, double seconds, double *out,
		    struct strbuf *err)
{
	struct lw_tally t = {0};
	struct stat st, now;
	char buf[8192];
	size_t total = 0;
	int ret;

	if (src->fd < 0 || fstat(src->fd, &st) ||
	    (!stat(src->path, &now) &&
	     (now.st_ino != st.st_ino || now.st_dev != st.st_dev))) {
		ret = open_log(src, false, err);
		if (ret)
			return ret;
	} else if (st.st_size < src->pos) {
		src->pos = 0;
		strbuf_reset(&src->partial);
		src->too_long = false;
	}
	while (total < LW_LOG_MAX_READ) {
		ssize_t n = pread(src->fd, buf, sizeof(buf), src->pos);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return err_set(err, -errno, "cannot read '%s': %s",
				       src->path, strerror(errno));
		if (!n)
			break;
		src->pos += n;
		total += (size_t)n;
		lw_log_feed(src, buf, (size_t)n, &t);
	}
	if (src->extract) {
		*out = t.nr ? t.sum / t.nr : NAN;
		if (!t.nr)
			return err_set(err, -ENODATA,
				       "no line of '%s' matched --metric-regex "
				       "with a number in this window",
				       src->path);
		return 0;
	}
	*out = seconds > 0 ? t.lines / seconds : NAN;
	return 0;
}

/* Does a v1 blkio cgroup have a throttle rule for devno (without one
 * the kernel keeps no statistics for the device)? */
static bool v1_has_rule(const char *dir, const char *devno)
{
	static const char *const files[] = {"blkio.throttle.read_bps_device",
					    "blkio.throttle.write_bps_device",
					    "blkio.throttle.read_iops_device",
					    "blkio.throttle.write_iops_device"};
	struct strbuf p = STRBUF_INIT, t = STRBUF_INIT;
	size_t i, n = strlen(devno);
	bool found = false;

	for (i = 0; i < sizeof(files) / sizeof(*files) && !found; i++) {
		const char *line;

		strbuf_setf(&p, "%s/%s", dir, files[i]);
		if (strbuf_read_file(&t, p.buf, 1 << 16) < 0)
			continue;
		for (line = t.buf; *line && !found;) {
			const char *nl = strchr(line, '\n');

			found = !strncmp(line, devno, n) && line[n] == ' ';
			line = nl ? nl + 1 : line + strlen(line);
		}
	}
	strbuf_release(&p);
	strbuf_release(&t);
	return found;
}

int lw_cgroup_open(struct lw_cgroup *cg, const char *dir, const char *disk,
		   struct strbuf *err)
{
	struct strbuf p = STRBUF_INIT, dev = STRBUF_INIT;
	int ret = 0;

	memset(cg, 0, sizeof(*cg));
	if (!disk)
		return err_set(
		    err, -EINVAL,
		    "--cgroup needs the device: give -t or --device");
	strbuf_addf(&p, "%s/io.stat", dir);
	if (!access(p.buf, R_OK)) {
		cg->v2 = true;
	} else {
		strbuf_setf(&p, "%s/blkio.throttle.io_serviced", dir);
		if (access(p.buf, R_OK))
			ret = err_set(err, -ENOENT,
				      "'%s' is no cgroup with I/O statistics "
				      "(no io.stat, no "
				      "blkio.throttle.io_serviced)",
				      dir);
	}
	strbuf_setf(&p, "/sys/block/%s/dev", disk);
	if (!ret && strbuf_read_file(&dev, p.buf, 64) < 0)
		ret = err_set(err, -ENODEV, "cannot read '%s'", p.buf);
	if (!ret) {
		strbuf_trim(&dev);
		snprintf(cg->devno, sizeof(cg->devno), "%s", dev.buf);
		cg->dir = xstrdup(dir);
	}
	if (!ret && !cg->v2 && !v1_has_rule(dir, cg->devno))
		ret = err_set(err, -EOPNOTSUPP,
			      "a cgroup v1 blkio hierarchy counts a cgroup's "
			      "I/O on '%s' only while a throttle rule for it "
			      "is set; set one that does not limit (echo "
			      "'%s 100000000000' > %s/"
			      "blkio.throttle.write_bps_device), or use cgroup "
			      "v2",
			      disk, cg->devno, dir);
	strbuf_release(&p);
	strbuf_release(&dev);
	return ret;
}

void lw_cgroup_release(struct lw_cgroup *cg)
{
	if (cg)
		free(cg->dir);
	if (cg)
		cg->dir = NULL;
}

/* The number after "key=" in a v2 io.stat line. */
static uint64_t stat_key(const char *line, const char *key)
{
	const char *p = strstr(line, key);

	return p ? strtoull(p + strlen(key), NULL, 10) : 0;
}

/* Sum the v1 lines "MAJ:MIN Read N" / "MAJ:MIN Write N" of a file. */
static int v1_file(const char *dir, const char *name, const char *devno,
		   uint64_t *rd, uint64_t *wr)
{
	struct strbuf p = STRBUF_INIT, t = STRBUF_INIT;
	size_t n = strlen(devno);
	const char *line;
	int ret;

	strbuf_addf(&p, "%s/%s", dir, name);
	ret = strbuf_read_file(&t, p.buf, 1 << 20);
	for (line = t.buf; ret >= 0 && *line;) {
		const char *nl = strchr(line, '\n');

		if (!strncmp(line, devno, n) && line[n] == ' ') {
			if (!strncmp(line + n + 1, "Read ", 5))
				*rd = strtoull(line + n + 6, NULL, 10);
			else if (!strncmp(line + n + 1, "Write ", 6))
				*wr = strtoull(line + n + 7, NULL, 10);
		}
		line = nl ? nl + 1 : line + strlen(line);
	}
	strbuf_release(&p);
	strbuf_release(&t);
	return ret < 0 ? ret : 0;
}

/* The cgroup's counters for its device into out. */
static void read_cgroup(const struct lw_cgroup *cg, struct lw_reading *out)
{
	struct strbuf p = STRBUF_INIT, t = STRBUF_INIT;
	size_t n = strlen(cg->devno);
	const char *line;

	if (!cg->v2) {
		out->have_cg =
		    !v1_file(cg->dir, "blkio.throttle.io_service_bytes",
			     cg->devno, &out->cg_rbytes, &out->cg_wbytes) &&
		    !v1_file(cg->dir, "blkio.throttle.io_serviced", cg->devno,
			     &out->cg_rios, &out->cg_wios);
		return;
	}
	strbuf_addf(&p, "%s/io.stat", cg->dir);
	if (strbuf_read_file(&t, p.buf, 1 << 20) >= 0) {
		out->have_cg = true; /* no line: no I/O yet */
		for (line = t.buf; *line;) {
			const char *nl = strchr(line, '\n');

			if (!strncmp(line, cg->devno, n) && line[n] == ' ') {
				out->cg_rbytes = stat_key(line, "rbytes=");
				out->cg_wbytes = stat_key(line, "wbytes=");
				out->cg_rios = stat_key(line, "rios=");
				out->cg_wios = stat_key(line, "wios=");
			}
			line = nl ? nl + 1 : line + strlen(line);
		}
	}
	strbuf_release(&p);
	strbuf_release(&t);
}

void lw_read(int stat_fd, const struct lw_cgroup *cg, struct lw_reading *out)
{
	memset(out, 0, sizeof(*out));
	out->t_ns = clock_now_ns();
	out->have_ds = stat_fd >= 0 && !diskstats_read_fd(stat_fd, &out->ds);
	out->have_mi = !meminfo_read(&out->mi);
	if (cg && cg->dir)
		read_cgroup(cg, out);
}

int lw_measure(const struct lw_reading *a, const struct lw_reading *b,
	       struct lw_source *src, struct lw_measure *out,
	       struct strbuf *err)
{
	double v;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	out->seconds = (double)(b->t_ns - a->t_ns) / 1e9;
	out->user = NAN;
	if (a->have_ds && b->have_ds) {
		diskstats_delta(&a->ds, &b->ds, out->seconds, &out->d);
		out->have_disk = true;
		out->requests = (double)(out->d.reads + out->d.writes);
		out->mb =
		    (double)(out->d.read_bytes + out->d.write_bytes) / 1e6;
	}
	if (a->have_cg && b->have_cg && out->seconds > 0) {
		double bytes = (double)(diskstats_counter_delta(a->cg_rbytes,
								b->cg_rbytes) +
					diskstats_counter_delta(a->cg_wbytes,
								b->cg_wbytes));
		double ios =
		    (double)(diskstats_counter_delta(a->cg_rios, b->cg_rios) +
			     diskstats_counter_delta(a->cg_wios, b->cg_wios));

		out->have_cg = true;
		out->cg_mb = bytes / 1e6;
		out->cg_mbps = out->cg_mb / out->seconds;
		out->cg_iops = ios / out->seconds;
		/* may be negative: the cgroup counts a request when it is
		 * issued, the device when it completes */
		out->other_mb = out->have_disk ? out->mb - out->cg_mb : 0;
	}
	if (b->have_mi) {
		out->dirty_bytes = (double)b->mi.dirty_bytes;
		out->writeback_bytes = (double)b->mi.writeback_bytes;
	}
	switch (src ? src->kind : LW_SRC_NONE) {
	case LW_SRC_NONE:
		break;
	case LW_SRC_CMD:
		ret = run_cmd(src, &v, err);
		if (ret)
			break;
		if (src->counter) {
			if (src->have_last && out->seconds > 0 &&
			    v >= src->last) {
				out->user = (v - src->last) / out->seconds;
				out->user_ok = true;
			} else if (src->have_last) {
				ret = err_set(err, -ERANGE,
					      "--metric-cmd's counter went "
					      "back (%g, then %g)",
					      src->last, v);
			}
			src->last = v;
			src->have_last = true;
		} else {
			out->user = v;
			out->user_ok = true;
		}
		break;
	case LW_SRC_FILE:
		ret = read_log(src, out->seconds, &out->user, err);
		out->user_ok = !ret;
		break;
	}
	return ret;
}

/* The metrics a window can be judged by. */
static const struct {
	const char *name;
	bool hib;
	const char *unit;
} lw_metrics[] = {
    {"metric", true, ""},      {"mbps", true, "MB/s"},
    {"iops", true, "IO/s"},    {"r_await", false, "ms"},
    {"w_await", false, "ms"},  {"await", false, "ms"},
    {"aqu_sz", false, "reqs"}, {"util", false, "%"},
    {"dirty", false, "bytes"}, {"writeback", false, "bytes"},
};

bool lw_metric_known(const char *name, bool *hib, const char **unit)
{
	size_t i;

	for (i = 0; i < sizeof(lw_metrics) / sizeof(*lw_metrics); i++)
		if (!strcmp(lw_metrics[i].name, name)) {
			if (hib)
				*hib = lw_metrics[i].hib;
			if (unit)
				*unit = lw_metrics[i].unit;
			return true;
		}
	return false;
}

double lw_metric(const struct lw_measure *m, const char *name)
{
	const struct disk_delta *d = &m->d;
	double n = (double)(d->reads + d->writes);

	if (!strcmp(name, "metric"))
		return m->user_ok ? m->user : NAN;
	if (!strcmp(name, "dirty"))
		return m->dirty_bytes;
	if (!strcmp(name, "writeback"))
		return m->writeback_bytes;
	if (m->have_cg && !strcmp(name, "mbps"))
		return m->cg_mbps;
	if (m->have_cg && !strcmp(name, "iops"))
		return m->cg_iops;
	if (!m->have_disk)
		return NAN;
	if (!strcmp(name, "mbps"))
		return d->rmbps + d->wmbps;
	if (!strcmp(name, "iops"))
		return d->r_s + d->w_s;
	if (!strcmp(name, "r_await"))
		return d->reads ? d->r_await_ms : NAN;
	if (!strcmp(name, "w_await"))
		return d->writes ? d->w_await_ms : NAN;
	if (!strcmp(name, "await"))
		return n ? (d->r_await_ms * (double)d->reads +
			    d->w_await_ms * (double)d->writes) /
			       n
			 : NAN;
	if (!strcmp(name, "aqu_sz"))
		return d->aqu_sz;
	if (!strcmp(name, "util"))
		return d->util_pct;
	return NAN;
}
