/*
 * libFuzzer target for observe's own metric sources (core/live/window.c):
 * what --metric-cmd printed, and the lines of a --metric-file log. The
 * first byte picks one. A command's output either gives a finite number
 * (which, printed with 17 digits, reads back the same) or a refusal
 * whose quote of the output holds no control byte and is UTF-8. A log's
 * bytes, matched against one of a few expressions, give the same tally
 * whole or split anywhere (a window ends where it ends), never more
 * matching lines than newlines, and hold at most LW_LINE_MAX bytes of a
 * line not yet ended.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/live/window.h"
#include "util/strbuf.h"
#include "util/text.h"
#include "util/banned.h"

static void check(int ok)
{
	if (!ok)
		__builtin_trap();
}

/* --metric-cmd's output. */
static void cmd_output(const uint8_t *data, size_t size)
{
	struct strbuf err = STRBUF_INIT;
	char back[64], *copy;
	double v, w;
	size_t i;

	if (lw_cmd_number("cmd", (const char *)data, size, &v, &err)) {
		check(err.len > 0 && isnan(v));
		for (i = 0; i < err.len; i++)
			check((unsigned char)err.buf[i] >= 0x20 &&
			      err.buf[i] != 0x7f);
		copy = strdup(err.buf);
		check(copy && !text_make_printable(copy));
		free(copy);
	} else {
		check(isfinite(v));
		snprintf(back, sizeof(back), "%.17g\n", v);
		check(!lw_cmd_number("cmd", back, strlen(back), &w, &err));
		check(w == v || (v == 0 && w == 0));
	}
	strbuf_release(&err);
}

/* The expressions a log is matched against. */
static const char *const res[] = {
    "served", "in ([0-9]+) ms", "^(.*)$", "x*", "([-+0-9.eE]+)", "^$",
};

/* A source of expression i, on no file (only its matching is used). */
static int source(struct lw_source *src, unsigned i)
{
	struct strbuf err = STRBUF_INIT;
	int ret = lw_source_file(src, "/nonexistent/metric.log", res[i], &err);

	strbuf_release(&err);
	return ret;
}

static void log_lines(const uint8_t *data, size_t size)
{
	struct lw_source a, b;
	struct lw_tally ta = {0}, tb = {0};
	const char *p;
	size_t at = 0, nl = 0, i;
	unsigned re;

	if (size < 2)
		return;
	re = data[0] % (sizeof(res) / sizeof(*res));
	data++;
	size--;
	check(!source(&a, re) && !source(&b, re));
	p = (const char *)data;
	lw_log_feed(&a, p, size, &ta);
	/* the same bytes in pieces: their lengths from the bytes */
	while (at < size) {
		size_t n = 1 + (size_t)data[at] % 97;

		if (n > size - at)
			n = size - at;
		lw_log_feed(&b, p + at, n, &tb);
		check(b.partial.len <= LW_LINE_MAX);
		at += n;
	}
	check(a.partial.len <= LW_LINE_MAX);
	check(ta.lines == tb.lines && ta.nr == tb.nr);
	check(ta.sum == tb.sum || (isnan(ta.sum) && isnan(tb.sum)));
	check(a.partial.len == b.partial.len &&
	      !memcmp(a.partial.buf, b.partial.buf, a.partial.len));
	for (i = 0; i < size; i++)
		nl += p[i] == '\n';
	check(ta.lines <= (double)nl && ta.nr <= ta.lines);
	lw_source_release(&a);
	lw_source_release(&b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!size)
		return 0;
	if (data[0] & 1)
		cmd_output(data + 1, size - 1);
	else
		log_lines(data + 1, size - 1);
	return 0;
}
