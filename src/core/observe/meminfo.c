/*
 * A /proc/meminfo reader that picks six names out of some fifty lines.
 * Values are in kB (KiB, despite the spelling) except the HugePages
 * counts, which we do not read.
 */
#include <errno.h>
#include <string.h>
#include "meminfo.h"
#include "procfile.h"
#include "../../util/banned.h"

/* The names we want and where their values go (enum meminfo_have). */
static const struct procfile_key keys[] = {
    {"MemTotal", offsetof(struct meminfo, total_bytes), MEMINFO_TOTAL},
    {"MemFree", offsetof(struct meminfo, free_bytes), MEMINFO_FREE},
    {"MemAvailable", offsetof(struct meminfo, available_bytes),
     MEMINFO_AVAILABLE},
    {"Cached", offsetof(struct meminfo, cached_bytes), MEMINFO_CACHED},
    {"Dirty", offsetof(struct meminfo, dirty_bytes), MEMINFO_DIRTY},
    {"Writeback", offsetof(struct meminfo, writeback_bytes), MEMINFO_WRITEBACK},
    {"Active(file)", offsetof(struct meminfo, active_file_bytes),
     MEMINFO_FILE_LRU},
    {"Inactive(file)", offsetof(struct meminfo, inactive_file_bytes),
     MEMINFO_FILE_LRU},
};

/*
 * Parse "   123 kB" (or "123" without a unit) in p[0..len) into bytes.
 * Returns 0, -EINVAL or -ERANGE.
 */
static int parse_value(const char *p, size_t len, uint64_t *out_bytes)
{
	size_t i = 0;
	uint64_t v, mult = 1;
	int ret = procfile_scan_u64(p, len, &i, &v);

	if (ret)
		return ret;
	while (i < len && (p[i] == ' ' || p[i] == '\t'))
		i++;
	if (len - i >= 2 && p[i] == 'k' && p[i + 1] == 'B') {
		mult = 1024;
		i += 2;
	}
	while (i < len && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r'))
		i++;
	if (i != len)
		return -EINVAL;
	if (v > UINT64_MAX / mult)
		return -ERANGE;
	*out_bytes = v * mult;
	return 0;
}

int meminfo_parse(const char *buf, size_t len, struct meminfo *out)
{
	int ret;

	memset(out, 0, sizeof(*out));
	ret =
	    procfile_parse_keys(buf, len, keys, sizeof(keys) / sizeof(keys[0]),
				parse_value, out, &out->have);
	if (ret)
		return ret;
	return out->have & (MEMINFO_DIRTY | MEMINFO_TOTAL) ? 0 : -EINVAL;
}

int meminfo_read_fd(int fd, struct meminfo *out)
{
	char buf[8192];
	ssize_t n = procfile_read(fd, buf, sizeof(buf));

	if (n < 0)
		return (int)n;
	return meminfo_parse(buf, (size_t)n, out);
}

int meminfo_read(struct meminfo *out)
{
	int fd = procfile_open("/proc/meminfo"), ret;

	if (fd < 0)
		return fd;
	ret = meminfo_read_fd(fd, out);
	procfile_close(fd);
	return ret;
}
