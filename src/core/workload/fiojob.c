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
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* Job files are small; a bigger one is a mistake, not a job file. */
#define FIOJOB_MAX_BYTES (4u << 20)

/* State of one ini_parse() pass over one file. */
struct pass {
	struct fiojob *j;
	const char *file;	    /* this file's name, owned by j->files */
	struct fiojob_section *cur; /* section options go to; NULL: none */
	unsigned line_base;	    /* lines before the stretch being parsed */
	unsigned depth;
	const char **stack; /* files being read, outermost first */
	struct strbuf *err;
};

static int parse_into(struct fiojob *j, const char *name, const char *buf,
		      size_t len, struct fiojob_section *cur, unsigned depth,
		      const char **stack, struct strbuf *err);

void fiojob_init(struct fiojob *j)
{
	memset(j, 0, sizeof(*j));
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
	memset(j, 0, sizeof(*j));
}

/* Keep a copy of name for the life of j; the copy. */
static const char *keep_file(struct fiojob *j, const char *name)
{
	ALLOC_GROW(j->files, j->nr_files + 1, j->alloc_files);
	j->files[j->nr_files] = xstrdup(name);
	return j->files[j->nr_files++];
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
				       ps->file, line, in);
		name = xstrndup(open + 2, (size_t)(close - open - 2));
		val = *name ? lookup(ps->j, name) : NULL;
		if (!val) {
			err_set(ps->err, -EINVAL,
				"%s:%u: environment variable '%s' is not set "
				"(used in '%s')",
				ps->file, line, name, in);
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

/* Read the file at path into a buffer (caller frees). */
static int slurp(const char *path, char **out, size_t *out_len,
		 struct strbuf *err)
{
	struct stat st;
	char *buf;
	size_t got = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);

	if (fd < 0)
		return err_set(err, -errno, "cannot read '%s': %s", path,
			       strerror(errno));
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    (uint64_t)st.st_size > FIOJOB_MAX_BYTES) {
		close(fd);
		return err_set(err, -EINVAL,
			       "'%s' is not a job file: not a regular file "
			       "of at most 4 MiB",
			       path);
	}
	buf = xmalloc((size_t)st.st_size + 1);
	while (got < (size_t)st.st_size) {
		ssize_t n = read(fd, buf + got, (size_t)st.st_size - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	buf[got] = '\0';
	*out = buf;
	*out_len = got;
	return 0;
}

/* "include FILE" at line of ps: read FILE into the current section. */
static int do_include(struct pass *ps, const char *arg, unsigned line)
{
	struct strbuf path = STRBUF_INIT;
	const char *slash = strrchr(ps->file, '/');
	char *buf = NULL, *real = NULL;
	const char **stack;
	size_t len = 0;
	unsigned i;
	int ret;

	while (*arg == ' ' || *arg == '\t')
		arg++;
	if (!*arg)
		return err_set(ps->err, -EINVAL,
			       "%s:%u: 'include' needs a file name", ps->file,
			       line);
	if (ps->j->no_include)
		return err_set(ps->err, -EPERM,
			       "%s:%u: include is not allowed here", ps->file,
			       line);
	if (arg[0] != '/' && slash)
		strbuf_add(&path, ps->file, (size_t)(slash - ps->file + 1));
	strbuf_addstr(&path, arg);
	if (ps->depth + 1 >= FIOJOB_MAX_INCLUDE_DEPTH) {
		ret =
		    err_set(ps->err, -ELOOP,
			    "%s:%u: includes nest deeper than %d files at "
			    "'%s'",
			    ps->file, line, FIOJOB_MAX_INCLUDE_DEPTH, path.buf);
		goto out;
	}
	real = realpath(path.buf, NULL);
	for (i = 0; real && i <= ps->depth; i++)
		if (!strcmp(ps->stack[i], real)) {
			ret = err_set(ps->err, -ELOOP,
				      "%s:%u: include loop: '%s' is already "
				      "being read",
				      ps->file, line, path.buf);
			goto out;
		}
	ret = slurp(path.buf, &buf, &len, ps->err);
	if (ret) {
		struct strbuf sb = STRBUF_INIT;

		strbuf_addf(&sb, "%s:%u: %s", ps->file, line, ps->err->buf);
		strbuf_reset(ps->err);
		strbuf_addstr(ps->err, sb.buf);
		strbuf_release(&sb);
		goto out;
	}
	stack = xcalloc(ps->depth + 2, sizeof(*stack));
	memcpy(stack, ps->stack, (ps->depth + 1) * sizeof(*stack));
	stack[ps->depth + 1] = real ? real : path.buf;
	ret = parse_into(ps->j, path.buf, buf, len, ps->cur, ps->depth + 1,
			 stack, ps->err);
	free(stack);
out:
	free(real);
	free(buf);
	strbuf_release(&path);
	return ret;
}

/* ini_cb: one key of a stretch of the file of ps (section is ""). */
static int on_key(const char *section, const char *key, const char *value,
		  unsigned line, void *ctx)
{
	struct pass *ps = ctx;
	struct fiojob_section *s;
	struct fiojob_opt *o;
	struct strbuf v = STRBUF_INIT;
	int ret;

	(void)section;
	line += ps->line_base;
	if (!value && !strncmp(key, "include", 7) &&
	    (key[7] == ' ' || key[7] == '\t'))
		return do_include(ps, key + 8, line) ? -EINVAL : 0;
	if (!ps->cur)
		return err_set(ps->err, -EINVAL,
			       "%s:%u: option '%s' comes before any section; "
			       "put it under [global] or a job's [name]",
			       ps->file, line, key);
	if (value && (ret = substitute(ps, value, line, &v))) {
		strbuf_release(&v);
		return ret;
	}
	s = ps->cur;
	ALLOC_GROW(s->opts, s->nr_opts + 1, s->alloc_opts);
	o = &s->opts[s->nr_opts++];
	o->key = xstrdup(key);
	o->value = value ? strbuf_detach(&v, NULL) : NULL;
	o->file = ps->file;
	o->line = line;
	strbuf_release(&v);
	return 0;
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

/* The text of the header at 1-based line of buf, trimmed, into sb. */
static void header_name(const char *buf, size_t len, unsigned line,
			struct strbuf *sb)
{
	const char *p = buf, *end = buf + len, *close;
	unsigned n = 1;

	while (n < line && p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));

		p = nl ? nl + 1 : end;
		n++;
	}
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
static int parse_into(struct fiojob *j, const char *name, const char *buf,
		      size_t len, struct fiojob_section *cur, unsigned depth,
		      const char **stack, struct strbuf *err)
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
		header_name(buf, len, stop, &hname);
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
	int ret = parse_into(j, name, buf, len, NULL, 0, stack, err);

	free(real);
	return ret;
}

int fiojob_parse_file(struct fiojob *j, const char *path, struct strbuf *err)
{
	char *buf = NULL;
	size_t len = 0;
	int ret = slurp(path, &buf, &len, err);

	if (!ret)
		ret = fiojob_parse_buf(j, path, buf, len, err);
	free(buf);
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
