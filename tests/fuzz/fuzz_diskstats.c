/*
 * libFuzzer target for the block-device stat parser (and the
 * queue/scheduler parser, the other sysfs text we read). The input is
 * not NUL-terminated, so AddressSanitizer sees any read past len. It is
 * split at its first '|' into two readings, and the checks are what the
 * sampler and watch rely on: a parse that succeeds has 11 to 17 fields,
 * the columns between any two readings are finite, non-negative, and
 * %util stays within 0..100.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "core/targets/devstack.h"
#include "core/observe/diskstats.h"
#include "util/banned.h"

/* Stop the run: libFuzzer reports the crash with the input. */
static void check(int ok)
{
	if (!ok)
		__builtin_trap();
}

/* Every column of d is a finite number >= 0; %util is at most 100. */
static void check_delta(const struct disk_delta *d)
{
	const double v[] = {d->r_s,	   d->w_s,	  d->d_s,
			    d->f_s,	   d->rrqm_s,	  d->wrqm_s,
			    d->rmbps,	   d->wmbps,	  d->dmbps,
			    d->r_await_ms, d->w_await_ms, d->d_await_ms,
			    d->f_await_ms, d->rareq_kib,  d->wareq_kib,
			    d->aqu_sz,	   d->util_pct};
	size_t i;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		check(isfinite(v[i]) && v[i] >= 0);
	check(d->util_pct <= 100.0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	const char *bar = memchr(text, '|', size);
	size_t n1 = bar ? (size_t)(bar - text) : size;
	struct diskstats a, b;
	struct disk_delta d;
	struct strbuf sb = STRBUF_INIT;
	char *copy;
	int ra, rb;

	ra = diskstats_parse(text, n1, &a);
	if (!ra)
		check(a.nr_fields >= DS_MIN_FIELDS &&
		      a.nr_fields <= DS_NR_FIELDS);
	else
		check(ra == -EINVAL || ra == -ERANGE);
	rb = bar ? diskstats_parse(bar + 1, size - n1 - 1, &b) : -EINVAL;
	if (!ra && !rb) {
		diskstats_delta(&a, &b, 1.0, &d);
		check_delta(&d);
		diskstats_delta(&a, &a, 0.25, &d);
		check(!d.reads && !d.writes && !d.read_bytes);
		check_delta(&d);
	}

	/* the scheduler parser takes C strings */
	copy = malloc(size + 1);
	memcpy(copy, data, size);
	copy[size] = '\0';
	if (!devstack_parse_scheduler(copy, &sb)) {
		check(sb.len > 0 && sb.len <= size);
		check(!strchr(sb.buf, ']'));
	}
	strbuf_release(&sb);
	free(copy);
	return 0;
}
