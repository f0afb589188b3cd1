/*
 * The trial's warnings about reads that wrap their file (trial_wrap.h):
 * measured once on the first laid-out file when the command asked
 * (trial_wrap_check()), and otherwise judged after each run of an
 * experiment, each file's warning said once.
 */
#include <string.h>
#include "trial_wrap.h"
#include "wrap.h"
#include "../../util/banned.h"

void trial_wrap_check(struct trial *tr, int say_fallback)
{
	tr->wrap_check = say_fallback ? 2 : 1;
}

void trial_wrap_laid_out(struct trial *tr, const struct workload *w,
			 struct strbuf *warn, struct strbuf *note)
{
	struct strbuf n = STRBUF_INIT;

	if (!tr->wrap_check || tr->wrap_done)
		return;
	tr->wrap_done = 1;
	tr->wrap_probed = !experiment_wrap_check(&tr->e, &tr->c, w, warn, &n);
	if (n.len && tr->wrap_check == 2)
		strbuf_addstr(note, n.buf);
	strbuf_release(&n);
}

int trial_wrap_after_run(struct trial *tr, const struct run_meta *meta,
			 const struct run_result *r, struct strbuf *warn)
{
	struct strbuf msg = STRBUF_INIT;
	uint64_t key = 0;
	unsigned i;
	int said = 0;

	/* a read that wraps its file: said once, before the block goes on */
	if (tr->kind != TRIAL_EXPERIMENT || tr->wrap_probed ||
	    !wrap_after_run(meta->w, r, &msg, &key))
		goto out;
	for (i = 0; i < tr->nr_wrap_said; i++)
		if (tr->wrap_said[i] == key)
			goto out;
	if (i < TRIAL_WRAP_SAID) {
		tr->wrap_said[tr->nr_wrap_said++] = key;
		strbuf_addstr(warn, msg.buf);
		said = 1;
	}
out:
	strbuf_release(&msg);
	return said;
}
