/*
 * The kinds of journal record (session.h): each kind is a row that
 * undoes and describes its records; the rows live above the journal
 * (knob/undo_kinds.c), the lookup below it (owner.c).
 */
#ifndef IOTRIAL_JOURNAL_UNDO_H
#define IOTRIAL_JOURNAL_UNDO_H

#include <errno.h>
#include "journal.h"
#include "../../util/strbuf.h"

struct session;
struct session_log;

/*
 * Kinds of record. A set or scr record is undone and described by the
 * row whose kind is jrec_kind() of it: "set" for a knob's setting (the
 * knob families, knob_journal.c), "dir", "file", "loop" and "mount" for
 * the parts of a scratch target (scratch_undo.c), "work" for a work
 * directory (workdir.c).
 */

/* What describe() writes. */
enum undo_view {
	UNDO_BRIEF, /* what the record changed, inside a sentence: "'x' on
		       'loop0' (it was 128 KiB)", "scratch file '/p'" */
	UNDO_LIST,  /* its line in `revert --list`, without "#SEQ" and the
		       newline: the original, what was written, what is
		       there now */
};

/* What undo() is given besides the record. */
struct undo_ctx {
	const struct session_log *log; /* where undo() says what it did */
	const char *seen;	 /* what this process noted right after making
				    the change (session_note()), or NULL: the
				    record is another process's */
	const struct journal *j; /* the journal the record is in (its
				    chain, its wrote and restore records) */
	struct session *s;	 /* the session undoing it */
};

/*
 * What undo() returns when what set record r names was changed by
 * someone else after iotrial's last change to it: that value is kept,
 * and r and every older live record of the same setting are retired at
 * once (one retire record), with why as the reason: their originals are
 * older than that change.
 */
#define UNDO_CHANGED_SINCE (-ECANCELED)

/* One kind of record. */
struct undo_ops {
	const char *kind; /* jrec_kind() of its records */
	/*
	 * Does what the record names outlive a reboot? Files on disk do,
	 * and are still removed after one; a kernel setting or a loop
	 * device does not: its record is retired, named through
	 * describe(UNDO_BRIEF).
	 */
	int survives_reboot;
	/*
	 * Undo r: check that what it names is still what iotrial made, put
	 * it back, and say what happened through ctx->log. Returns 0 when
	 * it is undone (or nothing was left to undo): the session journals
	 * an undo record. -ESTALE when it no longer applies (gone, replaced,
	 * changed since by someone else), and -EPERM when it names what
	 * iotrial does not make and was left alone: the session journals a
	 * drop record with why as the reason. Any other -errno: undoing
	 * failed, why holds the error sentence, the record stays live and
	 * is retried later. UNDO_CHANGED_SINCE: see there. r is this call's
	 * own copy; it is the newest live record of what it names
	 * (undo_ops.same): newer ones are undone first, and while one stays
	 * live r is not undone.
	 */
	int (*undo)(const struct jrec *r, const struct undo_ctx *ctx,
		    struct strbuf *why);
	/* Do live records a (newer) and b change the same thing, so that b
	 * waits until a is undone? NULL: never. */
	int (*same)(const struct jrec *a, const struct jrec *b);
	/* Describe r, a record of j, into out as view asks (read-only: no
	 * lock held, nothing changed). */
	void (*describe)(const struct journal *j, const struct jrec *r,
			 enum undo_view view, struct strbuf *out);
};

/*
 * Every kind this program knows, NULL-terminated. It is defined above the
 * journal (knob/undo_kinds.c), where the knobs and the targets are both
 * in view, and found by the linker: the journal includes nothing of the
 * kinds it undoes, and no kind can be left out by a caller that forgot
 * to register it (every journal may hold every kind).
 */
extern const struct undo_ops *const journal_undo_kinds[];
/* The row for r's kind, or NULL when this program knows none. */
const struct undo_ops *undo_kind(const struct jrec *r);

#endif
