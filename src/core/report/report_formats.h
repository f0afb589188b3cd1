/*
 * The formats of `iotrial report`: the same stored experiment as CSV
 * (one row per run, for a spreadsheet), Markdown (for a ticket or a
 * change request) and one self-contained HTML page with plots. Each
 * reads only the experiment object and appends to out; none fetches
 * anything, and every string from the experiment is escaped for its
 * format.
 */
#ifndef IOTRIAL_REPORT_FORMATS_H
#define IOTRIAL_REPORT_FORMATS_H

#include <json-c/json.h>
#include "../../util/strbuf.h"

/*
 * One format of `report`: a row of REPORT_FORMAT_TABLE, defined beside
 * its renderer as `const struct report_format report_format_<name>`.
 * The command's choices, help, completion and errors all come from the
 * table.
 */
struct report_format {
	const char *name;    /* --format NAME */
	const char *summary; /* report --help: what it holds, one line */
	/* exp rendered onto out: 0, or -EINVAL with err set when exp is not
	 * an experiment. */
	int (*render)(struct json_object *exp, struct strbuf *out,
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
 * exp in format (a name of the table): text is what `show` prints
 * followed by the runs (runs_text.h), json the object itself. Returns
 * 0, or -EINVAL with err set for an unknown format (listing them) or an
 * object that is no experiment.
 */
int report_render(struct json_object *exp, const char *format,
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
 * and the device columns of runs_text.h. RFC 4180: CRLF line ends, fields with
 * a comma, quote or line break quoted, quotes doubled. Returns 0, or -EINVAL
 * with err set when exp is not an experiment.
 */
int report_experiment_csv(struct json_object *exp, struct strbuf *out,
			  struct strbuf *err);

/* s as one RFC 4180 field (quoted only when it must be), onto out. */
void report_csv_field(struct strbuf *out, const char *s);

/*
 * The experiment as Markdown: a heading, the verdict table (a pipe
 * table), suspect footnotes, the other metrics and a file workload's
 * latency per operation (tables), the warnings as a list and the
 * environment. Returns 0, or -EINVAL with err set.
 */
int report_experiment_md(struct json_object *exp, struct strbuf *out,
			 struct strbuf *err);

/*
 * One HTML page, self-contained (inline CSS and SVG, no script, nothing
 * fetched): the warnings, the verdict table, the plots (runs per arm,
 * ratios against the equivalence band, latency percentiles, latency per
 * operation, the metric against each numeric factor, a representative
 * run's device throughput and dirty memory over time), the other
 * metrics, the per-operation latency, the runs and the environment.
 * Light and dark (prefers-color-scheme) and A4 print styles. Returns 0,
 * or -EINVAL with err set.
 */
int report_experiment_html(struct json_object *exp, struct strbuf *out,
			   struct strbuf *err);

/*
 * The environment of exp as rows for a report ("host", "vm1"), in a
 * fixed order: the experiment, workload and parameters, target, host,
 * kernel, CPU, memory, vm.dirty_*, the mount, each device of the stack
 * with its queue settings, and the versions. Calls fn once per row that
 * has a value; the strings are valid during the call only, unescaped.
 */
void report_env_rows(struct json_object *exp,
		     void (*fn)(void *ctx, const char *key, const char *value),
		     void *ctx);

#endif
