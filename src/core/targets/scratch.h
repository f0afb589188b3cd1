/*
 * Scratch targets: "scratch:SIZE[:ext4|xfs]" makes a sparse file, attaches
 * a loop device to it, optionally makes a file system and mounts it on a
 * private directory, and tears all of it down afterwards. Every step is
 * journaled before it is made (journal/session.h), so a crash or kill -9
 * leaves nothing behind once the next iotrial runs.
 *
 * The target it opens: with a file system, kind TARGET_SCRATCH behaving
 * like a directory (path is the mount point, workdir inside it); without,
 * kind TARGET_BLOCKDEV on the loop device (workloads treat it as a raw
 * device). A spec without a file system opened for a workload that
 * works on files (TARGET_FILES) is given ext4, as if it had said so. Either way
 * t->scratch is set, and target_release() tears it down through
 * scratch_release().
 */
#ifndef IOTRIAL_SCRATCH_H
#define IOTRIAL_SCRATCH_H

#include <stdint.h>
#include "../../util/strbuf.h"

struct session_log;
struct session;
struct target;
struct undo_ops;

/*
 * Open spec (the part after "scratch:") as target t, which the caller
 * has zeroed and given spec and flags. Needs root. 0, or -errno with err
 * set; on failure everything made so far is torn down. stop (may be
 * NULL) is checked between the steps and while mkfs runs (which is then
 * killed): once it is non-zero, the set-up is torn down and -EINTR
 * returned.
 */
int scratch_open(struct target *t, const char *spec, volatile int *stop,
		 struct strbuf *err);

/*
 * scratch_open() in the session of another scratch target (a reference
 * is taken): one process holds the journal's lock once, so a second
 * scratch target of the same command (compare --duet's twins) journals
 * what it makes in the first's session.
 */
int scratch_open_in(struct target *t, const char *spec, struct session *s,
		    volatile int *stop, struct strbuf *err);

/* Tear down what scratch_open made (unmount, detach, delete). */
void scratch_release(struct target *t);

/* The loop device node ("/dev/loop3") of a scratch target, or NULL. */
const char *scratch_device(const struct target *t);

/*
 * The file system a scratch target was given because its spec named
 * none ("scratch:1G") and the caller works on files (TARGET_FILES):
 * "ext4"; NULL for any other target.
 */
const char *scratch_auto_fs(const struct target *t);

/* The journal session a scratch target holds (for run --set to share). */
struct session *scratch_session(const struct target *t);

/*
 * Where scratch_fill() says what it does (a note when it starts, one when
 * it is done). log must outlive the target; NULL silences it. Nothing
 * for a target that is not a scratch one.
 */
void scratch_set_log(struct target *t, const struct session_log *log);

/*
 * Make the first bytes of a raw scratch device hold data on the disk
 * under its image before a workload reads them: a fresh image is all
 * holes, and a hole (like an unwritten extent) reads as zeros without
 * any I/O, so a read benchmark would measure nothing. Writes random
 * data with O_DIRECT to the loop device, flushes the device and the
 * image, and drops both from the page cache. What is filled is
 * remembered: later calls fill only what lies beyond it (so the runs
 * and arms of an experiment reuse one fill). bytes is capped at the
 * device's size.
 *
 * Only a raw scratch target that iotrial made is ever written: for any
 * other target (a user's device, a directory, a scratch file system,
 * whose files are laid out by the workload) this does nothing. The free
 * space where the image lives is checked first: -ENOSPC with err saying
 * how much is needed. stop (may be NULL) is checked between writes:
 * -EINTR once it is non-zero. Returns 0 or -errno with err set.
 */
int scratch_fill(struct target *t, uint64_t bytes, volatile int *stop,
		 struct strbuf *err);

/*
 * Undo one journaled part of a scratch target ("dir", "file", "loop",
 * "mount"). Only the exact paths scratch_open() makes are accepted
 * (TMPDIR/iotrial-scratch.PID-XXXXXX, its disk.img and mnt, /dev/loopN
 * backed by that disk.img), reached without following a symbolic link
 * and owned by this user. 0 when it is gone now; -ESTALE when it is not
 * ours any more or was already gone (why says which); -EPERM when the
 * record names something iotrial does not make (nothing was touched);
 * other -errno with why set when it could not be undone. Recovery calls
 * it through the undo kinds below.
 */
int scratch_undo(const char *what, const char *a, const char *b,
		 struct strbuf *why);

/*
 * The journal's kinds for the parts of a scratch target (scr records of
 * WHAT "dir", "file", "loop", "mount"; session.h), undone by recovery in
 * scratch_undo.c. A directory and the image outlive a reboot; the loop
 * device and the mount do not.
 */
extern const struct undo_ops scratch_dir_undo_ops;
extern const struct undo_ops scratch_file_undo_ops;
extern const struct undo_ops scratch_loop_undo_ops;
extern const struct undo_ops scratch_mount_undo_ops;

#endif
