/*
 * The knobs' side of the journal. Applying a plan journals each change
 * as a "set" record before the write: the knob's name, where it is
 * (scope, object and the object's identity), the original as the
 * family's save makes it, and the canonical value about to be written.
 * The knobs' undo kind reads the record back when recovery, a rollback
 * or `iotrial revert` undoes it, and for messages and `revert --list`.
 *
 * Each write is made under the machine's lock of the knob's place
 * (setlock.h) and confirmed by a wrote record after it; putting an
 * original back is announced by a restore record before it.
 *
 * The records of one setting (its group on its object) form a chain,
 * undone newest first. The original is put back only while the knob
 * holds the value iotrial wrote last: the newest record's written
 * value, once confirmed; while its write (or the restore of its
 * original) was announced and not confirmed, either of the value before
 * and the value after, since a crash in between cannot be told apart.
 * Any other value was set by someone else after iotrial's last write
 * (an admin, after a crash): it is kept, the whole chain is retired,
 * and a warning says so, whatever older records of the chain wrote. A
 * knob whose device, mount or file is gone, or is not the one
 * journaled, no longer applies.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "knob_journal.h"
#include "plan.h"
#include "../journal/setlock.h"
#include "../../util/error.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* Journal k's original and the value about to be written, canon;
 * *out_seq gets the record. */
static int journal_change(struct session *s, const struct knob *k,
			  const char *canon, uint64_t *out_seq,
			  struct strbuf *err)
{
	struct strbuf orig = STRBUF_INIT;
	struct jrec r;
	int ret;

	ret = knob_save(k, &orig, err);
	if (!ret) {
		memset(&r, 0, sizeof(r));
		r.type = JREC_SET;
		r.f[JF_NAME] = k->name;
		r.f[JF_GROUP] = k->group;
		r.f[JF_SCOPE] = (char *)knob_scope_name(k->scope);
		r.f[JF_OBJECT] = k->object;
		r.f[JF_IDENT] = k->ident;
		r.f[JF_ORIG] = orig.buf;
		r.f[JF_WROTE] = (char *)canon;
		ret = session_record(s, &r, out_seq, err);
	}
	strbuf_release(&orig);
	return ret;
}

/* What a setting holds, judged against the newest live record of its
 * chain (judge()). */
enum holding {
	HOLDS_LAST,   /* the value iotrial wrote last: the original of
			 the record goes back */
	HOLDS_BEFORE, /* the value before a write announced and not
			 confirmed (it may not have been made), or the
			 original a restore announced wrote back: nothing
			 left to write for this record */
	HOLDS_OTHER,  /* anything else: set by someone after iotrial's
			 last write, and kept */
};

static enum holding judge(const struct journal *j, const struct jrec *r,
			  const struct knob *k, const char *seen,
			  const char *raw);
static int resolve_rec(const struct jrec *r, struct knob *k,
		       struct strbuf *why);

/*
 * Before c is journaled on top of live records of its setting (an
 * earlier arm of this compare, a change `iotrial set` keeps; the newest
 * may be of c's twin): when the setting does not hold the value iotrial
 * wrote last, someone changed it since, and the originals of those
 * records are older than that change. They are retired now, so that
 * undoing c ends at the value c finds, and no later revert can take an
 * older record's written value for iotrial's last.
 */
