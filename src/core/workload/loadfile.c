/*
 * Parsing dbench load files (see loadfile.h). Each line is cut into
 * tokens (double quotes group a path with spaces), the operation is
 * looked up in a table that says what each argument is, and the line
 * becomes one struct lf_op. The work of a replay is then only system
 * calls: no string handling, no handle lookup, nothing shared written.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include "loadfile.h"
#include "../../util/error.h"
#include "../../util/userfile.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

#define MAX_LINE_BYTES 4096
#define MAX_TOKENS     24

/*
 * What each operation takes, one letter per argument before the status:
 * p a path, P a second path, f a Find pattern, h a handle, n a number
 * (create options, disposition), c a count, o an offset, s a size,
 * r the size the trace moved, x a number the replay does not use.
 */
struct op_spec {
	const char *name;
	const char *alias; /* dbench 3 spelling, or NULL */
	enum lf_kind kind;
	const char *args;
	const char *help; /* the arguments, for messages */
};

static const struct op_spec specs[] = {
    {"NTCreateX", NULL, LF_NTCREATEX, "pnnh",
     "path create-options disposition handle"},
    {"Close", NULL, LF_CLOSE, "h", "handle"},
    {"Rename", NULL, LF_RENAME, "pP", "old-path new-path"},
    {"Unlink", NULL, LF_UNLINK, "px", "path attributes"},
    {"Deltree", NULL, LF_DELTREE, "p", "path"},
    {"Rmdir", NULL, LF_RMDIR, "p", "path"},
    {"Mkdir", NULL, LF_MKDIR, "p", "path"},
    {"Qpathinfo", "QUERY_PATH_INFORMATION", LF_QPATHINFO, "px", "path level"},
    {"Qfileinfo", "QUERY_FILE_INFORMATION", LF_QFILEINFO, "hx", "handle level"},
    {"Qfsinfo", "QUERY_FS_INFORMATION", LF_QFSINFO, "x", "level"},
    {"Sfileinfo", "SET_FILE_INFORMATION", LF_SFILEINFO, "hx", "handle level"},
    {"Find", "FIND_FIRST", LF_FIND, "fxcx", "pattern level max count"},
    {"WriteX", NULL, LF_WRITEX, "hosr", "handle offset size written"},
    {"ReadX", NULL, LF_READX, "hosr", "handle offset size read"},
    {"LockX", NULL, LF_LOCKX, "hos", "handle offset size"},
    {"UnlockX", NULL, LF_UNLOCKX, "hos", "handle offset size"},
    {"Flush", NULL, LF_FLUSH, "h", "handle"},
};

const char *lf_kind_name(enum lf_kind kind)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(specs); i++)
		if (specs[i].kind == kind)
			return specs[i].name;
	return "?";
}

/* Handle numbers to dense indexes: open addressing on the raw value. */
struct handle_map {
	int64_t *keys;
	uint32_t *vals;
	uint8_t *used;
	size_t cap, nr;
};

static void hmap_grow(struct handle_map *m);

static uint32_t hmap_get(struct handle_map *m, int64_t key)
{
	size_t i;

	if ((m->nr + 1) * 2 > m->cap)
		hmap_grow(m);
	i = ((uint64_t)key * 0x9e3779b97f4a7c15ull) >> 20 & (m->cap - 1);
	while (m->used[i] && m->keys[i] != key)
		i = (i + 1) & (m->cap - 1);
	if (!m->used[i]) {
		m->used[i] = 1;
		m->keys[i] = key;
		m->vals[i] = (uint32_t)m->nr++;
	}
	return m->vals[i];
}

static void hmap_grow(struct handle_map *m)
{
	struct handle_map n = {0};
	size_t i;

	n.cap = m->cap ? m->cap * 2 : 1024;
	n.keys = xcalloc(n.cap, sizeof(*n.keys));
	n.vals = xcalloc(n.cap, sizeof(*n.vals));
	n.used = xcalloc(n.cap, 1);
	for (i = 0; i < m->cap; i++) {
		size_t j;

		if (!m->used[i])
			continue;
		j = ((uint64_t)m->keys[i] * 0x9e3779b97f4a7c15ull) >> 20 &
		    (n.cap - 1);
		while (n.used[j])
			j = (j + 1) & (n.cap - 1);
		n.used[j] = 1;
		n.keys[j] = m->keys[i];
		n.vals[j] = m->vals[i];
	}
	n.nr = m->nr;
	free(m->keys);
	free(m->vals);
	free(m->used);
	*m = n;
}

static void hmap_free(struct handle_map *m)
{
	free(m->keys);
	free(m->vals);
	free(m->used);
}

