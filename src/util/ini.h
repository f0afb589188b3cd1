/*
 * A small INI reader for fio-style job files: "[section]" headers,
 * "key=value" or a bare "key" (a flag), comments starting with '#' or ';'
 * on their own line, whitespace trimmed around keys and values. Keys
 * before the first section belong to section "" (fio calls it global only
 * when written "[global]"; we keep what the file says).
 *
 * Also accepted: CRLF line endings, a UTF-8 byte order mark, blank lines,
 * blanks inside the brackets ("[ job1 ]" is "job1"), and a comment after a
 * section header ("[job1] ; fast"). Not special: '#' or ';' after a
 * key (part of the value: "filename=/tmp/a#1"), quotes (kept as written),
 * '=' in a value (the first '=' splits). "key=" gives value "", not NULL.
 */
#ifndef IOTRIAL_INI_H
#define IOTRIAL_INI_H

#include <stddef.h>
#include "strbuf.h"

/*
 * Called once per key, in file order. value is NULL for a bare key. line
 * is 1-based. The strings are valid only during the call (copy what you
 * keep). Return 0 to go on, or a negative code to stop: ini_parse()
 * returns it (any non-zero value stops and is returned unchanged).
 */
typedef int (*ini_cb)(const char *section, const char *key, const char *value,
		      unsigned line, void *ctx);

/*
 * Parse len bytes of buf (need not be NUL-terminated; may be NULL when len
 * is 0). Returns 0, the callback's negative code, or -EINVAL with err set
 * to "line N: ..." for a malformed line (an unterminated "[", an empty
 * section name, text after "]", an empty key, a NUL byte anywhere). Keys
 * before the bad line have already been passed to cb. err (may be NULL)
 * is left alone when the callback stops the parse: the callback knows the
 * line and can report. Nothing is reported through errno.
 */
int ini_parse(const char *buf, size_t len, ini_cb cb, void *ctx,
	      struct strbuf *err);

#endif
