/*
 * Changes that outlive the process: `iotrial set` applies a plan and
 * keeps it, `iotrial revert` restores what is kept. Each is one whole
 * session (session.h): the lock, the journal, recovery of what dead
 * sessions left, and the undo of a half-made change. The commands only
 * parse, call these, print and pick the exit code.
 */
#ifndef IOTRIAL_KNOB_KEEP_H
#define IOTRIAL_KNOB_KEEP_H

#include <stddef.h>
#include "plan.h"
#include "../journal/session.h"
#include "../../util/strbuf.h"

/* Where knob_apply_kept() failed, for the caller's exit code. */
enum knob_keep_stage {
	KNOB_KEEP_FAILED_SESSION = 1, /* opening the session (the lock, the
					 journal); nothing was changed */
	KNOB_KEEP_FAILED_APPLY,	      /* a change, or a stop request;
					 what was changed is rolled back */
	KNOB_KEEP_FAILED_COMMIT,      /* the keep record; rolled back */
};

/* What the caller of knob_apply_kept() hears. Every member may be NULL. */
struct knob_keep_hooks {
	struct session_log log; /* the session's messages */
	volatile int *stop;	/* nonzero (a signal number) once a stop was
				   asked for: the changes are rolled back */
	/*
	 * Why a change failed, said before what was changed is undone, so
	 * that the reason comes before the messages of the undo.
	 */
	void (*undoing)(void *data, const char *why);
	void *data; /* for undoing */
};

/*
 * Apply the built plan p and keep it (iotrial set): all or nothing.
 * Every value is journaled before its write; if a write fails, a stop is
 * asked for (-EINTR, "interrupted by signal N") or the keep record
 * cannot be written, hooks->undoing hears why and every knob this call
 * wrote returns to its value before the call. On success the changes
 * outlive this process until knob_revert_kept(); each change's
 * before/after/side are filled. Returns 0 or -errno with err set and
 * *out_failed saying where (session_open()'s codes for
 * KNOB_KEEP_FAILED_SESSION, session_apply()'s for a change).
 */
int knob_apply_kept(struct knob_plan *p, const struct knob_keep_hooks *hooks,
		    enum knob_keep_stage *out_failed, struct strbuf *err);

/*
 * Restore every kept change in the journal, newest first (iotrial
 * revert), or those of the knobs named (names[nr_names], NULL: all; as
 * session_revert() matches them); a setting changed since iotrial wrote it
 * keeps its new value, and the log says so. *out_nr counts what was restored or
 * retired; *out_no_journal is 1 when there is no journal at all (then nothing
 * is opened or made, and 0 is returned). Returns 0, or -errno with err set: the
 * journal cannot be read (restoring settings needs root), or
 * session_open()'s and session_revert()'s codes.
 */
int knob_revert_kept(const struct session_log *log, const char *const *names,
		     size_t nr_names, size_t *out_nr, int *out_no_journal,
		     struct strbuf *err);

#endif
