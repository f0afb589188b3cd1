/*
 * Reading fio job files; see fiojob.h. The line syntax is util/ini.c's;
 * what fio adds on top of it is here: [global], include directives with
 * their own files and line numbers, and ${VAR} in values.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <sys/stat.h>
#include "fiojob.h"
#include "../../util/error.h"
#include "../../util/ini.h"
#include "../../util/userfile.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* Job files are small; a bigger one is a mistake, not a job file. */
#define FIOJOB_MAX_BYTES (4u << 20)

/* State of one ini_parse() pass over one file. */
struct pass {
	struct fiojob *j;
	const char *file; /* this file's name, owned by j->files */
	const char *rel;  /* its path below j->top_dir; NULL: the job file */
	struct fiojob_section *cur; /* section options go to; NULL: none */
	unsigned line_base;	    /* lines before the stretch being parsed */
	unsigned depth;
	const char **stack; /* files being read, outermost first */
	struct strbuf *err;
};

static int parse_into(struct fiojob *j, const char *name, const char *rel,
		      const char *buf, size_t len, struct fiojob_section *cur,
		      unsigned depth, const char **stack, struct strbuf *err);

void fiojob_init(struct fiojob *j)
{
	memset(j, 0, sizeof(*j));
	fiojob_keywords_init(&j->kw);
}

void fiojob_release(struct fiojob *j)
{
	unsigned i, k;

	if (!j)
		return;
	for (i = 0; i < j->nr_secs; i++) {
		struct fiojob_section *s = &j->secs[i];

		for (k = 0; k < s->nr_opts; k++) {
			free(s->opts[k].key);
			free(s->opts[k].value);
		}
		free(s->opts);
		free(s->name);
	}
	free(j->secs);
	for (i = 0; i < j->nr_files; i++)
		free(j->files[i]);
	free(j->files);
	free(j->top_dir);
	memset(j, 0, sizeof(*j));
}

/* Keep a copy of name for the life of j; the copy. */
static const char *keep_file(struct fiojob *j, const char *name)
{
	ALLOC_GROW(j->files, j->nr_files + 1, j->alloc_files);
	j->files[j->nr_files] = xstrdup(name);
	return j->files[j->nr_files++];
}

/* Is s a plausible variable name ([A-Za-z0-9_], at most 64)? */
static int is_name(const char *s)
{
	size_t n =
	    strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
		      "0123456789_");

	return n && n <= 64 && !s[n];
}

static const char *lookup(const struct fiojob *j, const char *name)
{
	return j->getenv ? j->getenv(name, j->getenv_ctx) : getenv(name);
}

/*
 * Replace each ${NAME} of in by its value into out. -EINVAL with err
 * set for an unset variable or an unterminated "${".
 */
static int substitute(const struct pass *ps, const char *in, unsigned line,
		      struct strbuf *out)
{
	const char *p = in;
	/* the text of an included file is not shown, only the name */
	const char *shown = ps->depth ? "a line of an included file" : in;

	strbuf_reset(out);
	while (*p) {
		const char *open = strstr(p, "${"), *close, *val;
		char *name;

		if (!open) {
			strbuf_addstr(out, p);
			break;
		}
		strbuf_add(out, p, (size_t)(open - p));
		close = strchr(open + 2, '}');
		if (!close)
			return err_set(ps->err, -EINVAL,
				       "%s:%u: unterminated '${' in '%s'; "
				       "expected ${NAME}",
				       ps->file, line, shown);
		name = xstrndup(open + 2, (size_t)(close - open - 2));
		val = *name ? lookup(ps->j, name) : NULL;
		if (!val) {
			err_set(ps->err, -EINVAL,
				"%s:%u: environment variable '%s' is not set "
				"(used in '%s')",
				ps->file, line,
				!ps->depth || is_name(name) ? name
							    : "(not shown)",
				shown);
			free(name);
			return -EINVAL;
		}
		strbuf_addstr(out, val);
		free(name);
		p = close + 1;
	}
	return 0;
}

/* Start a new section named name at line. */
static struct fiojob_section *new_section(struct pass *ps, const char *name,
					  unsigned line)
{
	struct fiojob *j = ps->j;
	struct fiojob_section *s;

	ALLOC_GROW(j->secs, j->nr_secs + 1, j->alloc_secs);
	s = &j->secs[j->nr_secs++];
	memset(s, 0, sizeof(*s));
	s->name = xstrdup(name);
	s->is_global = !strcmp(name, "global");
	s->file = ps->file;
	s->line = line;
	return s;
}

