/*
 * What the truth tests share (test_truth.c, test_truth_json.c,
 * test_truth_hook.c): a hand-made two-point series of one device, a
 * run result, looking for a warning, and a truth as a run's tree.
 */
#ifndef TRUTH_FIXTURE_H
#define TRUTH_FIXTURE_H

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <json-c/json.h>
#include "core/model/model_json.h"
#include "core/observe/truth.h"
#include "core/report/run_text.h"
#include "core/result/result.h"
#include "util/xalloc.h"

#define MIB (1024ull * 1024ull)

/* A two-point series of one device "vdx" over 2 s. */
static inline void make_series(struct sampler_series *ser, const char *before,
			       const char *after, uint64_t dirty0,
			       uint64_t dirty1, uint64_t wbytes0,
			       uint64_t wbytes1, uint64_t cancel1)
{
	memset(ser, 0, sizeof(*ser));
	ser->nr_devs = 1;
	ser->nr_points = ser->alloc_points = 3;
	ser->dev_names = xcalloc(1, sizeof(char *));
	ser->dev_names[0] = xstrdup("vdx");
	ser->points = xcalloc(3, sizeof(*ser->points));
	ser->disk = xcalloc(3, sizeof(*ser->disk));
	assert_int_equal(diskstats_parse(before, strlen(before), &ser->disk[0]),
			 0);
	ser->disk[1] = ser->disk[0];
	assert_int_equal(diskstats_parse(after, strlen(after), &ser->disk[2]),
			 0);
	ser->points[0].t_ns = 1000000000ull;
	ser->points[1].t_ns = 2000000000ull;
	ser->points[2].t_ns = 3000000000ull;
	ser->points[0].dirty_bytes = dirty0;
	ser->points[1].dirty_bytes = dirty0 + dirty1; /* the peak */
	ser->points[2].dirty_bytes = dirty1;
	ser->points[1].writeback_bytes = 5 * MIB;
	ser->points[0].io.write_bytes = wbytes0;
	ser->points[2].io.write_bytes = wbytes1;
	ser->points[2].io.cancelled_write_bytes = cancel1;
	ser->points[0].have = ser->points[1].have = ser->points[2].have =
	    SAMPLER_HAVE_MEM | SAMPLER_HAVE_IO;
}

/* A run result of seconds, ops and bytes. */
static inline void make_run(struct run_result *r, double seconds,
			    uint64_t rd_ops, uint64_t rd_bytes, uint64_t wr_ops,
			    uint64_t wr_bytes)
{
	run_result_init(r);
	r->seconds = seconds;
	r->ops[IO_READ] = rd_ops;
	r->bytes[IO_READ] = rd_bytes;
	r->ops[IO_WRITE] = wr_ops;
	r->bytes[IO_WRITE] = wr_bytes;
}

/* Does any warning of r contain s? */
static inline int warned(const struct run_result *r, const char *s)
{
	unsigned i;

	for (i = 0; i < r->nr_warnings; i++)
		if (strstr(r->warnings[i], s))
			return 1;
	return 0;
}

/* The kind of r's warning that contains s; -1 when none does. */
static inline int kind_of(const struct run_result *r, const char *s)
{
	unsigned i;

	for (i = 0; i < r->nr_warnings; i++)
		if (strstr(r->warnings[i], s))
			return (int)r->warn_kinds[i];
	return -1;
}

/* A fresh truth with nothing known. */
static inline struct truth *new_truth(void)
{
	struct truth *t = xcalloc(1, sizeof(*t));

	t->absorbed_fraction = NAN;
	t->burst_mbps = NAN;
	return t;
}

/* A run object with t's "devices", "truth" and "env", as the json-c
 * tree the tests read (the caller owns it). */
static inline struct json_object *truth_tree(const struct truth *t)
{
	struct strbuf text = STRBUF_INIT;
	struct run_doc doc;
	struct json_object *o;

	run_doc_init(&doc);
	truth_to_doc(t, &doc);
	run_doc_encode(&doc, MODEL_ENCODE_PLAIN, &text);
	o = json_tokener_parse(text.buf);
	run_doc_release(&doc);
	strbuf_release(&text);
	return o;
}

/* The truth part of a run's text, as show prints it, for t. */
static inline void truth_text(const struct truth *t, struct strbuf *out)
{
	struct run_doc doc;

	run_doc_init(&doc);
	truth_to_doc(t, &doc);
	report_run_truth(&doc, out);
	run_doc_release(&doc);
}

#endif
