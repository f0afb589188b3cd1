/*
 * iotrial watch: an iostat -x style live view, with the page cache's
 * Dirty and Writeback next to the device columns, because "is the disk
 * busy?" is half the question when the other half is "or is it all still
 * in memory?". It uses the sampler's readers and the same column code as
 * run results, so a watch line and a run's devices[] entry mean the same
 * thing (and the JSON lines use the same keys). Intervals are kept on
 * absolute CLOCK_MONOTONIC deadlines, so they do not drift.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "cli.h"
#include "../core/observe/diskstats.h"
#include "../core/observe/disks.h"
#include "../core/observe/sampler.h"
#include "../core/report/openmetrics.h"
#include "../core/report/watch_text.h"
#include "../util/error.h"
#include "../util/outfile.h"
#include "../util/units.h"
#include "../util/xalloc.h"
#include "../util/banned.h"

#define HEADER_EVERY 20 /* repeat the header on a terminal */
#define SYSFS_ROOT   "/sys"

/* What watch was asked to do. */
struct watch_args {
	const char **devs; /* names as given, nr_devs of them */
	unsigned nr_devs, alloc_devs;
	uint64_t interval_ns;
	uint64_t count; /* 0: until interrupted */
	enum watch_format fmt;
	int openmetrics;	  /* --format openmetrics: a scrape each */
	const char *json;	  /* --json[=FILE]: "-" for stdout */
	const char *metrics_file; /* --metrics-file FILE */
};

/* --format's values. */
static const char *const watch_formats[] = {"text", "csv", "json",
					    "openmetrics", NULL};

static const char *const watch_usage[] = {
    "iotrial watch [DEV ...] [-i|--interval DUR] [-c|--count N]",
    "                     [--csv | --json[=FILE] | --format FORMAT]",
    "                     [--metrics-file FILE]",
    "iotrial watch [DEV ...] INTERVAL [COUNT]",
    NULL,
};

static const char watch_epilogue[] =
    "Every interval (default 1s), one line per device: r/s w/s rMB/s wMB/s\n"
    "r_await w_await aqu-sz %util f/s d/s, plus the machine's Dirty and\n"
    "Writeback memory on the interval's first line. MB is 10^6 bytes. DEV\n"
    "is a name under /sys/class/block (vda, sda1, loop0); default: every\n"
    "disk that has a size and has done any I/O. --count (or -n) stops after\n"
    "N intervals (default: when interrupted). As in iostat, a number after\n"
    "the devices is the interval (seconds, or a duration: 250ms) and a\n"
    "second one the count: 'watch sda 2 5'. --json prints one object per\n"
    "device per interval (JSON Lines) with the keys of a run's devices[]\n"
    "entries plus schema, time, dirty_bytes and writeback_bytes. CSV and\n"
    "JSON times are UTC, ISO 8601 with milliseconds. --format openmetrics\n"
    "prints each interval as an OpenMetrics exposition ending in '# EOF';\n"
    "--metrics-file rewrites FILE atomically each interval (Prometheus\n"
    "text) for node_exporter's textfile collector.\n";

/*
 * iostat's "INTERVAL [COUNT]" after the devices: the n-th number given
 * (0 or 1), into a unless -i or -c set it already. A bare number of
 * seconds needs no unit here, as in iostat. 0, or -1 after the error.
 */
static int positional_number(struct watch_args *a, const char *arg,
			     unsigned nth, int have_interval, int have_count)
{
	struct strbuf err = STRBUF_INIT;
	char buf[64];

	if (nth > 1) {
		error("unexpected argument '%s'; watch takes [DEV ...] "
		      "[INTERVAL [COUNT]]",
		      arg);
		return -1;
	}
	if (nth == 0) {
		if (have_interval) {
			error("the interval is given twice: --interval and "
			      "'%s'",
			      arg);
			return -1;
		}
		if (strspn(arg, "0123456789.") == strlen(arg)) {
			snprintf(buf, sizeof(buf), "%ss", arg);
			arg = buf;
		}
		if (units_parse_duration(arg, &a->interval_ns, &err) ||
		    a->interval_ns < 10000000ull) {
			error("the interval '%s' is not a duration of 10ms or "
			      "more (1, 2.5, 250ms)",
			      arg);
			strbuf_release(&err);
			return -1;
		}
		return 0;
	}
	if (have_count) {
		error("the count is given twice: --count and '%s'", arg);
		return -1;
	}
	if (units_parse_count(arg, &a->count, &err) || !a->count) {
		error("the count '%s' is not a count of 1 or more", arg);
		strbuf_release(&err);
		return -1;
	}
	return 0;
}

