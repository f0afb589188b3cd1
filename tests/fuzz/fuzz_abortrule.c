/*
 * libFuzzer target for observe's --abort-if rules (core/live/abort.c):
 * every input is parsed as a NUL-terminated copy. Besides crashes and
 * sanitizer reports it checks the contract the loop relies on: only 0
 * or -EINVAL come back; a parsed rule names a known metric with a
 * finite limit of at least 0 and keeps its text; checking it never
 * fires on NaN, and when it fires it says why in one line.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "core/live/abort.h"
#include "core/live/window.h"
#include "util/banned.h"

/* Stop the run: libFuzzer reports the crash with the input. */
static void check(int ok)
{
	if (!ok)
		__builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const double values[] = {0, 0.5, 1, 49.9, 50, 1e9, -1};
	struct strbuf err = STRBUF_INIT, why = STRBUF_INIT;
	struct lw_abort r;
	char *text;
	size_t i;
	int ret;

	if (size > 256)
		return 0;
	text = malloc(size + 1);
	memcpy(text, data, size);
	text[size] = '\0';
	ret = lw_abort_parse(&r, text, &err);
	check(ret == 0 || ret == -EINVAL);
	check(ret ? err.len > 0 : err.len == 0);
	if (!ret) {
		check(r.text && !strcmp(r.text, text));
		check(lw_metric_known(r.metric, NULL, NULL));
		check(isfinite(r.limit) && r.limit >= 0);
		check(!lw_abort_fires(&r, NAN, 1, &why));
		check(!r.relative || !lw_abort_fires(&r, 1e300, NAN, &why));
		for (i = 0; i < sizeof(values) / sizeof(*values); i++) {
			strbuf_reset(&why);
			if (lw_abort_fires(&r, values[i], 10, &why))
				check(why.len > 0 && !strchr(why.buf, '\n'));
		}
	}
	lw_abort_release(&r);
	strbuf_release(&err);
	strbuf_release(&why);
	free(text);
	return 0;
}
