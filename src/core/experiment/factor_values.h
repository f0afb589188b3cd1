/*
 * The values of one varied factor, before any arm is made: checked for
 * one value given twice, and translated knob values noted and kept.
 */
#ifndef IOTRIAL_FACTOR_VALUES_H
#define IOTRIAL_FACTOR_VALUES_H

#include "experiment.h"
#include "../knob/knob.h"
#include "../journal/session.h"

/*
 * Does factor f (its is_knob already known) give one value twice, as
 * typed or once translated (4k and 4096, deadline and mq-deadline)?
 * Knob values are parsed for the knobs of kctx; values that do not
 * parse are left to the later checks. 0, or -EINVAL with err naming
 * both spellings and what they mean, and pointing to --vary label=A,B
 * for an A/A experiment.
 */
int factor_check_values(const struct workload_ops *ops, struct knob_ctx *kctx,
			const struct experiment_factor *f, const char *spec,
			struct strbuf *err);

/*
 * Knob factor f: say through log how each value is read when it is
 * translated ("cfq" is bfq, "2MB" becomes 1952 KiB), as run --set does,
 * each note once, and keep what is really set in f->canon for the arms'
 * labels. A value that does not parse is left for the later checks.
 */
void factor_translate(struct knob_ctx *kctx, struct experiment_factor *f,
		      const struct session_log *log);

#endif