/*
 * Read the job file at path into out: a regular file (a FIFO or a
 * device is refused, not waited on) of at most FIOJOB_MAX_BYTES.
 */
static int slurp(const char *path, struct strbuf *out, struct strbuf *err)
{
	int ret = userfile_read(path, FIOJOB_MAX_BYTES, out, err);

	if (ret == -EFBIG)
		err_set(err, ret, "'%s' is not a job file: larger than 4 MiB",
			path);
	return ret;
}

/*
 * The path of the file "include arg" names, relative to the job file's
 * directory, into out: arg is relative to the including file (whose own
 * such path is from, NULL for the job file), "." and ".." are resolved
 * by name (nothing on the way is a link: userfile_read_beneath() follows
 * none). -EPERM when arg is absolute or climbs above the directory.
 */
static int include_rel(const char *from, const char *arg, struct strbuf *out)
{
	struct strbuf in = STRBUF_INIT;
	const char *p, *slash = from ? strrchr(from, '/') : NULL;
	int ret = 0;

	strbuf_reset(out);
	if (arg[0] == '/')
		return -EPERM;
	if (slash)
		strbuf_add(&in, from, (size_t)(slash - from + 1));
	strbuf_addstr(&in, arg);
	for (p = in.buf; *p;) {
		const char *e = strchrnul(p, '/');
		size_t n = (size_t)(e - p);

		if (n == 2 && !memcmp(p, "..", 2)) {
			char *up;

			if (!out->len) {
				ret = -EPERM;
				break;
			}
			up = strrchr(out->buf, '/');
			strbuf_setlen(out, up ? (size_t)(up - out->buf) : 0);
		} else if (n && !(n == 1 && *p == '.')) {
			if (out->len)
				strbuf_addch(out, '/');
			strbuf_add(out, p, n);
		}
		p = *e ? e + 1 : e;
	}
	if (!ret && !out->len)
		ret = -EISDIR;
	strbuf_release(&in);
	return ret;
}

/*
 * "include FILE" at line of ps: read FILE into the current section. FILE
 * must be below the job file's directory (no absolute path, no ".." out
 * of it, no link followed) unless the job allows any include. What an
 * included file holds is not the user's to see: messages about it name
 * the file and line, never its text.
 */
static int do_include(struct pass *ps, const char *arg, unsigned line)
{
	struct fiojob *j = ps->j;
	struct strbuf path = STRBUF_INIT, rel = STRBUF_INIT;
	struct strbuf buf = STRBUF_INIT, why = STRBUF_INIT;
	const char *slash = strrchr(ps->file, '/');
	const char *shown;
	char *real = NULL;
	const char **stack;
	unsigned i;
	int ret;

	while (*arg == ' ' || *arg == '\t')
		arg++;
	if (!*arg)
		return err_set(ps->err, -EINVAL,
			       "%s:%u: 'include' needs a file name", ps->file,
			       line);
	if (j->no_include)
		return err_set(ps->err, -EPERM,
			       "%s:%u: include is not allowed here", ps->file,
			       line);
	shown = ps->depth ? "(a name in an included file)" : arg;
	if (ps->depth + 1 >= FIOJOB_MAX_INCLUDE_DEPTH)
		return err_set(ps->err, -ELOOP,
			       "%s:%u: includes nest deeper than %d files at "
			       "'%s'",
			       ps->file, line, FIOJOB_MAX_INCLUDE_DEPTH, shown);
	if (j->include_any) {
		if (arg[0] != '/' && slash)
			strbuf_add(&path, ps->file,
				   (size_t)(slash - ps->file + 1));
		strbuf_addstr(&path, arg);
	} else {
		ret = include_rel(ps->rel, arg, &rel);
		if (ret) {
			err_set(ps->err, ret,
				"%s:%u: include '%s' is not a file below the "
				"job file's directory '%s'%s",
				ps->file, line, shown, j->top_dir,
				ret == -EPERM
				    ? " (pass --job-include-any to allow it)"
				    : "");
			goto out;
		}
		strbuf_addf(&path, "%s/%s", j->top_dir, rel.buf);
	}
	real = realpath(path.buf, NULL);
	for (i = 0; real && i <= ps->depth; i++)
		if (!strcmp(ps->stack[i], real)) {
			ret = err_set(ps->err, -ELOOP,
				      "%s:%u: include loop: '%s' is already "
				      "being read",
				      ps->file, line, shown);
			goto out;
		}
	ret = j->include_any
		  ? userfile_read(path.buf, FIOJOB_MAX_BYTES, &buf, &why)
		  : userfile_read_beneath(j->top_dir, rel.buf, FIOJOB_MAX_BYTES,
					  &buf, &why);
	if (ret) {
		if (ps->depth)
			err_set(ps->err, ret,
				"%s:%u: cannot read the file it includes: %s",
				ps->file, line,
				ret == -EFBIG	 ? "larger than 4 MiB"
				: ret == -EINVAL ? "not a regular file"
						 : strerror(-ret));
		else
			err_set(ps->err, ret, "%s:%u: %s", ps->file, line,
				why.buf);
		goto out;
	}
	stack = xcalloc(ps->depth + 2, sizeof(*stack));
	memcpy(stack, ps->stack, (ps->depth + 1) * sizeof(*stack));
	stack[ps->depth + 1] = real ? real : path.buf;
	ret = parse_into(j, path.buf, j->include_any ? NULL : rel.buf, buf.buf,
			 buf.len, ps->cur, ps->depth + 1, stack, ps->err);
	free(stack);
out:
	free(real);
	strbuf_release(&buf);
	strbuf_release(&why);
	strbuf_release(&rel);
	strbuf_release(&path);
	return ret;
}