/* Parse argv; -1 after printing an error, 1 for --help. */
static int parse_args(int argc, const char **argv, struct watch_args *a)
{
	int csv = 0, i, n, have_interval = 0, have_count = 0;
	const char *format = NULL;
	unsigned nth = 0;
	struct option opts[] = {
	    OPT_DURATION('i', "interval", &a->interval_ns, "1s", "10ms", NULL,
			 "time between lines", .given = &have_interval),
	    OPT_COUNT('c', "count", &a->count, NULL, "1", NULL,
		      "stop after N intervals (default: when interrupted)",
		      .given = &have_count),
	    OPT_COUNT('n', NULL, &a->count, NULL, "1", NULL,
		      "the same as --count", .given = &have_count,
		      .flags = OPT_HIDDEN),
	    OPT_BOOL(0, "csv", &csv,
		     "print comma-separated values with a header line"),
	    OPT_JSON(&a->json, "print one JSON object per device per interval, "
			       "or write them to FILE"),
	    OPT_CHOICE(0, "format", &format, watch_formats, NULL,
		       "text, csv, json or openmetrics (one exposition per "
		       "interval)"),
	    OPT_STRING(0, "metrics-file", &a->metrics_file, "FILE",
		       "rewrite FILE atomically each interval with the "
		       "devices' metrics (for node_exporter's textfile "
		       "collector)"),
	    OPT_SCHEMA(),
	    OPT_END(),
	};

	n = parse_options(argc, argv, "watch", opts, watch_usage,
			  watch_epilogue, 0);
	if (n == PARSE_OPT_HELP)
		return 1;
	if (n < 0)
		return -1;
	if (csv + !!a->json + !!format > 1) {
		error("give one of --csv, --json and --format");
		return -1;
	}
	if (format && !strcmp(format, "csv"))
		csv = 1;
	else if (format && !strcmp(format, "json"))
		a->json = "-";
	a->openmetrics = format && !strcmp(format, "openmetrics");
	a->fmt = csv ? WATCH_CSV : a->json ? WATCH_JSON : WATCH_TEXT;
	if (a->json && cli_check_output(a->json))
		return -1;
	if (a->metrics_file && !*a->metrics_file) {
		error("--metrics-file needs a file name");
		return -1;
	}
	if (a->metrics_file) {
		struct strbuf err = STRBUF_INIT;

		if (outfile_check(a->metrics_file, OUTFILE_REPLACE, &err)) {
			error("--metrics-file: %s", err.buf);
			strbuf_release(&err);
			return -1;
		}
	}
	for (i = 0; i < n; i++) {
		const char *dev = argv[i];

		if (*dev >= '0' && *dev <= '9') {
			if (positional_number(a, dev, nth++, have_interval,
					      have_count))
				return -1;
			continue;
		}
		if (nth) {
			error("device '%s' after the interval; give the "
			      "devices first: watch [DEV ...] [INTERVAL "
			      "[COUNT]]",
			      dev);
			return -1;
		}
		if (!strncmp(dev, "/dev/", 5))
			dev += 5;
		ALLOC_GROW(a->devs, a->nr_devs + 1, a->alloc_devs);
		a->devs[a->nr_devs++] = dev;
	}
	return 0;
}

/* Wall-clock time for a line: "HH:MM:SS" or RFC 3339 UTC with ms; the
 * time read, in seconds since the epoch, into *unix_s. */
