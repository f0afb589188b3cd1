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

int kvstat_parse(const char *buf, size_t len, const char *const *names,
		 unsigned nr, uint64_t *vals)
{
	size_t pos = 0;
	unsigned found = 0, i;

	if (nr > 31)
		return -EINVAL;
	while (pos < len && buf[pos]) {
		const char *line = buf + pos, *end;
		size_t line_len, name_len, vpos;
		uint64_t v;
		int ret;

		end = memchr(line, '\n', len - pos);
		line_len = end ? (size_t)(end - line) : len - pos;
		pos += line_len + (end ? 1 : 0);
		if (memchr(line, '\0', line_len)) { /* the text ends here */
			line_len = strnlen(line, line_len);
			pos = len;
		}
		for (name_len = 0;
		     name_len < line_len && line[name_len] != ' ' &&
		     line[name_len] != '\t';
		     name_len++)
			;
		for (i = 0; i < nr; i++)
			if (strlen(names[i]) == name_len &&
			    !memcmp(names[i], line, name_len))
				break;
		if (i == nr)
			continue;
		vpos = name_len;
		ret = procfile_scan_u64(line, line_len, &vpos, &v);
		if (ret)
			return ret;
		while (vpos < line_len &&
		       (line[vpos] == ' ' || line[vpos] == '\t' ||
			line[vpos] == '\r'))
			vpos++;
		if (vpos != line_len)
			return -EINVAL;
		vals[i] = v;
		found |= 1u << i;
	}
	return (int)found;
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
