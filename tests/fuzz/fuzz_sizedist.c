/*
 * libFuzzer target for the file size distribution parser: any text is
 * accepted or refused cleanly. Accepted: min <= max, within the 1 GiB
 * cap, and samples stay inside [min, max]. Refused: -EINVAL or -ERANGE,
 * one printable line that starts "invalid size distribution" and names
 * the valid forms.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "core/workload/sizedist.h"
#include "util/banned.h"

static void check(int ok)
{
	if (!ok)
		__builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf err = STRBUF_INIT;
	char *in = malloc(size + 1);
	struct sizedist d;
	struct rng rng;
	size_t i;
	int ret;

	if (!in)
		return 0;
	memcpy(in, data, size);
	in[size] = '\0';
	ret = sizedist_parse(in, &d, &err);
	check(ret == 0 || ret == -EINVAL || ret == -ERANGE);
	if (!ret) {
		check(err.len == 0);
		check(d.min_bytes >= 1 && d.min_bytes <= d.max_bytes);
		check(d.max_bytes <= SIZEDIST_MAX_BYTES);
		rng_seed(&rng, size);
		for (i = 0; i < 64; i++) {
			uint64_t v = sizedist_sample(&d, &rng);

			check(v >= d.min_bytes && v <= d.max_bytes);
		}
	} else {
		check(!strncmp(err.buf, "invalid size distribution", 25));
		check(strstr(err.buf, "uniform:MIN-MAX") != NULL);
	}
	strbuf_release(&err);
	free(in);
	return 0;
}
