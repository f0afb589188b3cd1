/*
 * libFuzzer target for util/ini. The input is the job file itself, not
 * NUL-terminated, so AddressSanitizer sees any read past len. The
 * callback checks what every caller assumes: a non-empty key with no
 * surrounding blanks, no line breaks in any string, line numbers that
 * never go backwards nor past the end. The input's length picks a call
 * at which the callback fails, to exercise the abort path too.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "util/ini.h"
#include "util/banned.h"

/* What the callback tracks across one parse. */
struct fuzz_state {
	unsigned calls;	    /* callback invocations so far */
	unsigned fail_at;   /* call that returns -ECANCELED; 0: none */
	unsigned last_line; /* line of the previous call */
	unsigned max_line;  /* lines in the input */
};

/* Stop the run: libFuzzer reports the crash with the input. */
static void check(int ok)
{
	if (!ok)
		__builtin_trap();
}

/* s has no line break and does not start or end with a blank. */
static void check_trimmed(const char *s)
{
	size_t n = strlen(s);

	check(!strchr(s, '\n'));
	if (!n)
		return;
	check(s[0] != ' ' && s[0] != '\t' && s[0] != '\r');
	check(s[n - 1] != ' ' && s[n - 1] != '\t' && s[n - 1] != '\r');
}

/* Callback: check the strings and the line, fail when asked to. */
static int on_key(const char *section, const char *key, const char *value,
		  unsigned line, void *ctx)
{
	struct fuzz_state *st = ctx;

	check(section && key);
	check(*key);
	check_trimmed(section);
	check_trimmed(key);
	if (value)
		check_trimmed(value);
	check(line >= 1 && line >= st->last_line && line <= st->max_line);
	st->last_line = line;
	if (++st->calls == st->fail_at)
		return -ECANCELED;
	return 0;
}

/* libFuzzer's entry point, declared here as no header declares it. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* One fuzz input: parse it as a job file and check the contracts. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_state st = {0};
	struct strbuf err = STRBUF_INIT;
	char *buf = malloc(size ? size : 1);
	size_t i;
	int ret;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	st.max_line = 1;
	for (i = 0; i < size; i++)
		st.max_line += data[i] == '\n';
	st.fail_at = (unsigned)(size % 5);
	ret = ini_parse(buf, size, on_key, &st, &err);
	if (ret == -ECANCELED) {
		check(st.fail_at && st.calls == st.fail_at);
		check(err.len == 0);
	} else if (ret) {
		check(ret == -EINVAL);
		check(!strncmp(err.buf, "line ", 5));
		check(strtoul(err.buf + 5, NULL, 10) <= st.max_line);
		check(strtoul(err.buf + 5, NULL, 10) >= st.last_line);
		for (i = 0; i < err.len; i++)
			check((unsigned char)err.buf[i] >= 0x20);
	} else {
		check(err.len == 0);
		check(!st.fail_at || st.calls < st.fail_at);
	}
	strbuf_release(&err);
	free(buf);
	return 0;
}
