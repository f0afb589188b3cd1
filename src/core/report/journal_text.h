/*
 * What the journal holds, for people: the text of `iotrial revert
 * --list`.
 */
#ifndef IOTRIAL_JOURNAL_TEXT_H
#define IOTRIAL_JOURNAL_TEXT_H

#include <stddef.h>
#include "../../util/strbuf.h"

/*
 * Describe the journal into out, read-only (no lock needed, nothing
 * changed): per owner who made the changes and what becomes of them,
 * per record the original, what iotrial wrote and what is there now.
 * *out_live gets the number of changes still to undo (0: out is empty
 * but for a note on a torn last line). For a corrupt journal, out gets
 * its lines, numbered, and err the problem; returns -EBADMSG. -EPERM
 * for a state directory or journal that is not to be trusted; other
 * -errno with err set.
 */
int report_journal_text(struct strbuf *out, size_t *out_live,
			struct strbuf *err);

struct journal_doc;
/*
 * What the journal holds as {"schema", "kind": "journal", "journal",
 * "live", "records": [...]}: per change still to undo its sequence
 * number, kind, knob fields, the owner (command, pid, time, state:
 * "kept", "running", "gone" or "before-reboot") and the text `revert
 * --list` gives it. Read-only, like report_journal_text(); returns 0
 * with *out filled, or -errno with err set (-EBADMSG
 * for a corrupt journal). out is initialised here; the caller releases
 * it, after an error too.
 */
int report_journal_json(struct journal_doc *out, struct strbuf *err);

#endif
