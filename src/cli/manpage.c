/*
 * 'iotrial help --man' (manpage.h): the manual's option lists, and its
 * lists of a workload's parameters, from the rows that parse them, the
 * prose from the template. Made by the
 * program itself because the rows are tables local to each command,
 * some joined at run time (run's workload parameters, the shared
 * OPT_CLI_RUN rows): only the program that parses them can list them,
 * as the completion reads them from 'iotrial help --options'.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "manpage.h"
#include "options.h"
#include "../util/strbuf.h"
#include "../util/xalloc.h"
#include "../util/banned.h"

#define MARK                                                                   \
	"."                                                                    \
	"\\\" @"

/* One item of a list: the options it names and its prose. */
struct man_item {
	char **names;
	size_t nr_names, alloc_names;
	struct strbuf body;
	int line; /* of its marker in the template */
};

/* A list being read: its command line, its items, what came of it. */
struct man_list {
	int params;	   /* of a workload's parameters (@params) */
	const char **argv; /* CMD ARG... "--help-options" */
	int argc;
	char **words; /* CMD ARG..., what argv points to */
	size_t nr_words;
	struct man_item *items;
	size_t nr_items, alloc_items;
	int line;
	int seen;	    /* the command handed its table over */
	struct strbuf *out; /* the rendered list */
	struct strbuf *err; /* set on a failure */
};

/* Free what l holds (not out, err). */
static void list_release(struct man_list *l)
{
	size_t i, k;

	for (i = 0; i < l->nr_items; i++) {
		for (k = 0; k < l->items[i].nr_names; k++)
			free(l->items[i].names[k]);
		free(l->items[i].names);
		strbuf_release(&l->items[i].body);
	}
	free(l->items);
	for (k = 0; k < l->nr_words; k++)
		free(l->words[k]);
	free(l->words);
	free(l->argv);
	memset(l, 0, sizeof(*l));
}

/*
 * s as roff text: a backslash as \e, the hyphens of an option word
 * ("--time", "-t") as \-, a leading dot or quote made harmless.
 */
static void roff_text(struct strbuf *out, const char *s)
{
	int opt_word = 0;
	const char *p;

	if (*s == '.' || *s == '\'')
		strbuf_addstr(out, "\\&");
	for (p = s; *p; p++) {
		int word_start = p == s || strchr(" ('\"[", p[-1]);

		if (word_start)
			opt_word = *p == '-';
		if (*p == '\\')
			strbuf_addstr(out, "\\e");
		else if (*p == '-' && opt_word)
			strbuf_addstr(out, "\\-");
		else
			strbuf_addch(out, *p);
	}
}

/*
 * A value's name as the manual sets it: metavariables (FILE, V1,
 * FILE.html) in italics, literal words (json, auto, 1, the ops of Nops)
 * in bold, the punctuation between them (| [ ] = , :) in roman.
 */
