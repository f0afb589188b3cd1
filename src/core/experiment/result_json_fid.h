/*
 * The members of a replay's run object beyond its score and device
 * terms (docs/TRACE-FORMAT.md, "Replay fidelity"): the settings that
 * differed from the capture's ("fidelity_settings") and the calls
 * against the capture's as distributions ("fidelity_dist"). Written by
 * result_to_json() after "fidelity_device".
 */
#ifndef IOTRIAL_RESULT_JSON_FID_H
#define IOTRIAL_RESULT_JSON_FID_H

#include <json-c/json.h>
#include "../result/result.h"

/* The device terms a setting moved, with their values
 * ("fidelity_device"."moved"), or NULL when none did. */
struct json_object *fidelity_moved_json(const struct run_result *r);
/* Add "fidelity_settings" and "fidelity_dist" to o, those r has. */
void fidelity_members_json(struct json_object *o, const struct run_result *r);

#endif