/* Cut line (modified in place) into tokens; -EINVAL on an open quote. */
static int tokenize(char *line, char **tok, unsigned *out_nr, const char **why)
{
	unsigned n = 0;
	char *p = line;

	for (;;) {
		while (*p == ' ' || *p == '\t' || *p == '\r')
			p++;
		if (!*p)
			break;
		if (n == MAX_TOKENS) {
			*why = "too many fields";
			return -EINVAL;
		}
		if (*p == '"') {
			char *end = strchr(p + 1, '"');

			if (!end) {
				*why = "a quote is not closed";
				return -EINVAL;
			}
			*end = '\0';
			tok[n++] = p + 1;
			p = end + 1;
			if (*p && *p != ' ' && *p != '\t' && *p != '\r') {
				*why = "text right after a closing quote";
				return -EINVAL;
			}
			continue;
		}
		tok[n++] = p;
		while (*p && *p != ' ' && *p != '\t' && *p != '\r')
			p++;
		if (*p)
			*p++ = '\0';
	}
	*out_nr = n;
	return 0;
}

/* A whole token as a number (decimal, 0x hex, 0 octal); 0 or -EINVAL. */
static int parse_num(const char *s, int64_t *out)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(s, &end, 0);
	if (!*s || *end || errno)
		return -EINVAL;
	*out = v;
	return 0;
}

/* Is s a status: NT_STATUS_NAME or a hex number? *ok: it means success. */
static int parse_status(const char *s, int *ok)
{
	if (!strncmp(s, "NT_STATUS_", 10) && s[10]) {
		*ok = !strcmp(s, "NT_STATUS_OK");
		return 0;
	}
	if (!strncmp(s, "0x", 2) && s[2]) {
		char *end;
		unsigned long long v;

		errno = 0;
		v = strtoull(s, &end, 16);
		if (*end || errno)
			return -EINVAL;
		*ok = v == 0;
		return 0;
	}
	return -EINVAL;
}

/*
 * Store path p (a load file path: backslashes, a leading one) as a
 * relative path in lf->strings; dir_only keeps what is before the last
 * separator ("." when nothing), pattern_only what is after it. -EINVAL
 * for a ".." component.
 */
static int add_path(struct loadfile *lf, const char *p, int part, uint32_t *out)
{
	size_t start = lf->strings.len, i, comp = 0, last_sep = 0;
	int seen_sep = 0;

	while (*p == '\\' || *p == '/')
		p++;
	for (i = 0; p[i]; i++) {
		char c = p[i] == '\\' ? '/' : p[i];

		if (c == '/') {
			if (i - comp == 2 && p[comp] == '.' &&
			    p[comp + 1] == '.')
				return -EINVAL;
			comp = i + 1;
			last_sep = i;
			seen_sep = 1;
		}
	}
	if (i - comp == 2 && p[comp] == '.' && p[comp + 1] == '.')
		return -EINVAL;
	if (part == 'd') { /* the directory of a pattern */
		if (!seen_sep)
			strbuf_addch(&lf->strings, '.');
		for (i = 0; seen_sep && i < last_sep; i++)
			strbuf_addch(&lf->strings, p[i] == '\\' ? '/' : p[i]);
	} else if (part == 'f') { /* the pattern, wildcards made fnmatch's */
		for (i = seen_sep ? last_sep + 1 : 0; p[i]; i++) {
			char c = p[i];

			/* DOS_STAR, DOS_QM, DOS_DOT */
			c = c == '<'   ? '*'
			    : c == '>' ? '?'
			    : c == '"' ? '.'
				       : c;
			strbuf_addch(&lf->strings, c);
		}
	} else {
		for (i = 0; p[i]; i++)
			strbuf_addch(&lf->strings, p[i] == '\\' ? '/' : p[i]);
		if (!i)
			strbuf_addch(&lf->strings, '.');
	}
	/* trailing separators would make "dir/" from "\dir\" */
	while (lf->strings.len > start + 1 &&
	       lf->strings.buf[lf->strings.len - 1] == '/')
		strbuf_setlen(&lf->strings, lf->strings.len - 1);
	strbuf_addch(&lf->strings, '\0');
	if (lf->strings.len > UINT32_MAX - 1)
		return -EFBIG;
	*out = (uint32_t)start;
	return 0;
}

static void count_unknown(struct loadfile *lf, const char *name, unsigned line)
{
	unsigned i;

	lf->nr_unknown_lines++;
	for (i = 0; i < lf->nr_unknown; i++) {
		if (!strcmp(lf->unknown[i].name, name)) {
			lf->unknown[i].count++;
			return;
		}
	}
	if (lf->nr_unknown == LF_MAX_UNKNOWN)
		return;
	ALLOC_GROW(lf->unknown, lf->nr_unknown + 1, lf->alloc_unknown);
	lf->unknown[lf->nr_unknown].name = xstrndup(name, 40);
	lf->unknown[lf->nr_unknown].count = 1;
	lf->unknown[lf->nr_unknown].first_line = line;
	lf->nr_unknown++;
}