static void roff_argh(struct strbuf *out, const char *argh)
{
	const char *p = argh;

	while (*p) {
		size_t n;

		if (isupper((unsigned char)*p)) {
			n = strspn(p, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
			if (p[n] == '.' && isalnum((unsigned char)p[n + 1]))
				n += 1 + strspn(p + n + 1,
						"abcdefghijklmnopqrstuvwxyz"
						"ABCDEFGHIJKLMNOPQRSTUVWXYZ"
						"0123456789_");
			strbuf_addstr(out, "\\fI");
		} else if (isalnum((unsigned char)*p)) {
			n = strspn(p, "abcdefghijklmnopqrstuvwxyz0123456789_-");
			strbuf_addstr(out, "\\fB");
		} else {
			if (*p == '\\')
				strbuf_addstr(out, "\\e");
			else if (*p == '-')
				strbuf_addstr(out, "\\-");
			else
				strbuf_addch(out, *p);
			p++;
			continue;
		}
		for (; n; n--, p++)
			if (*p == '-')
				strbuf_addstr(out, "\\-");
			else
				strbuf_addch(out, *p);
		strbuf_addstr(out, "\\fR");
	}
}

/* The tag of row o: "\fB\-t\fR, \fB\-\-target\fR \fITARGET\fR". */
static void roff_tag(struct strbuf *out, const struct option *o)
{
	struct strbuf argh = STRBUF_INIT;
	const char *p;

	if (o->short_name)
		strbuf_addf(out, "\\fB\\-%c\\fR%s", o->short_name,
			    o->long_name ? ", " : "");
	if (o->long_name) {
		strbuf_addstr(out, "\\fB\\-\\-");
		for (p = o->long_name; *p; p++)
			if (*p == '-')
				strbuf_addstr(out, "\\-");
			else
				strbuf_addch(out, *p);
		strbuf_addstr(out, "\\fR");
	}
	if (option_takes_value(o)) {
		option_argh(o, &argh);
		if (o->flags & OPT_OPTARG) {
			strbuf_addstr(out, "[\\fB=\\fR");
			roff_argh(out, argh.buf);
			strbuf_addch(out, ']');
		} else {
			strbuf_addch(out, ' ');
			roff_argh(out, argh.buf);
		}
	}
	strbuf_release(&argh);
}

/*
 * The item of a row nobody wrote about: its help as a sentence, with
 * its default and range as --help gives them.
 */
static void roff_help(struct strbuf *out, const struct option *o)
{
	struct strbuf help = STRBUF_INIT, limits = STRBUF_INIT;

	strbuf_addstr(&help, o->help ? o->help : "");
	option_limits(o, &limits);
	if (limits.len && help.len && help.buf[help.len - 1] == ')') {
		/* "(default: all)" and " (1 or more)": one pair */
		strbuf_setlen(&help, help.len - 1);
		strbuf_addf(&help, ", %s", limits.buf + 2);
	} else {
		strbuf_addstr(&help, limits.buf);
	}
	if (help.len && islower((unsigned char)help.buf[0]))
		help.buf[0] = (char)toupper((unsigned char)help.buf[0]);
	if (help.len) {
		roff_text(out, help.buf);
		strbuf_addstr(out, ".\n");
	}
	strbuf_release(&help);
	strbuf_release(&limits);
}

/* Whose rows l lists: "'iotrial watch'", "workload 'crashdump'". */
static void list_name(struct strbuf *out, const struct man_list *l)
{
	if (l->params)
		strbuf_addf(out, "workload '%s'", l->argv[1]);
	else
		strbuf_addf(out, "'iotrial %s'", l->argv[0]);
}

/* Is o one of a command's own rows (not hidden, not a heading)? */
static int listed(const struct option *o)
{
	return o->type != OPTION_GROUP && o->type != OPTION_ARGUMENTS &&
	       !(o->flags & OPT_HIDDEN) && (o->long_name || o->short_name);
}

/* The row name ("--time", "-t") names among the command's own, or NULL. */
static const struct option *find_row(const struct option *opts,
				     const unsigned char *own, const char *name)
{
	size_t i;

	for (i = 0; opts[i].type != OPTION_END; i++) {
		if (!own[i])
			continue;
		if (!strncmp(name, "--", 2) && opts[i].long_name &&
		    !strcmp(name + 2, opts[i].long_name))
			return &opts[i];
		if (name[0] == '-' && name[1] && !name[2] &&
		    opts[i].short_name == name[1])
			return &opts[i];
	}
	return NULL;
}

/*
 * The hook of "--help-options": the list l from the command's table.
 * Rows under a "parameters of" heading are the workload's: the rows of
 * a list of parameters (@params), left out of a command's (they are
 * documented in WORKLOADS); hidden rows are listed only when an item
 * names them.
 */
static void render(const struct option *opts, void *data)
{
	struct man_list *l = data;
	unsigned char *own, *used;
	size_t n, i, k;
	int params = 0;

	l->seen = 1;
	for (n = 0; opts[n].type != OPTION_END; n++)
		;
	own = xcalloc(n + 1, 1);
	used = xcalloc(n + 1, 1);
	for (i = 0; i < n; i++) {
		if (opts[i].type == OPTION_GROUP)
			params = opts[i].help &&
				 !strncmp(opts[i].help, "parameters of", 13);
		own[i] = params == l->params && opts[i].type != OPTION_GROUP &&
			 opts[i].type != OPTION_ARGUMENTS &&
			 (opts[i].long_name || opts[i].short_name);
	}
	for (i = 0; i < l->nr_items && !l->err->len; i++) {
		const struct man_item *it = &l->items[i];

		strbuf_addstr(l->out, ".TP\n");
		for (k = 0; k < it->nr_names; k++) {
			const struct option *o =
			    find_row(opts, own, it->names[k]);

			if (!o) {
				strbuf_addf(l->err,
					    "line %d: '%s' is no %s of ",
					    it->line, it->names[k],
					    l->params ? "parameter" : "option");
				list_name(l->err, l);
				break;
			}
			if (used[o - opts]) {
				strbuf_addf(l->err, "line %d: '%s' of ",
					    it->line, it->names[k]);
				list_name(l->err, l);
				strbuf_addstr(l->err, " has an item already");
				break;
			}
			used[o - opts] = 1;
			if (k)
				strbuf_addstr(l->out, ", ");
			roff_tag(l->out, o);
		}
		if (l->err->len)
			break;
		strbuf_addch(l->out, '\n');
		if (it->body.len)
			strbuf_addstr(l->out, it->body.buf);
		else if (it->nr_names)
			roff_help(l->out, find_row(opts, own, it->names[0]));
	}
	for (i = 0; i < n && !l->err->len; i++) {
		if (!own[i] || used[i] || !listed(&opts[i]))
			continue;
		strbuf_addstr(l->out, ".TP\n");
		roff_tag(l->out, &opts[i]);
		strbuf_addch(l->out, '\n');
		roff_help(l->out, &opts[i]);
	}
	free(own);
	free(used);
}

/* Split the words after a marker into a new item or a list's argv. */
static char **split_words(const char *s, size_t *nr)
{
	char **v = NULL;
	size_t alloc = 0;

	*nr = 0;
	for (;;) {
		size_t n;

		s += strspn(s, " \t");
		n = strcspn(s, " \t");
		if (!n)
			break;
		ALLOC_GROW(v, *nr + 1, alloc);
		v[(*nr)++] = xstrndup(s, n);
		s += n;
	}
	return v;
}

/*
 * The words after the marker of word at the start of line (" run\n"
 * after the marker @options), or NULL when line is not that marker.
 */
static const char *marker(const char *line, const char *word)
{
	size_t n = strlen(MARK), w = strlen(word);

	if (strncmp(line, MARK, n) || strncmp(line + n, word, w) ||
	    !strchr(" \t\n", line[n + w]))
		return NULL;
	return line + n + w;
}

/* The marker of an item of l: "option" or "param". */
static const char *item_word(const struct man_list *l)
{
	return l->params ? "param" : "option";
}

/* Render the list l (at its @end) into out with run(). 0 or -1. */
static int finish_list(struct man_list *l, FILE *out,
		       int (*run)(int argc, const char **argv))
{
	struct strbuf text = STRBUF_INIT;
	int ret;

	l->out = &text;
	options_on_rows(render, l);
	ret = run(l->argc, l->argv);
	options_on_rows(NULL, NULL);
	if (!l->err->len && (ret || !l->seen)) {
		strbuf_addf(l->err, "line %d: ", l->line);
		list_name(l->err, l);
		strbuf_addf(l->err, " listed no %s (exit %d)",
			    l->params ? "parameters" : "options", ret);
	}
	if (!l->err->len)
		fputs(text.buf, out);
	strbuf_release(&text);
	return l->err->len ? -1 : 0;
}

int cli_manpage(FILE *in, FILE *out, int (*run)(int argc, const char **argv),
		struct strbuf *err)
{
	struct man_list l = {0};
	struct strbuf all = STRBUF_INIT, cur = STRBUF_INIT;
	const char *next;
	const char *rest;
	char *line, buf[8192];
	size_t got;
	int lineno = 0, in_list = 0, ret = 0, kind;

	/* all of it first: a command run for its table may touch stdin */
	while ((got = fread(buf, 1, sizeof(buf), in)) > 0)
		strbuf_add(&all, buf, got);
	if (ferror(in)) {
		strbuf_addf(err, "cannot read the template: %s",
			    strerror(errno));
		strbuf_release(&all);
		return -1;
	}
	next = all.buf;

	fputs(".\\\" Generated from docs/iotrial.1.in by 'iotrial help "
	      "--man': edit that file, not this one.\n",
	      out);
	while (!ret && next && *next) {
		const char *nl = strchr(next, '\n');
		size_t n = nl ? (size_t)(nl - next) + 1 : strlen(next);

		strbuf_reset(&cur);
		strbuf_add(&cur, next, n);
		next += n;
		line = cur.buf;
		lineno++;
		kind = -1; /* not the start of a list */
		if ((rest = marker(line, "options")))
			kind = 0;
		else if ((rest = marker(line, "params")))
			kind = 1;
		if (kind >= 0) {
			size_t nr, k;

			if (in_list) {
				strbuf_addf(err,
					    "line %d: @%s inside the list of "
					    "line %d",
					    lineno, kind ? "params" : "options",
					    l.line);
				ret = -1;
				break;
			}
			line[strcspn(line, "\n")] = '\0';
			l.words = split_words(rest, &nr);
			l.nr_words = nr;
			l.params = kind;
			l.err = err;
			l.line = lineno;
			if (!nr || (kind && nr != 1)) {
				strbuf_addf(err, "line %d: %s", lineno,
					    kind ? "@params names one "
						   "workload"
						 : "@options names no "
						   "command");
				ret = -1;
			}
			/* a workload's rows are those run adds for it */
			l.argv = xcalloc(nr + 3, sizeof(*l.argv));
			if (kind)
				l.argv[l.argc++] = "run";
			for (k = 0; k < nr; k++)
				l.argv[l.argc++] = l.words[k];
			l.argv[l.argc++] = "--help-options";
			in_list = 1;
			continue;
		}
		if (in_list && (rest = marker(line, item_word(&l)))) {
			struct man_item *it;
			size_t nr;

			ALLOC_GROW(l.items, l.nr_items + 1, l.alloc_items);
			it = &l.items[l.nr_items++];
			memset(it, 0, sizeof(*it));
			strbuf_init(&it->body, 0);
			it->line = lineno;
			line[strcspn(line, "\n")] = '\0';
			it->names = split_words(rest, &nr);
			it->nr_names = it->alloc_names = nr;
			if (!nr) {
				strbuf_addf(err, "line %d: @%s names no %s",
					    lineno, item_word(&l),
					    item_word(&l));
				ret = -1;
			}
			continue;
		}
		if (in_list && marker(line, l.params ? "option" : "param")) {
			strbuf_addf(err,
				    "line %d: @%s in the @%s list of line %d",
				    lineno, l.params ? "option" : "param",
				    l.params ? "params" : "options", l.line);
			ret = -1;
			break;
		}
		if (in_list && !strcmp(line, MARK "end\n")) {
			ret = finish_list(&l, out, run);
			list_release(&l);
			in_list = 0;
			continue;
		}
		if (in_list &&
		    (!strcmp(line, ".TP\n") || !strncmp(line, ".SS ", 4) ||
		     !strncmp(line, ".SH ", 4))) {
			strbuf_addf(err,
				    "line %d: %.3s inside the list of line %d "
				    "(an item is '.\\\" @%s --NAME'; a list "
				    "ends at '.\\\" @end')",
				    lineno, line, l.line, item_word(&l));
			ret = -1;
			break;
		}
		if (!in_list) {
			fputs(line, out);
			continue;
		}
		if (!l.nr_items) {
			strbuf_addf(err,
				    "line %d: text in the list of line "
				    "%d before its first @%s",
				    lineno, l.line, item_word(&l));
			ret = -1;
			break;
		}
		strbuf_addstr(&l.items[l.nr_items - 1].body, line);
	}
	if (!ret && in_list) {
		strbuf_addf(err, "line %d: the list has no '.\\\" @end'",
			    l.line);
		ret = -1;
	}
	if (in_list)
		list_release(&l);
	strbuf_release(&cur);
	strbuf_release(&all);
	return ret;
}
