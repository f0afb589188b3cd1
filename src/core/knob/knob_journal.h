/*
 * The knobs' side of the journal (knob_journal.c): a change is
 * journaled as a "set" record before it is written
 * (session_apply(), declared with the plan in plan.h), and undone
 * and described through knob_undo_ops, one of journal_undo_kinds[].
 */
#ifndef IOTRIAL_KNOB_JOURNAL_H
#define IOTRIAL_KNOB_JOURNAL_H

#include "../journal/session.h"

extern const struct undo_ops knob_undo_ops;

/* The original of a journaled set record, for people: "'mq-deadline'",
 * or a snapshot's first value and how many settings it carries
 * (orig.c). */
void knob_show_orig(const char *name, const char *orig, struct strbuf *out);

#endif
