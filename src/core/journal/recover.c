/*
 * The repair at the start of a command (session.h): which owners are
 * gone is owner.c's; knob_recover_stale() and knob_report_stale() read
 * the journal without the lock and open a session only when a gone
 * owner left something.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "session.h"
#include "owner-int.h"
#include "state.h"
#include "../../util/error.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* How many records recovery would act on; *pid gets an owner's pid. */
static size_t count_stale(const struct journal *j, const char *boot,
			  int64_t *pid)
{
	size_t i, n = 0;

	for (i = 0; i < j->nr; i++) {
		const struct jrec *own;

		if (!session_stale(j, &j->recs[i], boot))
			continue;
		n++;
		own = journal_find(j, j->recs[i].ref);
		if (own)
			*pid = own->pid;
	}
	return n;
}

/* Say why each record whose boot cannot be told is kept. */
static void say_cannot_tell(const struct journal *j, const char *boot,
			    const struct session_log *log)
{
	size_t i;

	for (i = 0; i < j->nr; i++) {
		const struct jrec *r = &j->recs[i], *own;
		struct strbuf was = STRBUF_INIT;

		if (!session_cannot_tell(j, r, boot))
			continue;
		own = journal_find(j, r->ref);
		undo_kind(r)->describe(j, r, UNDO_BRIEF, &was);
		session_say(
		    log, SESSION_SAY_WARN,
		    "%s (changed by iotrial pid %" PRId64 ", which is "
		    "gone) stays in the journal: %s, so iotrial cannot "
		    "tell whether the machine rebooted since (the change "
		    "would be gone) or not (it would need restoring); "
		    "it is restored once " KNOB_BOOT_ID_FILE " can be "
		    "read, or see 'iotrial revert --list'",
		    was.buf, own->pid,
		    session_boot_known(boot)
			? "that iotrial could not read the "
			  "boot id"
			: "the boot id cannot be read "
			  "(" KNOB_BOOT_ID_FILE ")");
		strbuf_release(&was);
	}
}

/* The warning for a journal that does not parse. */
static void say_corrupt(const struct session_log *log, const char *path)
{
	session_say(
	    log, SESSION_SAY_WARN,
	    "the journal '%s' is corrupt; no setting can be changed until it "
	    "is repaired (see 'iotrial revert --list')",
	    path);
}

/*
 * First without the lock: read the journal and look for records whose
 * owner is gone. Only then, with repair, take the lock (without
 * waiting) and repair; without, say what was found and change nothing
 * (the read-only commands).
 */
static size_t recover_stale(const struct session_log *log, int repair)
{
	struct strbuf path = STRBUF_INIT, err = STRBUF_INIT;
	struct session *s = NULL;
	struct journal j;
	char *boot = NULL;
	int64_t pid = 0;
	size_t n = 0;
	int dir_fd = -1, ret;

	knob_journal_path(&path);
	journal_init(&j, path.buf);
	ret = state_open(0, &dir_fd, &err);
	if (ret == -ENOENT || ret == -EACCES)
		goto out; /* nothing journaled, or nothing we may read */
	if (ret) {
		session_say(log, SESSION_SAY_WARN, "%s", err.buf);
		goto out;
	}
	journal_set_dir(&j, dir_fd, "journal");
	ret = journal_load(&j, &err);
	if (ret == -EBADMSG)
		say_corrupt(log, path.buf);
	else if (ret && ret != -EACCES)
		session_say(log, SESSION_SAY_WARN, "%s", err.buf);
	if (ret)
		goto out;
	boot = knob_boot_id();
	say_cannot_tell(&j, boot, log);
	n = count_stale(&j, boot, &pid);
	if (!n)
		goto out; /* the common case: nothing left by the dead */
	if (!repair && faccessat(dir_fd, ".", W_OK, 0) == 0) {
		session_say(log, SESSION_SAY_WARN,
			    "%zu setting%s left by iotrial pid %" PRId64
			    " (ended); 'iotrial revert' restores %s",
			    n, n == 1 ? "" : "s", pid, n == 1 ? "it" : "them");
		goto out;
	}
	if (!repair || faccessat(dir_fd, ".", W_OK, 0) < 0 ||
	    (ret = session_open(&s, "recover", SESSION_OPEN_QUIET_BUSY, log,
				&err)) == -EACCES) {
		session_say(
		    log, SESSION_SAY_WARN,
		    "the journal '%s' holds %zu change%s left by iotrial pid "
		    "%" PRId64 ", which is gone; run 'iotrial revert' as root "
		    "to restore %s",
		    path.buf, n, n == 1 ? "" : "s", pid,
		    n == 1 ? "it" : "them");
		n = 0;
		goto out;
	}
	if (ret == -EBADMSG)
		say_corrupt(log, path.buf);
	else if (ret && ret != -EBUSY) /* busy: a later command repairs */
		session_say(log, SESSION_SAY_WARN, "%s", err.buf);
	if (ret)
		n = 0;
	session_close(s, log);
out:
	journal_release(&j);
	if (dir_fd >= 0)
		close(dir_fd);
	free(boot);
	strbuf_release(&path);
	strbuf_release(&err);
	return n;
}

size_t knob_recover_stale(const struct session_log *log)
{
	return recover_stale(log, 1);
}

void knob_report_stale(const struct session_log *log)
{
	(void)recover_stale(log, 0);
}
