/*
 * libFuzzer target for the blktrace importer (core/trace/blkparse.c):
 * whatever the bytes, it refuses them with a sentence, or gives a block
 * trace whose events are all block requests naming no file, which the
 * summary and renderings take, and which written back as blktrace
 * records (blkparse_export()) reads back as as many requests.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "core/trace/blkparse.h"
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
	uint64_t others;
	size_t i;
	int ret;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	ret = blkparse_import(buf, size, &t, &others, &err);
	if (ret) {
		check(ret < 0 && err.len > 0);
		goto out;
	}
	check(t.nr_events > 0 && t.end.nr_events == t.nr_events);
	for (i = 0; i < t.nr_events; i++) {
		check(trace_op_is_block(t.events[i].op));
		check(t.events[i].file == 0);
		check(t.events[i].arg >= 1);
	}
	trace_summarize(&t, &s);
	check(trace_summary_total(&s) == t.nr_events);
	trace_stats_text(&t, &s, &out);
	trace_summary_release(&s);
	trace_show_text(&t, 50, &out);
	check(strlen(out.buf) == out.len);
	/* written back as records, read back as the same requests */
	strbuf_reset(&out);
	check(blkparse_export(&t, &out) == t.nr_events);
	{
		struct trace back = {0};

		check(blkparse_import(out.buf, out.len, &back, &others, &err) ==
		      0);
		check(back.nr_events == t.nr_events);
		trace_release(&back);
	}
out:
	trace_release(&t);
	strbuf_release(&err);
	strbuf_release(&out);
	free(buf);
	return 0;
}
