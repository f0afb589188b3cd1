/*
 * Run results: lifecycle, warnings and the derived numbers every report
 * uses, so "iops" means the same thing in text, JSON and the store.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "result.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

void run_result_init(struct run_result *r)
{
	memset(r, 0, sizeof(*r));
	hist_init(&r->lat[IO_READ]);
	hist_init(&r->lat[IO_WRITE]);
}

void run_result_release(struct run_result *r)
{
	unsigned i;

	if (!r)
		return;
	for (i = 0; i < r->nr_warnings; i++)
		free(r->warnings[i]);
	for (i = 0; i < r->nr_notes; i++)
		free(r->notes[i]);
	free(r->warnings);
	free(r->notes);
	free(r->jobs);
	free(r->op_results);
	if (r->truth && r->truth_free)
		r->truth_free(r->truth);
	run_result_init(r);
}

__attribute__((format(printf, 4, 0))) static void
add_line(char ***list, unsigned *nr, unsigned *alloc, const char *fmt,
	 va_list ap)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_vaddf(&sb, fmt, ap);
	ALLOC_GROW(*list, *nr + 1, *alloc);
	(*list)[(*nr)++] = strbuf_detach(&sb, NULL);
}

void run_result_warn(struct run_result *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	add_line(&r->warnings, &r->nr_warnings, &r->alloc_warnings, fmt, ap);
	va_end(ap);
}

void run_result_note(struct run_result *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	add_line(&r->notes, &r->nr_notes, &r->alloc_notes, fmt, ap);
	va_end(ap);
}

uint64_t run_result_ops(const struct run_result *r)
{
	return r->ops[IO_READ] + r->ops[IO_WRITE];
}

uint64_t run_result_bytes(const struct run_result *r)
{
	return r->bytes[IO_READ] + r->bytes[IO_WRITE];
}

double run_result_iops(const struct run_result *r)
{
	return r->seconds > 0 ? (double)run_result_ops(r) / r->seconds : 0;
}

double run_result_mbps(const struct run_result *r)
{
	return r->seconds > 0 ? (double)run_result_bytes(r) / r->seconds / 1e6
			      : 0;
}

double run_result_ops_per_s(const struct run_result *r)
{
	return r->seconds > 0 ? (double)r->file_ops / r->seconds : 0;
}
