/*
 * The trial object and its enums (trial.h describes the calls), in a
 * header of their own so that the files that fill in a part of a trial
 * (trial_knobs.c, trial_wrap.c) see the struct without depending on
 * trial.c's unit: trial.c calls them, they never call it.
 */
#ifndef IOTRIAL_TRIAL_TYPES_H
#define IOTRIAL_TRIAL_TYPES_H

#include "experiment.h"
#include "result_json.h"
#include "../store/store.h"
#include "../targets/cgroup.h"
#include "../targets/target.h"
#include "../knob/knob.h"
#include "../knob/plan.h"
#include "../journal/session.h"
#include "../observe/truth.h"

/* What is run: one run (iotrial run) or a whole experiment (compare). */
enum trial_kind {
	TRIAL_ONE_RUN,
	TRIAL_EXPERIMENT,
};

/* Where trial_run() failed, for the caller's exit code. */
enum trial_stage {
	TRIAL_FAILED_SESSION = 1, /* opening the knob session (the lock,
				     the journal) for the --set knobs */
	TRIAL_FAILED_KNOBS,	  /* applying the --set knobs */
	TRIAL_FAILED_PREPARE,	  /* laying out the workload's files */
	TRIAL_FAILED_RUN,	  /* the runs themselves, or interrupted */
	TRIAL_FAILED_LIMITS,	  /* making the cgroup of --memory-limit,
				     --cpus, --mems */
	TRIAL_FAILED_VERIFY,	  /* a run's --verify found bad data (the
				     run is recorded, not stored) */
};

/* What the caller hears as the trial goes. Every member may be NULL. */
struct trial_hooks {
	struct session_log log; /* notes, session messages, warnings */
	void *ctx;		/* for progress and run_done */
	/* Before each run. */
	void (*progress)(void *ctx, const struct experiment_progress *p);
	/* After each run that counts: what it ran and its result, valid
	 * during the call only (run renders its summary here). */
	void (*run_done)(void *ctx, const struct run_meta *meta,
			 const struct run_result *r);
};

#define TRIAL_WRAP_SAID 16 /* wrapping reads warned about, at most */

struct trial {
	/* Filled by the caller between trial_init() and trial_plan(). */
	struct experiment_config c; /* c.factors, c.target: the trial's */
	const char *const *set;	    /* fixed knobs "KNOB=VALUE", for every
				       run (run --set); nr_set of them */
	unsigned nr_set;
	struct cgroup_limits limits; /* the runs' cgroup; none when zero */

	/* The results, for rendering. */
	struct experiment e;	   /* arms; the experiment object */
	struct target t;	   /* open after trial_open() */
	enum trial_stage failed;   /* after trial_run() failed */
	char id[STORE_ID_LEN + 1]; /* after trial_store(): "" until then */

	/* Private. */
	enum trial_kind kind;
	struct trial_hooks hooks;
	unsigned alloc_factors;
	struct knob_ctx kctx;		     /* the knobs of the target */
	struct knob_plan fixed;		     /* the plan of set[] */
	struct knob_setting *fixed_settings; /* as applied: c.knobs */
	struct session *s;    /* opened at the first knob change */
	uint64_t mark;	      /* roll back to here at the end */
	int applied;	      /* a rollback is pending */
	struct cgroup cg;     /* the runs' cgroup, while entered */
	struct truth_hook th; /* the current run's observer */
	int th_live;
	uint64_t wrap_said[TRIAL_WRAP_SAID]; /* wrap_after_run() keys */
	unsigned nr_wrap_said;
	int wrap_check;	 /* trial_wrap_check(): 1, 2 with its note */
	int wrap_done;	 /* ... made, after the first layout */
	int wrap_probed; /* ... measured the device: the first runs need
			    not say it again */
	struct knob_plan *arm_plans; /* per arm, made by trial_check() and
					kept for the runs; NULL without
					knob factors */
	unsigned nr_arm_plans;
	const struct knob_plan *arm_plan; /* of the arm in force
					     (apply_arm), or NULL */
	struct strbuf held; /* notes said before trial_check() ends: a
			       refusal comes first, alone */
	int checked;	    /* trial_check() passed: notes go out at once */
};

#endif
