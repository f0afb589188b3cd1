/*
 * The values of one varied factor, before any arm is made: checked for
 * one value given twice, and translated knob values noted and kept.
 */
#ifndef IOTRIAL_FACTOR_VALUES_H
#define IOTRIAL_FACTOR_VALUES_H

#include "experiment.h"
#include "../knob/knob.h"
#include "../journal/session.h"

#include "../knob/plan.h"

/* The plan of each value of a knob factor on its own, made once for
 * factor_check_values() and factor_translate(). */
struct factor_plans {
	struct knob_plan *v; /* per value */
	int *ok;	     /* per value: v[i] was built (else nothing in
				it: the value does not parse here) */
	unsigned nr;
};

/*
 * Plan each value of knob factor f for the knobs of kctx. A value that
 * does not parse is left for trial_check() to refuse. Release with
 * factor_plans_release() (NULL is fine).
 */
void factor_plans_make(struct factor_plans *fp, struct knob_ctx *kctx,
		       const struct experiment_factor *f);
void factor_plans_release(struct factor_plans *fp);

/*
 * Does factor f (its is_knob already known) give one value twice, as
 * typed or once translated (4k and 4096, deadline and mq-deadline)?
 * Knob values are compared as their plans fp read them (NULL for a
 * parameter); values that do not parse are left to the later checks.
 * 0, or -EINVAL with err naming both spellings and what they mean, and
 * pointing to --vary label=A,B for an A/A experiment.
 */
int factor_check_values(const struct workload_ops *ops,
			const struct factor_plans *fp,
			const struct experiment_factor *f, const char *spec,
			struct strbuf *err);

/*
 * Knob factor f, planned in fp: say through log how each value is read
 * when it is translated ("cfq" is bfq, "2MB" becomes 1952 KiB), as run
 * --set does, each note once, and keep what is really set in f->canon
 * for the arms' labels. A value that does not parse is left for the
 * later checks.
 */
void factor_translate(struct factor_plans *fp, struct experiment_factor *f,
		      const struct session_log *log);

#endif