static int settle(struct session *s, const struct knob_change *c,
		  const struct session_log *log, struct strbuf *err)
{
	const struct journal *j = session_records(s);
	struct strbuf subj = STRBUF_INIT, now = STRBUF_INIT;
	struct strbuf raw = STRBUF_INIT, why = STRBUF_INIT;
	const struct jrec *r = NULL;
	struct jrec probe;
	struct knob k;
	size_t i = j->nr;
	int ret = 0;

	memset(&probe, 0, sizeof(probe));
	probe.type = JREC_SET;
	probe.f[JF_GROUP] = c->k.group;
	probe.f[JF_SCOPE] = (char *)knob_scope_name(c->k.scope);
	probe.f[JF_OBJECT] = c->k.object;
	while (i-- && !r)
		if (!j->recs[i].done &&
		    journal_same_setting(&j->recs[i], &probe))
			r = &j->recs[i];
	if (!r || r->wrote_unknown || resolve_rec(r, &k, &why))
		goto out; /* nothing to judge; recovery sees to the rest */
	if (!k.ops->read(&k, &raw, NULL) &&
	    judge(j, r, &k, session_seen(s, r->seq), raw.buf) == HOLDS_OTHER) {
		knob_subject(&subj, r->f[JF_NAME], r->f[JF_OBJECT]);
		knob_show_value(&k, raw.buf, &now);
		session_say(log, SESSION_SAY_NOTE,
			    "%s was changed since iotrial last set it (it is "
			    "%s now): the journal's earlier changes of it are "
			    "retired, and this change goes back to %s",
			    subj.buf, now.buf, now.buf);
		ret = session_retire(s, r->seq,
				     "changed since iotrial wrote it", err);
	}
	knob_release(&k);
out:
	strbuf_release(&subj);
	strbuf_release(&now);
	strbuf_release(&raw);
	strbuf_release(&why);
	return ret;
}

/* Take the machine's lock of k's place for session s (a knob of a place
 * already locked costs nothing). */
static int lock_place(struct session *s, const struct knob *k,
		      struct strbuf *err)
{
	struct strbuf why = STRBUF_INIT, subj = STRBUF_INIT;
	int ret = session_lock_setting(s, knob_scope_name(k->scope), k->object,
				       k->ident, setlock_grace(), &why);

	if (ret) {
		knob_subject(&subj, k->name, k->object);
		err_set(err, ret, "cannot change %s: %s", subj.buf, why.buf);
	}
	strbuf_release(&why);
	strbuf_release(&subj);
	return ret;
}

int session_apply(struct session *s, struct knob_plan *p,
		  const struct session_log *log, struct strbuf *err)
{
	uint64_t seq;
	size_t i;
	int ret = 0;

	for (i = 0; i < p->nr && !ret; i++) {
		struct knob_change *c = &p->v[i];

		/* a plan may be applied again (an arm's, at each of its
		 * turns): nothing of the last time is taken for now */
		c->journaled = 0;
		c->applied = 0;
		strbuf_reset(&c->side);
		strbuf_reset(&c->before);
		ret = lock_place(s, &c->k, err);
		if (ret)
			break;
		if (c->k.deferred)
			ret = knob_plan_refresh(p, c, err);
		else
			ret = c->k.ops->read(&c->k, &c->before, err);
		if (!ret)
			ret = settle(s, c, log, err);
		if (ret)
			break;
		/* also for a knob an earlier `set` keeps: this record holds
		 * its value before this call, for a rollback to return to */
		ret = journal_change(s, &c->k, c->canon.buf, &seq, err);
		if (ret)
			break;
		c->journaled = 1;
		strbuf_reset(&c->after);
		ret = knob_apply(&c->k, c->canon.buf, &c->after, &c->side, err);
		/* the write was made (read back: also one the knob did not
		 * take as written): journal it, and keep what a rollback in
		 * this process compares the knob with */
		if (c->after.len) {
			struct strbuf e = STRBUF_INIT;
			int r = session_confirm(s, seq, c->after.buf, &e);

			if (r && !ret)
				ret = err_set(err, r, "%s", e.buf);
			strbuf_release(&e);
		}
		if (!ret)
			c->applied = 1;
	}
	return ret;
}

/* A context on the place of set record r, on the machine's root. */
static void ctx_of(const struct jrec *r, struct knob_ctx *ctx)
{
	knob_ctx_init(ctx);
	free(ctx->root);
	ctx->root = xstrdup(setlock_root());
	if (!strcmp(r->f[JF_SCOPE], "device"))
		ctx->disk = xstrdup(r->f[JF_OBJECT]);
	else if (!strcmp(r->f[JF_SCOPE], "mount"))
		ctx->mountpoint = xstrdup(r->f[JF_OBJECT]);
}

