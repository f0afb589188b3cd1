/*
 * Sessions: the lock, the journal, and the rule "journal the change,
 * fsync, then make it". See session.h for the life cycle.
 *
 * Who is alive comes from the own records: pid, process start time and
 * boot id (knob_owner_alive()). The lock serialises changes, but not
 * every process with records in the journal holds it for its whole life,
 * so recovery leaves the records of a live owner alone and acts only on
 * those whose process is gone. The boot id also tells "crashed" (same
 * boot: undo) from "rebooted" (the kernel started fresh: a setting no
 * longer applies, but files on disk still need removing; each kind says
 * which it is).
 *
 * What a record means, how to check that what it names is still what
 * iotrial made, and how to put it back, is its kind's business (struct
 * undo_ops): the session only turns the kind's answer into an undo or a
 * drop record, or keeps the record for a later retry.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/file.h>
#include <sys/stat.h>
#include "session.h"
#include "state.h"
#include "../../util/error.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* What this process found right after it made a change of its own. */
struct seen_value {
	uint64_t seq; /* the record of that change */
	char *value;  /* as session_note() was given it */
};

/* One process's hold on the journal: the lock, the records, our owner. */
struct session {
	int refs;
	int dir_fd;  /* the state directory, checked */
	int lock_fd; /* holds STATE/lock */
	struct journal j;
	uint64_t own_seq; /* our own record, 0 until the first change */
	char *cmd;
	char *boot; /* this boot's id */
	struct seen_value *seen;
	size_t nr_seen, alloc_seen;
};

const char *session_journal(const struct session *s)
{
	return s->j.path;
}

void session_say(const struct session_log *log, enum session_say_level level,
		 const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	if (!log || !log->say)
		return;
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	log->say(log->data, level, sb.buf);
	strbuf_release(&sb);
}

char *knob_boot_id(void)
{
	struct strbuf sb = STRBUF_INIT;

	if (strbuf_read_file(&sb, KNOB_BOOT_ID_FILE, 256))
		strbuf_reset(&sb);
	strbuf_trim(&sb);
	if (!sb.len)
		strbuf_addstr(&sb, KNOB_BOOT_UNKNOWN);
	return strbuf_detach(&sb, NULL);
}

/* Is b a boot id that was read (not "unknown", not missing)? */
static int boot_known(const char *b)
{
	return b && *b && strcmp(b, KNOB_BOOT_UNKNOWN);
}

/* Field 22 of /proc/PID/stat (start time in ticks); 0 if unknown. */
static uint64_t start_ticks(long pid)
{
	struct strbuf sb = STRBUF_INIT, path = STRBUF_INIT;
	unsigned long long v = 0;
	char *p;

	strbuf_addf(&path, "/proc/%ld/stat", pid);
	if (!strbuf_read_file(&sb, path.buf, 4096) &&
	    (p = strrchr(sb.buf, ')')) &&
	    sscanf(p + 2,
		   "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u "
		   "%*u %*d %*d %*d %*d %*d %*d %llu",
		   &v) != 1)
		v = 0;
	strbuf_release(&sb);
	strbuf_release(&path);
	return v;
}

/* Is the process of own record r still running (read-only check)? */
int knob_owner_alive(const struct jrec *own, const char *boot)
{
	/* a boot id that could not be read tells nothing: the pid and its
	 * start time still do */
	if (boot_known(boot) && boot_known(own->f[JF_BOOT]) &&
	    strcmp(own->f[JF_BOOT], boot))
		return 0;
	return start_ticks((long)own->pid) == own->start_ticks &&
	       own->start_ticks;
}

/* The full corrupt-journal message: what, and how to look. */
static int corrupt(const char *path, const char *why, struct strbuf *err)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb,
		    "the journal '%s' is corrupt (%s), so no setting is "
		    "changed until it is repaired and no original value is "
		    "lost; inspect it with 'iotrial revert --list' or 'cat "
		    "%s' (each 'set' line holds a knob's original value, "
		    "%%-escaped), restore what you need by hand, then move "
		    "it aside: mv %s %s.bad",
		    path, why, path, path, path);
	err_set(err, -EBADMSG, "%s", sb.buf);
	strbuf_release(&sb);
	return -EBADMSG;
}

/* The iotrial subcommand this process runs (argv[1]), for messages. */
static char *command_name(void)
{
	struct strbuf sb = STRBUF_INIT;
	const char *arg;
	char *res;

	if (strbuf_read_file(&sb, "/proc/self/cmdline", 4096) || !sb.len)
		return xstrdup("iotrial");
	arg = memchr(sb.buf, '\0', sb.len);
	res = xstrdup(arg && arg + 1 < sb.buf + sb.len ? arg + 1 : "iotrial");
	strbuf_release(&sb);
	return res;
}

