/*
 * The command side shared by `export` and `apply`: from an experiment id
 * (or --set assignments) to a built knob plan for the disk and mount
 * meant, and the struct export_src the renderers read (the disk's udev
 * identity, the fstab under --root, the active tuned profile).
 */
#ifndef IOTRIAL_CLI_EXPORTJOB_H
#define IOTRIAL_CLI_EXPORTJOB_H

#include "knobargs.h"
#include "options.h"
#include "../core/export/export.h"
#include "../core/targets/mountinfo.h"

/* What the command line names. Strings borrowed from argv. */
struct export_job_args {
	const char *id, *db, *arm;
	const char *target, *device;
	const char *root; /* NULL: "/" */
	struct knob_cli set;
	struct option_list allow; /* --allow-knob: raw knobs an experiment
				     from elsewhere may set */
	int plan_on_stdout;	  /* a refused plan is printed on stdout
				     (apply), not stderr (export) */
};

/* One export's data. */
struct export_job {
	struct experiment_doc exp; /* the stored experiment, with an id */
	struct export_pick pick;
	struct knob_ctx ctx;
	struct knob_plan plan;
	struct target t;
	struct export_disk_id disk_id;
	struct strbuf fstab;	  /* the fstab's text (fstab_ok) */
	struct strbuf fstab_path; /* as shown: "/etc/fstab", "DIR/etc/fstab" */
	struct strbuf tuned;	  /* the active tuned profile, or "" */
	struct strbuf date;
	struct mountinfo_entry mnt; /* what mounts the atime knob's mount
				       now (for the fstab line to add) */
	const char *root;
	int fstab_ok;
	struct export_src src;
	char **notes; /* said by export_job_say_notes(): the pick's
			 (other winners, parameters left out), then the
			 plan's translations from nr_pick_notes on */
	size_t nr_notes, alloc_notes, nr_pick_notes;
};

/*
 * Fill j for a: load and pick the experiment's arm (or take --set),
 * resolve the plan, read what the renderers need. A plan chosen by an
 * experiment from elsewhere that sets raw knobs --allow-knob does not
 * name (export_pick_check_knobs()) is printed, then refused. --arm
 * takes any name of an arm (experiment/arm_name.h), a value meaning the
 * same on the disk and mount meant included. The arm of an experiment
 * whose target is gone (a scratch device, a removed directory) needs
 * -t or --device only when it sets a device or mount knob. Prints what
 * went wrong and returns an exit code; j must be released either way.
 * The notes are kept for export_job_say_notes().
 */
int export_job_prepare(struct export_job *j, const struct export_job_args *a);
void export_job_release(struct export_job *j);

/*
 * Say the notes prepare kept: the pick's, and with plan_notes each
 * setting's translation too (a command that prints the plan has them
 * there already). A command says them once it has refused all it
 * refuses, so that a usage error is one line.
 */
void export_job_say_notes(const struct export_job *j, int plan_notes);

/*
 * Before fstab is replaced by text (line line_no changed): does `findmnt
 * --verify --tab-file` accept it? EXIT_OK, also with a warning when
 * findmnt cannot run or already rejected the old fstab; EXIT_RUNTIME
 * after the error when the change is what it rejects.
 */
int export_job_verify_fstab(const struct export_job *j, const char *text,
			    unsigned line_no);

/*
 * The plan of j as `apply` shows it before it writes (and --dry-run),
 * without the --dry-run header: "plan: N changes, in apply order", the
 * steps, and how the originals are kept in journal. Appends to out.
 */
void export_job_plan_text(const struct export_job *j, const char *journal,
			  struct strbuf *out);

/* The root as given, or "/"; refuses one that is not a directory. */
int export_job_check_root(const char *root);

#endif
