/*
 * A copy of each JSON document iotrial writes, kept for a test or an
 * audit: with IOTRIAL_JSON_LOG_DIR set, every document that goes to
 * stdout or to a --json FILE is also written, whole, as a new file in
 * that directory. Nothing there is ever replaced: a name is taken only
 * when it is free (O_EXCL, so not through a link planted at it either),
 * the file is the caller's alone (0600). The directory is the user's.
 */
#ifndef IOTRIAL_DOCLOG_H
#define IOTRIAL_DOCLOG_H

#include <stddef.h>
#include "strbuf.h"

/* The environment variable that names the directory. */
#define DOCLOG_ENV "IOTRIAL_JSON_LOG_DIR"

/* The document is of an old behaviour (--behaviour=...): its shape is
 * not one of docs/schema/, and its name says so (".old.json"). */
#define DOCLOG_OLD (1u << 0)

/*
 * Write len bytes of text as a new file in the directory dir, named
 * "PID-N.json" (N counts this process's documents; a name already taken
 * is skipped), mode 0600. The name goes to name when it is not NULL.
 * 0, or -errno with err set.
 */
int doclog_write(const char *dir, const char *text, size_t len, unsigned flags,
		 struct strbuf *name, struct strbuf *err);

#endif
