/*
 * `iotrial series NAME report`: a series' iterations read back from the
 * store, grouped by boot, laid out as a kernel developer's regression
 * report (per boot: real, user and sys of each iteration, then the
 * device's tps, MB_read/s, MB_wrtn/s, MB_read, MB_wrtn), and each value
 * of what differed (kernel, tag or boot) compared with the baseline
 * with the boot as the unit (series_stats.h), the iteration-pooled
 * figure beside it as what pooling would claim.
 */
#ifndef IOTRIAL_SERIES_REPORT_H
#define IOTRIAL_SERIES_REPORT_H

#include "../model/series_doc.h"
#include "../store/store_series.h"
#include "../../util/strbuf.h"

/* What the values compared are. */
enum series_by {
	SERIES_BY_KERNEL, /* kernel release (and build, when they differ) */
	SERIES_BY_TAG,	  /* --tag */
	SERIES_BY_BOOT,	  /* each boot its own value */
};

/* series_report() options. */
struct series_report_opts {
	enum series_by by;
	const char *baseline; /* the value to compare against; NULL: the
				 first one run */
	double conf;	      /* 0.95 */
	double margin;	      /* 0.02 */
};

/* "kernel", "tag", "boot" by enum series_by, then NULL (the choices of
 * --by); parse returns -EINVAL for another word. */
extern const char *const series_by_names[];
const char *series_by_name(enum series_by by);
int series_by_parse(const char *s, enum series_by *out);

/*
 * Read series name's iterations from s and render the report into text
 * and, when doc is not NULL, its document (schema iotrial/1, "kind"
 * "series"; initialised by the caller, who releases it, after an error
 * too). *out_regression is set when a value is
 * slower than the baseline by the boot-level verdict. Returns 0, or
 * -ENOENT (no such series, or no iterations yet), -EINVAL (an unknown
 * baseline: err lists the values; a stored iteration that is damaged)
 * or another -errno, with err set.
 */
int series_report(struct store *s, const char *name,
		  const struct series_report_opts *o, struct strbuf *text,
		  struct series_doc *doc, int *out_regression,
		  struct strbuf *err);

#endif
