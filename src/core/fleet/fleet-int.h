/*
 * What the files of core/fleet/ share among themselves (not for users
 * of the fleet module: see fleet.h).
 */
#ifndef IOTRIAL_FLEET_INT_H
#define IOTRIAL_FLEET_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <json-c/json.h>
#include "../../util/strbuf.h"

/* The arm object labelled label in exp's "arms" (its index into
 * *out_index when not NULL), or NULL. */
struct json_object *fleet_arm_by_label(struct json_object *exp,
				       const char *label, int *out_index);

/* The label of exp's baseline arm (its "baseline", or the first arm
 * when that names none), or "" when it has no arm. */
const char *fleet_baseline_label(struct json_object *exp);

/* The arm labels of ref, baseline first, into *out (caller frees the
 * array; the strings are ref's); returns how many. */
size_t fleet_arm_labels(struct json_object *ref, const char ***out);

/*
 * Do exp's factors match ref's, one by one (name, kind, values)? 0, or
 * -EINVAL with why naming the first that differs.
 */
int fleet_same_factors(struct json_object *exp, struct json_object *ref,
		       struct strbuf *why);

/*
 * Does each of the nr_arms arms labelled labels[] set in exp what it
 * sets in ref ("settings" and "asked")? 0, or -EINVAL with why naming
 * the arm, the knob and both values.
 */
int fleet_same_settings(struct json_object *exp, struct json_object *ref,
			const char *const *labels, size_t nr_arms,
			struct strbuf *why);

/* Did exp run what ref ran: as many arms, the same factors and
 * settings? why says how not. */
bool fleet_same_plan(struct json_object *exp, struct json_object *ref,
		     struct strbuf *why);

/*
 * The environment of a fleet experiment (caller owns): the nr hosts
 * names[] (their experiments' environments envs[]), their kernel,
 * machine and iotrial version when they share one ("several: a, b"
 * when not), and the controller that merged them (this machine):
 * {"hostname": "fleet of 3 hosts: h1, h2, h3 (merged on ctl)",
 *  "kernel_release", "machine", "iotrial_version",
 *  "fleet_hosts": [..], "controller": {"hostname", "kernel_release",
 *  "machine", "iotrial_version"}}.
 */
struct json_object *fleet_env(const char *const *names,
			      struct json_object *const *envs, size_t nr);

/*
 * A copy of host experiment exp (caller owns *out) whose arms, verdicts
 * and effects are analysed again from its runs, with the baseline,
 * alpha and equivalence the file names: what its compare would have
 * found. Returns 0, or -EINVAL with why set (no runs, or runs that do
 * not analyse).
 */
int fleet_host_reanalyze(struct json_object *exp, struct json_object **out,
			 struct strbuf *why);

/*
 * Does a host's stated verdict (NULL: it states none) disagree with the
 * one its runs give (checked; NULL: none)? The verdict's name, ratio,
 * interval and adjusted p are compared, numbers to a millionth. When
 * they disagree, appends "its file says faster, ratio 50.000, p 0, its
 * runs give equivalent, ratio 1.002, p 0.812" to what.
 */
bool fleet_verdict_disagrees(struct json_object *stated,
			     struct json_object *checked, struct strbuf *what);

#endif
