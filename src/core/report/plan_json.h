/*
 * The change plans as JSON, for change management: what `set --dry-run`
 * and `apply --dry-run` would write, one object with "schema" and "kind"
 * (`revert --list --json` is report_journal_json()).
 */
#ifndef IOTRIAL_PLAN_JSON_H
#define IOTRIAL_PLAN_JSON_H

#include <json-c/json.h>
#include "../knob/plan.h"
#include "../../util/strbuf.h"

/*
 * A built plan p as {"schema", "kind": kind ("set-plan", "apply-plan"),
 * "dry_run": true, "device", "mount", "journal", "changes": [...]}: per
 * change in apply order its knob, scope, object, path, the value as
 * typed, what would be written, the value now, whether that is already
 * it, what the write does and any note. The caller owns the object.
 */
struct json_object *report_plan_json(const struct knob_plan *p,
				     const char *kind, const char *journal);

/* The changes of a built plan p, in apply order, as report_plan_json()
 * lists them: an array the caller owns. */
struct json_object *report_plan_changes_json(const struct knob_plan *p);

#endif
