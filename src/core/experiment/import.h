/*
 * Bringing results measured elsewhere into iotrial: iotrial/1 run objects
 * (`iotrial run --json`), whole iotrial experiment objects, and fio's
 * `--output-format=json` reports. A fio user keeps their job files and
 * gets our statistics: each file becomes one run of an arm, and the arms
 * become an experiment that experiment_analyze_built() can judge.
 *
 * Nothing here prints; import_save() analyses the experiment made and
 * saves it to the results store.
 */
#ifndef IOTRIAL_IMPORT_H
#define IOTRIAL_IMPORT_H

#include <stdbool.h>
#include <stddef.h>
#include "../model/import_doc.h"
#include "../store/store.h"
#include "../../util/strbuf.h"

/* Files larger than this are not results; refuse rather than load. */
#define IMPORT_MAX_BYTES (64u << 20)

/* What a file turned out to be. */
enum import_kind {
	IMPORT_IOTRIAL_RUN, /* an iotrial/1 run object */
	IMPORT_FIO_RUN,	    /* fio --output-format=json */
	IMPORT_EXPERIMENT,  /* a whole iotrial experiment object */
};

/* One imported file. */
struct import_run {
	enum import_kind kind;
	struct import_doc doc; /* the whole document (owned) */
	char *source;	       /* where it came from, for messages */
	char *metric;	       /* "iops", "mbps", ...; NULL: experiment */
	double value;	       /* the run's metric, > 0 and finite */
	bool higher_is_better;
	char *workload; /* "randread", "fio:randread", "" if unknown */
	char *target;	/* "/tmp", the fio filename, "" if unknown */
};

/*
 * Parse len bytes of buf (need not be NUL-terminated) as one result
 * document named source (for messages). metric NULL takes an iotrial
 * run's own metric, and for fio IOPS for random patterns and MB/s
 * (10^6 bytes/s) for sequential ones; "iops" or "mbps" picks one. Text
 * before the first '{' is skipped (fio prints warnings there). Returns 0
 * with out filled (release it), or -EINVAL with err set to one sentence
 * naming source and what is wrong.
 */
int import_parse(const char *buf, size_t len, const char *source,
		 const char *metric, struct import_run *out,
		 struct strbuf *err);

/* Read the file at path and import_parse() it. Returns 0 or -errno. */
int import_read_file(const char *path, const char *metric,
		     struct import_run *out, struct strbuf *err);

/* Free r's contents; r is left zeroed. NULL is fine. */
void import_run_release(struct import_run *r);

/* The runs of one arm, in the order given. */
struct import_arm {
	const char *label;	       /* "scheduler=none" */
	const struct import_run *runs; /* nr of them, all runs (not
					  experiments) */
	size_t nr;
};

/*
 * Build an experiment (model/experiment_doc.h) from arms[nr_arms] into
 * out (initialised here; release it, also after an error): arm i gets
 * the runs of arms[i], unpaired (no "block"), arm 0 is the baseline;
 * every string made printable
 * (model/experiment_doc.h: experiment_doc_printable()). The runs
 * must share a metric; and a workload too, unless workload (may be
 * NULL) names one. No analysis yet: call import_analyze(). Returns 0,
 * or -EINVAL with err set.
 */
int import_build_experiment(const struct import_arm *arms, size_t nr_arms,
			    const char *workload, struct experiment_doc *out,
			    struct strbuf *err);

/*
 * Analyse exp as import_save() does, without saving it: its origin set
 * to "imported" whatever it said; exp's own baseline, alpha and
 * equivalence when it has them, else analysis_opts_init()'s
 * (experiment_analyze_built()). Returns 0 or -errno with err set (the
 * runs cannot be analysed).
 */
int import_analyze(struct experiment_doc *exp, struct strbuf *err);

/*
 * Analyse exp (import_analyze()), an experiment made by
 * import_build_experiment() or read whole from a file, and save it to
 * the store at db (NULL: the default; made when missing, store_open());
 * out_id gets its id, exp its id and created (store_save_doc()).
 * Returns 0 or -errno with err set; *out_bad_runs tells a failure of
 * the runs (they cannot be analysed: the input's fault; the store is
 * not opened) from one of the store.
 */
int import_save(const char *db, struct experiment_doc *exp,
		char out_id[STORE_ID_LEN + 1], bool *out_bad_runs,
		struct strbuf *err);

#endif
