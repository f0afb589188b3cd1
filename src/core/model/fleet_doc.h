/*
 * The fleet part of a merged experiment ("fleet"; fleet/fleet_merge.c
 * writes it today): every host, good and failed, what each ran on, and
 * the hosts' own verdicts. The merged runs are in the experiment's runs
 * (one block per host) and the fleet's environment in its env.
 */
#ifndef IOTRIAL_FLEET_DOC_H
#define IOTRIAL_FLEET_DOC_H

#include "model.h"
#include "live_doc.h"

struct exp_suspect;

/* A host's own verdict of an arm ("fleet.hosts[].verdicts[]"). */
struct fleet_host_verdict {
	int64_t arm;
	char *label;
	double ratio; /* the host's estimate; absent: no verdict */
	uint8_t has_ratio;
	double ci_low;
	uint8_t has_ci_low;
	double ci_high;
	uint8_t has_ci_high;
	double p_adjusted;
	uint8_t has_p_adjusted;
	char *verdict;
	struct exp_suspect *suspect; /* the host's own marks */
	size_t nr_suspect;
	uint8_t has_suspect;
	struct fleet_host_verdict *stated; /* what its file says where its
					      runs give another ("stated":
					      ratio, CI, p, verdict), or
					      NULL */
	struct model_kept *keep;
};

/* One host ("fleet.hosts[]"). */
struct fleet_host_doc {
	char *host;	    /* its inventory name */
	char *status;	    /* "ok", "failed" */
	char *source;	    /* its result file, or NULL */
	char *revert;	    /* "ok", "failed", "not run", or NULL */
	char *revert_error; /* or NULL */
	char *task;	    /* the task that failed, or NULL */
	char *error;	    /* why it failed, or NULL */
	int64_t block;	    /* a good host: its block in the runs */
	uint8_t has_block;
	char *id;		     /* its experiment's id there, or NULL */
	char *kind;		     /* "observe", or NULL */
	struct live_window *windows; /* an observe host's own */
	size_t nr_windows;
	uint8_t has_windows;
	struct live_switchback *switchback; /* its own, or NULL */
	char *kernel;			    /* what it ran on, or NULL */
	char *devices;
	char *schedulers;
	char **differs; /* which of them differ from most hosts */
	size_t nr_differs;
	uint8_t has_differs;
	struct fleet_host_verdict *verdicts;
	size_t nr_verdicts;
	uint8_t has_verdicts;
	bool consistent; /* its file's verdicts are its runs' */
	uint8_t has_consistent;
	struct model_kept *keep;
};

/* What most hosts ran on ("fleet.reference"). */
struct fleet_reference {
	char *kernel;	  /* kernel release */
	char *devices;	  /* the drivers of the target's stack */
	char *schedulers; /* their schedulers */
	struct model_kept *keep;
};

/* "fleet". */
struct fleet_doc {
	struct fleet_host_doc *host_list; /* "hosts" */
	size_t nr_host_list;
	int64_t nr_hosts;	/* all */
	int64_t nr_ok;		/* merged */
	int64_t nr_failed;	/* left out */
	char **revert_not_done; /* hosts that may still hold a setting */
	size_t nr_revert_not_done;
	struct fleet_reference *reference;
	struct model_kept *keep;
};

/* Free what fleet holds; it is left zeroed. NULL is fine. */
void fleet_doc_release(struct fleet_doc *fleet);

/*
 * What the playbook records of a host (fleet/fleet_plan.c):
 * HOST.error {"host", "task", "rc", "error"} when the host failed (or
 * the placeholder written before anything ran there), HOST.revert
 * {"host", "revert", "rc", "error", "output"}: what came of its
 * `iotrial revert`. The files come back from the hosts: decode them
 * with MODEL_DECODE_PRINTABLE.
 */
struct fleet_record_doc {
	char *host;	       /* its inventory name, or NULL */
	char *revert;	       /* "ok", "failed", "not run", or NULL */
	char *task;	       /* the task that failed, or NULL */
	struct model_value rc; /* its exit status, null when none */
	uint8_t has_rc;
	char *error;  /* why, or NULL */
	char *output; /* what the revert printed, or NULL */
	struct model_kept *keep;
};

void fleet_record_doc_init(struct fleet_record_doc *doc);
void fleet_record_doc_release(struct fleet_record_doc *doc);

#endif
