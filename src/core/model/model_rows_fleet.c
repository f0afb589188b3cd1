/*
 * The table of the playbook's records of a fleet host (fleet_doc.h:
 * HOST.error, HOST.revert), in the order fleet/fleet_plan.c's playbook
 * writes their members, and their entry points.
 */
#include <string.h>
#include "model-int.h"
#include "model_json.h"
#include "../../util/banned.h"

#define S struct fleet_record_doc
static const struct model_row record_rows[] = {
    M(S, "host", MK_STR, host, MF_OPT | MF_NULL),
    M(S, "revert", MK_STR, revert, MF_OPT | MF_NULL),
    M(S, "task", MK_STR, task, MF_OPT | MF_NULL),
    MH(S, "rc", MK_VAL, rc, MF_NULL),
    M(S, "error", MK_STR, error, MF_OPT | MF_NULL),
    M(S, "output", MK_STR, output, MF_OPT | MF_NULL),
};
static MODEL_DESC(record_desc, S, record_rows);
#undef S

MODEL_ENTRY_POINTS(fleet_record_doc, record_desc)