static const struct op_spec *find_spec(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(specs); i++)
		if (!strcasecmp(name, specs[i].name) ||
		    (specs[i].alias && !strcasecmp(name, specs[i].alias)))
			return &specs[i];
	return NULL;
}

/* Fill op from the argument tokens per spec; why on error. */
static int fill_op(struct loadfile *lf, struct handle_map *hm,
		   const struct op_spec *spec, char **arg, struct lf_op *op,
		   struct strbuf *why)
{
	unsigned i;

	for (i = 0; spec->args[i]; i++) {
		char t = spec->args[i];
		int64_t v = 0;
		int ret;

		if (t == 'p' || t == 'P' || t == 'f') {
			uint32_t *dst = t == 'P' ? &op->path2 : &op->path;

			ret = add_path(lf, arg[i], t == 'f' ? 'd' : 'p', dst);
			if (!ret && t == 'f')
				ret = add_path(lf, arg[i], 'f', &op->path2);
			if (ret) {
				strbuf_addf(why,
					    "path '%s' leaves the client's "
					    "directory (a '..' component)",
					    arg[i]);
				return -EINVAL;
			}
			continue;
		}
		if (parse_num(arg[i], &v)) {
			strbuf_addf(why, "'%s' is not a number (%s %s)", arg[i],
				    spec->name, spec->help);
			return -EINVAL;
		}
		if (t == 'h') {
			if (v < INT32_MIN || v > INT32_MAX) {
				strbuf_addf(why, "handle '%s' is out of range",
					    arg[i]);
				return -EINVAL;
			}
			op->handle = hmap_get(hm, v);
			continue;
		}
		if (v < 0) {
			strbuf_addf(why, "'%s' is negative (%s %s)", arg[i],
				    spec->name, spec->help);
			return -EINVAL;
		}
		switch (t) {
		case 'n':
			if (v > UINT32_MAX) {
				strbuf_addf(why, "'%s' is out of range",
					    arg[i]);
				return -EINVAL;
			}
			if (i == 1)
				op->options = (uint32_t)v;
			else
				op->disposition = (uint32_t)v;
			break;
		case 'c':
			op->size = v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
			break;
		case 'o':
			if ((uint64_t)v > LF_MAX_OFFSET) {
				strbuf_addf(why, "offset '%s' is past 1 TiB",
					    arg[i]);
				return -EINVAL;
			}
			op->offset = (uint64_t)v;
			break;
		case 's':
		case 'r':
			if ((spec->kind == LF_READX ||
			     spec->kind == LF_WRITEX) &&
			    (uint64_t)v > LF_MAX_IO_BYTES) {
				strbuf_addf(why, "size '%s' is over 16 MiB",
					    arg[i]);
				return -EINVAL;
			}
			if (v > UINT32_MAX) {
				strbuf_addf(why, "size '%s' is out of range",
					    arg[i]);
				return -EINVAL;
			}
			if (t == 's')
				op->size = (uint32_t)v;
			else
				op->ret_size = (uint32_t)v;
			break;
		default:
			break;
		}
	}
	if (spec->kind == LF_NTCREATEX &&
	    op->disposition > LF_FILE_OVERWRITE_IF) {
		strbuf_addf(why, "create disposition %u is not 0 to 5",
			    op->disposition);
		return -EINVAL;
	}
	if ((spec->kind == LF_READX || spec->kind == LF_WRITEX) &&
	    op->ret_size > op->size) {
		strbuf_addf(why, "%s moves %u bytes of a %u-byte request",
			    spec->name, op->ret_size, op->size);
		return -EINVAL;
	}
	if ((spec->kind == LF_READX || spec->kind == LF_WRITEX) &&
	    op->offset + op->size > LF_MAX_FILE_BYTES) {
		strbuf_addstr(why, "the I/O ends past 1 GiB");
		return -EINVAL;
	}
	return 0;
}