/* Write our own record before our first change. */
static int ensure_owner(struct session *s, struct strbuf *err)
{
	struct jrec r;
	int ret;

	if (s->own_seq)
		return 0;
	memset(&r, 0, sizeof(r));
	r.type = JREC_OWN;
	r.pid = getpid();
	r.start_ticks = start_ticks((long)getpid());
	r.time_s = (uint64_t)time(NULL);
	r.f[JF_BOOT] = s->boot;
	r.f[JF_CMD] = s->cmd;
	ret = journal_append(&s->j, &r, err);
	if (!ret)
		s->own_seq = s->j.recs[s->j.nr - 1].seq;
	return ret;
}

/* Append an undo (reason NULL) or drop record for seq. */
static int mark_done(struct session *s, uint64_t seq, const char *reason,
		     struct strbuf *err)
{
	struct jrec r;

	memset(&r, 0, sizeof(r));
	r.type = reason ? JREC_DROP : JREC_UNDO;
	r.ref = seq;
	r.f[JF_REASON] = (char *)reason;
	return journal_append(&s->j, &r, err);
}

/* What this process noted after it made the change of record seq, or
 * NULL. */
static const char *seen_value(const struct session *s, uint64_t seq)
{
	size_t i;

	for (i = 0; i < s->nr_seen; i++)
		if (s->seen[i].seq == seq)
			return s->seen[i].value;
	return NULL;
}

const struct undo_ops *undo_kind(const struct jrec *r)
{
	const char *kind = jrec_kind(r);
	size_t i;

	for (i = 0; kind && journal_undo_kinds[i]; i++)
		if (!strcmp(journal_undo_kinds[i]->kind, kind))
			return journal_undo_kinds[i];
	return NULL;
}

/*
 * Undo one live record through its kind, and journal what came of it:
 * undone, or retired (no longer applies, or never ours); a failure
 * leaves it live for a retry.
 */
static int undo_one(struct session *s, struct jrec *r,
		    const struct session_log *log, struct strbuf *err)
{
	const struct undo_ops *kind = undo_kind(r);
	struct undo_ctx ctx = {log, seen_value(s, r->seq)};
	struct strbuf why = STRBUF_INIT;
	uint64_t seq = r->seq; /* r moves when a record is appended */
	int ret;

	if (kind)
		ret = kind->undo(r, &ctx, &why);
	else
		ret = err_set(&why, -EPROTO,
			      "this iotrial does not know how to undo the "
			      "journal's '%s' record #%" PRIu64 " (a newer "
			      "one wrote it); undo it with that version",
			      jrec_kind(r), seq);
	if (!ret)
		ret = mark_done(s, seq, NULL, err);
	else if (ret == -ESTALE || ret == -EPERM)
		ret = mark_done(s, seq, why.buf, err);
	else
		err_set(err, ret, "%s", why.buf);
	strbuf_release(&why);
	return ret;
}

/* Is r a live set/scr record? */
static int live(const struct jrec *r)
{
	return (r->type == JREC_SET || r->type == JREC_SCR) && !r->done;
}

/*
 * Can recovery not tell whether r's change still applies? That is a
 * live record of a kind that does not outlive a reboot, whose owner is
 * gone, when this boot's id or the owner's could not be read: the
 * machine may have rebooted since (the change is gone, the record must
 * be retired) or not (it must be undone), and neither may be guessed.
 */
static int cannot_tell(const struct journal *j, const struct jrec *r,
		       const char *boot)
{
	const struct undo_ops *kind = undo_kind(r);
	const struct jrec *own;

	if (!live(r) || !kind || kind->survives_reboot)
		return 0;
	own = journal_find(j, r->ref);
	if (!own || (boot_known(boot) && boot_known(own->f[JF_BOOT])))
		return 0;
	return !knob_owner_alive(own, boot);
}

/*
 * Is r something recovery acts on: live, and its owner gone? A kept
 * change waits for iotrial revert as long as its boot lasts, and the
 * records of a live owner are its own business, lock or no lock. A
 * record whose boot cannot be told (cannot_tell()) is left as it is.
 */
static int stale(const struct journal *j, const struct jrec *r,
		 const char *boot)
{
	const struct jrec *own;

	if (!live(r) || cannot_tell(j, r, boot))
		return 0;
	own = journal_find(j, r->ref);
	if (!own)
		return 1;
	if (knob_owner_alive(own, boot))
		return 0;
	if (!boot_known(boot) || !boot_known(own->f[JF_BOOT]))
		return !r->kept; /* a kept change waits for revert */
	return !r->kept || strcmp(own->f[JF_BOOT], boot);
}

