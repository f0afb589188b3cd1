/*
 * A session is one process's right to change settings: it holds the
 * lock (STATE/lock, flock, so it dies with the process), owns the
 * journal, journals every original and the value it is about to write
 * before the write, and undoes its changes in reverse order. Opening a
 * session first repairs what dead sessions left: same boot, their
 * changes are restored; after a reboot, the changes no longer apply and
 * are retired, each one named. Records of owners still alive are left to
 * them.
 *
 * A change is undone only while the setting still holds what iotrial
 * wrote: a value someone set since is kept, and said so.
 *
 * Changes are temporary (run --set: undone when the run ends, or by the
 * next invocation after a crash) or kept (iotrial set: a keep record
 * makes them outlive the process until iotrial revert).
 *
 * STATE is $IOTRIAL_STATE_DIR, else /var/lib/iotrial; it and its files
 * are refused unless trustworthy (state.h).
 */
#ifndef IOTRIAL_KNOB_SESSION_H
#define IOTRIAL_KNOB_SESSION_H

#include <stdint.h>
#include "journal.h"
#include "../knob/plan.h"
#include "state.h"

/* How loud a message from a session is; cli/ decides where it goes. */
enum knob_say_level {
	KNOB_SAY_INFO, /* an action the command was asked to do */
	KNOB_SAY_NOTE, /* something done on the side (recovery) */
	KNOB_SAY_WARN, /* something the user must look at */
};

/* Where a session's messages go. core/ never prints; this may be NULL. */
struct knob_log {
	void (*say)(void *data, enum knob_say_level level, const char *msg);
	void *data;
};

struct knob_session;

/* Open flags. */
enum knob_open_flags {
	KNOB_OPEN_QUIET_BUSY = 1 << 0, /* -EBUSY without a message */
};

/*
 * Lock, load the journal and repair what dead sessions left. cmd names
 * the command in the journal ("run", "set"; NULL: this process's). -EBUSY
 * when another live iotrial holds the lock, -EBADMSG for a corrupt journal
 * (err explains how to inspect it), -EACCES when the state directory is
 * not writable, -EPERM when it, the journal or the lock is not to be
 * trusted (err says how to fix it).
 */
int knob_session_open(struct knob_session **out, const char *cmd,
		      unsigned flags, const struct knob_log *log,
		      struct strbuf *err);
/* Take another reference (the scratch target and run --set share one). */
struct knob_session *knob_session_ref(struct knob_session *s);
/*
 * Drop a reference. The last one undoes this session's temporary changes
 * that are still live (a safety net: callers roll back themselves),
 * compacts the journal and releases the lock. NULL is fine.
 */
void knob_session_close(struct knob_session *s, const struct knob_log *log);

/* The seq the next record will get: pass it to rollback later. */
uint64_t knob_session_mark(const struct knob_session *s);
/*
 * Apply a built plan in order: per change, journal the value before it
 * and the canonical value about to be written, write, read back. A knob
 * an earlier `iotrial set` keeps gets its record too (revert then walks
 * the records back, newest first). Stops at the first failure (err set):
 * roll back to a mark taken before, which returns every knob this call
 * wrote to its value before the call. Each change's
 * before/after/journaled/applied are filled.
 */
int knob_session_apply(struct knob_session *s, struct knob_plan *p,
		       const struct knob_log *log, struct strbuf *err);
/*
 * Undo this session's live temporary records with seq >= mark, newest
 * first. Keeps going past a failure; returns the first error.
 */
int knob_session_rollback(struct knob_session *s, uint64_t mark,
			  const struct knob_log *log, struct strbuf *err);
/* Mark this session's set records as kept (iotrial set). */
int knob_session_commit(struct knob_session *s, struct strbuf *err);
/*
 * Restore every kept change in the journal, newest first (iotrial
 * revert). *out_nr counts what was restored or retired.
 */
int knob_session_revert(struct knob_session *s, const struct knob_log *log,
			size_t *out_nr, struct strbuf *err);
/*
 * Journal a scratch resource before making it ("file", "loop", "mount",
 * "dir"; a and b as scratch.c defines; "work": a work directory, just
 * after it is made, as workdir.c defines). *out_seq identifies it for
 * knob_session_done().
 */
int knob_session_scratch(struct knob_session *s, const char *what,
			 const char *a, const char *b, uint64_t *out_seq,
			 struct strbuf *err);
/* Record that seq was undone (a scratch resource torn down). */
int knob_session_done(struct knob_session *s, uint64_t seq, struct strbuf *err);
/*
 * Compact the journal and drop s without undoing its live records: they
 * stay journaled under this process's own record, and recovery leaves a
 * "work" record alone while its owner lives (knob_owner_alive). This is
 * how a resource is journaled for long without holding the lock that
 * long (a run's work directory): open, knob_session_scratch(), leave;
 * at the end open, knob_session_done(), leave. NULL is fine.
 */
void knob_session_leave(struct knob_session *s);
/* The journal file's path. */
const char *knob_session_journal(const struct knob_session *s);

/*
 * At the start of every invocation: if the journal holds changes of a
 * process that is gone, restore them (or retire them after a reboot) and
 * say so. The journal is read first without the lock, which is taken
 * only when there is something to repair. Silent when there is nothing
 * to do, when another iotrial holds the lock, or when the state
 * directory cannot be read; without the rights to restore, and for a
 * corrupt or untrusted journal, warns. Never fails the command.
 */
void knob_recover_stale(const struct knob_log *log);

/* Helpers shared with `revert --list` (report/journal_text.c). */
/* The original of a journaled set record, for people: "'mq-deadline'",
 * or a snapshot's first value and how many settings it carries. */
void knob_show_orig(const char *name, const char *orig, struct strbuf *out);
/* Does a knob that reads now (canonical) still hold the value wrote
 * that iotrial wrote (equal, or accepted by the knob's verify)? */
int knob_holds_written(const struct knob *k, const char *wrote,
		       const char *now);
/* Is the process of own record own still running, in this boot? */
int knob_owner_alive(const struct jrec *own, const char *boot);
/* This boot's id, from /proc/sys/kernel/random/boot_id; caller frees. */
char *knob_boot_id(void);

#endif
