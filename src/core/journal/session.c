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
#include "owner-int.h"
#include "setlock.h"
#include "state.h"
#include "../../util/error.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* What this process found right after it made a change of its own. */
struct seen_value {
	uint64_t seq; /* the record of that change */
	char *value;  /* as session_note() was given it */
};

/* A machine's settings lock this session holds (setlock.h). */
struct held_lock {
	char *scope, *object;
	int fd;
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
	struct held_lock *locks; /* the settings locks held */
	size_t nr_locks, alloc_locks;
};

const char *session_journal(const struct session *s)
{
	return s->j.path;
}

const struct journal *session_records(const struct session *s)
{
	return &s->j;
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
	r.start_ticks = session_start_ticks((long)getpid());
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

const char *session_seen(const struct session *s, uint64_t seq)
{
	size_t i;

	for (i = 0; i < s->nr_seen; i++)
		if (s->seen[i].seq == seq)
			return s->seen[i].value;
	return NULL;
}

/* Is there a live record newer than the one at index i that changes the
 * same thing (its kind's same())? Then that one is undone first. */
static int superseded(const struct session *s, size_t i,
		      const struct undo_ops *kind)
{
	size_t k;

	for (k = i + 1; kind && kind->same && k < s->j.nr; k++)
		if (session_live(&s->j.recs[k]) &&
		    kind->same(&s->j.recs[k], &s->j.recs[i]))
			return 1;
	return 0;
}

/*
 * Retire r (a copy of a live set record) and every older live record of
 * its setting, with one retire record: what it names was changed by
 * someone after all of them. A kept one is named: `iotrial revert` will
 * not bring it back. 0 or -errno with err set.
 */
static int retire_chain(struct session *s, const struct jrec *r,
			const struct undo_ops *kind, const char *why,
			const struct session_log *log, struct strbuf *err)
{
	size_t i;

	for (i = 0; i < s->j.nr && s->j.recs[i].seq < r->seq; i++) {
		const struct jrec *o = &s->j.recs[i];
		struct strbuf was = STRBUF_INIT;

		if (!session_live(o) || !o->kept || !journal_same_setting(r, o))
			continue;
		kind->describe(&s->j, o, UNDO_BRIEF, &was);
		session_say(log, SESSION_SAY_NOTE,
			    "the change of %s that 'iotrial set' kept is "
			    "retired too: the value set since is newer",
			    was.buf);
		strbuf_release(&was);
	}
	return session_retire(s, r->seq, why, err);
}

int session_retire(struct session *s, uint64_t seq, const char *why,
		   struct strbuf *err)
{
	struct jrec rec;

	memset(&rec, 0, sizeof(rec));
	rec.type = JREC_RETIRE;
	rec.ref = seq;
	rec.f[JF_REASON] = (char *)why;
	return journal_append(&s->j, &rec, err);
}

/*
 * Undo the live record at index i through its kind, and journal what
 * came of it: undone, or retired (no longer applies, never ours, changed
 * since); a failure leaves it live for a retry (-errno, err set): -EBUSY
 * when another iotrial holds the setting's lock (recovery does not wait
 * for it). 1 when it waits, without a word, for a newer record of the
 * same thing that is still live.
 */
static int undo_one(struct session *s, size_t i, const struct session_log *log,
		    struct strbuf *err)
{
	const struct undo_ops *kind = undo_kind(&s->j.recs[i]);
	struct undo_ctx ctx = {log, session_seen(s, s->j.recs[i].seq), &s->j,
			       s};
	struct strbuf why = STRBUF_INIT, was = STRBUF_INIT;
	struct jrec r; /* the records move when one is appended */
	int ret;

	if (superseded(s, i, kind))
		return 1;
	jrec_copy(&r, &s->j.recs[i]);
	if (r.type == JREC_SET) {
		ret = session_lock_setting(s, r.f[JF_SCOPE], r.f[JF_OBJECT],
					   r.f[JF_IDENT], 0, &why);
		if (ret == -EBUSY) {
			kind->describe(&s->j, &r, UNDO_BRIEF, &was);
			err_set(err, ret, "%s is left for later: %s", was.buf,
				why.buf);
			goto out;
		}
		if (ret) {
			err_set(err, ret, "%s", why.buf);
			goto out;
		}
	}
	if (kind)
		ret = kind->undo(&r, &ctx, &why);
	else
		ret = err_set(&why, -EPROTO,
			      "this iotrial does not know how to undo the "
			      "journal's '%s' record #%" PRIu64 " (a newer "
			      "one wrote it); undo it with that version",
			      jrec_kind(&r), r.seq);
	if (!ret) {
		ret = mark_done(s, r.seq, NULL, err);
	} else if (ret == -ESTALE || ret == -EPERM) {
		ret = mark_done(s, r.seq, why.buf, err);
	} else if (ret == UNDO_CHANGED_SINCE) {
		/* all of the chain at once: a crash cannot leave part of it
		 * to be judged against a value only its newest record knew */
		ret = r.type == JREC_SET
			  ? retire_chain(s, &r, kind, why.buf, log, err)
			  : mark_done(s, r.seq, why.buf, err);
	} else {
		err_set(err, ret, "%s", why.buf);
	}
out:
	jrec_release(&r);
	strbuf_release(&why);
	strbuf_release(&was);
	return ret;
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

		if (!session_stale(&s->j, r, s->boot) || superseded(s, i, kind))
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
		if (undo_one(s, i, log, &err) == -EBUSY)
			session_say(log, SESSION_SAY_NOTE, "%s", err.buf);
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

int session_lock_setting(struct session *s, const char *scope,
			 const char *object, const char *ident,
			 unsigned grace_ms, struct strbuf *err)
{
	struct setlock_who who = {s->cmd, s->dir_fd, state_dir()};
	struct held_lock *h;
	size_t i;
	int fd, ret;

	for (i = 0; i < s->nr_locks; i++)
		if (!strcmp(s->locks[i].scope, scope) &&
		    !strcmp(s->locks[i].object, object))
			return 0;
	ret = setlock_take(scope, object, ident, &who, grace_ms, &fd, err);
	if (ret)
		return ret;
	ALLOC_GROW(s->locks, s->nr_locks + 1, s->alloc_locks);
	h = &s->locks[s->nr_locks++];
	h->scope = xstrdup(scope);
	h->object = xstrdup(object);
	h->fd = fd;
	return 0;
}

/* Release the settings locks, each saying whether our journal still
 * holds changes of its place. */
static void release_settings(struct session *s)
{
	size_t i, k;

	for (i = 0; i < s->nr_locks; i++) {
		struct held_lock *h = &s->locks[i];
		int still = 0;

		for (k = 0; k < s->j.nr && !still; k++) {
			const struct jrec *r = &s->j.recs[k];

			still = r->type == JREC_SET && !r->done &&
				!strcmp(r->f[JF_SCOPE], h->scope) &&
				!strcmp(r->f[JF_OBJECT], h->object);
		}
		setlock_release(h->scope, h->object, h->fd, still);
		free(h->scope);
		free(h->object);
	}
	free(s->locks);
	s->locks = NULL;
	s->nr_locks = 0;
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
	release_settings(s);
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

int session_confirm(struct session *s, uint64_t seq, const char *now,
		    struct strbuf *err)
{
	struct jrec r;

	session_note(s, seq, now);
	memset(&r, 0, sizeof(r));
	r.type = JREC_WROTE;
	r.ref = seq;
	r.f[JF_NOW] = (char *)now;
	return journal_append(&s->j, &r, err);
}

int session_restoring(struct session *s, uint64_t seq, struct strbuf *err)
{
	struct jrec r;

	memset(&r, 0, sizeof(r));
	r.type = JREC_RESTORE;
	r.ref = seq;
	return journal_append(&s->j, &r, err);
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
		if (!session_live(rec) || rec->kept || rec->ref != s->own_seq ||
		    !s->own_seq)
			continue;
		r = undo_one(s, i, log, &e);
		if (r < 0 && !ret) {
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

		if (!session_live(rec) || !rec->kept)
			continue;
		if (names && !named(&s->j, rec, names, nr_names))
			continue;
		r = undo_one(s, i, log, &e);
		n += r <= 0;
		if (r < 0 && !ret) {
			ret = r;
			err_set(err, r, "%s", e.buf);
		}
	}
	/* what a gone iotrial left on top of a kept change waited for it */
	recover(s, log);
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
