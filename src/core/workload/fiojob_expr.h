/*
 * fio's reserved keywords and arithmetic in a job file's values (its
 * HOWTO, "Reserved keywords" and "Job file parameters"): $pagesize,
 * $mb_memory and $ncpus stand for this machine's page size, megabytes of
 * memory and online CPUs, and a number may be written as an expression
 * in parentheses, "(2*4096)", with + - * / % and ^ (power). A value that
 * used a keyword is an expression too ("numjobs=$ncpus/2"). Results are
 * whole numbers from 0; for times in parentheses the unit is the
 * microsecond, as fio has it.
 */
#ifndef IOTRIAL_FIOJOB_EXPR_H
#define IOTRIAL_FIOJOB_EXPR_H

#include <stdint.h>
#include "../../util/strbuf.h"

/* The machine's values of the keywords. */
struct fiojob_keywords {
	uint64_t page_bytes; /* $pagesize */
	uint64_t mem_mib;    /* $mb_memory */
	uint64_t ncpus;	     /* $ncpus */
};

/* Fill kw from sysconf(). */
void fiojob_keywords_init(struct fiojob_keywords *kw);

/*
 * Append in to out with each keyword replaced by its value; other "$word"
 * text (fio's per-job "$jobnum" of filename_format) is kept. 1 when a
 * keyword was replaced, else 0.
 */
int fiojob_keywords_replace(const struct fiojob_keywords *kw, const char *in,
			    struct strbuf *out);

/*
 * The value of the arithmetic expression in ("(1+2)*4096", "12/4");
 * blanks are allowed. 0, -EINVAL (not an expression, a division by zero)
 * or -ERANGE (below 0 or above 2^64 - 1 on the way).
 */
int fiojob_eval(const char *in, uint64_t *out);

/* Does in look like an expression: its first non-blank is '('? */
int fiojob_is_expr(const char *in);

#endif
