/*
 * Messages and "did you mean" suggestions. The printing half is for cli/;
 * core/ uses err_set() only.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "error.h"
#include "text.h"
#include "xalloc.h"
#include "banned.h"

int err_set(struct strbuf *err, int code, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return code;
	strbuf_reset(err);
	va_start(ap, fmt);
	strbuf_vaddf(err, fmt, ap);
	va_end(ap);
	return code;
}

static void (*before_report)(void *ctx);
static void *before_ctx;

void error_set_before(void (*before)(void *ctx), void *ctx)
{
	before_report = before;
	before_ctx = ctx;
}

__attribute__((format(printf, 2, 0))) static void
vreport(const char *prefix, const char *fmt, va_list ap)
{
	struct strbuf sb = STRBUF_INIT;

	if (before_report)
		before_report(before_ctx);

	strbuf_addstr(&sb, prefix);
	strbuf_vaddf(&sb, fmt, ap);
	/* a message may quote what someone typed or a file held: no
	 * control character of it reaches the terminal */
	text_make_printable_lines(sb.buf);
	strbuf_addch(&sb, '\n');
	fputs(sb.buf, stderr);
	strbuf_release(&sb);
}

void error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("error: ", fmt, ap);
	va_end(ap);
}

void warning(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("warning: ", fmt, ap);
	va_end(ap);
}

void note(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("note: ", fmt, ap);
	va_end(ap);
}

/*
 * The optimal string alignment distance: insertions, deletions,
 * substitutions, and a swap of two neighbours counting once, as people
 * type them ("raed" for "read").
 */
size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	size_t *r2 = xcalloc(lb + 1, sizeof(*r2)); /* row i - 2 */
	size_t *r1 = xcalloc(lb + 1, sizeof(*r1)); /* row i - 1 */
	size_t *r0 = xcalloc(lb + 1, sizeof(*r0)); /* row i */
	size_t res;

	for (j = 0; j <= lb; j++)
		r1[j] = j;
	for (i = 1; i <= la; i++) {
		size_t *t;

		r0[0] = i;
		for (j = 1; j <= lb; j++) {
			size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
			size_t best = r1[j - 1] + cost;

			if (r1[j] + 1 < best)
				best = r1[j] + 1;
			if (r0[j - 1] + 1 < best)
				best = r0[j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && r2[j - 2] + 1 < best)
				best = r2[j - 2] + 1;
			r0[j] = best;
		}
		t = r2;
		r2 = r1;
		r1 = r0;
		r0 = t;
	}
	res = r1[lb];
	free(r0);
	free(r1);
	free(r2);
	return res;
}

const char *suggest_nearest(const char *word, const char *const *candidates,
			    size_t nr)
{
	const char *best = NULL;
	size_t best_d = (size_t)-1, i, limit;

	for (i = 0; i < nr; i++) {
		size_t d = edit_distance(word, candidates[i]);

		if (d < best_d) {
			best_d = d;
			best = candidates[i];
		}
		/* a prefix of 3+ letters is a strong hint: "randr" */
		if (strlen(word) >= 3 &&
		    !strncmp(candidates[i], word, strlen(word)) && best_d > 1) {
			best_d = 1;
			best = candidates[i];
		}
	}
	/* one edit up to three letters, two up to seven, then three: so
	 * "bz" does not match "bs" by replacing everything, nor "pdf" "md" */
	limit = strlen(word) / 4 + 1;
	if (limit > 3)
		limit = 3;
	return best && best_d <= limit && best_d < strlen(word) ? best : NULL;
}