/* Resolve a set record's knob where it was, checking it is the same. */
static int resolve_rec(const struct jrec *r, struct knob *k, struct strbuf *why)
{
	struct knob_ctx ctx;
	int ret;

	ctx_of(r, &ctx);
	ret = knob_resolve(&ctx, r->f[JF_NAME], k, NULL, why);
	knob_ctx_release(&ctx);
	if (ret == -ENOENT)
		return err_set(why, -EPROTO,
			       "this iotrial does not know the knob '%s' (a "
			       "newer one wrote it); restore it with that "
			       "version, or by hand",
			       r->f[JF_NAME]);
	if (ret == -ENODEV || ret == -ESTALE)
		return -ESTALE; /* the device, mount or file is gone */
	if (ret)
		return ret;
	if (*r->f[JF_IDENT] && strcmp(k->ident, r->f[JF_IDENT])) {
		err_set(why, -ESTALE, "'%s' is not the %s it was (%s, now %s)",
			r->f[JF_OBJECT], r->f[JF_SCOPE], r->f[JF_IDENT],
			k->ident);
		knob_release(k);
		return -ESTALE;
	}
	return 0;
}

/* Does a knob that reads now (canonical) still hold the value wrote that
 * iotrial wrote (equal, or accepted by the knob's verify)? */
static int holds_written(const struct knob *k, const char *wrote,
			 const char *now)
{
	if (!strcmp(wrote, now))
		return 1;
	return k->ops->verify && k->ops->verify(k, wrote, now, NULL);
}

/* Does k still hold the original saved in orig (never written, or the
 * write was refused)? */
static int holds_original(const struct knob *k, const char *orig)
{
	struct strbuf cur = STRBUF_INIT;
	int same = !knob_save(k, &cur, NULL) && !strcmp(cur.buf, orig);

	strbuf_release(&cur);
	return same;
}

/* The oldest live record of r's setting in j (r when there is none):
 * its original is the one the whole chain goes back to. */
static const struct jrec *chain_first(const struct journal *j,
				      const struct jrec *r)
{
	size_t i;

	for (i = 0; i < j->nr && j->recs[i].seq <= r->seq; i++)
		if (!j->recs[i].done && journal_same_setting(&j->recs[i], r))
			return &j->recs[i];
	return r;
}

/*
 * Judge raw, what k (the knob of set record r, the newest live record
 * of its setting in j) reads now. The value iotrial wrote last is r's
 * written value once its write is confirmed: exactly what this process
 * read back after it (seen), or the wrote record's read-back or r's
 * value as the knob verifies a write; a keep record confirms too. While
 * the write is not confirmed, or a restore of r's original was
 * announced, the value before the write (r's original) is as likely to
 * be iotrial's last: a crash between announcing and confirming cannot
 * be told apart from someone writing that value since.
 */
static enum holding judge(const struct journal *j, const struct jrec *r,
			  const struct knob *k, const char *seen,
			  const char *raw)
{
	const struct jrec *w = journal_wrote_of(j, r->seq);
	int made = seen || r->confirmed || r->kept;
	int last;

	if (seen)
		last = !strcmp(seen, raw);
	else
		last = (w && !strcmp(w->f[JF_NOW], raw)) ||
		       holds_written(k, r->f[JF_WROTE], raw);
	if (r->restoring && holds_original(k, r->f[JF_ORIG]))
		return HOLDS_BEFORE;
	if (last)
		return HOLDS_LAST;
	if (!made && holds_original(k, r->f[JF_ORIG]))
		return HOLDS_BEFORE;
	return HOLDS_OTHER;
}

/*
 * A setting that holds a value someone set after iotrial's last write:
 * say so (the original of the whole chain, not of r, is what is not
 * restored), and retire r and its chain (UNDO_CHANGED_SINCE).
 */
static int keep_theirs(const struct jrec *r, const struct undo_ctx *ctx,
		       const struct knob *k, const char *subj, const char *now,
		       struct strbuf *why)
{
	const struct jrec *first = chain_first(ctx->j, r);
	struct strbuf orig = STRBUF_INIT, wrote = STRBUF_INIT;

