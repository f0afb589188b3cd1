/*
 * How fiojob_map.c reads a job's options (fiojob_opts.c): which fio
 * options iotrial knows (aliases share a canonical name), what one job
 * sees of them, and typed getters. Every error is -EINVAL with err set
 * to "FILE:LINE: message" of the option (an included file's value is
 * not quoted).
 */
#ifndef IOTRIAL_FIOJOB_OPTS_H
#define IOTRIAL_FIOJOB_OPTS_H

#include <stddef.h>
#include <stdint.h>
#include "fiojob.h"

/*
 * The options one job sees: its section, and the globals above it. The
 * globals are not searched for each job (that is quadratic in the
 * number of sections): fiojob_map() walks the sections in order and
 * keeps, per canonical option, the last setting in a [global] so far.
 */
struct fiojob_view {
	const struct fiojob *j;
	unsigned sec;				 /* the job's section index */
	const struct fiojob_opt *const *globals; /* by fiojob_canon_index() */
};

/* The number of known options: the length of a view's globals. */
size_t fiojob_nr_known(void);
/* The index of key's canonical option, or -1 when iotrial lacks it. */
int fiojob_canon_index(const char *key);
/* key's canonical name, or NULL when iotrial does not know it. */
const char *fiojob_canonical(const char *key);
/* The setting of canonical option canon the job of v sees, or NULL. */
const struct fiojob_opt *fiojob_find(const struct fiojob_view *v,
				     const char *canon);
/* Note the options of global section sec in globals (struct view). */
void fiojob_note_globals(const struct fiojob_section *sec,
			 const struct fiojob_opt **globals);
/* o's value: "" for none or a missing option. */
const char *fiojob_val(const struct fiojob_opt *o);
/* "FILE:LINE: " of o and the message into err (replaced); -EINVAL. */
int fiojob_opt_err(struct strbuf *err, const struct fiojob_opt *o,
		   const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/*
 * The value of o into *out, or the default when o is NULL (0 for times
 * and sizes): a fio boolean (a bare key is 1), a whole count, a time
 * (ns) or a size (bytes). A number may be an expression in parentheses,
 * or written with a keyword ($ncpus; fiojob_expr.h); a time in
 * parentheses is in microseconds.
 */
int fiojob_get_bool(const struct fiojob_opt *o, int def, int *out,
		    struct strbuf *err);
int fiojob_get_count(const struct fiojob_opt *o, uint64_t def, uint64_t *out,
		     struct strbuf *err);
int fiojob_get_time(const struct fiojob_opt *o, uint64_t *out,
		    struct strbuf *err);
int fiojob_get_size(const struct fiojob_opt *o, uint64_t *out,
		    struct strbuf *err);
/* A size written as text (one part of "bs=4k,8k"; keyword: its option
 * used a keyword): 0, -EINVAL or -ERANGE. */
int fiojob_size_text(const char *text, int keyword, uint64_t *out_bytes);

/*
 * Every option of the sections that run (runs[s] non-NULL) and the
 * globals before them, checked against the subset: each option of fio's
 * reports gets a note line in warn; with lenient, each option iotrial
 * does not run is a warning line in warn (with its reason); otherwise
 * -EINVAL with err naming the one of them that matters most and why
 * (fiojob_why.h), and how many others there are. An option at fio's
 * default value asks for nothing and passes.
 */
int fiojob_check_subset(const struct fiojob *j, const char *const *runs,
			int lenient, struct strbuf *warn, struct strbuf *err);

#endif
