/*
 * What live.c, live_run.c and live_json.c share and nobody else needs.
 */
#ifndef IOTRIAL_LIVE_INT_H
#define IOTRIAL_LIVE_INT_H

#include "live.h"
#include "../model/live_doc.h"

struct knob_plan;

/* One slot as measured. */
struct live_slot {
	struct sb_window w; /* what the analysis reads */
	struct lw_measure m;
	double start_s; /* since the experiment started */
	char *note;	/* why its number is missing, or NULL */
	char *other;	/* scoped: the other I/O on the device */
};

/* The knob plan of arm in lv's context (built, not applied). */
int live_arm_plan(struct live *lv, unsigned arm, struct knob_plan *plan,
		  struct strbuf *err);

/*
 * The experiment object of lv from its slots[nr]; warnings[nr_warnings]
 * go to "warnings", abort (may be NULL) to "abort". Analyses it.
 * 0 or -errno with err set.
 */
int live_build_object(struct live *lv, const struct live_slot *slots, size_t nr,
		      const char *const *warnings, size_t nr_warnings,
		      struct live_abort *abort, struct strbuf *err);

#endif
