/*
 * The state directory ($IOTRIAL_STATE_DIR, else /var/lib/iotrial) holds
 * the journal and the lock. What the journal says is written back to the
 * machine as root, and the scratch paths in it are deleted, so the
 * directory and its files are trusted only when nobody else could have
 * put them there: each is opened without following a symbolic link and
 * checked on the open descriptor (owner root or the user running
 * iotrial, not writable by group or others). Anything else is refused
 * with a sentence that says what is wrong and the commands that fix it.
 */
#ifndef IOTRIAL_KNOB_STATE_H
#define IOTRIAL_KNOB_STATE_H

#include "../../util/strbuf.h"

/* The state directory: $IOTRIAL_STATE_DIR or /var/lib/iotrial. */
const char *state_dir(void);
/* STATE/journal into out. */
void knob_journal_path(struct strbuf *out);

/*
 * May iotrial trust the state file or directory open at fd (opened with
 * O_NOFOLLOW, so it is not a symbolic link)? It must be a directory
 * (want_dir) or a regular file, belong to root or to the effective user,
 * and not be writable by group or others. what names it in the message
 * ("state directory", "journal", "lock file"). 0, or -EPERM with err
 * saying what is wrong and what would be right.
 */
int state_check(int fd, const char *path, const char *what, int want_dir,
		struct strbuf *err);
/* err for a state file or directory that is a symbolic link (ELOOP from
 * an O_NOFOLLOW open); returns -EPERM. */
int state_refuse_link(const char *path, const char *what, int is_dir,
		      struct strbuf *err);
/* fsync the directory that holds path, so that creating, renaming or
 * removing path is durable. 0 or -errno. */
int state_sync_parent(const char *path);

/*
 * Open the state directory and check it (state_check()). With
 * create, make it first (and fsync the parent of every directory made,
 * so a crash cannot lose it). *out_fd is an O_DIRECTORY descriptor the
 * caller closes. -ENOENT, err untouched, when it does not exist and
 * create is 0; -EACCES when it cannot be made or opened for lack of
 * rights; -EPERM when it is not to be trusted; other -errno.
 */
int state_open(int create, int *out_fd, struct strbuf *err);
/*
 * Take STATE/lock (flock, without waiting) through dir_fd: open it
 * without following a link, check it, then write our pid into it: the
 * pid first, then the file cut to its length, so it is never empty while
 * held. *out_fd holds the lock until it is closed (also on failure it is
 * set, or -1). -EBUSY when another process holds it (err names its pid,
 * unless quiet), -EACCES without the rights to open it, -EPERM when it is
 * not to be trusted.
 */
int state_lock(int dir_fd, int quiet, int *out_fd, struct strbuf *err);

/*
 * How long a command waits for a lock (the state directory's, a setting's)
 * before it says another iotrial holds it: a run holds it for a few
 * milliseconds at its start and end, and `set` at that moment should not
 * fail for it. A compare holds it for its whole length; then the wait is
 * short enough not to matter.
 */
#define STATE_LOCK_GRACE_MS 2000
/* flock(fd, LOCK_EX) within grace_ms; 0, or -1 with errno set. */
int state_flock_soon(int fd, unsigned grace_ms);

#endif
