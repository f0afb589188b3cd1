/*
 * The knobs' side of the journal. Applying a plan journals each change
 * as a "set" record before the write: the knob's name, where it is
 * (scope, object and the object's identity), the original as the
 * family's save makes it, and the canonical value about to be written.
 * The knobs' undo kind reads the record back when recovery, a rollback
 * or `iotrial revert` undoes it, and for messages and `revert --list`.
 *
 * The original is put back only while the knob still holds what iotrial
 * wrote: someone who changed it since (an admin, after a crash) keeps
 * their value, the record is retired, and a warning says so. A knob
 * whose device, mount or file is gone, or is not the one journaled, no
 * longer applies.
 */
#include <errno.h>
#include <string.h>
#include "knob_journal.h"
#include "plan.h"
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

int session_apply(struct session *s, struct knob_plan *p,
		  const struct session_log *log, struct strbuf *err)
{
	uint64_t seq;
	size_t i;
	int ret = 0;

	(void)log;
	for (i = 0; i < p->nr && !ret; i++) {
		struct knob_change *c = &p->v[i];

		/* a plan may be applied again (an arm's, at each of its
		 * turns): nothing of the last time is taken for now */
		c->journaled = 0;
		c->applied = 0;
		strbuf_reset(&c->side);
		strbuf_reset(&c->before);
		if (c->k.deferred)
			ret = knob_plan_refresh(p, c, err);
		else
			ret = c->k.ops->read(&c->k, &c->before, err);
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
		/* what a rollback in this process compares the knob with */
		if (c->after.len)
			session_note(s, seq, c->after.buf);
		if (!ret)
			c->applied = 1;
	}
	return ret;
}

/* Resolve a set record's knob where it was, checking it is the same. */
static int resolve_rec(const struct jrec *r, struct knob *k, struct strbuf *why)
{
	struct knob_ctx ctx;
	int ret;

	knob_ctx_init(&ctx);
	if (!strcmp(r->f[JF_SCOPE], "device"))
		ctx.disk = xstrdup(r->f[JF_OBJECT]);
	else if (!strcmp(r->f[JF_SCOPE], "mount"))
		ctx.mountpoint = xstrdup(r->f[JF_OBJECT]);
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

/*
 * Undo a set record: put the original back while the knob still holds
 * what iotrial wrote: exactly what this process read back after its own
 * write (ctx->seen), or, for a record of a process that is gone, the
 * written value as the knob verifies a write. A value someone set since
 * is kept and the record retired, saying so. As undo_ops.undo: a
 * failure other than "no longer applies" is never -EPERM, which would
 * retire the record.
 */
static int undo_set(const struct jrec *r, const struct undo_ctx *ctx,
		    struct strbuf *why)
{
	struct strbuf was = STRBUF_INIT, now = STRBUF_INIT;
	struct strbuf subj = STRBUF_INIT, raw = STRBUF_INIT;
	struct strbuf wrote = STRBUF_INIT, cause = STRBUF_INIT;
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
	if (r->wrote_unknown) {
		session_say(ctx->log, SESSION_SAY_NOTE,
			    "the journal does not say what iotrial wrote to %s "
			    "(an older iotrial made the record), so a change "
			    "made since cannot be told apart; restoring it all "
			    "the same",
			    subj.buf);
	} else if (ctx->seen ? strcmp(ctx->seen, raw.buf)
			     : !holds_written(&k, r->f[JF_WROTE], raw.buf)) {
		if (holds_original(&k, r->f[JF_ORIG])) {
			session_say(
			    ctx->log, SESSION_SAY_NOTE,
			    "%s still holds its original %s; nothing to "
			    "restore",
			    subj.buf, was.buf);
			goto out; /* undone: nothing was left to undo */
		}
		knob_show_value(&k, r->f[JF_WROTE], &wrote);
		session_say(
		    ctx->log, SESSION_SAY_WARN,
		    "%s was changed after iotrial set it: iotrial wrote "
		    "%s, it is now %s; that value is kept (someone set "
		    "it since), not restored to the original %s",
		    subj.buf, wrote.buf, now.buf, was.buf);
		ret = err_set(why, -ESTALE, "changed since iotrial wrote it");
		goto out;
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
	strbuf_release(&wrote);
	strbuf_release(&cause);
	return ret;
}

/*
 * Is there a live set record after r for the same setting (group and
 * object)? Then restoring that one comes first, and only after it can
 * r's written value be compared with what the setting holds.
 */
static int superseded(const struct journal *j, const struct jrec *r)
{
	size_t k;

	for (k = (size_t)(r - j->recs) + 1; k < j->nr; k++) {
		const struct jrec *o = &j->recs[k];

		if (o->type == JREC_SET && !o->done &&
		    !strcmp(o->f[JF_GROUP], r->f[JF_GROUP]) &&
		    !strcmp(o->f[JF_OBJECT], r->f[JF_OBJECT]))
			return 1;
	}
	return 0;
}

/* "original X, set to W, now Y" for a set record, in the knob's own
 * units when it can be resolved here, and whether a restore would keep
 * a value set since (only for the newest record of a setting: later
 * iotrial changes of it are undone first). */
static void add_values(struct strbuf *out, const struct jrec *r, int newest)
{
	struct knob_ctx ctx;
	struct knob k;
	struct strbuf v = STRBUF_INIT;
	int resolved, now_ok = 0;

	knob_ctx_init(&ctx);
	if (!strcmp(r->f[JF_SCOPE], "device"))
		ctx.disk = xstrdup(r->f[JF_OBJECT]);
	else if (!strcmp(r->f[JF_SCOPE], "mount"))
		ctx.mountpoint = xstrdup(r->f[JF_OBJECT]);
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
	    !holds_written(&k, r->f[JF_WROTE], v.buf))
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
		add_values(out, r, !superseded(j, r));
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
};
