/*
 * libFuzzer target for the playbook `fleet plan` writes
 * (fleet_plan_playbook()): the compare's command line, the host pattern
 * (an inventory's group or host names), the --binary path and the
 * version all go into YAML that Ansible loads and templates with
 * Jinja. The input is a flags byte (become, which of the pattern,
 * binary and version are absent, whether argv[0] is forced to compare
 * or observe), then the pattern, binary, version and the arguments,
 * separated by NUL bytes. The contracts: a plan is refused with
 * -EINVAL and a message, or its playbook is UTF-8 that YAML takes (no
 * control byte, no tab, no character YAML refuses raw); its shape does
 * not depend on the strings: with every double-quoted scalar replaced
 * by a mark, it is the playbook of the same plan made of neutral
 * strings, line for line; and every scalar that a string filled reads
 * back (JSON/YAML escapes undone) as exactly one of the strings given,
 * holding no Jinja delimiter.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "core/fleet/fleet.h"
#include "util/text.h"
#include "util/xalloc.h"
#include "util/banned.h"

#define MAX_ARGS 32

static void check(int ok)
{
	if (!ok)
		__builtin_trap();
}

/* Read the hex digits of \uXXXX at s into *cp; 0 when they are not. */
static int hex4(const char *s, unsigned *cp)
{
	unsigned v = 0;
	int i;

	for (i = 0; i < 4; i++) {
		char c = s[i];

		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v |= (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v |= (unsigned)(c - 'A' + 10);
		else
			return 0;
	}
	*cp = v;
	return 1;
}

/* Append code point cp (below U+10000) as UTF-8. */
static void add_utf8(struct strbuf *out, unsigned cp)
{
	if (cp < 0x80) {
		strbuf_addch(out, (char)cp);
	} else if (cp < 0x800) {
		strbuf_addch(out, (char)(0xc0 | cp >> 6));
		strbuf_addch(out, (char)(0x80 | (cp & 0x3f)));
	} else {
		strbuf_addch(out, (char)(0xe0 | cp >> 12));
		strbuf_addch(out, (char)(0x80 | ((cp >> 6) & 0x3f)));
		strbuf_addch(out, (char)(0x80 | (cp & 0x3f)));
	}
}

/*
 * Split text into its skeleton (each double-quoted scalar replaced by
 * '"' '"') and its scalars, unescaped, each a malloc'd string in
 * scalars[] (at most max; the count returned). A scalar that does not
 * end on its line, or an escape YAML and JSON would not read alike,
 * traps.
 */
static size_t split(const char *text, struct strbuf *skel, char **scalars,
		    size_t max)
{
	size_t n = 0;
	const char *p = text;

	while (*p) {
		struct strbuf s = STRBUF_INIT;
		unsigned cp;

		if (*p != '"') {
			strbuf_addch(skel, *p++);
			continue;
		}
		strbuf_addstr(skel, "\"\"");
		for (p++; *p != '"'; p++) {
			check(*p && *p != '\n');
			if (*p != '\\') {
				strbuf_addch(&s, *p);
				continue;
			}
			p++;
			if (*p == '"' || *p == '\\' || *p == '/')
				strbuf_addch(&s, *p);
			else if (*p == 'n')
				strbuf_addch(&s, '\n');
			else if (*p == 'u' && hex4(p + 1, &cp)) {
				/* never a surrogate: they pair in JSON only */
				check(cp < 0xd800 || cp > 0xdfff);
				add_utf8(&s, cp);
				p += 4;
			} else {
				check(0); /* an escape this writer never uses */
			}
		}
		p++;
		check(n < max);
		scalars[n++] = strbuf_detach(&s, NULL);
	}
	return n;
}

/* Is s, decoded, one of the strings the plan was made of? */
static int given(const char *s, const struct fleet_plan *p)
{
	int i;

	if ((p->hosts && !strcmp(s, p->hosts)) ||
	    (p->binary && !strcmp(s, p->binary)) ||
	    (p->version && !strcmp(s, p->version)))
		return 1;
	for (i = 0; i < p->argc; i++) {
		const char *a = p->argv[i];

		if (!strcmp(s, a) ||
		    (!strncmp(a, "--target=", 9) && !strcmp(s, a + 9)) ||
		    (!strncmp(a, "-t", 2) && !strcmp(s, a + 2)))
			return 1;
	}
	return 0;
}

/* The neutral form of argument a: its option word kept, any value "x". */
static const char *neutral_arg(const char *a, int i)
{
	static const char *const kept[] = {"-t",      "--target", "--json",
					   "--quiet", "compare",  "observe"};
	size_t k;

	for (k = 0; k < sizeof(kept) / sizeof(*kept); k++)
		if (!strcmp(a, kept[k]) && (i == 0 || k < 4))
			return a;
	if (!strncmp(a, "--target=", 9))
		return "--target=x";
	if (!strncmp(a, "--json=", 7))
		return "--json=x";
	if (!strncmp(a, "-t", 2) && a[2])
		return "-tx";
	return "x";
}

static void check_playbook(const struct fleet_plan *p, const char *text)
{
	const char *nargv[MAX_ARGS];
	struct fleet_plan np = *p;
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	struct strbuf sk = STRBUF_INIT, nsk = STRBUF_INIT;
	char *sc[512], *nsc[512], *copy = xstrdup(text);
	size_t n, nn, i;
	int j;

	/* UTF-8, no control byte but the line ends, no tab; not raw the
	 * line breaks YAML 1.1 folds (U+2028, U+2029) nor U+FFFE, U+FFFF */
	check(!text_make_printable_lines(copy) && !strchr(text, '\t'));
	check(!strstr(text, "\xe2\x80\xa8") && !strstr(text, "\xe2\x80\xa9") &&
	      !strstr(text, "\xef\xbf\xbe") && !strstr(text, "\xef\xbf\xbf"));
	free(copy);
	for (j = 0; j < p->argc; j++)
		nargv[j] = neutral_arg(p->argv[j], j);
	np.argv = nargv;
	np.hosts = p->hosts ? "x" : NULL;
	np.binary = p->binary ? "x" : NULL;
	np.version = p->version ? "x" : NULL;
	check(!fleet_plan_playbook(&np, &out, &err));
	n = split(text, &sk, sc, 512);
	nn = split(out.buf, &nsk, nsc, 512);
	/* the same shape, whatever the strings */
	check(n == nn && !strcmp(sk.buf, nsk.buf));
	for (i = 0; i < n; i++) {
		/* a scalar a string filled is that string, whole */
		if (strcmp(sc[i], nsc[i])) {
			check(given(sc[i], p));
			check(!strstr(sc[i], "{{") && !strstr(sc[i], "{%") &&
			      !strstr(sc[i], "{#"));
		}
		free(sc[i]);
		free(nsc[i]);
	}
	strbuf_release(&out);
	strbuf_release(&err);
	strbuf_release(&sk);
	strbuf_release(&nsk);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	const char *field[3 + MAX_ARGS];
	struct fleet_plan p = {0};
	unsigned flags;
	char *buf, *s, *end;
	size_t nf = 0;
	int ret;

	if (!size)
		return 0;
	flags = data[0];
	buf = malloc(size + 1);
	if (!buf)
		return 0;
	memcpy(buf, data + 1, size - 1);
	buf[size - 1] = '\0';
	end = buf + size - 1;
	for (s = buf; nf < 3 + MAX_ARGS; s += strlen(s) + 1) {
		field[nf++] = s;
		if (s + strlen(s) >= end)
			break;
	}
	while (nf < 3)
		field[nf++] = "";
	p.become = flags & 1;
	p.hosts = flags & 2 ? NULL : field[0];
	p.binary = flags & 4 ? NULL : field[1];
	p.version = flags & 8 ? NULL : field[2];
	p.forks = 3;
	p.argv = &field[3];
	p.argc = (int)(nf - 3);
	if (p.argc && (flags & 0x30))
		field[3] = flags & 0x10 ? "compare" : "observe";
	ret = fleet_plan_playbook(&p, &out, &err);
	if (ret)
		check(ret == -EINVAL && err.len > 0);
	else
		check_playbook(&p, out.buf);
	strbuf_release(&out);
	strbuf_release(&err);
	free(buf);
	return 0;
}
