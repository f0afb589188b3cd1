/*
 * The "name value" reader of kvstat.h. Lines are split at the first
 * blank; only the wanted names have their value parsed, so a kernel
 * adding lines of another shape changes nothing.
 */
#include <errno.h>
#include <string.h>
#include "kvstat.h"
#include "procfile.h"
#include "../../util/banned.h"

/* What kvstat_parse() looks for and has found. */
struct kv_want {
	const char *const *names;
	unsigned nr;
	uint64_t *vals;
	unsigned found; /* bit i: names[i] was read */
};

/* procfile_each_line()'s step: a wanted "name value" line into vals. */
static int kv_line(const char *line, size_t line_len, void *arg)
{
	struct kv_want *k = arg;
	size_t name_len, vpos;
	uint64_t v;
	unsigned i;
	int ret;

	for (name_len = 0; name_len < line_len && line[name_len] != ' ' &&
			   line[name_len] != '\t';
	     name_len++)
		;
	for (i = 0; i < k->nr; i++)
		if (strlen(k->names[i]) == name_len &&
		    !memcmp(k->names[i], line, name_len))
			break;
	if (i == k->nr)
		return 0;
	vpos = name_len;
	ret = procfile_scan_u64(line, line_len, &vpos, &v);
	if (ret)
		return ret;
	while (vpos < line_len &&
	       (line[vpos] == ' ' || line[vpos] == '\t' || line[vpos] == '\r'))
		vpos++;
	if (vpos != line_len)
		return -EINVAL;
	k->vals[i] = v;
	k->found |= 1u << i;
	return 0;
}

int kvstat_parse(const char *buf, size_t len, const char *const *names,
		 unsigned nr, uint64_t *vals)
{
	struct kv_want k = {names, nr, vals, 0};
	int ret;

	if (nr > 31)
		return -EINVAL;
	ret = procfile_each_line(buf, len, kv_line, &k);
	return ret ? ret : (int)k.found;
}

int kvstat_read_fd(int fd, const char *const *names, unsigned nr,
		   uint64_t *vals)
{
	char buf[16384];
	ssize_t n = procfile_read(fd, buf, sizeof(buf));

	if (n < 0)
		return (int)n;
	return kvstat_parse(buf, (size_t)n, names, nr, vals);
}
