/*
 * iotrial observe: a switchback experiment on the load that is running
 * (switchback.h has the design and the analysis). The arms' knobs are
 * set through the journal like a trial's, switched at window
 * boundaries, and restored at the end, after a signal (the caller's stop
 * flag) and, by the next iotrial, after a crash. Before each switch and
 * after each window the knobs are read: a value that is not what
 * observe set means someone else changed it, and the experiment stops
 * and keeps their value (the undo of a record leaves a knob alone that
 * no longer holds what was written). --abort-if rules end it after the
 * window that broke one, and the baseline is restored at once.
 *
 * The result is an experiment document of kind "observe"
 * (model/experiment_doc.h; "runs" are the analysed windows of complete
 * blocks, paired by block), with "windows" (every window, settle ones
 * included) and "switchback" (the design, the randomisation test,
 * trend, load and the adjusted ratios).
 */
#ifndef IOTRIAL_LIVE_H
#define IOTRIAL_LIVE_H

#include <stdbool.h>
#include <stdint.h>
#include "abort.h"
#include "switchback.h"
#include "window.h"
#include "../experiment/experiment.h"
#include "../journal/session.h"
#include "../knob/knob.h"
#include "../../util/strbuf.h"

struct experiment_doc; /* model/experiment_doc.h */

/* --max-change KNOB=RANGE: "LO..HI" (numbers, the canonical value), or
 * "V1|V2|..." (the canonical values allowed). */
struct live_limit {
	char *knob;
	char *range;
};

/* What the caller hears as the experiment goes. */
struct live_window_info {
	size_t seq, nr; /* this slot and the schedule's length */
	unsigned block, nr_blocks;
	const char *arm;
	bool settle;
	double metric;	       /* NaN when not measured */
	double load;	       /* in load_unit */
	const char *load_unit; /* "MB", "metric units" */
	double elapsed_s;
};

struct live_hooks {
	void *ctx;
	const struct session_log *log; /* journal messages */
	void (*window)(void *ctx, const struct live_window_info *w);
	void (*warn)(void *ctx, const char *msg);
};

/* The experiment, as the command line gave it. */
struct live_config {
	struct knob_ctx *kctx; /* knobs are resolved in it; not owned */
	const char *target;    /* for the object: the device or directory */
	const char *disk;      /* "loop3": its stat file is read; NULL: none */
	const struct lw_cgroup *cgroup; /* --cgroup, or NULL */
	const char *const *vary;	/* "KNOB=A,B" */
	unsigned nr_vary;
	uint64_t window_ns;
	uint64_t settle_ns;   /* 0: no settle periods */
	unsigned blocks;      /* windows per arm */
	const char *metric;   /* lw_metric() name */
	const char *per_load; /* NULL, "requests", "mb" or "metric" */
	struct lw_source *src;
	const struct lw_abort *aborts;
	unsigned nr_aborts;
	const struct live_limit *limits;
	unsigned nr_limits;
	uint64_t seed;
	volatile int *stop; /* non-zero: restore and finish now */
	const char *command_line;
	bool dry_run; /* only planned: root is not needed */
};

/* A planned experiment and, after live_run(), what it measured. */
struct live {
	struct live_config c;
	struct experiment e; /* the arms */
	struct experiment_factor *factors;
	unsigned nr_factors;
	struct sb_schedule sched;
	struct experiment_doc *doc; /* after live_run: the experiment */
	bool aborted;		    /* a rule fired */
	bool interrupted;	    /* the stop flag */
	bool changed_by_other;	    /* someone else changed a knob */
	bool refused;		    /* a switch was refused after the start */
	struct strbuf stopped;	    /* why it ended early, for people */
};

/*
 * Build the arms and the schedule and check everything that can be
 * checked before a change: every arm's knobs resolve and parse, their
 * values within --max-change, root when a knob changes, the metric
 * known. 0 or -errno with err set.
 */
int live_plan(struct live *lv, const struct live_config *c, struct strbuf *err);
/* The seconds the schedule takes. */
double live_planned_s(const struct live *lv);
/* The dry run: the arms, the schedule and its duration, for people. */
void live_describe(const struct live *lv, struct strbuf *out);
/*
 * Run it: switch, measure, check, restore; analyse into lv->doc. 0, or
 * -errno with err set; lv->doc may hold what was measured before a
 * failure. An abort, a signal or someone else's change is no error:
 * lv->stopped says which.
 */
int live_run(struct live *lv, const struct live_hooks *h, struct strbuf *err);
void live_release(struct live *lv);

/* What a window's load counts: "MB", or "metric units" when it is the
 * user's metric beside another verdict metric. */
const char *live_load_unit(const struct live *lv);

/* Save lv->doc in the store at db (NULL: the default); its id into
 * out_id, and the id, "created" and "origin" the store gave it into
 * lv->doc. 0 or -errno with err set. */
int live_store(struct live *lv, const char *db, char *out_id,
	       struct strbuf *err);

#endif