static void fmt_time(struct strbuf *sb, int rfc3339, double *unix_s)
{
	struct timespec ts;
	struct tm tm;
	char buf[64];

	clock_gettime(CLOCK_REALTIME, &ts);
	*unix_s = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
	strbuf_reset(sb);
	if (rfc3339) {
		gmtime_r(&ts.tv_sec, &tm);
		strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%S", &tm);
		strbuf_addf(sb, "%s.%03ldZ", buf, ts.tv_nsec / 1000000);
	} else {
		localtime_r(&ts.tv_sec, &tm);
		strftime(buf, sizeof(buf), "%H:%M:%S", &tm);
		strbuf_addstr(sb, buf);
	}
}

/* Resolve the device list into sampler_devs; -1 after an error. */
static int pick_devices(struct watch_args *a, struct disk_names *names,
			struct sampler_dev **out, struct strbuf **paths)
{
	struct strbuf err = STRBUF_INIT;
	unsigned i;

	if (!a->nr_devs) {
		disks_active(SYSFS_ROOT, names);
		if (!names->nr) {
			error("no disk has done any I/O yet; name one (iotrial "
			      "watch vda)");
			return -1;
		}
	} else if (disks_check(SYSFS_ROOT, a->devs, a->nr_devs, names, &err)) {
		error("%s", err.buf);
		strbuf_release(&err);
		return -1;
	}
	*out = xcalloc(names->nr, sizeof(**out));
	*paths = xcalloc(names->nr, sizeof(**paths));
	for (i = 0; i < names->nr; i++) {
		strbuf_init(&(*paths)[i], 0);
		disks_stat_path(SYSFS_ROOT, names->v[i], &(*paths)[i]);
		(*out)[i].name = names->v[i];
		(*out)[i].stat_path = (*paths)[i].buf;
	}
	return 0;
}

/* Sleep until the absolute CLOCK_MONOTONIC time deadline_ns. */
static void sleep_until(uint64_t deadline_ns)
{
	struct timespec ts = {(time_t)(deadline_ns / 1000000000ull),
			      (long)(deadline_ns % 1000000000ull)};

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) ==
	       EINTR)
		;
}

/* One interval's metrics as an exposition of flavour, appended to out. */
static void exposition(struct strbuf *out, enum om_flavour flavour,
		       const struct om_device *devs, unsigned nr,
		       const struct sampler_point *p, double seconds,
		       double unix_s)
{
	struct om_writer w;

	om_init(&w, out, flavour, "watch");
	om_watch(&w, devs, nr, p, seconds, unix_s);
	om_end(&w);
}

/* --metrics-file: the interval's metrics replace the file whole (a
 * temporary renamed onto it, as the textfile collector needs). 0, or -1
 * after saying why. */
static int write_metrics(const char *path, const struct om_device *devs,
			 unsigned nr, const struct sampler_point *p,
			 double seconds, double unix_s)
{
	struct strbuf m = STRBUF_INIT, err = STRBUF_INIT;
	int ret = 0;

	exposition(&m, OM_PROMETHEUS, devs, nr, p, seconds, unix_s);
	if (outfile_write(path, m.buf, m.len, OUTFILE_REPLACE, &err)) {
		error("--metrics-file: %s", err.buf);
		ret = -1;
	}
	strbuf_release(&m);
	strbuf_release(&err);
	return ret;
}

