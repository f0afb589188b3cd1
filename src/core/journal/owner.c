/*
 * Whose is a journal record and is it still in force (owner.h,
 * owner-int.h): a record is live until undone or dropped, its owner
 * alive while its pid runs with the same start time in the same boot,
 * and its kind the row of journal_undo_kinds that names it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "owner.h"
#include "owner-int.h"
#include "undo.h"
#include "../../util/banned.h"

/* As owner-int.h says. */
int session_live(const struct jrec *r)
{
	return (r->type == JREC_SET || r->type == JREC_SCR) && !r->done;
}

/* As undo.h says. */
const struct undo_ops *undo_kind(const struct jrec *r)
{
	const char *kind = jrec_kind(r);
	size_t i;

	for (i = 0; kind && journal_undo_kinds[i]; i++)
		if (!strcmp(journal_undo_kinds[i]->kind, kind))
			return journal_undo_kinds[i];
	return NULL;
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

/* As owner-int.h says. */
int session_boot_known(const char *b)
{
	return b && *b && strcmp(b, KNOB_BOOT_UNKNOWN);
}

/* As owner-int.h says. */
uint64_t session_start_ticks(long pid)
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
	if (session_boot_known(boot) && session_boot_known(own->f[JF_BOOT]) &&
	    strcmp(own->f[JF_BOOT], boot))
		return 0;
	return session_start_ticks((long)own->pid) == own->start_ticks &&
	       own->start_ticks;
}

/* As owner-int.h says: the machine may have rebooted since (the change
 * is gone, the record must be retired) or not (it must be undone), and
 * neither may be guessed. */
int session_cannot_tell(const struct journal *j, const struct jrec *r,
			const char *boot)
{
	const struct undo_ops *kind = undo_kind(r);
	const struct jrec *own;

	if (!session_live(r) || !kind || kind->survives_reboot)
		return 0;
	own = journal_find(j, r->ref);
	if (!own ||
	    (session_boot_known(boot) && session_boot_known(own->f[JF_BOOT])))
		return 0;
	return !knob_owner_alive(own, boot);
}

/* As owner-int.h says. */
int session_stale(const struct journal *j, const struct jrec *r,
		  const char *boot)
{
	const struct jrec *own;

	if (!session_live(r) || session_cannot_tell(j, r, boot))
		return 0;
	own = journal_find(j, r->ref);
	if (!own)
		return 1;
	if (knob_owner_alive(own, boot))
		return 0;
	if (!session_boot_known(boot) || !session_boot_known(own->f[JF_BOOT]))
		return !r->kept; /* a kept change waits for revert */
	return !r->kept || strcmp(own->f[JF_BOOT], boot);
}
