/*
 * libFuzzer target for the "name value" reader of /proc/vmstat and
 * memory.stat. The input is not NUL-terminated. A parse returns the bits
 * of the names it found and leaves the others' values alone; failures
 * are only the two documented codes.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include "core/observe/kvstat.h"
#include "util/banned.h"

/* Stop the run: libFuzzer reports the crash with the input. */
static void check(int ok)
{
	if (!ok)
		__builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const names[] = {
	    "nr_dirty_threshold", "nr_dirty_background_threshold", "file_dirty",
	    "dirty", "active_file"};
	uint64_t v[5];
	int ret, i;

	for (i = 0; i < 5; i++)
		v[i] = 0xdeadbeefull + (uint64_t)i;
	ret = kvstat_parse((const char *)data, size, names, 5, v);
	if (ret < 0) {
		check(ret == -EINVAL || ret == -ERANGE);
		return 0;
	}
	check(ret < 32);
	for (i = 0; i < 5; i++)
		if (!(ret & (1 << i)))
			check(v[i] == 0xdeadbeefull + (uint64_t)i);
	return 0;
}
