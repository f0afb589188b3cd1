/*
 * A session is one process's right to change settings: it holds the
 * journal's lock (STATE/lock, flock, so it dies with the process) and,
 * for each place whose settings it changes or restores, the machine's
 * lock of that place (setlock.h, whatever STATE is), owns the journal,
 * journals every change before it is made and confirms it after, and
 * undoes its changes in reverse order. Opening a session first repairs what
 * dead sessions left: same boot, their changes are undone; after a reboot, a
 * change the kernel forgot no longer applies and is retired, each one
 * named, while files still on disk are removed. Records of owners still
 * alive are left to them.
 *
 * The session knows no kind of change itself. Each kind of record (a
 * knob's setting, a scratch target's file or loop device, a work
 * directory) is a row of struct undo_ops below, which undoes and
 * describes it; the knob families and the targets, above the journal,
 * provide the rows.
 *
 * Changes are temporary (run --set: undone when the run ends, or by the
 * next invocation after a crash) or kept (iotrial set: a keep record
 * makes them outlive the process until iotrial revert).
 *
 * STATE is $IOTRIAL_STATE_DIR, else /var/lib/iotrial; it and its files
 * are refused unless trustworthy (state.h).
 */
#ifndef IOTRIAL_JOURNAL_SESSION_H
#define IOTRIAL_JOURNAL_SESSION_H

#include <errno.h>
#include <stdint.h>
#include "journal.h"
#include "owner.h"
#include "state.h"
#include "undo.h"

/* How loud a message from a session is; cli/ decides where it goes. */
enum session_say_level {
	SESSION_SAY_INFO, /* an action the command was asked to do */
	SESSION_SAY_NOTE, /* something done on the side (recovery) */
	SESSION_SAY_WARN, /* something the user must look at */
};

/* Where a session's messages go. core/ never prints; this may be NULL. */
struct session_log {
	void (*say)(void *data, enum session_say_level level, const char *msg);
	void *data;
};

/* Send one formatted message to log; nothing when log is NULL. */
void session_say(const struct session_log *log, enum session_say_level level,
		 const char *fmt, ...) __attribute__((format(printf, 3, 4)));

struct session;

/* Open flags. */
enum session_open_flags {
	SESSION_OPEN_QUIET_BUSY = 1 << 0, /* -EBUSY without a message */
};

/*
 * Lock, load the journal and repair what dead sessions left. cmd names
 * the command in the journal ("run", "set"; NULL: this process's). -EBUSY
 * when another live iotrial holds the lock, -EBADMSG for a corrupt journal
 * (err explains how to inspect it), -EACCES when the state directory is
 * not writable, -EPERM when it, the journal or the lock is not to be
 * trusted (err says how to fix it).
 */
int session_open(struct session **out, const char *cmd, unsigned flags,
		 const struct session_log *log, struct strbuf *err);
/*
 * Take the machine's lock of the place a setting lives (setlock.h:
 * scope "device", "mount" or "system", its object, the object's identity
 * now) for this session, waiting up to grace_ms; held until the session
 * closes. Every set record is written, and every one undone, under it.
 * 0 when held (also when this session held it already); setlock_take()'s
 * codes, err saying why.
 */
int session_lock_setting(struct session *s, const char *scope,
			 const char *object, const char *ident,
			 unsigned grace_ms, struct strbuf *err);
/* Take another reference (the scratch target and run --set share one). */
struct session *session_ref(struct session *s);
/*
 * Drop a reference. The last one undoes this session's temporary changes
 * that are still live (a safety net: callers roll back themselves),
 * compacts the journal and releases the lock. NULL is fine.
 */
void session_close(struct session *s, const struct session_log *log);

/* The seq the next record will get: pass it to rollback later. */
uint64_t session_mark(const struct session *s);
/*
 * Journal r, a set or scr record of a change this process is about to
 * make, under this process's own record (written first when needed):
 * its ref is filled here, its seq assigned, its strings copied. Call it
 * before the change, never after. *out_seq (may be NULL) gets its seq.
 * 0 or -errno with err set.
 */
int session_record(struct session *s, const struct jrec *r, uint64_t *out_seq,
		   struct strbuf *err);
/*
 * Remember, in memory only, what this process found right after it made
 * the change of record seq (a knob's value read back after the write).
 * Undoing that record in this process hands it to the kind's undo as
 * ctx->seen: "still what we made" then means exactly that.
 */