int cmd_watch(int argc, const char **argv)
{
	struct watch_args a = {0};
	struct sampler s;
	struct sampler_dev *devs = NULL;
	struct strbuf *paths = NULL, err = STRBUF_INIT, when = STRBUF_INIT,
		      out = STRBUF_INIT;
	struct disk_names names = {0};
	unsigned i, d, shown, lines = 0;
	uint64_t deadline, n;
	int ret = EXIT_OK, tty = isatty(STDOUT_FILENO), pr;
	FILE *dst = stdout;
	struct disk_delta *deltas = NULL;
	struct om_device *shown_devs = NULL;

	memset(&s, 0, sizeof(s));
	pr = parse_args(argc, argv, &a);
	if (pr) {
		free(a.devs);
		return pr > 0 ? EXIT_OK : EXIT_USAGE;
	}
	if (pick_devices(&a, &names, &devs, &paths)) {
		ret = EXIT_USAGE;
		goto out;
	}
	if (a.json && strcmp(a.json, "-")) {
		/* --json=FILE: the lines go there, as they come (in place,
		 * so a reader sees them) */
		struct outfile o;

		if (outfile_open(&o, a.json, OUTFILE_REPLACE | OUTFILE_IN_PLACE,
				 &err) ||
		    !(dst = fdopen(o.fd, "w"))) {
			error("%s", err.len ? err.buf : strerror(errno));
			outfile_release(&o);
			dst = stdout;
			ret = EXIT_RUNTIME;
			goto out;
		}
		o.fd = -1; /* dst's now */
		outfile_release(&o);
		tty = 0;
	}
	if (sampler_init(&s, devs, names.nr, a.interval_ns, 2, &err)) {
		error("%s", err.buf);
		ret = EXIT_RUNTIME;
		goto out;
	}
	if (!a.openmetrics)
		report_watch_header(a.fmt, &out);
	fputs(out.buf, dst);
	deltas = xcalloc(names.nr + 1, sizeof(*deltas));
	shown_devs = xcalloc(names.nr + 1, sizeof(*shown_devs));
	sampler_sample(&s);
	deadline = s.series.points[0].t_ns;
	for (n = 0; !a.count || n < a.count; n++) {
		const struct sampler_point *p0, *p1;
		double seconds, unix_s;

		deadline += a.interval_ns;
		sleep_until(deadline);
		sampler_sample(&s);
		p0 = &s.series.points[0];
		p1 = &s.series.points[1];
		seconds = (double)(p1->t_ns - p0->t_ns) / 1e9;
		/* CSV and JSON lines stand alone: the full time, in UTC */
		fmt_time(&when, a.fmt != WATCH_TEXT, &unix_s);
		strbuf_reset(&out);
		if (a.fmt == WATCH_TEXT && tty && names.nr > 1 && lines &&
		    lines % HEADER_EVERY == 0 && !a.openmetrics)
			report_watch_header(a.fmt, &out);
		for (d = 0, shown = 0; d < names.nr; d++) {
			const struct diskstats *x =
			    sampler_disk(&s.series, 0, d);
			const struct diskstats *y =
			    sampler_disk(&s.series, 1, d);
			struct disk_delta *dd = &deltas[shown];

			if (!x->nr_fields || !y->nr_fields)
				continue; /* the device went away */
			diskstats_delta(x, y, seconds, dd);
			shown_devs[shown].name = names.v[d];
			shown_devs[shown].d = dd;
			if (!a.openmetrics)
				report_watch_line(
				    a.fmt, when.buf, names.v[d], dd,
				    a.fmt == WATCH_TEXT && shown ? NULL : p1,
				    &out);
			shown++;
		}
		if (a.openmetrics)
			exposition(&out, OM_OPENMETRICS, shown_devs, shown, p1,
				   seconds, unix_s);
		if (a.metrics_file &&
		    write_metrics(a.metrics_file, shown_devs, shown, p1,
				  seconds, unix_s)) {
			ret = EXIT_RUNTIME;
			goto out;
		}
		if (a.fmt == WATCH_JSON)
			cli_put_json(dst, out.buf, CLI_JSON_LINES);
		else
			fputs(out.buf, dst);
		lines++;
		fflush(dst);
	}
out:
	if (dst != stdout && fclose(dst) && ret == EXIT_OK) {
		error("cannot write '%s': %s", a.json, strerror(errno));
		ret = EXIT_RUNTIME;
	}
	sampler_release(&s);
	for (i = 0; paths && i < names.nr; i++)
		strbuf_release(&paths[i]);
	disk_names_release(&names);
	free(paths);
	free(devs);
	free(deltas);
	free(shown_devs);
	free(a.devs);
	strbuf_release(&err);
	strbuf_release(&when);
	strbuf_release(&out);
	return ret;
}
