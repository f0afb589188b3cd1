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

/* A name we want and where its value goes. */
struct meminfo_key {
	const char *name; /* without the colon */
	size_t off;	  /* offsetof the uint64_t in struct meminfo */
	unsigned bit;	  /* enum meminfo_have */
};

static const struct meminfo_key keys[] = {
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

/* The key named by line[0..name_len), or NULL. */
static const struct meminfo_key *find_key(const char *name, size_t name_len)
{
	size_t i;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (strlen(keys[i].name) == name_len &&
		    !memcmp(keys[i].name, name, name_len))
			return &keys[i];
	return NULL;
}

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
	size_t pos = 0;

	memset(out, 0, sizeof(*out));
	while (pos < len && buf[pos]) {
		const char *line = buf + pos, *colon, *end;
		const struct meminfo_key *k;
		size_t line_len;
		uint64_t bytes;
		int ret;

		end = memchr(line, '\n', len - pos);
		line_len = end ? (size_t)(end - line) : len - pos;
		pos += line_len + (end ? 1 : 0);
		if (memchr(line, '\0', line_len)) { /* the text ends here */
			line_len = strnlen(line, line_len);
			pos = len;
		}
		colon = memchr(line, ':', line_len);
		if (!colon)
			continue;
		k = find_key(line, (size_t)(colon - line));
		if (!k)
			continue;
		ret = parse_value(
		    colon + 1, line_len - (size_t)(colon - line) - 1, &bytes);
		if (ret)
			return ret;
		memcpy((char *)out + k->off, &bytes, sizeof(bytes));
		out->have |= k->bit;
	}
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
