/*
 * iotrial's numbers where monitoring already looks: the Prometheus text
 * exposition (what node_exporter's textfile collector reads, and what
 * `promtool check metrics` checks) and OpenMetrics 1.0 (the same text
 * with "# UNIT" lines, counters named without "_total" in "# TYPE", and
 * "# EOF" at the end of each exposition).
 *
 * Names follow the Prometheus conventions: every family starts with
 * "iotrial_", carries its base unit as a suffix (_seconds, _bytes,
 * _ratio, _per_second) and a counter ends in _total. Every sample has a
 * "command" label (watch, run, compare, observe), so the files of
 * several commands in one textfile directory never name the same
 * series. Label values come from users and devices: they are made
 * printable (util/text.h) and escaped, never written raw. A value that
 * is not known (NaN) is left out, not written as NaN.
 *
 * This sits in report/ beside the other renderers: it reads the same
 * typed documents (struct experiment_doc, struct run_doc: in
 * openmetrics_doc.h, apart, since the model's run_doc.h and result.h
 * cannot yet be included together) and, for watch, the sampler's disk
 * deltas, and renders them for machines as the others do for people; a
 * folder of its own would add a layer for two files.
 */
#ifndef IOTRIAL_OPENMETRICS_H
#define IOTRIAL_OPENMETRICS_H

#include <stddef.h>
#include <stdint.h>
#include "progress.h"
#include "../observe/diskstats.h"
#include "../observe/sampler.h"
#include "../../util/strbuf.h"

/* Which text: Prometheus's (version 0.0.4) or OpenMetrics 1.0. */
enum om_flavour {
	OM_PROMETHEUS,
	OM_OPENMETRICS,
};

enum om_type {
	OM_GAUGE,
	OM_COUNTER, /* its samples get "_total" */
	OM_SUMMARY, /* quantile samples, then _sum and _count (om_part) */
};

/* One label of a sample. */
struct om_label {
	const char *name;
	const char *value;
};

/* An exposition being written to out (appended). */
struct om_writer {
	struct strbuf *out;
	enum om_flavour flavour;
	const char *command; /* every sample's "command" label */
	char family[128];    /* the open family's name */
	enum om_type type;   /* and its type */
};

/* Start writing an exposition of command's numbers to out. */
void om_init(struct om_writer *w, struct strbuf *out, enum om_flavour flavour,
	     const char *command);

/*
 * Open a family: its HELP and TYPE lines (and UNIT for OpenMetrics when
 * unit is not NULL; unit must then end name). name is without "_total".
 */
void om_family(struct om_writer *w, const char *name, enum om_type type,
	       const char *unit, const char *help);

/* A sample of the open family with the command label and nr more;
 * nothing when v is NaN. */
void om_sample(struct om_writer *w, const struct om_label *labels, size_t nr,
	       double v);

/* A sample of the open family's part suffix ("_sum", "_count"). */
void om_part(struct om_writer *w, const char *suffix,
	     const struct om_label *labels, size_t nr, double v);

/* A family of one sample (a gauge), left out when v is NaN. */
void om_single(struct om_writer *w, const char *name, const char *unit,
	       const char *help, double v);

/* End the exposition ("# EOF" for OpenMetrics). */
void om_end(struct om_writer *w);

/* One device's iostat columns over an interval (watch) or a run. */
struct om_device {
	const char *name;
	const struct disk_delta *d;
};

/* The iostat -x columns of each device, family by family. */
void om_devices(struct om_writer *w, const struct om_device *devs, size_t nr);

/*
 * watch's interval: each device's iostat -x columns, the interval, the
 * machine's Dirty and Writeback memory (p, when it has them) and the
 * wall-clock time of the sample (unix seconds).
 */
void om_watch(struct om_writer *w, const struct om_device *devs, size_t nr,
	      const struct sampler_point *p, double interval_s,
	      double unix_time_s);

/* A command's progress (progress.h): elapsed, ETA, what is done of what
 * is planned, the current run's I/Os, and the time of this update. */
void om_progress(struct om_writer *w, const struct progress_snap *s,
		 double unix_time_s);

#endif
