/*
 * Three commands' documents: `diff --json` (diff_doc; report/
 * diff_text.c writes it; docs/schema/diff.schema.json), `info --json`
 * (info_doc: the environment with its schema; report/env_text.c;
 * info.schema.json) and a line of `watch --json` (watch_doc; report/
 * watch_text.c; watch.schema.json).
 */
#ifndef IOTRIAL_COMMAND_DOC_H
#define IOTRIAL_COMMAND_DOC_H

#include "env_doc.h"
#include "experiment_doc.h"
#include "truth_doc.h"

/* Two stored experiments compared (`diff`). */
struct diff_doc {
	char *schema;	  /* "iotrial/1" */
	char *before;	  /* the first one's id, or NULL */
	char *after;	  /* the second's */
	char *arm_before; /* the arm of each compared */
	char *arm_after;
	bool like_for_like;
	char **unlike; /* what differs in what they ran, a line each */
	size_t nr_unlike;
	char *verdict;			   /* "" without a verdict */
	struct experiment_doc *experiment; /* before against after, or NULL */
	char **differences;		   /* their environments' differences */
	size_t nr_differences;
	struct model_kept *keep;
};

/* `info`: the environment, schema first. */
struct info_doc {
	char *schema; /* "iotrial/1" */
	struct env_doc *env;
	struct model_kept *keep;
};

/* One device in one interval of `watch --json`. */
struct watch_doc {
	char *schema; /* "iotrial/1" */
	char *time;
	char *name;		      /* the device */
	struct disk_delta_doc *delta; /* its numbers in the interval */
	uint64_t dirty_bytes;	      /* MODEL_NULL: memory not read */
	uint8_t has_dirty_bytes;
	uint64_t writeback_bytes;
	uint8_t has_writeback_bytes;
	struct model_kept *keep;
};

/* Lifecycle, as run_doc.h's. */
void diff_doc_init(struct diff_doc *doc);
void diff_doc_release(struct diff_doc *doc);
void info_doc_init(struct info_doc *doc);
void info_doc_release(struct info_doc *doc);
void watch_doc_init(struct watch_doc *doc);
void watch_doc_release(struct watch_doc *doc);

#endif
