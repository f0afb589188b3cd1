/*
 * What the files of core/fleet/ share among themselves (not for users
 * of the fleet module: see fleet.h). The hosts' experiments are
 * documents (model/experiment_doc.h), decoded from their files.
 */
#ifndef IOTRIAL_FLEET_INT_H
#define IOTRIAL_FLEET_INT_H

#include <stdbool.h>
#include <stddef.h>
#include "../model/experiment_doc.h"
#include "../../util/strbuf.h"

/* The arm of exp labelled label, or NULL. */
const struct exp_arm *fleet_arm_by_label(const struct experiment_doc *exp,
					 const char *label);

/* The verdict of exp (NULL: none) on the arm labelled label, or
 * NULL. */
const struct exp_verdict *
fleet_verdict_by_label(const struct experiment_doc *exp, const char *label);

/* The label of exp's baseline arm (its "baseline", or the first arm
 * when that names none), or "" when it has no arm. */
const char *fleet_baseline_label(const struct experiment_doc *exp);

/* The arm labels of ref, baseline first, into *out (caller frees the
 * array; the strings are ref's); returns how many. */
size_t fleet_arm_labels(const struct experiment_doc *ref, const char ***out);

/*
 * Do exp's factors match ref's, one by one (name, kind, values)? 0, or
 * -EINVAL with why naming the first that differs.
 */
int fleet_same_factors(const struct experiment_doc *exp,
		       const struct experiment_doc *ref, struct strbuf *why);

/*
 * Does each of the nr_arms arms labelled labels[] set in exp what it
 * sets in ref ("settings" and "asked")? 0, or -EINVAL with why naming
 * the arm, the knob and both values.
 */
int fleet_same_settings(const struct experiment_doc *exp,
			const struct experiment_doc *ref,
			const char *const *labels, size_t nr_arms,
			struct strbuf *why);

/* Did exp run what ref ran: as many arms, the same factors and
 * settings? why says how not. */
bool fleet_same_plan(const struct experiment_doc *exp,
		     const struct experiment_doc *ref, struct strbuf *why);

/*
 * What the hosts ran, from the reference (ref), into out: the factors
 * and the settings of the nr_arms arms labelled labels[], alpha and
 * equivalence, each printed after what out holds, as the fleet's
 * experiment always had them.
 */
void fleet_copy_design(struct experiment_doc *out,
		       const struct experiment_doc *ref,
		       const char *const *labels, size_t nr_arms);

/*
 * The environment of a fleet experiment into out (initialised here):
 * the nr hosts names[] (their experiments' environments envs[], NULL
 * for none), their kernel, machine and iotrial version when they share
 * one ("several: a, b" when not), and the controller that merged them
 * (this machine):
 * {"hostname": "fleet of 3 hosts: h1, h2, h3 (merged on ctl)",
 *  "kernel_release", "machine", "iotrial_version",
 *  "fleet_hosts": [..], "controller": {"hostname", "kernel_release",
 *  "machine", "iotrial_version"}}, in that order.
 */
void fleet_env(const char *const *names, const struct env_doc *const *envs,
	       size_t nr, struct env_doc *out);

/*
 * Analyse host experiment exp again from its runs, with the baseline,
 * alpha and equivalence the file names, into out (initialised here;
 * release it even after an error): what its compare would have found.
 * A verdict of exp stored without its marks ("suspect") gets them,
 * computed from its file as a reader of it would. Returns 0, or
 * -EINVAL with why set (no runs, or runs that do not analyse).
 */
int fleet_host_reanalyze(struct experiment_doc *exp, struct experiment_doc *out,
			 struct strbuf *why);

/*
 * Does a host's stated verdict (NULL: it states none) disagree with the
 * one its runs give (checked; NULL: none)? The verdict's name, ratio,
 * interval and adjusted p are compared, numbers to a millionth. When
 * they disagree, appends "its file says faster, ratio 50.000, p 0, its
 * runs give equivalent, ratio 1.002, p 0.812" to what.
 */
bool fleet_verdict_disagrees(const struct exp_verdict *stated,
			     const struct exp_verdict *checked,
			     struct strbuf *what);

#endif
