/*
 * A plan: the KNOB=VALUE assignments of one command, resolved, parsed and
 * put in apply order (the scheduler first, since switching it resets
 * nr_requests and replaces iosched/). The same plan is what --dry-run
 * prints for a change-approval board and what a session applies.
 */
#ifndef IOTRIAL_KNOB_PLAN_H
#define IOTRIAL_KNOB_PLAN_H

#include "knob.h"

struct session;
struct session_log;

/* One assignment. Strings owned. */
struct knob_change {
	struct knob k;
	char *input_name;     /* as typed: "bdflush.nfract" */
	char *input;	      /* value as typed: "4096s" */
	struct strbuf canon;  /* what is written: "2048" */
	struct strbuf note;   /* translations and unit explanations */
	struct strbuf side;   /* found while applying: side effects, the
				 default a reset produced */
	struct strbuf before; /* the value when planned (or applied) */
	struct strbuf after;  /* read back after the write */
	struct strbuf how;    /* what the write does, for --dry-run */
	unsigned order;	      /* position on the command line */
	int journaled;	      /* a record was written for it */
	int applied;	      /* written and verified */
};

/* The assignments of one command. */
struct knob_plan {
	struct knob_ctx *ctx; /* not owned */
	struct knob_change *v;
	size_t nr, alloc;
	char **raw;	 /* "KNOB=VALUE" as given, nr_raw of them (a bdflush
			    line as the bdflush.* assignments it stands for) */
	char **raw_note; /* per raw: a note its change starts with, or NULL */
	size_t nr_raw, alloc_raw;
};

void knob_plan_init(struct knob_plan *p, struct knob_ctx *ctx);
void knob_plan_release(struct knob_plan *p);
/*
 * Queue "KNOB=VALUE". -EINVAL (err set) when there is no '=', or for a
 * bdflush line (bdflush='80 0 0 0 500 3000 90 0 0') that does not parse;
 * such a line queues the bdflush.* assignments of its fields.
 */
int knob_plan_add(struct knob_plan *p, const char *assignment,
		  struct strbuf *err);
/*
 * Resolve and parse every queued assignment, then sort by apply order.
 * Fails on the first unknown knob, bad value, or conflict (a knob given
 * twice; vm.dirty_bytes with vm.dirty_ratio). iosched.* assignments are
 * checked against the scheduler the plan switches to.
 */
int knob_plan_build(struct knob_plan *p, struct strbuf *err);
/*
 * Changing anything needs root: -EPERM with err naming the first knob
 * when p has changes and this process is not root, else 0.
 */
int knob_plan_need_root(const struct knob_plan *p, struct strbuf *err);
/*
 * Before a deferred change (iosched.* of the new scheduler) is written:
 * resolve and parse it again now that the scheduler is active.
 */
int knob_plan_refresh(struct knob_plan *p, struct knob_change *c,
		      struct strbuf *err);
/*
 * Apply a built plan under session s (session.h), in order: per change,
 * journal the value before it and the canonical value about to be
 * written, write, read back (knob_journal.c). A knob an earlier
 * `iotrial set` keeps gets its record too (revert then walks the records
 * back, newest first). Stops at the first failure (err set): roll back
 * to a mark taken before, which returns every knob this call wrote to
 * its value before the call. Each change's before/after/side/journaled/
 * applied are filled anew, so a plan may be applied again later (the
 * knob is read again first, for its record).
 */
int session_apply(struct session *s, struct knob_plan *p,
		  const struct session_log *log, struct strbuf *err);
/*
 * Is c a value already in force: its knob reads now (c->before) what it
 * would be set to? Never for a change that waits for a scheduler switch.
 */
int knob_change_unchanged(const struct knob_change *c);
/* Show a value for people: "2048 KiB (2 MiB; blockdev --setra 4096)". */
void knob_show_value(const struct knob *k, const char *value,
		     struct strbuf *out);

#endif
