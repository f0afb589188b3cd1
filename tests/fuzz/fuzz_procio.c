/*
 * libFuzzer target for the /proc/PID/io parser. The input is not
 * NUL-terminated. A successful parse has write_bytes; the delta of a
 * reading with itself is zero, and a delta never underflows.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include "core/observe/procio.h"
#include "util/banned.h"

/* Stop the run: libFuzzer reports the crash with the input. */
static void check(int ok)
{
	if (!ok)
		__builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct procio p, zero = {0}, d;
	int ret = procio_parse((const char *)data, size, &p);

	if (ret) {
		check(ret == -EINVAL || ret == -ERANGE);
		return 0;
	}
	check(p.have & PROCIO_WRITE_BYTES);
	procio_delta(&p, &p, &d);
	check(!d.write_bytes && !d.read_bytes && !d.cancelled_write_bytes);
	procio_delta(&p, &zero, &d); /* went backwards: clamps to 0 */
	check(!d.write_bytes && !d.rchar);
	procio_delta(&zero, &p, &d);
	check(d.write_bytes == p.write_bytes);
	return 0;
}
