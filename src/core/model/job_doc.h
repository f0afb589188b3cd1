/*
 * The runs of a fio job file as a document (`run --job FILE --json`,
 * type "job_file"; docs/schema/job-run.schema.json; cli/job.c and
 * cli/job_share.c write it today): one run object per job section, and
 * per group of sections that ran at once the device truth they shared.
 */
#ifndef IOTRIAL_JOB_DOC_H
#define IOTRIAL_JOB_DOC_H

#include "model.h"
#include "run_doc.h"

/* A file sections share ("jobs[].file"). */
struct job_file_share {
	char *filename;	  /* as the job file names it */
	char **shared_by; /* the sections */
	size_t nr_shared_by;
	char *laid_out_by; /* the section that laid it out; NULL: null */
	int64_t inode;
	int64_t bytes;
	struct model_kept *keep;
};

/* One job section's run ("jobs[]"). */
struct job_entry {
	char *section;
	char *name;
	int64_t group;		 /* the sections that ran at once */
	int64_t reporting_group; /* fio's group_reporting group */
	bool group_reporting;
	char *id;		     /* the stored run's id; NULL: null */
	struct job_file_share *file; /* a shared file, or NULL */
	struct run_doc *run;
	struct model_kept *keep;
};

/* A group of sections that ran at once ("groups[]"). */
struct job_group {
	int64_t group;
	char **sections;
	size_t nr_sections;
	bool group_reporting;
	char *id;			  /* NULL: null */
	struct truth_device_doc *devices; /* the truth they shared */
	size_t nr_devices;
	uint8_t has_devices;
	struct truth_doc *truth;
	uint8_t has_truth;   /* MODEL_NULL: null */
	struct run_doc *run; /* with group_reporting: the sum */
	struct model_kept *keep;
};

/* The document. */
struct job_doc {
	char *schema; /* "iotrial/1" */
	char *type;   /* "job_file" */
	char *file;   /* the job file */
	struct job_entry *jobs;
	size_t nr_jobs;
	struct job_group *groups;
	size_t nr_groups;
	uint8_t has_groups;
	struct model_kept *keep;
};

/* Lifecycle, as run_doc.h's. */
void job_doc_init(struct job_doc *doc);
void job_doc_release(struct job_doc *doc);
void job_doc_free(struct job_doc *doc);

/* A deep copy of src into dst (not initialised). */
void job_doc_copy(struct job_doc *dst, const struct job_doc *src);

#endif