	if (!strchr(first->f[JF_ORIG], '='))
		knob_show_value(k, first->f[JF_ORIG], &orig);
	else
		knob_show_orig(first->f[JF_NAME], first->f[JF_ORIG], &orig);
	if (holds_original(k, first->f[JF_ORIG])) {
		session_say(ctx->log, SESSION_SAY_NOTE,
			    "%s still holds its original %s; nothing to "
			    "restore",
			    subj, orig.buf);
		err_set(why, UNDO_CHANGED_SINCE, "it holds its original");
	} else {
		knob_show_value(k, r->f[JF_WROTE], &wrote);
		session_say(ctx->log, SESSION_SAY_WARN,
			    "%s was changed after iotrial set it: iotrial "
			    "wrote %s, it is now %s; that value is kept "
			    "(someone set it since), not restored to the "
			    "original %s",
			    subj, wrote.buf, now, orig.buf);
		err_set(why, UNDO_CHANGED_SINCE,
			"changed since iotrial wrote it");
	}
	strbuf_release(&orig);
	strbuf_release(&wrote);
	return UNDO_CHANGED_SINCE;
}

/*
 * Undo a set record, the newest live one of its setting (the session
 * undoes newer ones first): put its original back while the knob holds
 * the value iotrial wrote last (judge()). A value someone set since is
 * kept, and the record and its chain are retired, saying so. The
 * restore is announced in the journal before it is written. As
 * undo_ops.undo: a failure other than "no longer applies" is never
 * -EPERM, which would retire the record.
 */
static int undo_set(const struct jrec *r, const struct undo_ctx *ctx,
		    struct strbuf *why)
{
	struct strbuf was = STRBUF_INIT, now = STRBUF_INIT;
	struct strbuf subj = STRBUF_INIT, raw = STRBUF_INIT;
	struct strbuf cause = STRBUF_INIT;
	enum holding h = HOLDS_LAST;
	struct knob k;
	int ret;

	memset(&k, 0, sizeof(k));
	knob_subject(&subj, r->f[JF_NAME], r->f[JF_OBJECT]);
	ret = resolve_rec(r, &k, why);
	if (!ret && !strchr(r->f[JF_ORIG], '='))
		knob_show_value(&k, r->f[JF_ORIG], &was);
	else
		knob_show_orig(r->f[JF_NAME], r->f[JF_ORIG], &was);
	if (!ret)
		ret = k.ops->read(&k, &raw, why);
	if (ret)
		goto failed;
	knob_show_value(&k, raw.buf, &now);
	if (r->wrote_unknown)
		session_say(ctx->log, SESSION_SAY_NOTE,
			    "the journal does not say what iotrial wrote to %s "
			    "(an older iotrial made the record), so a change "
			    "made since cannot be told apart; restoring it all "
			    "the same",
			    subj.buf);
	else
		h = judge(ctx->j, r, &k, ctx->seen, raw.buf);
	if (h == HOLDS_OTHER) {
		ret = keep_theirs(r, ctx, &k, subj.buf, now.buf, why);
		goto out;
	}
	if (h == HOLDS_BEFORE) {
		if (chain_first(ctx->j, r)->seq == r->seq)
			session_say(ctx->log, SESSION_SAY_NOTE,
				    "%s still holds its original %s; nothing "
				    "to restore",
				    subj.buf, was.buf);
		goto out; /* undone: nothing was left to undo */
	}
	/* what iotrial last wrote was the original (an arm of the original
	 * value ran last, a set to the value it had): nothing to put back,
	 * and "restored 2560 KiB -> 2560 KiB" would read as a change */
	if (holds_original(&k, r->f[JF_ORIG])) {
		session_say(ctx->log, SESSION_SAY_INFO,
			    "%s holds its original %s again; nothing to "
			    "restore",
			    subj.buf, was.buf);
		goto out;
	}
	ret = session_restoring(ctx->s, r->seq, why);
	if (!ret)
		ret = knob_restore(&k, r->f[JF_ORIG], why);
	if (!ret) {
		session_say(ctx->log, SESSION_SAY_INFO, "restored %s: %s -> %s",
			    subj.buf, now.buf, was.buf);
		goto out;
	}
failed:
	if (ret == -ESTALE || ret == -ENOENT) {
		session_say(ctx->log, SESSION_SAY_NOTE,
			    "%s no longer applies (%s); not restored to %s",
			    subj.buf, why->buf, was.buf);
		ret = -ESTALE;
	} else {
		session_say(
		    ctx->log, SESSION_SAY_WARN,
		    "cannot restore %s to %s: %s; the journal keeps it, "
		    "and 'iotrial revert' retries",
		    subj.buf, was.buf, why->buf);
		strbuf_addstr(&cause, why->buf);
		ret = err_set(why, ret == -EPERM ? -EACCES : ret,
			      "cannot restore %s: %s", subj.buf, cause.buf);
	}
out:
	knob_release(&k);
	strbuf_release(&subj);
	strbuf_release(&was);
	strbuf_release(&now);
	strbuf_release(&raw);
	strbuf_release(&cause);
	return ret;
}

