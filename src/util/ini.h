/*
 * A small INI reader for fio-style job files: "[section]" headers,
 * "key=value" or a bare "key" (a flag), comments starting with '#' or ';'
 * on their own line, whitespace trimmed around keys and values. Keys
 * before the first section belong to section "" (fio calls it global only
 * when written "[global]"; we keep what the file says).
 */
#ifndef IOTRIAL_INI_H
#define IOTRIAL_INI_H

#include <stddef.h>
#include "strbuf.h"

/*
 * Called once per key. value is NULL for a bare key. line is 1-based.
 * Return 0 to go on, or a negative code to stop: ini_parse() returns it.
 */
typedef int (*ini_cb)(const char *section, const char *key, const char *value,
		      unsigned line, void *ctx);

/*
 * Parse len bytes of buf (need not be NUL-terminated). Returns 0, the
 * callback's negative code, or -EINVAL with err set to "line N: ..." for a
 * malformed line (an unterminated "[", an empty key, a NUL byte).
 */
int ini_parse(const char *buf, size_t len, ini_cb cb, void *ctx,
	      struct strbuf *err);

#endif
