/*
 * The exposition text (openmetrics.h). A family is opened once, with its
 * HELP and TYPE, and then all its samples follow, as both formats
 * require; so the writers below go family by family over the devices or
 * arms, not device by device.
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "openmetrics.h"
#include "../../util/text.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

void om_init(struct om_writer *w, struct strbuf *out, enum om_flavour flavour,
	     const char *command)
{
	memset(w, 0, sizeof(*w));
	w->out = out;
	w->flavour = flavour;
	w->command = command;
}

void om_family(struct om_writer *w, const char *name, enum om_type type,
	       const char *unit, const char *help)
{
	const char *suffix =
	    type == OM_COUNTER && w->flavour == OM_PROMETHEUS ? "_total" : "";

	snprintf(w->family, sizeof(w->family), "%s", name);
	w->type = type;
	/* HELP text escapes backslash and newline; ours has neither */
	strbuf_addf(w->out, "# HELP %s%s %s\n", name, suffix, help);
	strbuf_addf(w->out, "# TYPE %s%s %s\n", name, suffix,
		    type == OM_COUNTER	 ? "counter"
		    : type == OM_SUMMARY ? "summary"
					 : "gauge");
	if (unit && w->flavour == OM_OPENMETRICS)
		strbuf_addf(w->out, "# UNIT %s %s\n", name, unit);
}

/* A label value: printable, then \ " and newline escaped. */
static void label_value(struct strbuf *out, const char *v)
{
	char *s = xstrdup(v ? v : "");
	const char *p;

	text_make_printable(s);
	for (p = s; *p; p++) {
		if (*p == '\\' || *p == '"')
			strbuf_addch(out, '\\');
		strbuf_addch(out, *p);
	}
	free(s);
}

/* A number as both formats spell it. */
static void value(struct strbuf *out, double v)
{
	if (isinf(v))
		strbuf_addstr(out, v > 0 ? "+Inf" : "-Inf");
	else if (v == floor(v) && fabs(v) < 1e15)
		strbuf_addf(out, "%.0f", v);
	else
		strbuf_addf(out, "%.15g", v);
}

/* The sample line of name: the command label, nr more, the value. */
static void sample_line(struct om_writer *w, const char *suffix,
			const struct om_label *labels, size_t nr, double v)
{
	size_t i;

	if (isnan(v))
		return;
	strbuf_addf(w->out, "%s%s{command=\"", w->family, suffix);
	label_value(w->out, w->command);
	strbuf_addch(w->out, '"');
	for (i = 0; i < nr; i++) {
		strbuf_addf(w->out, ",%s=\"", labels[i].name);
		label_value(w->out, labels[i].value);
		strbuf_addch(w->out, '"');
	}
	strbuf_addstr(w->out, "} ");
	value(w->out, v);
	strbuf_addch(w->out, '\n');
}

void om_sample(struct om_writer *w, const struct om_label *labels, size_t nr,
	       double v)
{
	sample_line(w, w->type == OM_COUNTER ? "_total" : "", labels, nr, v);
}

void om_part(struct om_writer *w, const char *suffix,
	     const struct om_label *labels, size_t nr, double v)
{
	sample_line(w, suffix, labels, nr, v);
}

void om_end(struct om_writer *w)
{
	if (w->flavour == OM_OPENMETRICS)
		strbuf_addstr(w->out, "# EOF\n");
}

void om_single(struct om_writer *w, const char *name, const char *unit,
	       const char *help, double v)
{
	if (isnan(v))
		return;
	om_family(w, name, OM_GAUGE, unit, help);
	om_sample(w, NULL, 0, v);
}

/* An iostat column: its family, and how to read it off a delta. */
struct om_column {
	const char *name;
	const char *unit; /* OpenMetrics' UNIT, or NULL */
	const char *help;
	size_t off;   /* of a double in struct disk_delta */
	double scale; /* to the base unit */
	int need;     /* 1: has_flushes, 2: has_discards */
};

#define COL(n, u, h, f, s, need)                                               \
	{                                                                      \
		"iotrial_device_" n, u, h, offsetof(struct disk_delta, f), s,  \
		    need                                                       \
	}
