/*
 * The change plans as JSON, for change management: what `set --dry-run`
 * and `apply --dry-run` would write, one object with "schema" and "kind"
 * (`revert --list --json` is report_journal_json()).
 */
#ifndef IOTRIAL_PLAN_JSON_H
#define IOTRIAL_PLAN_JSON_H

#include "../knob/plan.h"
#include "../model/plan_doc.h"
#include "../../util/strbuf.h"

/*
 * A built plan p as a plan_doc into out (initialised here; the caller
 * releases it): kind ("set-plan", "apply-plan"), the device, mount and
 * journal, and per change in apply order its knob, scope, object,
 * path, the value as typed, what would be written, the value now,
 * whether that is already it, what the write does and any note.
 */
void report_plan_doc(const struct knob_plan *p, const char *kind,
		     const char *journal, struct plan_doc *out);

/* The changes of a built plan p, in apply order, as report_plan_doc()
 * lists them: a new array of *out_nr. */
struct plan_change_doc *report_plan_changes_doc(const struct knob_plan *p,
						size_t *out_nr);

#endif