/*
 * Is there a live set record after r for the same setting? Then
 * restoring that one comes first, and only after it can r be judged
 * against what the setting holds.
 */
static int superseded(const struct journal *j, const struct jrec *r)
{
	size_t k;

	for (k = (size_t)(r - j->recs) + 1; k < j->nr; k++)
		if (!j->recs[k].done && journal_same_setting(&j->recs[k], r))
			return 1;
	return 0;
}

/* "original X, set to W, now Y" for a set record of j, in the knob's own
 * units when it can be resolved here, and whether a restore would keep
 * a value set since (only for the newest record of a setting: later
 * iotrial changes of it are undone first). */
static void add_values(struct strbuf *out, const struct journal *j,
		       const struct jrec *r, int newest)
{
	struct knob_ctx ctx;
	struct knob k;
	struct strbuf v = STRBUF_INIT;
	int resolved, now_ok = 0;

	ctx_of(r, &ctx);
	resolved = !knob_resolve(&ctx, r->f[JF_NAME], &k, NULL, NULL);
	strbuf_addstr(out, ": original ");
	if (resolved && !strchr(r->f[JF_ORIG], '='))
		knob_show_value(&k, r->f[JF_ORIG], out);
	else
		knob_show_orig(r->f[JF_NAME], r->f[JF_ORIG], out);
	if (r->wrote_unknown)
		strbuf_addstr(out, ", set to a value an older iotrial did not "
				   "record");
	else if (resolved) {
		strbuf_addstr(out, ", set to ");
		knob_show_value(&k, r->f[JF_WROTE], out);
	} else
		strbuf_addf(out, ", set to %s", r->f[JF_WROTE]);
	if (!newest)
		strbuf_addstr(out, ", changed again since by a record below");
	else if (resolved && !k.ops->read(&k, &v, NULL)) {
		now_ok = 1;
		strbuf_addstr(out, ", now ");
		knob_show_value(&k, v.buf, out);
	}
	if (now_ok && !r->wrote_unknown &&
	    judge(j, r, &k, NULL, v.buf) == HOLDS_OTHER)
		strbuf_addstr(out, " (changed since iotrial set it: that value "
				   "is kept, not restored)");
	if (resolved)
		knob_release(&k);
	strbuf_release(&v);
	knob_ctx_release(&ctx);
}

/* "'read_ahead_kb' on 'loop0'", and the original (brief) or the values
 * (for the listing). */
static void describe_set(const struct journal *j, const struct jrec *r,
			 enum undo_view view, struct strbuf *out)
{
	knob_subject(out, r->f[JF_NAME], r->f[JF_OBJECT]);
	if (view == UNDO_LIST) {
		add_values(out, j, r, !superseded(j, r));
		return;
	}
	strbuf_addstr(out, " (it was ");
	knob_show_orig(r->f[JF_NAME], r->f[JF_ORIG], out);
	strbuf_addch(out, ')');
}

const struct undo_ops knob_undo_ops = {
    .kind = "set",
    .survives_reboot = 0, /* the kernel starts with its defaults */
    .undo = undo_set,
    .describe = describe_set,
    .same = journal_same_setting,
};
