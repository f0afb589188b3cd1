/*
 * Error reporting. core/ never prints: it fills a struct strbuf *err with
 * one lowercase sentence and returns a negative errno. cli/ hands that
 * sentence to error() and picks the exit code. Messages follow git:
 * lowercase, no final period, the subject quoted.
 */
#ifndef IOTRIAL_ERROR_H
#define IOTRIAL_ERROR_H

#include "strbuf.h"

/* Exit codes: stable (docs/COMPATIBILITY.md), documented in iotrial(1)
 * (docs/iotrial.1, EXIT STATUS). */
enum exit_code {
	EXIT_OK = 0,
	EXIT_RUNTIME = 1,
	EXIT_USAGE = 2,
	EXIT_REGRESSION = 3,
	EXIT_PARTIAL = 4, /* fleet: some hosts failed, the rest merged */
};

/*
 * Set err (if not NULL) to the formatted message, replacing what it held,
 * and return code, so a caller can write `return err_set(err, -EINVAL, ..)`.
 */
int err_set(struct strbuf *err, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* cli/ only: print "error: ...", "warning: ...", "note: ..." to stderr. */
void error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Call before(ctx) before each of those messages (a progress line
 * clears itself off the terminal); NULL: nothing. */
void error_set_before(void (*before)(void *ctx), void *ctx);
void warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * The nearest of candidates[] to word by edit distance, or NULL when none
 * is close enough to be a plausible typo. For "did you mean" hints.
 */
const char *suggest_nearest(const char *word, const char *const *candidates,
			    size_t nr);
size_t edit_distance(const char *a, const char *b);

#endif
