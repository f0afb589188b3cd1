/*
 * The /proc/PID/io reader. The format is stable since 2.6.20: seven
 * "name: decimal" lines. Present only with CONFIG_TASK_IO_ACCOUNTING,
 * so callers treat a missing file as "not known", not as an error.
 */
#include <errno.h>
#include <string.h>
#include "procio.h"
#include "procfile.h"
#include "../../util/banned.h"

/* The names and where their values go (enum procio_have). */
static const struct procfile_key keys[] = {
    {"rchar", offsetof(struct procio, rchar), PROCIO_RCHAR},
    {"wchar", offsetof(struct procio, wchar), PROCIO_WCHAR},
    {"syscr", offsetof(struct procio, syscr), PROCIO_SYSCR},
    {"syscw", offsetof(struct procio, syscw), PROCIO_SYSCW},
    {"read_bytes", offsetof(struct procio, read_bytes), PROCIO_READ_BYTES},
    {"write_bytes", offsetof(struct procio, write_bytes), PROCIO_WRITE_BYTES},
    {"cancelled_write_bytes", offsetof(struct procio, cancelled_write_bytes),
     PROCIO_CANCELLED},
};

/* Parse the decimal after "name:" in p[0..len); 0, -EINVAL or -ERANGE. */
static int parse_u64(const char *p, size_t len, uint64_t *out)
{
	size_t i = 0;
	uint64_t v;
	int ret = procfile_scan_u64(p, len, &i, &v);

	if (ret)
		return ret;
	while (i < len && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r'))
		i++;
	if (i != len)
		return -EINVAL;
	*out = v;
	return 0;
}

int procio_parse(const char *buf, size_t len, struct procio *out)
{
	int ret;

	memset(out, 0, sizeof(*out));
	ret =
	    procfile_parse_keys(buf, len, keys, sizeof(keys) / sizeof(keys[0]),
				parse_u64, out, &out->have);
	if (ret)
		return ret;
	return out->have & PROCIO_WRITE_BYTES ? 0 : -EINVAL;
}

int procio_read_fd(int fd, struct procio *out)
{
	char buf[1024];
	ssize_t n = procfile_read(fd, buf, sizeof(buf));

	if (n < 0)
		return (int)n;
	return procio_parse(buf, (size_t)n, out);
}

/* b - a, or 0 if the counter went back (it never should). */
static uint64_t grew(uint64_t a, uint64_t b)
{
	return b >= a ? b - a : 0;
}

void procio_delta(const struct procio *before, const struct procio *after,
		  struct procio *out)
{
	out->rchar = grew(before->rchar, after->rchar);
	out->wchar = grew(before->wchar, after->wchar);
	out->syscr = grew(before->syscr, after->syscr);
	out->syscw = grew(before->syscw, after->syscw);
	out->read_bytes = grew(before->read_bytes, after->read_bytes);
	out->write_bytes = grew(before->write_bytes, after->write_bytes);
	out->cancelled_write_bytes =
	    grew(before->cancelled_write_bytes, after->cancelled_write_bytes);
	out->have = before->have & after->have;
}
