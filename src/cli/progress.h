/*
 * Progress of long work, for any command: a line on a terminal (stderr,
 * rewritten in place, cleared at the end; absent when stderr is no
 * terminal or with --quiet), one JSON object per update for other tools
 * (--progress=json on stderr, --progress=json:FD on descriptor FD), and
 * a metrics file rewritten atomically for node_exporter's textfile
 * collector (--metrics-file FILE). The snapshot and its renderings are
 * core's (core/report/progress.h, openmetrics.h); this is the clock,
 * the thread and the output.
 *
 * A thread wakes every second (and at once after an event) and does all
 * the output, so that the command's own thread never blocks on a slow
 * reader and a run's progress is shown while the command's thread waits
 * inside the run. The command tells what happens through events:
 *
 *	struct cli_progress prog;        (in the command's arguments)
 *	cli_progress_init(&prog);
 *	OPT_CLI_PROGRESS(&prog),         (in its option table)
 *	if (cli_progress_check(&prog)) return EXIT_USAGE;   (after parsing)
 *	tr.c.live = &prog.live;          (a trial: its runs' I/O counts)
 *	cli_progress_start(&prog, "tune", quiet);
 *	cli_progress_experiment(&prog, p);   (its experiment_hooks.progress)
 *	  or cli_progress_step(&prog, &snap); (any other step)
 *	cli_progress_doc(&prog, doc);    (the experiment so far, for the
 *	                                  metrics file)
 *	cli_progress_finish(&prog, "done"); cli_progress_release(&prog);
 */
#ifndef IOTRIAL_CLI_PROGRESS_H
#define IOTRIAL_CLI_PROGRESS_H

#include <pthread.h>
#include <stdint.h>
#include "options.h"
#include "../core/experiment/experiment.h"
#include "../core/report/progress.h"
#include "../core/workload/live.h"
#include "../util/strbuf.h"

struct experiment_doc; /* core/model/experiment_doc.h */

struct cli_progress {
	const char *spec;	   /* --progress as given, or NULL */
	const char *metrics_file;  /* --metrics-file, or NULL */
	int json_fd;		   /* JSON lines go here; -1: none */
	int tty;		   /* the terminal line is drawn */
	struct workload_live live; /* a trial's runs publish here */
	/* the run's length, for a single run's ETA */
	double run_length_s; /* --ramp + --time; 0: unknown */
	uint64_t ios_wanted; /* --ios; 0: none */
	/* kept by the thread and the events, under lock */
	pthread_mutex_t lock;
	pthread_cond_t cond;
	pthread_t thread;
	int started, stop, wake;
	uint64_t start_ns, event_ns; /* event_ns: when snap's ETA was set */
	struct progress_snap snap;
	char *arm;	   /* snap.arm's copy */
	struct strbuf doc; /* the document's metric families */
	uint64_t rate_ns, rate_ops, rate_bytes; /* for the rates */
	uint64_t metrics_ns;			/* the file's last rewrite */
	int drawn;				/* a line is on the terminal */
	int experiment; /* the steps are an experiment's runs */
	int json_failed, metrics_failed; /* said at the end */
	struct strbuf metrics_err;
};

/* The options: --progress json[:FD] and --metrics-file FILE (both:
 * OPT_CLI_PROGRESS). */
#define OPT_CLI_PROGRESS_JSON(p)                                               \
	OPT_STRING(0, "progress", &(p)->spec, "json[:FD]",                     \
		   "one JSON object per update on stderr, or on descriptor "   \
		   "FD, for other tools to follow")
#define OPT_CLI_METRICS_FILE(p)                                                \
	OPT_STRING(0, "metrics-file", &(p)->metrics_file, "FILE",              \
		   "rewrite FILE atomically with metrics as the work goes "    \
		   "(Prometheus text, for node_exporter's textfile "           \
		   "collector)")
#define OPT_CLI_PROGRESS(p) OPT_CLI_PROGRESS_JSON(p), OPT_CLI_METRICS_FILE(p)

void cli_progress_init(struct cli_progress *p);

/* After parsing: --progress's value and --metrics-file's file are
 * checked. 0, or -1 after printing an error. */
int cli_progress_check(struct cli_progress *p);

/*
 * Start: command names the work ("run", "compare"); quiet (--quiet) or
 * no_line (a command that prints lines of its own on stderr) keeps the
 * terminal line off. Writes the "start" line.
 */
void cli_progress_start(struct cli_progress *p, const char *command, int quiet,
			int no_line);

/* A step of an experiment begins (experiment_hooks.progress). */
void cli_progress_experiment(struct cli_progress *p,
			     const struct experiment_progress *e);

/*
 * Any other step: s's step fields (done, planned, unit, block, arm, eta_s,
 * eta_by, halfwidth, have_events, events, lost, phase) replace the
 * current ones; elapsed and the run's numbers are the thread's.
 */
void cli_progress_step(struct cli_progress *p, const struct progress_snap *s);

/* The run about to begin lasts length_s (--ramp + --time; 0: unknown)
 * or counts ios_wanted I/Os (0: none): for its ETA and rate. */
void cli_progress_run(struct cli_progress *p, double length_s,
		      uint64_t ios_wanted);

/* The experiment so far (compare, run, observe), for the metrics file:
 * rendered now. NULL is fine. */
void cli_progress_doc(struct cli_progress *p, const struct experiment_doc *doc);

/*
 * The end: outcome "done", "interrupted" or "failed". Writes the last
 * JSON line and the metrics file, clears the terminal line, stops the
 * thread, and says (a warning) if an output could not be written. An
 * experiment that is done has done every run it planned, the last one
 * too (its events only say when a run begins).
 */
void cli_progress_finish(struct cli_progress *p, const char *outcome);

/* Free; after finish, or instead of it on an early exit. */
void cli_progress_release(struct cli_progress *p);

#endif