/* Drop the blanks at the end of sb. */
static void trim_end(struct strbuf *sb)
{
	while (sb->len &&
	       (sb->buf[sb->len - 1] == ' ' || sb->buf[sb->len - 1] == '\t'))
		strbuf_setlen(sb, sb->len - 1);
}

/*
 * fio ends a line at its first ';' or '#', wherever it is ("bs=4k # x"
 * is bs=4k, "numjobs=4 ; four" numjobs=4): cut key and value (copies in
 * k and v) there. A comment that starts in the key takes the value with
 * it: the '=' was inside it. *value becomes v's text, or NULL.
 */
static void cut_comment(const char *key, const char **value, struct strbuf *k,
			struct strbuf *v)
{
	char *cut;

	strbuf_addstr(k, key);
	cut = strpbrk(k->buf, ";#");
	if (cut) {
		strbuf_setlen(k, (size_t)(cut - k->buf));
		trim_end(k);
		*value = NULL;
		return;
	}
	if (!*value)
		return;
	strbuf_addstr(v, *value);
	cut = strpbrk(v->buf, ";#");
	if (cut) {
		strbuf_setlen(v, (size_t)(cut - v->buf));
		trim_end(v);
	}
	*value = v->buf;
}

/* ini_cb: one key of a stretch of the file of ps (section is ""). */
static int on_key(const char *section, const char *key, const char *value,
		  unsigned line, void *ctx)
{
	struct pass *ps = ctx;
	struct fiojob_section *s;
	struct fiojob_opt *o;
	struct strbuf k = STRBUF_INIT, cv = STRBUF_INIT;
	struct strbuf v = STRBUF_INIT, kv = STRBUF_INIT;
	int ret = 0, keyword = 0;

	(void)section;
	line += ps->line_base;
	cut_comment(key, &value, &k, &cv);
	key = k.buf;
	if (!*key) /* "  ; ..." after all */
		goto out;
	if (!value && !strncmp(key, "include", 7) &&
	    (key[7] == ' ' || key[7] == '\t')) {
		ret = do_include(ps, key + 8, line) ? -EINVAL : 0;
		goto out;
	}
	if (!ps->cur) {
		ret = err_set(ps->err, -EINVAL,
			      "%s:%u: option '%s' comes before any section; "
			      "put it under [global] or a job's [name]",
			      ps->file, line,
			      ps->depth ? "(not shown: in an included file)"
					: key);
		goto out;
	}
	if (value && (ret = substitute(ps, value, line, &v)))
		goto out;
	if (value)
		keyword = fiojob_keywords_replace(&ps->j->kw, v.buf, &kv);
	s = ps->cur;
	ALLOC_GROW(s->opts, s->nr_opts + 1, s->alloc_opts);
	o = &s->opts[s->nr_opts++];
	o->key = xstrdup(key);
	o->value = value ? strbuf_detach(&kv, NULL) : NULL;
	o->file = ps->file;
	o->line = line;
	o->included = ps->depth > 0;
	o->keyword = keyword;
out:
	strbuf_release(&k);
	strbuf_release(&cv);
	strbuf_release(&v);
	strbuf_release(&kv);
	return ret;
}

/* ini_cb: nothing; the syntax check of a whole file. */
static int check_key(const char *section, const char *key, const char *value,
		     unsigned line, void *ctx)
{
	(void)section;
	(void)key;
	(void)value;
	(void)line;
	(void)ctx;
	return 0;
}

