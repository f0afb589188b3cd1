/*
 * The files job sections share (job_share.c): fio lays out one file for
 * every section that names the same filename= (in the same directory,
 * after [global] is inherited) and each later section uses that file as
 * the ones before left it. iotrial does the same with a file of its own:
 * it lives in a private work directory of the target (journaled like
 * every work directory, removed at the end of the job run), never at the
 * path the job file names, and each section reaches it through a link
 * in its own work directory (core/workload/layout.h). Sections without
 * filename=, or alone in naming theirs, keep a file each.
 */
#ifndef IOTRIAL_CLI_JOB_SHARE_H
#define IOTRIAL_CLI_JOB_SHARE_H

#include "../core/model/job_doc.h"
#include "../core/targets/target.h"
#include "../core/workload/fiojob_map.h"
#include "../core/workload/layout.h"

struct job_share_file {
	char *key;    /* the target, and the file as fio would open it */
	char *spec;   /* the target */
	char **users; /* the sections naming it, in file order */
	unsigned nr_users;
	struct target t; /* holds the file in its work directory */
	int t_open;
	struct layout_share s;
};

struct job_shares {
	struct job_share_file *files;
	unsigned nr, alloc;
	struct job_share_file **of_run; /* per run of the plan, or NULL */
	unsigned char *got;		/* per run: job_shares_get() gave it */
	unsigned nr_runs;
};

/*
 * Which runs of plan share a file, on the target the command line gives
 * (cli_target, or NULL: each run's own). Nothing is made yet.
 */
void job_shares_init(struct job_shares *js, const struct fiojob_plan *plan,
		     const char *cli_target);
/* Remove the shared files and their work directories; free js. */
void job_shares_release(struct job_shares *js);
/*
 * The share of run k for a section on t (its trial's target): NULL when
 * it shares nothing or t is not a directory. The file's work directory
 * is made at the first call. NULL with err set when that fails (then
 * *failed is set).
 */
struct layout_share *job_shares_get(struct job_shares *js, unsigned k,
				    const struct target *t, int *failed,
				    struct strbuf *err);
/* The "file" member of run k's entry (the caller owns it): which
 * sections share its file, who laid it out, its inode. NULL when it
 * shares none. */
struct job_file_share *job_shares_doc(const struct job_shares *js, unsigned k);

#endif
