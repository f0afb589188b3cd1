/*
 * What a dry run says it would do (docs/schema/plan.schema.json,
 * dry-run.schema.json): `set --dry-run --json` and `apply --dry-run
 * --json` print a plan_doc (kind "set-plan", "apply-plan"; written by
 * report/plan_json.c and cli/apply.c), `compare` and `run --dry-run
 * --json` a dry_run_doc (kind "dry-run"; cli/dryrun.c).
 */
#ifndef IOTRIAL_PLAN_DOC_H
#define IOTRIAL_PLAN_DOC_H

#include "model.h"

/* One knob change of a plan ("changes[]"). */
struct plan_change_doc {
	char *knob;	  /* its name, or NULL */
	char *input_name; /* as given, or NULL */
	char *scope;	  /* "device", "mount", "system", ... */
	char *object;	  /* its device or mount, or NULL */
	char *path;	  /* the file it writes, or NULL */
	char *input;	  /* the value as given, or NULL */
	char *value;	  /* the canonical value */
	char *before;	  /* what it is now, or NULL */
	bool unchanged;	  /* already so */
	bool deferred;	  /* takes effect later (a remount, a reboot) */
	char *how;	  /* how it is set, or NULL */
	char *note;	  /* what to know, or NULL */
	struct model_kept *keep;
};

/* A file apply would write ("files[]"): its new text, or the change of
 * an fstab line. */
struct plan_file_doc {
	char *path;
	char *format; /* the export format */
	bool exists;
	char *change; /* fstab: the line's change, or NULL */
	char *text;   /* another format: the file's text, or NULL */
	struct model_kept *keep;
};

/* The plan of set or apply. */
struct plan_doc {
	char *schema; /* "iotrial/1" */
	char *kind;   /* "set-plan", "apply-plan" */
	bool dry_run; /* true */
	char *device; /* or NULL */
	char *mount;  /* or NULL */
	char *journal;
	struct plan_change_doc *changes;
	size_t nr_changes;
	/* apply's: the experiment and arm applied and the files written
	 * (NULL, absent: set's plan) */
	char *experiment;
	char *origin;
	char *arm;
	char *why;
	bool needs_force; /* the machine differs from the experiment's */
	uint8_t has_needs_force;
	struct plan_file_doc *files;
	size_t nr_files;
	uint8_t has_files;
	struct model_kept *keep;
};

/* An arm of a dry run ("arms[]"). */
struct dry_run_arm_doc {
	int64_t arm;
	char *label;
	bool baseline;
	struct plan_change_doc *changes;
	size_t nr_changes;
	struct model_kept *keep;
};

/* A dry run of compare or run. */
struct dry_run_doc {
	char *schema;  /* "iotrial/1" */
	char *kind;    /* "dry-run" */
	char *command; /* "compare", "run" */
	char *workload;
	char *target;
	char *device;		       /* or NULL */
	char *knobs_changed_on;	       /* the device, or NULL */
	struct plan_change_doc *fixed; /* --set: every arm's */
	size_t nr_fixed;
	struct dry_run_arm_doc *arms;
	size_t nr_arms;
	bool adaptive; /* runs until the answer is clear */
	int64_t blocks;
	uint8_t has_blocks; /* null: not known before it runs */
	int64_t min_blocks;
	int64_t warmup_runs;
	int64_t runs;
	uint8_t has_runs;	      /* null, as blocks */
	double seconds_per_run;	      /* s; NaN: null */
	double estimated_seconds_min; /* s; NaN: null */
	bool needs_root;
	double estimated_seconds; /* s; NaN: null */
	struct model_kept *keep;
};

/* Lifecycle, as run_doc.h's. */
void plan_doc_init(struct plan_doc *doc);
void plan_doc_release(struct plan_doc *doc);
void dry_run_doc_init(struct dry_run_doc *doc);
void dry_run_doc_release(struct dry_run_doc *doc);

#endif
