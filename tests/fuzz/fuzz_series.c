/*
 * libFuzzer target for what `series` and `--compat` read that a user or
 * the store supplies: a series' plan (JSON text kept in the store, not
 * trusted) through series_plan_next() for several group numbers, and a
 * release number through compat_version_parse() and compat_pin(). The
 * contracts: only the documented codes come back; a planned tag is a
 * string the caller owns and the last flag is 0 or 1; a parsed release
 * prints and parses back to itself; a pin is refused for any release
 * newer than this one and leaves the choice alone then.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/compat/compat.h"
#include "core/series/series_plan.h"
#include "util/banned.h"

static void check(int ok)
{
	if (!ok)
		__builtin_trap();
}

static void fuzz_plan(const char *s)
{
	static const int grps[] = {-1, 0, 1, 2, 7, 1000, 2147483647};
	size_t i;

	for (i = 0; i < sizeof(grps) / sizeof(*grps); i++) {
		char *tag = NULL;
		int last = -1;
		int ret = series_plan_next(s, grps[i], &tag, &last);

		check(ret == 0 || ret == -ENOENT || ret == -EINVAL);
		if (!ret) {
			check(tag != NULL);
			check(last == 0 || last == 1);
			free(tag);
		} else {
			check(tag == NULL);
		}
	}
}

static void fuzz_release(const char *s)
{
	struct strbuf err = STRBUF_INIT;
	struct compat_version v, back;
	struct compat c;
	char text[64];
	int ret = compat_version_parse(s, &v, &err);

	check(ret == 0 || ret == -EINVAL);
	if (!ret) {
		snprintf(text, sizeof(text), "%u.%u.%u", v.major, v.minor,
			 v.patch);
		check(!compat_version_parse(text, &back, NULL));
		check(!compat_version_cmp(&v, &back));
	}
	check(!compat_init(&c, "0.1.0", NULL));
	ret = compat_pin(&c, s, &err);
	check(ret == 0 || ret == -EINVAL);
	if (ret)
		check(!c.is_pinned && err.len > 0);
	else
		check(compat_version_cmp(&c.pinned, &c.current) <= 0);
	strbuf_release(&err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	fuzz_plan(s);
	fuzz_release(s);
	free(s);
	return 0;
}
