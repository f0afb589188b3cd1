/*
 * Progress of long work (a run, an experiment, observe's windows, a
 * capture) as one plain snapshot, rendered three ways: the line a
 * terminal shows and rewrites in place, one JSON object per update for
 * other tools to follow (--progress=json), and metrics
 * (openmetrics.h). The command fills the snapshot (cli/progress.c
 * keeps it and its clock); nothing here reads the clock or prints.
 *
 * The JSON line's members (docs/schema/progress.schema.json; units in
 * the names, as everywhere): schema "iotrial/1", type "progress",
 * command, event ("start", "update", "end"), outcome (at the end:
 * "done", "interrupted", "failed"), phase, elapsed_s, eta_s (null when
 * unknown), eta_by (what the ETA counts to), total_s, done, planned and
 * unit (the steps: runs or windows), block, arm, ci_halfwidth, and
 * within a run run_elapsed_s, ios, bytes, iops and mbps (10^6 bytes/s,
 * since the previous update); a capture's events, and lost once known. A member
 * that does not apply is left out.
 */
#ifndef IOTRIAL_REPORT_PROGRESS_H
#define IOTRIAL_REPORT_PROGRESS_H

#include <stdint.h>
#include "../../util/strbuf.h"

/* What a command is doing now. Strings are not owned. */
struct progress_snap {
	const char *command; /* "run", "compare", "observe", "record" */
	const char *event;   /* "start", "update", "end" */
	const char *outcome; /* with "end": "done", "interrupted",
				"failed"; else NULL */
	const char *phase;   /* "prepare", "run", "window", "capture",
				or NULL */
	double elapsed_s;    /* since the command's work began */
	double eta_s;	     /* until all of it is done; < 0: unknown */
	const char *eta_by;  /* what the ETA counts to: "time", "ios",
				"runs", "budget", "max-runs", "precision",
				"windows", "duration"; NULL: unknown */
	unsigned done;	     /* steps done */
	unsigned planned;    /* steps planned so far; 0: no steps */
	const char *unit;    /* of the steps: "runs", "windows" */
	long block;	     /* the block of the current step, 0-based;
				-1: a warm-up run; < -1: none */
	const char *arm;     /* the arm of the current step, or NULL */
	double halfwidth;    /* widest ratio CI half-width so far, a
				fraction; < 0: none yet */
	/* the current run's timed part, while one is going on */
	int in_run;
	double run_elapsed_s;
	double run_length_s; /* what it was asked to last; 0: unknown */
	uint64_t ios_wanted; /* an I/O count run: its count; else 0 */
	int have_ios;	     /* the workload counts its I/Os: */
	uint64_t ios, bytes; /* done in the timed part so far */
	double ios_per_s;    /* since the previous update; < 0: unknown */
	double bytes_per_s;
	/* a capture */
	int have_events;
	uint64_t events; /* recorded so far */
	uint64_t lost;	 /* the ring buffer could not hold; UINT64_MAX:
			    not known yet (until the capture ends) */
};

/* A snapshot with nothing known: every "unknown" value set. */
void progress_snap_init(struct progress_snap *s, const char *command);

/* The JSON line of s, with its newline, appended to out. */
void progress_json_line(const struct progress_snap *s, struct strbuf *out);

/*
 * The terminal's line for s, without a line end (the caller rewrites
 * it in place), printable whatever an arm's label holds. Appended to
 * out.
 */
void progress_text_line(const struct progress_snap *s, struct strbuf *out);

/* A duration for that line: "1.5 s", "18 s", "2m05s", "1h02m". */
void progress_fmt_duration(struct strbuf *out, double s);

#endif
