/*
 * fio's keywords and arithmetic; see fiojob_expr.h. The evaluator is a
 * recursive descent over the usual precedence (^ binds tightest and to
 * the right, then * / %, then + -), on unsigned 64-bit numbers checked
 * for overflow at every step, with a bound on nesting so that a hostile
 * file cannot exhaust the stack.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include "fiojob_expr.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* Parentheses deeper than this are refused: no job file needs them. */
#define EXPR_MAX_DEPTH 64

void fiojob_keywords_init(struct fiojob_keywords *kw)
{
	long page = sysconf(_SC_PAGESIZE), pages = sysconf(_SC_PHYS_PAGES);
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	kw->page_bytes = page > 0 ? (uint64_t)page : 4096;
	kw->mem_mib = page > 0 && pages > 0
			  ? (uint64_t)pages * (uint64_t)page / (1024 * 1024)
			  : 0;
	kw->ncpus = cpus > 0 ? (uint64_t)cpus : 1;
}

int fiojob_keywords_replace(const struct fiojob_keywords *kw, const char *in,
			    struct strbuf *out)
{
	static const char *const names[] = {"pagesize", "mb_memory", "ncpus"};
	const uint64_t values[] = {kw->page_bytes, kw->mem_mib, kw->ncpus};
	int replaced = 0;

	while (*in) {
		const char *dollar = strchr(in, '$');
		size_t i, n;

		if (!dollar) {
			strbuf_addstr(out, in);
			break;
		}
		strbuf_add(out, in, (size_t)(dollar - in));
		in = dollar + 1;
		for (i = 0; i < ARRAY_SIZE(names); i++) {
			n = strlen(names[i]);
			/* the whole word: "$ncpus2" is not $ncpus */
			if (!strncmp(in, names[i], n) &&
			    !(in[n] == '_' || (in[n] >= 'a' && in[n] <= 'z') ||
			      (in[n] >= 'A' && in[n] <= 'Z') ||
			      (in[n] >= '0' && in[n] <= '9')))
				break;
		}
		if (i == ARRAY_SIZE(names)) {
			strbuf_addch(out, '$');
			continue;
		}
		strbuf_addf(out, "%llu", (unsigned long long)values[i]);
		in += strlen(names[i]);
		replaced = 1;
	}
	return replaced;
}

/* The state of one evaluation. */
struct expr {
	const char *p;
	unsigned depth;
	int err; /* the first error, 0 until then */
};

static uint64_t sum(struct expr *e);

static void blanks(struct expr *e)
{
	while (*e->p == ' ' || *e->p == '\t')
		e->p++;
}

/* A number (decimal, or hex after 0x) or a parenthesised expression. */
static uint64_t primary(struct expr *e)
{
	uint64_t v = 0;
	int hex = 0, digits = 0;

	blanks(e);
	if (*e->p == '(') {
		if (++e->depth > EXPR_MAX_DEPTH) {
			e->err = -EINVAL;
			return 0;
		}
		e->p++;
		v = sum(e);
		blanks(e);
		if (*e->p == ')')
			e->p++;
		else if (!e->err)
			e->err = -EINVAL;
		e->depth--;
		return v;
	}
	if (e->p[0] == '0' && (e->p[1] == 'x' || e->p[1] == 'X')) {
		hex = 1;
		e->p += 2;
	}
	for (;; e->p++, digits++) {
		char c = *e->p;
		unsigned d;

		if (c >= '0' && c <= '9')
			d = (unsigned)(c - '0');
		else if (hex && c >= 'a' && c <= 'f')
			d = (unsigned)(c - 'a' + 10);
		else if (hex && c >= 'A' && c <= 'F')
			d = (unsigned)(c - 'A' + 10);
		else
			break;
		if (__builtin_mul_overflow(v, hex ? 16u : 10u, &v) ||
		    __builtin_add_overflow(v, d, &v))
			e->err = e->err ? e->err : -ERANGE;
	}
	if (!digits && !e->err)
		e->err = -EINVAL;
	return v;
}

/* a ^ b, right to left. */
static uint64_t power(struct expr *e)
{
	uint64_t base = primary(e), exp, v = 1;

	blanks(e);
	if (*e->p != '^' || e->err)
		return base;
	e->p++;
	if (++e->depth > EXPR_MAX_DEPTH) {
		e->err = -EINVAL;
		return 0;
	}
	exp = power(e);
	e->depth--;
	for (; exp && !e->err; exp--) {
		if (__builtin_mul_overflow(v, base, &v))
			e->err = -ERANGE;
		if (v == 0 || v == 1) /* 0^n and 1^n: no need to go on */
			break;
	}
	return v;
}

static uint64_t product(struct expr *e)
{
	uint64_t v = power(e);

	for (;;) {
		char op;
		uint64_t r;

		blanks(e);
		op = *e->p;
		if ((op != '*' && op != '/' && op != '%') || e->err)
			return v;
		e->p++;
		r = power(e);
		if (op == '*' && __builtin_mul_overflow(v, r, &v))
			e->err = e->err ? e->err : -ERANGE;
		else if (op != '*' && !r)
			e->err = e->err ? e->err : -EINVAL;
		else if (op == '/')
			v /= r;
		else if (op == '%')
			v %= r;
	}
}

static uint64_t sum(struct expr *e)
{
	uint64_t v = product(e);

	for (;;) {
		char op;
		uint64_t r;

		blanks(e);
		op = *e->p;
		if ((op != '+' && op != '-') || e->err)
			return v;
		e->p++;
		r = product(e);
		if (op == '+' ? __builtin_add_overflow(v, r, &v)
			      : __builtin_sub_overflow(v, r, &v))
			e->err = e->err ? e->err : -ERANGE;
	}
}

int fiojob_eval(const char *in, uint64_t *out)
{
	struct expr e = {in, 0, 0};
	uint64_t v = sum(&e);

	blanks(&e);
	if (!e.err && *e.p)
		e.err = -EINVAL;
	if (e.err)
		return e.err;
	*out = v;
	return 0;
}

int fiojob_is_expr(const char *in)
{
	while (*in == ' ' || *in == '\t')
		in++;
	return *in == '(';
}
