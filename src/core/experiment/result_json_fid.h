/*
 * The members of a replay's run document beyond its score and device
 * terms (docs/TRACE-FORMAT.md, "Replay fidelity"): the settings that
 * differed from the capture's ("fidelity_settings"), the calls against
 * the capture's as distributions ("fidelity_dist") and the device
 * terms a setting moved ("fidelity_device"."moved"). Filled by
 * result_to_doc(); the codec prints them.
 */
#ifndef IOTRIAL_RESULT_JSON_FID_H
#define IOTRIAL_RESULT_JSON_FID_H

#include "../model/run_doc.h"
#include "../result/result.h"

/* Set f's "moved": the device terms a setting moved, with their
 * values; left absent when none did. */
void fidelity_moved_doc(const struct run_result *r, struct run_fidelity_dev *f);
/* Set doc's "fidelity_settings" and "fidelity_dist", those r has. */
void fidelity_members_doc(const struct run_result *r, struct run_doc *doc);

#endif
