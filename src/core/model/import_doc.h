/*
 * A file `iotrial import` reads: an iotrial/1 run, a whole iotrial/1
 * experiment, or a fio --output-format=json report. The file comes from
 * elsewhere and is untrusted: import_doc_decode() reads it as strictly
 * as any document (model_json.h), with every string made printable.
 * A fio report is read for the members import uses (fio_doc); the rest
 * of it is kept as it came and written back with it.
 */
#ifndef IOTRIAL_IMPORT_DOC_H
#define IOTRIAL_IMPORT_DOC_H

#include "experiment_doc.h"
#include "run_doc.h"
#include "../../util/strbuf.h"

/* One direction of a fio job ("jobs[].read", "jobs[].write"); each
 * number NaN when fio did not write it. */
struct fio_dir_doc {
	double iops;	 /* I/O per second */
	double bw_bytes; /* bytes/s (newer fio) */
	double bw;	 /* KiB/s */
	struct model_kept *keep;
};

/* One fio job ("jobs[]"). */
struct fio_job_doc {
	char *jobname;		    /* or NULL */
	double error;		    /* fio's error number; NaN: none */
	struct model_pair *options; /* "job options" */
	size_t nr_options;
	uint8_t has_options;
	struct fio_dir_doc *read, *write; /* NULL: not written */
	struct model_kept *keep;
};

/* A fio --output-format=json report. */
struct fio_doc {
	char *fio_version;		   /* "fio version", or NULL */
	struct model_pair *global_options; /* "global options" */
	size_t nr_global_options;
	uint8_t has_global_options;
	struct fio_job_doc *jobs;
	size_t nr_jobs;
	uint8_t has_jobs;
	struct model_kept *keep;
};

/* What an imported file is. */
enum import_doc_kind {
	IMPORT_DOC_RUN = 1,    /* an iotrial/1 run object: run */
	IMPORT_DOC_EXPERIMENT, /* a whole iotrial/1 experiment: exp */
	IMPORT_DOC_FIO,	       /* a fio report: fio */
};

/* A file decoded: the one part its kind names is set. */
struct import_doc {
	enum import_doc_kind kind;
	struct run_doc *run;
	struct experiment_doc *exp;
	struct fio_doc *fio;
};

/*
 * Decode len bytes of a file named source (for messages) into out
 * (initialised here; release it even after an error). Text before the
 * first '{' is skipped (fio may print lines before its report) and text
 * after the object is ignored, as import always has. Every string,
 * member names too, is made printable (util/text.h) before it is read.
 * A run whose metric gives no direction reads as higher is better. 0,
 * or -EINVAL with err a one-line message naming source.
 */
int import_doc_decode(const char *text, size_t len, const char *source,
		      struct import_doc *out, struct strbuf *err);

/* Append fio as JSON to out (model_json.h's encode flags): the report
 * as it came, what an imported run's "run" holds. */
void fio_doc_encode(const struct fio_doc *fio, unsigned flags,
		    struct strbuf *out);

/* Free what out holds; it is left as decode's start. NULL is fine. */
void import_doc_release(struct import_doc *out);

#endif
