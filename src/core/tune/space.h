/*
 * tune's space: the knobs tried and their values. By default the knob
 * families that can matter for the workload and the target, each with
 * a ladder of values; a knob that cannot act (the target has no disk
 * or no mount for it, the workload does not read or write where it
 * acts, direct I/O goes around it, workload_ops.knob_above says so) is
 * left out with the reason. The rows --space gives replace the
 * defaults. Either way the value in force now is read and added to the
 * row when the ladder lacks it: the current settings are the baseline.
 */
#ifndef IOTRIAL_TUNE_SPACE_H
#define IOTRIAL_TUNE_SPACE_H

#include "../knob/knob.h"
#include "../workload/workload.h"
#include "../../util/strbuf.h"

/* One knob of the space: its values as typed, the current one. */
struct tune_row {
	char *knob;
	char **values;
	unsigned nr_values;
	unsigned current; /* index of the value in force now */
	int given;	  /* from --space */
};

/* A knob left out of the space, and why. */
struct tune_left_out {
	char *knob;
	char *why;
};

struct tune_space {
	struct tune_row *rows;
	unsigned nr_rows, alloc_rows;
	struct tune_left_out *out;
	unsigned nr_out, alloc_out;
	char **refused; /* "KNOB=VALUE: why", values dropped before any run */
	unsigned nr_refused, alloc_refused;
};

void tune_space_init(struct tune_space *sp);
void tune_space_release(struct tune_space *sp);

/*
 * The default space for workload w on the knobs of kctx: the families
 * that can act, with their ladders, the others left out with a reason.
 */
void tune_space_default(struct tune_space *sp, const struct knob_ctx *kctx,
			const struct workload *w);

/*
 * Add the row "KNOB=V1,V2,..." of --space. -EINVAL (err says how) for
 * a malformed row, -ENOENT for a knob that does not exist (err suggests
 * the nearest), -ENODEV for one that cannot act on this target, and
 * the reason of the workload's knob_above for one that cannot act on
 * it (-EINVAL).
 */
int tune_space_add(struct tune_space *sp, const char *row,
		   const struct knob_ctx *kctx, const struct workload *w,
		   struct strbuf *err);

/*
 * Read each row's current value (kctx's knobs) and plan every value:
 * values the knob refuses to parse are dropped into sp->refused; a
 * value meaning the current one (4k and 4096) becomes current; a
 * current value the ladder lacks is added first. A row left with the
 * current value alone is left out ("no other value it accepts"). 0, or
 * -errno with err when a knob cannot be read. A row of --space with a
 * refused value is refused as a whole (-EINVAL): what was asked is not
 * what would be tried.
 */
int tune_space_resolve(struct tune_space *sp, struct knob_ctx *kctx,
		       struct strbuf *err);

/*
 * --max-change "KNOB=LO..HI" or "KNOB=V1|V2|...": drop the values of
 * KNOB's row outside it (its canonical value compared) into refused;
 * the current value stays, it is in force already. A value --space
 * asked for outside it is refused (-EINVAL); so is a malformed limit or
 * a knob not in the space.
 */
int tune_space_limit(struct tune_space *sp, const char *limit,
		     struct knob_ctx *kctx, struct strbuf *err);

#endif
