/*
 * libFuzzer target for the fstab edit of export/export. The input is an
 * fstab (made a C string: the edit reads text, as fstab is); the mount
 * point searched for is the second field of its first line that has
 * one, so matches are found as often as misses. What every caller
 * assumes is checked: on success the new text is the old one with one
 * line replaced (the bytes before and after it unchanged), that line has
 * no line break and carries the new option; on failure nothing is
 * claimed and -ENOENT is the only error.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "core/export/export.h"
#include "util/xalloc.h"
#include "util/banned.h"

/* Stop the run: libFuzzer reports the crash with the input. */
static void check(int ok)
{
	if (!ok)
		__builtin_trap();
}

/* The second blank-separated word of text's first line that has one. */
static char *second_field(const char *text)
{
	const char *p = text, *s, *e;

	while (*p) {
		const char *nl = strchrnul(p, '\n');

		s = p;
		while (s < nl && (*s == ' ' || *s == '\t'))
			s++;
		while (s < nl && *s != ' ' && *s != '\t')
			s++;
		while (s < nl && (*s == ' ' || *s == '\t'))
			s++;
		e = s;
		while (e < nl && *e != ' ' && *e != '\t')
			e++;
		if (e > s)
			return xstrndup(s, (size_t)(e - s));
		p = *nl ? nl + 1 : nl;
	}
	return xstrdup("/");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf text = STRBUF_INIT, old = STRBUF_INIT, nw = STRBUF_INIT;
	struct strbuf err = STRBUF_INIT;
	char *in = xstrndup((const char *)data, size), *mnt = second_field(in);
	size_t len = strlen(in), before, after;
	unsigned no = 0;
	int ret;

	ret =
	    export_fstab_edit(in, mnt, "noatime", &text, &old, &nw, &no, &err);
	if (ret) {
		check(ret == -ENOENT && err.len);
		goto out;
	}
	check(no >= 1);
	check(!strchr(old.buf, '\n') && !strchr(nw.buf, '\n'));
	check(strstr(nw.buf, "noatime") != NULL);
	check(text.len == len - old.len + nw.len);
	/* line no was replaced, the rest is the same */
	for (before = 0, ret = 1; (unsigned)ret < no; ret++) {
		const char *nl = strchr(in + before, '\n');

		check(nl != NULL);
		before = (size_t)(nl - in) + 1;
	}
	ret = 0;
	check(!memcmp(text.buf, in, before));
	check(!memcmp(text.buf + before, nw.buf, nw.len));
	check(!memcmp(in + before, old.buf, old.len));
	after = before + nw.len;
	check(!strcmp(text.buf + after, in + before + old.len));
out:
	strbuf_release(&text);
	strbuf_release(&old);
	strbuf_release(&nw);
	strbuf_release(&err);
	free(in);
	free(mnt);
	return 0;
}