/* Parse one line (a NUL-terminated copy). 0, or -EINVAL with why. */
static int parse_line(struct loadfile *lf, struct handle_map *hm, char *line,
		      unsigned lineno, struct strbuf *why)
{
	char *tok[MAX_TOKENS], **t = tok;
	const struct op_spec *spec;
	const char *problem = NULL;
	struct lf_op op;
	unsigned n, nargs;
	int ok;

	if (tokenize(line, tok, &n, &problem)) {
		strbuf_addstr(why, problem);
		return -EINVAL;
	}
	if (!n || tok[0][0] == '#')
		return 0;
	/* dbench 4's timestamp: when to send it; we go as fast as we can */
	if (n > 1 && tok[0][0] >= '0' && tok[0][0] <= '9' &&
	    strspn(tok[0], "0123456789.") == strlen(tok[0])) {
		t++;
		n--;
	}
	if (!strcasecmp(t[0], "Sleep")) {
		lf->nr_ignored++;
		return 0;
	}
	spec = find_spec(t[0]);
	if (n < 2 || parse_status(t[n - 1], &ok)) {
		strbuf_addf(why,
			    "expected a status (NT_STATUS_... or 0x...) as the "
			    "last field, not '%s'",
			    n < 2 ? t[0] : t[n - 1]);
		return -EINVAL;
	}
	if (!spec) {
		count_unknown(lf, t[0], lineno);
		return 0;
	}
	nargs = (unsigned)strlen(spec->args);
	if (n - 2 != nargs) {
		strbuf_addf(why,
			    "%s takes %u field%s (%s) and a status, not %u",
			    spec->name, nargs, nargs == 1 ? "" : "s",
			    spec->help, n - 2);
		return -EINVAL;
	}
	memset(&op, 0, sizeof(op));
	op.kind = (uint8_t)spec->kind;
	op.expect_ok = (uint8_t)ok;
	op.line = lineno;
	op.path = op.path2 = LF_NO_PATH;
	if (fill_op(lf, hm, spec, t + 1, &op, why))
		return -EINVAL;
	if ((op.kind == LF_READX || op.kind == LF_WRITEX) &&
	    op.size > lf->max_io_bytes)
		lf->max_io_bytes = op.size;
	lf->kind_count[op.kind]++;
	ALLOC_GROW(lf->ops, lf->nr_ops + 1, lf->alloc_ops);
	lf->ops[lf->nr_ops++] = op;
	return 0;
}

int loadfile_parse(struct loadfile *lf, const char *name, const char *text,
		   size_t len, struct strbuf *err)
{
	struct strbuf why = STRBUF_INIT;
	struct handle_map hm = {0};
	char line[MAX_LINE_BYTES + 1];
	size_t pos = 0;
	unsigned lineno = 0;
	int ret = 0;

	memset(lf, 0, sizeof(*lf));
	lf->name = xstrdup(name);
	strbuf_init(&lf->strings, 0);
	while (pos < len && !ret) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - (text + pos)) : len - pos;

		lineno++;
		if (n > MAX_LINE_BYTES) {
			strbuf_addf(&why, "the line is longer than %d bytes",
				    MAX_LINE_BYTES);
			ret = -EINVAL;
			break;
		}
		memcpy(line, text + pos, n);
		line[n] = '\0';
		pos += n + 1;
		if (strlen(line) != n) {
			strbuf_addstr(&why, "the line holds a NUL byte");
			ret = -EINVAL;
			break;
		}
		ret = parse_line(lf, &hm, line, lineno, &why);
	}
	lf->nr_lines = lineno;
	lf->nr_handles = (unsigned)hm.nr;
	hmap_free(&hm);
	if (!ret && !lf->nr_ops) {
		strbuf_addstr(&why, "it holds no operation");
		ret = -EINVAL;
		lineno = 0;
	}
	if (ret) {
		if (lineno)
			err_set(err, ret, "loadfile '%s' line %u: %s", name,
				lineno, why.buf);
		else
			err_set(err, ret, "loadfile '%s': %s", name, why.buf);
		loadfile_release(lf);
	}
	strbuf_release(&why);
	return ret;
}

int loadfile_read(struct loadfile *lf, const char *path, struct strbuf *err)
{
	struct strbuf sb = STRBUF_INIT;
	struct stat st;
	/* a FIFO or a device is refused, not waited on */
	int ret = userfile_read(path, 256u << 20, &sb, err);

	memset(lf, 0, sizeof(*lf));
	if (ret == -EFBIG)
		ret = err_set(err, -EINVAL,
			      "loadfile '%s' is larger than 256 MiB", path);
	else if (ret == -EINVAL && !stat(path, &st))
		err_set(err, ret,
			"cannot read loadfile '%s': %s, not a regular file",
			path, userfile_kind(st.st_mode));
	else if (ret)
		err_set(err, ret, "cannot read loadfile '%s': %s", path,
			strerror(-ret));
	else
		ret = loadfile_parse(lf, path, sb.buf, sb.len, err);
	strbuf_release(&sb);
	return ret;
}

void loadfile_release(struct loadfile *lf)
{
	unsigned i;

	if (!lf)
		return;
	for (i = 0; i < lf->nr_unknown; i++)
		free(lf->unknown[i].name);
	free(lf->unknown);
	free(lf->ops);
	free(lf->name);
	strbuf_release(&lf->strings);
	memset(lf, 0, sizeof(*lf));
	strbuf_init(&lf->strings, 0);
}
