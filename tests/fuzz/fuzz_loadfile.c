/*
 * libFuzzer target for the dbench load file parser. Any bytes parse or
 * fail cleanly; on success every operation is one of the known kinds
 * with in-range fields (handles below nr_handles, paths inside the
 * string table and never a ".." component, a Find's pattern one name,
 * sizes within the caps); on
 * failure the message names the file and, but for an empty file, a
 * line, and nothing is left in the result.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "core/workload/loadfile.h"
#include "util/banned.h"

static void check(int ok)
{
	if (!ok)
		__builtin_trap();
}

/* A stored path: inside the table, relative, no ".." component. */
static void check_path(const struct loadfile *lf, uint32_t off)
{
	const char *p, *c;

	if (off == LF_NO_PATH)
		return;
	check(off < lf->strings.len);
	p = lf_str(lf, off);
	check(p[0] != '/');
	for (c = p; c; c = strchr(c, '/')) {
		if (*c == '/')
			c++;
		check(strncmp(c, "../", 3) && strcmp(c, ".."));
	}
}

/* Find's pattern: matched against names in its directory, never
 * opened, so any name ("..", a DOS '"' read as '.') will do; inside the
 * table and one component. */
static void check_pattern(const struct loadfile *lf, uint32_t off)
{
	check(off < lf->strings.len);
	check(!strchr(lf_str(lf, off), '/'));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf err = STRBUF_INIT;
	struct loadfile lf;
	unsigned i;
	int ret;

	ret = loadfile_parse(&lf, "fuzz.txt", (const char *)data, size, &err);
	check(ret == 0 || ret == -EINVAL);
	if (ret) {
		check(!strncmp(err.buf, "loadfile 'fuzz.txt'", 19));
		check(lf.nr_ops == 0 && lf.ops == NULL);
	} else {
		check(lf.nr_ops > 0);
		for (i = 0; i < lf.nr_ops; i++) {
			const struct lf_op *op = &lf.ops[i];

			check(op->kind < LF_KINDS);
			check(op->line >= 1 && op->line <= lf.nr_lines);
			check(op->handle < lf.nr_handles || !lf.nr_handles);
			check_path(&lf, op->path);
			if (op->kind == LF_FIND)
				check_pattern(&lf, op->path2);
			else
				check_path(&lf, op->path2);
			if (op->kind == LF_READX || op->kind == LF_WRITEX) {
				check(op->size <= lf.max_io_bytes);
				check(op->ret_size <= op->size);
			}
		}
	}
	loadfile_release(&lf);
	strbuf_release(&err);
	return 0;
}