/*
 * Sections that hold no option never reach on_key(): find the headers
 * in buf so that "[job1]" alone still makes a job. Called before
 * ini_parse() checks the syntax, so it only notes well-formed headers.
 */
static void scan_headers(const char *buf, size_t len, unsigned **out_lines,
			 unsigned *out_nr)
{
	const char *p = buf, *end = buf + len;
	unsigned line = 0, alloc = 0;

	*out_lines = NULL;
	*out_nr = 0;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *s = p;

		line++;
		p = nl ? nl + 1 : end;
		while (s < p && (*s == ' ' || *s == '\t'))
			s++;
		if (s < p && *s == '[') {
			ALLOC_GROW(*out_lines, *out_nr + 1, alloc);
			(*out_lines)[(*out_nr)++] = line;
		}
	}
}

/* The text of the header on the line that starts at p, trimmed, into sb. */
static void header_name(const char *p, const char *end, struct strbuf *sb)
{
	const char *close, *nl = memchr(p, '\n', (size_t)(end - p));

	if (nl)
		end = nl;
	p = memchr(p, '[', (size_t)(end - p));
	close = p ? memchr(p, ']', (size_t)(end - p)) : NULL;
	strbuf_reset(sb);
	if (!close)
		return;
	p++;
	while (p < close && (*p == ' ' || *p == '\t'))
		p++;
	while (close > p && (close[-1] == ' ' || close[-1] == '\t'))
		close--;
	strbuf_add(sb, p, (size_t)(close - p));
}

/* The start of the line after the one at p (or end). */
static const char *next_line(const char *p, const char *end)
{
	const char *nl = memchr(p, '\n', (size_t)(end - p));

	return nl ? nl + 1 : end;
}

/*
 * ini_parse() reports keys, not headers. So: check the whole file's
 * syntax first, then find the headers and parse each stretch between
 * two of them on its own, so that every header makes a section, with
 * options or without, and each option lands in the section above it.
 */
static int parse_into(struct fiojob *j, const char *name, const char *rel,
		      const char *buf, size_t len, struct fiojob_section *cur,
		      unsigned depth, const char **stack, struct strbuf *err)
{
	struct pass ps = {0};
	struct strbuf ierr = STRBUF_INIT, hname = STRBUF_INIT;
	unsigned *hdr, nr_hdr = 0, h;
	const char *p, *end;
	int ret;

	/* a UTF-8 byte order mark, as some editors write, is not text */
	if (len >= 3 && !memcmp(buf, "\xef\xbb\xbf", 3)) {
		buf += 3;
		len -= 3;
	}
	p = buf;
	end = buf + len;
	ps.j = j;
	ps.file = keep_file(j, name);
	ps.rel = rel;
	ps.cur = cur;
	ps.depth = depth;
	ps.stack = stack;
	ps.err = err;
	ret = ini_parse(buf, len, check_key, NULL, &ierr);
	if (ret) {
		/* "line N: why" becomes "FILE:N: why" */
		const char *why = ierr.buf;

		if (!strncmp(why, "line ", 5))
			why += 5;
		if (depth > 0) /* the message quotes the line: not this one */
			err_set(err, ret,
				"%s:%u: not a line of a job file (not shown: "
				"it is in an included file)",
				name, (unsigned)strtoul(why, NULL, 10));
		else
			err_set(err, ret, "%s:%s", name, why);
		goto out;
	}
	scan_headers(buf, len, &hdr, &nr_hdr);
	if (depth > 0 && nr_hdr) {
		ret = err_set(err, -EINVAL,
			      "%s:%u: an included file may not hold sections",
			      name, hdr[0]);
		goto out_hdr;
	}
	for (h = 0;; h++) {
		unsigned stop = h < nr_hdr ? hdr[h] : 0;
		unsigned line = ps.line_base + 1;
		const char *q = p;

		/* the stretch [p, q) runs up to the next header */
		while (q < end && (!stop || line < stop)) {
			q = next_line(q, end);
			line++;
		}
		ret = ini_parse(p, (size_t)(q - p), on_key, &ps, NULL);
		if (ret || h == nr_hdr)
			break;
		header_name(q, end, &hname);
		if (strcmp(hname.buf, "global") &&
		    ++j->nr_jobs > FIOJOB_MAX_JOBS) {
			ret = err_set(err, -E2BIG,
				      "%s:%u: more than %u job sections; "
				      "iotrial runs at most %u (fio's own "
				      "limit)",
				      name, stop, FIOJOB_MAX_JOBS,
				      FIOJOB_MAX_JOBS);
			break;
		}
		ps.cur = new_section(&ps, hname.buf, stop);
		p = next_line(q, end);
		ps.line_base = stop;
	}
out_hdr:
	free(hdr);
out:
	strbuf_release(&ierr);
	strbuf_release(&hname);
	return ret;
}