static const struct om_column columns[] = {
    COL("reads_per_second", NULL, "Reads completed per second (r/s).", r_s, 1,
	0),
    COL("writes_per_second", NULL, "Writes completed per second (w/s).", w_s, 1,
	0),
    COL("read_merges_per_second", NULL, "Reads merged per second (rrqm/s).",
	rrqm_s, 1, 0),
    COL("write_merges_per_second", NULL, "Writes merged per second (wrqm/s).",
	wrqm_s, 1, 0),
    COL("read_bytes_per_second", NULL, "Bytes read per second (rMB/s).", rmbps,
	1e6, 0),
    COL("write_bytes_per_second", NULL, "Bytes written per second (wMB/s).",
	wmbps, 1e6, 0),
    COL("read_await_seconds", "seconds",
	"Mean time of a read in the device, queue included (r_await).",
	r_await_ms, 1e-3, 0),
    COL("write_await_seconds", "seconds",
	"Mean time of a write in the device, queue included (w_await).",
	w_await_ms, 1e-3, 0),
    COL("read_request_size_bytes", "bytes",
	"Mean size of a read request (rareq-sz).", rareq_kib, 1024, 0),
    COL("write_request_size_bytes", "bytes",
	"Mean size of a write request (wareq-sz).", wareq_kib, 1024, 0),
    COL("queue_size", NULL, "Mean requests in the device's queue (aqu-sz).",
	aqu_sz, 1, 0),
    COL("utilization_ratio", "ratio",
	"Fraction of the time the device was busy (%util / 100).", util_pct,
	0.01, 0),
    COL("flushes_per_second", NULL, "Flush requests per second (f/s).", f_s, 1,
	1),
    COL("discards_per_second", NULL, "Discard requests per second (d/s).", d_s,
	1, 2),
};
#undef COL
#define NR_COLUMNS (sizeof(columns) / sizeof(columns[0]))

void om_devices(struct om_writer *w, const struct om_device *devs, size_t nr)
{
	size_t c, i;

	for (c = 0; c < NR_COLUMNS && nr; c++) {
		const struct om_column *col = &columns[c];
		int opened = 0;

		for (i = 0; i < nr; i++) {
			const struct disk_delta *d = devs[i].d;
			struct om_label l = {"device", devs[i].name};
			double v;

			if ((col->need == 1 && !d->has_flushes) ||
			    (col->need == 2 && !d->has_discards))
				continue;
			v = *(const double *)((const char *)d + col->off);
			if (!opened) {
				om_family(w, col->name, OM_GAUGE, col->unit,
					  col->help);
				opened = 1;
			}
			om_sample(w, &l, 1, v * col->scale);
		}
	}
}

void om_watch(struct om_writer *w, const struct om_device *devs, size_t nr,
	      const struct sampler_point *p, double interval_s,
	      double unix_time_s)
{
	om_single(w, "iotrial_watch_interval_seconds", "seconds",
		  "Length of the interval the device columns cover.",
		  interval_s);
	om_single(w, "iotrial_watch_timestamp_seconds", "seconds",
		  "When this interval ended, seconds since the Unix epoch.",
		  unix_time_s);
	om_devices(w, devs, nr);
	if (p && (p->have & SAMPLER_HAVE_MEM)) {
		om_single(w, "iotrial_memory_dirty_bytes", "bytes",
			  "Dirty page cache waiting for writeback (Dirty in "
			  "/proc/meminfo).",
			  (double)p->dirty_bytes);
		om_single(w, "iotrial_memory_writeback_bytes", "bytes",
			  "Page cache being written back (Writeback in "
			  "/proc/meminfo).",
			  (double)p->writeback_bytes);
	}
}

void om_progress(struct om_writer *w, const struct progress_snap *s,
		 double unix_time_s)
{
	om_single(w, "iotrial_progress_running", NULL,
		  "1 while the command works, 0 once it has ended.",
		  strcmp(s->event, "end") != 0);
	om_single(w, "iotrial_progress_timestamp_seconds", "seconds",
		  "When this was written, seconds since the Unix epoch.",
		  unix_time_s);
	om_single(w, "iotrial_progress_elapsed_seconds", "seconds",
		  "Time since the command's work began.", s->elapsed_s);
	if (s->eta_s >= 0)
		om_single(w, "iotrial_progress_eta_seconds", "seconds",
			  "Estimated time until all of it is done.", s->eta_s);
	if (s->unit) {
		struct om_label l = {"unit", s->unit};

		om_family(w, "iotrial_progress_steps_done", OM_GAUGE, NULL,
			  "Steps (runs, windows) done.");
		om_sample(w, &l, 1, s->done);
		om_family(w, "iotrial_progress_steps_planned", OM_GAUGE, NULL,
			  "Steps planned so far (an adaptive experiment "
			  "plans more as it goes).");
		om_sample(w, &l, 1, s->planned);
	}
	if (s->in_run && s->have_ios) {
		om_family(w, "iotrial_progress_ios", OM_COUNTER, NULL,
			  "I/Os done in the current run's timed part.");
		om_sample(w, NULL, 0, (double)s->ios);
		if (s->ios_per_s >= 0)
			om_single(w, "iotrial_progress_ios_per_second", NULL,
				  "I/Os per second since the previous update.",
				  s->ios_per_s);
	}
	if (s->have_events) {
		om_family(w, "iotrial_progress_events", OM_COUNTER, NULL,
			  "Events a capture has recorded.");
		om_sample(w, NULL, 0, (double)s->events);
		if (s->lost != UINT64_MAX) {
			om_family(w, "iotrial_progress_lost_events", OM_COUNTER,
				  NULL,
				  "Events a capture lost (its ring buffer was "
				  "full).");
			om_sample(w, NULL, 0, (double)s->lost);
		}
	}
}
