/*
 * libFuzzer target for the /proc/meminfo parser. The input is not
 * NUL-terminated. A successful parse must have found Dirty or MemTotal,
 * and every field it did not find must be zero; failures are only the
 * two documented codes.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include "core/observe/meminfo.h"
#include "util/banned.h"

/* Stop the run: libFuzzer reports the crash with the input. */
static void check(int ok)
{
	if (!ok)
		__builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct meminfo m;
	int ret = meminfo_parse((const char *)data, size, &m);

	if (ret) {
		check(ret == -EINVAL || ret == -ERANGE);
		return 0;
	}
	check(m.have & (MEMINFO_DIRTY | MEMINFO_TOTAL));
	if (!(m.have & MEMINFO_TOTAL))
		check(!m.total_bytes);
	if (!(m.have & MEMINFO_DIRTY))
		check(!m.dirty_bytes);
	if (!(m.have & MEMINFO_WRITEBACK))
		check(!m.writeback_bytes);
	return 0;
}
