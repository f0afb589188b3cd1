/*
 * libFuzzer target for smallfiles' parameters: each input line is
 * "name=value", set with workload_set_param() as the command line's
 * --name=value would be, then the whole set is validated. Every call
 * returns 0 or a negative errno; a refusal comes with one line saying
 * why. loadfile= is skipped: validation looks the file up,
 * and the fuzzer must not touch the file system (fuzz_loadfile covers
 * the file's text).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "core/workload/workload.h"
#include "util/banned.h"

static void check(int ok)
{
	if (!ok)
		__builtin_trap();
}

/* A message: not empty, one line (what it quotes came from one line). */
static int has_line(const struct strbuf *sb)
{
	return sb->len > 0 && !memchr(sb->buf, '\n', sb->len);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct workload_ops *ops = workload_find("smallfiles");
	struct strbuf err = STRBUF_INIT, note = STRBUF_INIT;
	struct workload w;
	char *in = malloc(size + 1), *line, *next;
	int ret;

	if (!in || !ops) {
		free(in);
		return 0;
	}
	memcpy(in, data, size);
	in[size] = '\0';
	workload_init(&w, ops);
	for (line = in; line; line = next) {
		char *eq;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		eq = strchr(line, '=');
		if (!eq || !strncmp(line, "loadfile", 8))
			continue;
		*eq = '\0';
		strbuf_reset(&err);
		ret = workload_set_param(&w, line, eq + 1, &note, &err);
		check(ret == 0 || ret == -ENOENT || ret == -EINVAL ||
		      ret == -ERANGE);
		if (ret)
			check(has_line(&err));
	}
	strbuf_reset(&err);
	ret = workload_validate(&w, &err);
	check(ret <= 0);
	if (ret)
		check(has_line(&err));
	workload_release(&w);
	strbuf_release(&err);
	strbuf_release(&note);
	free(in);
	return 0;
}