void session_note(struct session *s, uint64_t seq, const char *value);
/*
 * After the write that set record seq announced was made: journal a
 * wrote record with what the knob read back (now), so that after a crash
 * the journal knows that write was made. Also notes it (session_note()).
 * 0 or -errno with err set.
 */
int session_confirm(struct session *s, uint64_t seq, const char *now,
		    struct strbuf *err);
/*
 * Before writing the original of set record seq back (an undo that
 * restores): journal a restore record, so that after a crash between
 * that write and the undo record the original counts as a value iotrial
 * may have written last. 0 or -errno with err set. Appending moves the
 * journal's records: a pointer into ctx->j taken before is stale after.
 */
int session_restoring(struct session *s, uint64_t seq, struct strbuf *err);
/*
 * Undo this session's live temporary records with seq >= mark, newest
 * first. Keeps going past a failure; returns the first error.
 */
int session_rollback(struct session *s, uint64_t mark,
		     const struct session_log *log, struct strbuf *err);
/* Mark this session's set records as kept (iotrial set). */
int session_commit(struct session *s, struct strbuf *err);
/*
 * Restore every kept change in the journal, newest first (iotrial
 * revert), or only those of the knobs named (canonical names,
 * names[nr_names]; NULL: all), on every device and mount they were kept
 * for; a knob's twins (its journal group: vm.dirty_ratio and
 * vm.dirty_bytes) come with it, since restoring one rewrites the other.
 * *out_nr counts what was restored or retired.
 */
int session_revert(struct session *s, const struct session_log *log,
		   const char *const *names, size_t nr_names, size_t *out_nr,
		   struct strbuf *err);
/*
 * Journal a scratch resource before making it ("file", "loop", "mount",
 * "dir"; a and b as scratch.c defines; "work": a work directory, just
 * after it is made, as workdir.c defines): a scr record through
 * session_record(). *out_seq identifies it for session_done().
 */
int session_scratch(struct session *s, const char *what, const char *a,
		    const char *b, uint64_t *out_seq, struct strbuf *err);
/* Record that seq was undone (a scratch resource torn down). */
int session_done(struct session *s, uint64_t seq, struct strbuf *err);
/*
 * Compact the journal and drop s without undoing its live records: they
 * stay journaled under this process's own record, and recovery leaves a
 * "work" record alone while its owner lives (knob_owner_alive). This is
 * how a resource is journaled for long without holding the lock that
 * long (a run's work directory): open, session_scratch(), leave;
 * at the end open, session_done(), leave. NULL is fine.
 */
void session_leave(struct session *s);
/* The journal file's path. */
const char *session_journal(const struct session *s);
/* The journal's records as this session holds them (read-only; valid
 * until the next record is appended). */
const struct journal *session_records(const struct session *s);
/* What this process noted after the write of record seq
 * (session_note()), or NULL. */
const char *session_seen(const struct session *s, uint64_t seq);
/*
 * Retire live set record seq and every older live record of its setting
 * with one retire record (why: the reason): someone changed the setting
 * after iotrial's last write, so none of their originals is to come
 * back. 0 or -errno with err set.
 */
int session_retire(struct session *s, uint64_t seq, const char *why,
		   struct strbuf *err);

/*
 * At the start of every invocation: if the journal holds changes of a
 * process that is gone, restore them (or retire them after a reboot) and
 * say so. The journal is read first without the lock, which is taken
 * only when there is something to repair. Silent when there is nothing
 * to do, when another iotrial holds the lock, or when the state
 * directory cannot be read; without the rights to restore, and for a
 * corrupt or untrusted journal, warns. Never fails the command.
 * Returns how many records it found to repair and took on (0 when it
 * left them: nothing to do, busy, no rights).
 */
size_t knob_recover_stale(const struct session_log *log);

/*
 * For the commands that change nothing (knobs, info, log, show, ...):
 * read the journal as knob_recover_stale() does, and when it holds
 * changes of a process that is gone, only say so ("2 settings left by
 * iotrial pid 4242 (ended); 'iotrial revert' restores them"). Takes no
 * lock, writes nothing, restores nothing.
 */
void knob_report_stale(const struct session_log *log);

#endif
