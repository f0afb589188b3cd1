/*
 * A series analysed as a document (`series report --json`, kind
 * "series"; docs/schema/series.schema.json; series/series_report.c
 * writes it today): each boot's iterations, as rows of the runs they
 * are, and each value compared with the baseline with the boot as the
 * unit, the pooled figure beside it.
 */
#ifndef IOTRIAL_SERIES_DOC_H
#define IOTRIAL_SERIES_DOC_H

#include "model.h"
#include "../../util/strbuf.h"

struct truth_device_doc;

/* One iteration of a boot ("groups[].iterations[]"): the numbers
 * `show --runs` prints of its run, each NaN when null. */
struct series_iteration {
	char *experiment; /* the stored run's id */
	double metric;
	double real_s; /* wall time, s */
	double user_s; /* s */
	double sys_s;  /* s */
	char *device;
	double tps;	  /* transfers per second */
	double mb_read_s; /* 10^6 bytes/s */
	double mb_wrtn_s;
	double mb_read; /* 10^6 bytes */
	double mb_wrtn;
	struct model_kept *keep;
};

/* One boot ("groups[]"). */
struct series_group_doc {
	int64_t group;
	char *value; /* what it is compared by: a kernel, a tag */
	char *boot_id;
	char *kernel;
	char *build;
	char *tag;
	double median; /* of its iterations' metric; NaN: null */
	struct series_iteration *iterations;
	size_t nr_iterations;
	struct model_kept *keep;
};

/* The same comparison on every iteration ("comparisons[].pooled"). */
struct series_pooled {
	double ratio; /* NaN: null */
	double ratio_low;
	double ratio_high;
	double p;
	char *verdict;
	struct model_kept *keep;
};

/* A value against the baseline, boots as the unit ("comparisons[]"). */
struct series_comparison_doc {
	char *value;
	int64_t boots;
	int64_t iterations;
	double ratio; /* NaN: null */
	double ratio_low;
	double ratio_high;
	double p;
	char *verdict;
	int64_t boots_needed;
	double between_boot_sd; /* NaN: null */
	double within_boot_sd;
	struct series_pooled *pooled;
	struct model_kept *keep;
};

/* The document. */
struct series_doc {
	char *schema; /* "iotrial/1" */
	char *kind;   /* "series" */
	char *name;
	char *by; /* "kernel", "tag", "boot" */
	char *baseline;
	char *metric;
	int64_t boots;
	int64_t iterations;
	struct series_group_doc *groups;
	size_t nr_groups;
	struct series_comparison_doc *comparisons;
	size_t nr_comparisons;
	struct model_kept *keep;
};

/*
 * A series' boot order (series/series_plan.c; kept in the store, not
 * published): the group the plan starts at and the value of each group
 * from there.
 */
struct series_plan_doc {
	int64_t start;
	char **order;
	size_t nr_order;
	struct model_kept *keep;
};

/*
 * What an iteration ran with (cli/series.c; kept in the store beside
 * it): its run's knobs and devices, each absent when the run had none.
 */
struct series_ctx_doc {
	struct model_pair *knobs;
	size_t nr_knobs;
	uint8_t has_knobs;
	struct truth_device_doc *devices;
	size_t nr_devices;
	uint8_t has_devices;
	struct model_kept *keep;
};

/* A series' workload and its arguments as the store keeps them: a JSON
 * array of strings, plain, "/" escaped. */
void series_argv_encode(const char *const *argv, size_t n, struct strbuf *out);

/* Decode text into *out, *n new strings (free each and the array);
 * 0, or -EINVAL with err set (and nothing in *out) when it is not a
 * non-empty array of strings. */
int series_argv_decode(const char *text, char ***out, size_t *n,
		       struct strbuf *err);

/* Lifecycle, as run_doc.h's. */
void series_ctx_doc_release(struct series_ctx_doc *doc);
void series_plan_doc_init(struct series_plan_doc *doc);
void series_plan_doc_release(struct series_plan_doc *doc);
void series_doc_init(struct series_doc *doc);
void series_doc_release(struct series_doc *doc);
void series_doc_free(struct series_doc *doc);
void series_doc_copy(struct series_doc *dst, const struct series_doc *src);

#endif