int fiojob_parse_buf(struct fiojob *j, const char *name, const char *buf,
		     size_t len, struct strbuf *err)
{
	char *real = realpath(name, NULL);
	const char *stack[1] = {real ? real : name};
	const char *slash = strrchr(name, '/');
	int ret;

	free(j->top_dir);
	if (!slash)
		j->top_dir = xstrdup(".");
	else if (slash == name)
		j->top_dir = xstrdup("/");
	else
		j->top_dir = xstrndup(name, (size_t)(slash - name));
	ret = parse_into(j, name, NULL, buf, len, NULL, 0, stack, err);
	free(real);
	return ret;
}

int fiojob_parse_file(struct fiojob *j, const char *path, struct strbuf *err)
{
	struct strbuf buf = STRBUF_INIT;
	int ret = slurp(path, &buf, err);

	if (!ret)
		ret = fiojob_parse_buf(j, path, buf.buf, buf.len, err);
	strbuf_release(&buf);
	return ret;
}

const char *fiojob_get(const struct fiojob_section *sec, const char *key,
		       const struct fiojob_opt **out_opt)
{
	unsigned i = sec->nr_opts;

	while (i-- > 0)
		if (!strcmp(sec->opts[i].key, key)) {
			if (out_opt)
				*out_opt = &sec->opts[i];
			return sec->opts[i].value ? sec->opts[i].value : "";
		}
	return NULL;
}

int fiojob_parse_size(const char *in, uint64_t *out_bytes)
{
	static const char prefixes[] = "kmgtp";
	const char *p = in, *pre;
	uint64_t n = 0, mult = 1, base = 1024;
	int hex = 0, digits = 0;
	unsigned k;

	while (*p == ' ')
		p++;
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		hex = 1;
		p += 2;
	}
	for (;; p++) {
		unsigned d;

		if (*p >= '0' && *p <= '9')
			d = (unsigned)(*p - '0');
		else if (hex && *p >= 'a' && *p <= 'f')
			d = (unsigned)(*p - 'a' + 10);
		else if (hex && *p >= 'A' && *p <= 'F')
			d = (unsigned)(*p - 'A' + 10);
		else
			break;
		if (__builtin_mul_overflow(n, hex ? 16 : 10, &n) ||
		    __builtin_add_overflow(n, d, &n))
			return -ERANGE;
		digits++;
	}
	if (!digits)
		return -EINVAL;
	/* fio's default kb_base=1024: k is 1024, ki is 1000 */
	pre = *p ? strchr(prefixes, *p | 0x20) : NULL;
	if (pre) {
		p++;
		if (*p == 'i' || *p == 'I') {
			base = 1000;
			p++;
		}
		for (k = 0; k <= (unsigned)(pre - prefixes); k++)
			mult *= base;
	}
	if (*p == 'b' || *p == 'B')
		p++;
	while (*p == ' ')
		p++;
	if (*p)
		return -EINVAL;
	if (__builtin_mul_overflow(n, mult, &n))
		return -ERANGE;
	*out_bytes = n;
	return 0;
}

int fiojob_parse_time(const char *in, uint64_t *out_ns)
{
	static const struct {
		const char *unit;
		uint64_t ns;
	} units[] = {
	    {"", 1000000000ull},      {"s", 1000000000ull},
	    {"sec", 1000000000ull},   {"ms", 1000000ull},
	    {"msec", 1000000ull},     {"us", 1000ull},
	    {"usec", 1000ull},	      {"m", 60000000000ull},
	    {"min", 60000000000ull},  {"h", 3600000000000ull},
	    {"d", 86400000000000ull},
	};
	const char *p = in;
	uint64_t n = 0;
	size_t i;
	int digits = 0;

	while (*p == ' ')
		p++;
	for (; *p >= '0' && *p <= '9'; p++, digits++)
		if (__builtin_mul_overflow(n, 10, &n) ||
		    __builtin_add_overflow(n, (uint64_t)(*p - '0'), &n))
			return -ERANGE;
	if (!digits)
		return -EINVAL;
	for (i = 0; i < ARRAY_SIZE(units); i++)
		if (!strcasecmp(p, units[i].unit)) {
			if (__builtin_mul_overflow(n, units[i].ns, &n))
				return -ERANGE;
			*out_ns = n;
			return 0;
		}
	return -EINVAL;
}
