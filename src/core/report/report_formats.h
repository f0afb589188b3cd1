/*
 * The formats of `iotrial report`: the same stored experiment as a page
 * (text, Markdown for a ticket or a change request, one self-contained
 * HTML page with plots: page.h's sections through the format's emitter),
 * or as data (JSON, the document; CSV, one row per run for a
 * spreadsheet). Each reads only the experiment document and appends to
 * out; none fetches anything, and every string from the experiment is
 * escaped for its format.
 */
#ifndef IOTRIAL_REPORT_FORMATS_H
#define IOTRIAL_REPORT_FORMATS_H

#include "../../util/strbuf.h"

struct experiment_doc; /* model/experiment_doc.h */
struct emit_ops;       /* emit.h */

/*
 * One format of `report`: a row of REPORT_FORMAT_TABLE, defined beside
 * its emitter or renderer as `const struct report_format
 * report_format_<name>`. The command's choices, help, completion and
 * errors all come from the table.
 */
struct report_format {
	const char *name;	     /* --format NAME */
	const char *summary;	     /* report --help: what it holds */
	const struct emit_ops *emit; /* a page: its emitter, */
	unsigned sections;	     /* and its sections (page.h) */
	/* or data: doc rendered onto out (0, or -EINVAL with err set) */
	int (*render)(const struct experiment_doc *doc, struct strbuf *out,
		      struct strbuf *err);
};

/* Every format, in the order --help lists them: the default first. */
#define REPORT_FORMAT_TABLE(FORMAT)                                            \
	FORMAT(text)                                                           \
	FORMAT(json)                                                           \
	FORMAT(csv)                                                            \
	FORMAT(md)                                                             \
	FORMAT(html)

#define REPORT_FORMAT_DECLARE_(n)                                              \
	extern const struct report_format report_format_##n;
REPORT_FORMAT_TABLE(REPORT_FORMAT_DECLARE_)
#undef REPORT_FORMAT_DECLARE_

/* The formats in table order, NULL-terminated. */
extern const struct report_format *const report_formats[];

/* Their names in the same order, NULL-terminated: the choices of
 * `report --format` (each row's name is its table word). */
extern const char *const report_format_choices[];

/* Append the formats' names joined with sep, the last with last. */
void report_format_names(const char *sep, const char *last, struct strbuf *out);

/*
 * doc in format (a name of the table): text is what `show --runs`
 * prints, json the document itself. Returns 0, or -EINVAL with err set
 * for an unknown format (listing them) or a document that is no
 * experiment.
 */
int report_render(const struct experiment_doc *doc, const char *format,
		  struct strbuf *out, struct strbuf *err);

/* 0 when format is one report_render() knows, else -EINVAL with err set
 * to the message that lists them. */
int report_format_check(const char *format, struct strbuf *err);

/*
 * One row per run in run order, under a header row: run, block, arm,
 * label, one column per factor (its value in the run's arm), the metric
 * (metric_name, metric), wall_s, user_s, sys_s, latency percentiles per
 * direction the runs timed (read_p50_ns, ...), each operation's figures
 * for a file workload (op_write_dump_count, op_write_dump_p50_us, ...),
 * and the device columns of runs_text.h. RFC 4180: CRLF line ends,
 * fields with a comma, quote or line break quoted, quotes doubled.
 * Returns 0, or -EINVAL with err set when doc is not an experiment.
 */
int report_experiment_csv(const struct experiment_doc *doc, struct strbuf *out,
			  struct strbuf *err);

/* s as one RFC 4180 field (quoted only when it must be), onto out. */
void report_csv_field(struct strbuf *out, const char *s);

#endif
