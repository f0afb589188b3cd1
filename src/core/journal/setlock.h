/*
 * The machine's settings locks: one lock file per place a setting lives
 * (a disk, a mount point, or the system), under /run/iotrial, taken
 * (flock, so it dies with its process) by whoever changes or restores a
 * setting there, whatever state directory (IOTRIAL_STATE_DIR) it uses.
 * A state directory only serialises the writers of its own journal; two
 * iotrials with two state directories would otherwise both change one
 * knob, each journaling the other's value as the original.
 *
 * A lock file names its holder for the message another iotrial gets
 * ("pid 4242, 'compare'"), and, while the holder's journal holds changes
 * of that place, its state directory: an iotrial with another state
 * directory that takes the lock after the holder died (kill -9) must not
 * build on changes only that journal can undo, and is refused with the
 * directory named until they are restored there. Released with nothing
 * left to name, the file is removed: /run/iotrial holds the places
 * being changed now and those whose changes a journal holds. Compares
 * on two disks never wait for each other.
 *
 * The directory and its files are opened without following a symbolic
 * link and trusted only when they belong to root (or to the user running
 * iotrial) and nobody else can write them (state_check()).
 */
#ifndef IOTRIAL_JOURNAL_SETLOCK_H
#define IOTRIAL_JOURNAL_SETLOCK_H

#include "../../util/strbuf.h"

/* The directory of the lock files below the machine's root. */
#define SETLOCK_DIR "/run/iotrial"

/*
 * For unit tests: the machine's root, a prefix for SETLOCK_DIR and for
 * the /sys and /proc files of the knobs the journal restores ("", the
 * real machine, by default). A copy is kept.
 */
void setlock_set_root(const char *root);
/* The machine's root ("" unless a unit test set one). */
const char *setlock_root(void);
/* For unit tests: how long a change waits for a setting's lock
 * (STATE_LOCK_GRACE_MS by default). */
void setlock_set_grace(unsigned grace_ms);
/* How long a change waits for a setting's lock held by another. */
unsigned setlock_grace(void);

/* Who takes a lock: for its content and the checks. */
struct setlock_who {
	const char *cmd;	/* the iotrial command ("compare") */
	int state_fd;		/* our state directory, open */
	const char *state_path; /* ... and its path, for messages */
};

/*
 * Take the lock of the place scope/object ("device"/"loop0", "mount"/a
 * mount point, "system"/"system"), waiting up to grace_ms for a holder.
 * Then, when the lock names another state directory whose journal holds
 * a live change of that place (of identity ident; a record of another
 * identity, a device since replaced, does not count; ident "" matches
 * any), refuse. On success *out_fd holds the lock and the file names us.
 * -EBUSY with err saying who holds it, or which state directory holds
 * changes of the place and how to restore them; -EACCES without the
 * rights to make or open the lock; -EPERM when it is not to be trusted.
 * *out_fd is -1 on failure.
 */
int setlock_take(const char *scope, const char *object, const char *ident,
		 const struct setlock_who *who, unsigned grace_ms, int *out_fd,
		 struct strbuf *err);
/*
 * Release the lock of scope/object taken by setlock_take() as fd.
 * still_live: our journal still holds changes of the place (kept by
 * `iotrial set`, or a restore that failed), so the lock file stays,
 * naming our state directory; otherwise it is removed.
 */
void setlock_release(const char *scope, const char *object, int fd,
		     int still_live);
/* The lock file's path for scope/object, into out (for messages). */
void setlock_path(const char *scope, const char *object, struct strbuf *out);

#endif
