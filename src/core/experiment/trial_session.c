/*
 * A trial's log and session: what it says goes to the caller's log, the
 * checks' notes wait until trial_check() passes, and every knob change
 * of the trial goes through one session, opened at the first.
 */
#include <stdarg.h>
#include <string.h>
#include "trial.h"
#include "trial-int.h"
#include "../targets/scratch.h"
#include "../../util/banned.h"

void trial_say(const struct trial *tr, enum session_say_level level,
	       const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	if (!tr->hooks.log.say)
		return;
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	tr->hooks.log.say(tr->hooks.log.data, level, sb.buf);
	strbuf_release(&sb);
}

/*
 * The log of the checks before trial_check() passes: their notes wait
 * in tr->held, so that a refusal is the only line of a refused command
 * and the notes of a trial that runs still come, in order, once.
 */
void trial_hold_say(void *data, enum session_say_level level, const char *msg)
{
	struct trial *tr = data;

	if (level == SESSION_SAY_NOTE && !tr->checked) {
		strbuf_addstr(&tr->held, msg);
		strbuf_addch(&tr->held, '\0');
		return;
	}
	if (tr->hooks.log.say)
		tr->hooks.log.say(tr->hooks.log.data, level, msg);
}

/* Say the held notes (trial_check() passed) and forget them. */
void trial_flush_held(struct trial *tr)
{
	size_t at = 0;

	tr->checked = 1;
	while (at < tr->held.len) {
		const char *msg = tr->held.buf + at;

		trial_say(tr, SESSION_SAY_NOTE, "%s", msg);
		at += strlen(msg) + 1;
	}
	strbuf_release(&tr->held);
}

/*
 * The trial's session, opened at the first change: a scratch target's,
 * or one of our own. The mark taken now is where trial_finish() rolls
 * back to.
 */
int trial_open_session(struct trial *tr, struct strbuf *err)
{
	const char *cmd = tr->kind == TRIAL_ONE_RUN ? "run" : "compare";
	int ret;

	if (tr->s)
		return 0;
	tr->s = session_ref(scratch_session(&tr->t));
	if (!tr->s) {
		ret = session_open(&tr->s, cmd, 0, &tr->hooks.log, err);
		if (ret)
			return ret;
	}
	tr->mark = session_mark(tr->s);
	tr->applied = 1;
	return 0;
}

int trial_apply(struct trial *tr, struct knob_plan *plan, struct strbuf *err)
{
	int ret = trial_open_session(tr, err);

	if (ret)
		return ret;
	return session_apply(tr->s, plan, &tr->hooks.log, err);
}