/* Repair what dead owners left (the lock is held). */
static void recover(struct session *s, const struct session_log *log)
{
	struct strbuf err = STRBUF_INIT;
	uint64_t announced = 0;
	size_t i = s->j.nr;

	while (i--) {
		struct jrec *r = &s->j.recs[i];
		const struct undo_ops *kind = undo_kind(r);
		const struct jrec *own;
		int same_boot;

		if (!stale(&s->j, r, s->boot))
			continue;
		own = journal_find(&s->j, r->ref);
		same_boot = own && !strcmp(own->f[JF_BOOT], s->boot);
		if (!same_boot && kind && !kind->survives_reboot) {
			struct strbuf was = STRBUF_INIT;

			kind->describe(&s->j, r, UNDO_BRIEF, &was);
			session_say(
			    log, SESSION_SAY_NOTE,
			    "%s was changed before the last reboot; that "
			    "change no longer applies",
			    was.buf);
			strbuf_release(&was);
			mark_done(s, r->seq, "made before the last reboot",
				  &err);
			continue;
		}
		if (own && announced != own->seq) {
			announced = own->seq;
			session_say(log, SESSION_SAY_NOTE,
				    "iotrial pid %" PRId64
				    " ('%s') is gone and "
				    "left changes behind; restoring them",
				    own->pid, own->f[JF_CMD]);
		}
		undo_one(s, r, log, &err);
	}
	strbuf_release(&err);
}

int session_open(struct session **out, const char *cmd, unsigned flags,
		 const struct session_log *log, struct strbuf *err)
{
	struct session *s = xcalloc(1, sizeof(*s));
	struct strbuf path = STRBUF_INIT, why = STRBUF_INIT;
	int ret;

	s->refs = 1;
	s->dir_fd = -1;
	s->lock_fd = -1;
	s->cmd = cmd ? xstrdup(cmd) : command_name();
	s->boot = knob_boot_id();
	knob_journal_path(&path);
	journal_init(&s->j, path.buf);
	strbuf_release(&path);
	ret = state_open(1, &s->dir_fd, err);
	if (ret)
		goto fail;
	journal_set_dir(&s->j, s->dir_fd, "journal");
	ret = state_lock(s->dir_fd, flags & SESSION_OPEN_QUIET_BUSY,
			 &s->lock_fd, err);
	if (ret)
		goto fail;
	ret = journal_load(&s->j, &why);
	if (ret == -EBADMSG) {
		corrupt(s->j.path, why.buf, err);
		goto fail;
	}
	if (ret) {
		err_set(err, ret, "%s", why.buf);
		goto fail;
	}
	if (s->j.torn_bytes)
		session_say(
		    log, SESSION_SAY_NOTE,
		    "the journal's last line (line %u) was cut short by a "
		    "crash before its change was made; it is dropped",
		    s->j.torn_line);
	recover(s, log);
	if (journal_compact(&s->j, &why))
		session_say(log, SESSION_SAY_WARN, "%s", why.buf);
	strbuf_release(&why);
	*out = s;
	return 0;
fail:
	strbuf_release(&why);
	s->refs = 1;
	session_close(s, NULL);
	*out = NULL;
	return ret;
}

struct session *session_ref(struct session *s)
{
	if (s)
		s->refs++;
	return s;
}

void session_close(struct session *s, const struct session_log *log)
{
	struct strbuf err = STRBUF_INIT;
	size_t i;

	if (!s || --s->refs > 0)
		return;
	if (s->lock_fd >= 0 && s->own_seq) {
		session_rollback(s, 0, log, &err);
		journal_compact(&s->j, &err);
	}
	journal_release(&s->j);
	if (s->lock_fd >= 0)
		close(s->lock_fd); /* releases the lock */
	if (s->dir_fd >= 0)
		close(s->dir_fd);
	for (i = 0; i < s->nr_seen; i++)
		free(s->seen[i].value);
	free(s->seen);
	free(s->cmd);
	free(s->boot);
	free(s);
	strbuf_release(&err);
}

uint64_t session_mark(const struct session *s)
{
	return s->j.next_seq;
}

int session_record(struct session *s, const struct jrec *r, uint64_t *out_seq,
		   struct strbuf *err)
{
	struct jrec rec = *r; /* strings borrowed: the append copies them */
	int ret = ensure_owner(s, err);

	if (ret)
		return ret;
	rec.ref = s->own_seq;
	ret = journal_append(&s->j, &rec, err);
	if (!ret && out_seq)
		*out_seq = s->j.recs[s->j.nr - 1].seq;
	return ret;
}

