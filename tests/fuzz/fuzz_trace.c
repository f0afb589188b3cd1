/*
 * libFuzzer target for the trace reader (core/trace/trace_file.c) and
 * what reads a trace after it: the summary and both renderings. A trace
 * is untrusted input (sent from another machine, or made by hand), so
 * whatever the bytes, the reader either refuses them with a sentence or
 * gives a trace whose every event names a listed file and a known
 * operation, and every file a path without a NUL; a block request
 * (format 1.1) names no file.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "core/trace/trace.h"
#include "core/trace/trace_summary.h"
#include "util/strbuf.h"
#include "util/banned.h"

static void check(int ok)
{
	if (!ok)
		__builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
	struct trace t = {0};
	struct trace_summary s;
	uint8_t *buf = malloc(size ? size : 1);
	size_t i;
	int ret;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	ret = trace_read_mem(buf, size, &t, &err);
	if (ret) {
		check(ret < 0 && err.len > 0);
		goto out;
	}
	check(err.len == 0);
	for (i = 0; i < t.nr_files; i++) {
		check(t.files[i].id == i + 1);
		check(strlen(t.files[i].path) > 0);
	}
	for (i = 0; i < t.nr_events; i++) {
		check(t.events[i].op > 0 && t.events[i].op < TOP__NR);
		if (trace_op_is_block(t.events[i].op)) {
			/* a block request names no file (file2 is a time) */
			check(t.events[i].file == 0);
			check(t.version_minor >= 1);
			continue;
		}
		check(t.events[i].file <= t.nr_files);
		check(t.events[i].file2 <= t.nr_files);
	}
	trace_summarize(&t, &s);
	check(trace_summary_total(&s) == t.nr_events);
	trace_stats_text(&t, &s, &out);
	trace_summary_release(&s);
	trace_show_text(&t, 100, &out);
	check(strlen(out.buf) == out.len);
out:
	trace_release(&t);
	strbuf_release(&err);
	strbuf_release(&out);
	free(buf);
	return 0;
}
