/*
 * pread()-at-zero readers for sysfs and /proc text; see procfile.h for why
 * the sampler keeps its files open.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include "procfile.h"
#include "../../util/banned.h"

int procfile_open(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

ssize_t procfile_read(int fd, char *buf, size_t cap)
{
	size_t len = 0;

	if (fd < 0 || !cap)
		return -EBADF;
	/* seq_file-backed files may hand out the text in several pieces */
	while (len < cap - 1) {
		ssize_t n = pread(fd, buf + len, cap - 1 - len, (off_t)len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			buf[len] = '\0';
			return -errno;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	buf[len] = '\0';
	return (ssize_t)len;
}

int procfile_close(int fd)
{
	if (fd >= 0)
		close(fd);
	return -1;
}

int procfile_scan_u64(const char *p, size_t len, size_t *pos, uint64_t *out)
{
	size_t i = *pos, start;
	uint64_t v = 0;

	while (i < len && (p[i] == ' ' || p[i] == '\t'))
		i++;
	start = i;
	while (i < len && p[i] >= '0' && p[i] <= '9') {
		unsigned d = (unsigned)(p[i] - '0');

		if (v > (UINT64_MAX - d) / 10)
			return -ERANGE;
		v = v * 10 + d;
		i++;
	}
	if (i == start)
		return -EINVAL;
	*pos = i;
	*out = v;
	return 0;
}

int procfile_each_line(const char *buf, size_t len, procfile_line_fn fn,
		       void *arg)
{
	size_t pos = 0;
	int ret;

	while (pos < len && buf[pos]) {
		const char *line = buf + pos, *end;
		size_t line_len;

		end = memchr(line, '\n', len - pos);
		line_len = end ? (size_t)(end - line) : len - pos;
		pos += line_len + (end ? 1 : 0);
		if (memchr(line, '\0', line_len)) { /* the text ends here */
			line_len = strnlen(line, line_len);
			pos = len;
		}
		ret = fn(line, line_len, arg);
		if (ret)
			return ret;
	}
	return 0;
}

/* procfile_each_kv()'s function and its argument, for kv_line(). */
struct kv_walk {
	procfile_kv_fn fn;
	void *arg;
};

/* procfile_each_line()'s step for procfile_each_kv(). */
static int kv_line(const char *line, size_t line_len, void *arg)
{
	const struct kv_walk *w = arg;
	const char *colon = memchr(line, ':', line_len);
	size_t name_len;

	if (!colon)
		return 0;
	name_len = (size_t)(colon - line);
	return w->fn(line, name_len, colon + 1, line_len - name_len - 1,
		     w->arg);
}

int procfile_each_kv(const char *buf, size_t len, procfile_kv_fn fn, void *arg)
{
	struct kv_walk w = {fn, arg};

	return procfile_each_line(buf, len, kv_line, &w);
}

/* What procfile_parse_keys() walks with. */
struct key_walk {
	const struct procfile_key *keys;
	size_t nr;
	procfile_value_fn parse;
	void *out;
	unsigned *have;
};

/* procfile_each_kv()'s step for procfile_parse_keys(). */
static int key_line(const char *name, size_t name_len, const char *value,
		    size_t value_len, void *arg)
{
	const struct key_walk *w = arg;
	uint64_t v;
	size_t i;
	int ret;

	for (i = 0; i < w->nr; i++) {
		if (strlen(w->keys[i].name) != name_len ||
		    memcmp(w->keys[i].name, name, name_len))
			continue;
		ret = w->parse(value, value_len, &v);
		if (ret)
			return ret;
		memcpy((char *)w->out + w->keys[i].off, &v, sizeof(v));
		*w->have |= w->keys[i].bit;
		break;
	}
	return 0;
}

int procfile_parse_keys(const char *buf, size_t len,
			const struct procfile_key *keys, size_t nr,
			procfile_value_fn parse, void *out, unsigned *have)
{
	struct key_walk w = {keys, nr, parse, out, have};

	return procfile_each_kv(buf, len, key_line, &w);
}
