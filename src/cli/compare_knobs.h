/*
 * What compare needs beyond the experiment loop: telling knob factors
 * from parameters, checking every arm's knob values before the first run,
 * applying each arm's knobs in one journaled session and rolling them
 * all back at the end, device truth for every run, the environment, and
 * saving to the store.
 */
#ifndef IOTRIAL_COMPARE_KNOBS_H
#define IOTRIAL_COMPARE_KNOBS_H

#include "../core/experiment.h"
#include "../core/knob/knob.h"
#include "../core/knob/session.h"
#include "../core/observe/truth.h"
#include "../core/target.h"

struct compare_knobs {
	struct knob_ctx ctx;
	struct knob_session *s;   /* opened at the first knob change */
	uint64_t mark;            /* roll back to here at the end */
	int applied;
	const struct target *t;
	struct truth_hook th;     /* the current run's observer */
	int th_live;
	void *progress_ctx;       /* for the caller's progress hook */
	void (*progress)(void *ctx, const struct experiment_progress *p);
};

void compare_knobs_init(struct compare_knobs *ck);
/* Find the knobs of target t. Prints nothing; -errno with err. */
int compare_knobs_bind(struct compare_knobs *ck, const struct target *t,
		       struct strbuf *err);
/*
 * Is name a knob of this target? 1 yes; -ENOENT (err suggests the
 * nearest knob or parameter of ops) or -ENODEV (a knob the target has
 * no device or mount for).
 */
int compare_knobs_classify(struct compare_knobs *ck, const char *name,
			   const struct workload_ops *ops, struct strbuf *err);
/* Parse every arm's knob values and check the rights to change them. */
int compare_knobs_check(struct compare_knobs *ck, const struct experiment *e,
			const struct experiment_config *c, struct strbuf *err);
/* Fill the knob and truth hooks of h (h->ctx becomes ck). */
void compare_knobs_hooks(struct compare_knobs *ck, struct experiment_hooks *h);
/* Roll every knob change back, newest first; prints failures. */
int compare_knobs_restore(struct compare_knobs *ck);
/* Attach the environment of t to the experiment object. */
void compare_knobs_finish(struct compare_knobs *ck, const struct target *t,
			  struct json_object *exp);
void compare_knobs_release(struct compare_knobs *ck);

/* Save exp to the store at db (NULL: the default). Sets exp's "id". */
int compare_store_save(const char *db, struct json_object *exp,
		       struct strbuf *err);

#endif