void session_note(struct session *s, uint64_t seq, const char *value)
{
	ALLOC_GROW(s->seen, s->nr_seen + 1, s->alloc_seen);
	s->seen[s->nr_seen].seq = seq;
	s->seen[s->nr_seen++].value = xstrdup(value);
}

int session_rollback(struct session *s, uint64_t mark,
		     const struct session_log *log, struct strbuf *err)
{
	struct strbuf e = STRBUF_INIT;
	size_t i = s->j.nr;
	int ret = 0, r;

	while (i--) {
		struct jrec *rec = &s->j.recs[i];

		if (rec->seq < mark)
			break;
		if (!live(rec) || rec->kept || rec->ref != s->own_seq ||
		    !s->own_seq)
			continue;
		r = undo_one(s, rec, log, &e);
		if (r && !ret) {
			ret = r;
			err_set(err, r, "%s", e.buf);
		}
	}
	strbuf_release(&e);
	return ret;
}

int session_commit(struct session *s, struct strbuf *err)
{
	struct jrec r;

	if (!s->own_seq)
		return 0;
	memset(&r, 0, sizeof(r));
	r.type = JREC_KEEP;
	r.ref = s->own_seq;
	return journal_append(&s->j, &r, err);
}

/* Is rec's knob, or a twin in its group, one of names[nr]? */
static int named(const struct journal *j, const struct jrec *rec,
		 const char *const *names, size_t nr)
{
	size_t i, k;

	if (rec->type != JREC_SET || !rec->f[JF_NAME])
		return 0;
	for (i = 0; i < j->nr; i++) {
		const struct jrec *o = &j->recs[i];

		if (o->type != JREC_SET || !o->f[JF_NAME] || !o->f[JF_GROUP] ||
		    !rec->f[JF_GROUP] ||
		    strcmp(o->f[JF_GROUP], rec->f[JF_GROUP]))
			continue;
		for (k = 0; k < nr; k++)
			if (!strcmp(o->f[JF_NAME], names[k]))
				return 1;
	}
	for (k = 0; k < nr; k++)
		if (!strcmp(rec->f[JF_NAME], names[k]))
			return 1;
	return 0;
}

int session_revert(struct session *s, const struct session_log *log,
		   const char *const *names, size_t nr_names, size_t *out_nr,
		   struct strbuf *err)
{
	struct strbuf e = STRBUF_INIT;
	size_t i = s->j.nr, n = 0;
	int ret = 0, r;

	while (i--) {
		struct jrec *rec = &s->j.recs[i];

		if (!live(rec) || !rec->kept)
			continue;
		if (names && !named(&s->j, rec, names, nr_names))
			continue;
		n++;
		r = undo_one(s, rec, log, &e);
		if (r && !ret) {
			ret = r;
			err_set(err, r, "%s", e.buf);
		}
	}
	if (journal_compact(&s->j, &e) && !ret)
		ret = err_set(err, -EIO, "%s", e.buf);
	strbuf_release(&e);
	if (out_nr)
		*out_nr = n;
	return ret;
}

int session_scratch(struct session *s, const char *what, const char *a,
		    const char *b, uint64_t *out_seq, struct strbuf *err)
{
	struct jrec r;

	memset(&r, 0, sizeof(r));
	r.type = JREC_SCR;
	r.f[JF_WHAT] = (char *)what;
	r.f[JF_A] = (char *)a;
	r.f[JF_B] = (char *)b;
	return session_record(s, &r, out_seq, err);
}

int session_done(struct session *s, uint64_t seq, struct strbuf *err)
{
	const struct jrec *r = journal_find(&s->j, seq);

	if (!r || r->done)
		return 0;
	return mark_done(s, seq, NULL, err);
}

void session_leave(struct session *s)
{
	struct strbuf err = STRBUF_INIT;

	if (s && s->refs == 1) {
		if (s->lock_fd >= 0)
			journal_compact(&s->j, &err);
		s->own_seq = 0; /* nothing to roll back: they stay live */
	}
	session_close(s, NULL);
	strbuf_release(&err);
}

/* How many records recovery would act on; *pid gets an owner's pid. */
static size_t count_stale(const struct journal *j, const char *boot,
			  int64_t *pid)
{
	size_t i, n = 0;

	for (i = 0; i < j->nr; i++) {
		const struct jrec *own;

		if (!stale(j, &j->recs[i], boot))
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

		if (!cannot_tell(j, r, boot))
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
		    boot_known(boot) ? "that iotrial could not read the "
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
