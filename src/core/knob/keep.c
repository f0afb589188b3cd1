/*
 * The session sequences of `iotrial set` and `iotrial revert` (keep.h).
 * set opens a session, takes a mark, applies the plan and writes the
 * keep record; any failure in between rolls back to the mark, so that a
 * half-made change never stays. revert opens a session only when there
 * is a journal: looking for nothing to restore must not make the state
 * directory.
 */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include "keep.h"
#include "../../util/error.h"
#include "../../util/banned.h"

/* Tell the caller why, then undo every change since mark. */
static void undo(struct session *s, uint64_t mark,
		 const struct knob_keep_hooks *h, const struct strbuf *why)
{
	struct strbuf e = STRBUF_INIT;

	if (h->undoing)
		h->undoing(h->data, why->buf);
	/* what cannot be undone stays journaled, and the log says so */
	session_rollback(s, mark, &h->log, &e);
	strbuf_release(&e);
}

int knob_apply_kept(struct knob_plan *p, const struct knob_keep_hooks *hooks,
		    enum knob_keep_stage *out_failed, struct strbuf *err)
{
	struct session *s = NULL;
	uint64_t mark;
	int ret;

	*out_failed = 0;
	ret = session_open(&s, "set", 0, &hooks->log, err);
	if (ret) {
		*out_failed = KNOB_KEEP_FAILED_SESSION;
		return ret;
	}
	mark = session_mark(s);
	ret = session_apply(s, p, &hooks->log, err);
	if (!ret && hooks->stop && *hooks->stop)
		ret = err_set(err, -EINTR, "interrupted by signal %d",
			      *hooks->stop);
	if (ret) {
		*out_failed = KNOB_KEEP_FAILED_APPLY;
		undo(s, mark, hooks, err);
		goto out;
	}
	ret = session_commit(s, err);
	if (ret) {
		*out_failed = KNOB_KEEP_FAILED_COMMIT;
		undo(s, mark, hooks, err);
	}
out:
	session_close(s, &hooks->log);
	return ret;
}

int knob_revert_kept(const struct session_log *log, const char *const *names,
		     size_t nr_names, size_t *out_nr, int *out_no_journal,
		     struct strbuf *err)
{
	struct strbuf path = STRBUF_INIT;
	struct session *s = NULL;
	struct stat st;
	int ret;

	*out_nr = 0;
	*out_no_journal = 0;
	knob_journal_path(&path);
	if (stat(path.buf, &st) < 0) {
		int e = errno;

		if (e == ENOENT) {
			*out_no_journal = 1;
			ret = 0;
		} else {
			ret = err_set(err, -e,
				      "cannot read the journal '%s': %s; "
				      "restoring settings needs root",
				      path.buf, strerror(e));
		}
		goto out;
	}
	ret = session_open(&s, "revert", 0, log, err);
	if (!ret)
		ret = session_revert(s, log, names, nr_names, out_nr, err);
	session_close(s, log);
out:
	strbuf_release(&path);
	return ret;
}
