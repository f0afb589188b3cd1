/*
 * parse_options(): one walk over argv driven by a command's option table
 * (see options.h). The table is the only place an option is described,
 * so parsing, --help and suggestions cannot drift apart.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "options.h"
#include "../util/error.h"
#include "../util/strbuf.h"
#include "../util/xalloc.h"
#include "../util/banned.h"

/* --help puts the help text in this column when the option fits. */
#define HELP_COLUMN 26
/* ... and wraps it to stay within this many columns. */
#define HELP_WIDTH 79

void option_list_release(struct option_list *l)
{
	if (!l)
		return;
	free(l->v);
	memset(l, 0, sizeof(*l));
}

struct option *options_join(const struct option *a, const struct option *b)
{
	size_t na = 0, nb = 0;
	struct option *res;

	while (a && a[na].type != OPTION_END)
		na++;
	while (b && b[nb].type != OPTION_END)
		nb++;
	res = xcalloc(na + nb + 1, sizeof(*res));
	if (na)
		memcpy(res, a, na * sizeof(*res));
	if (nb)
		memcpy(res + na, b, nb * sizeof(*res));
	res[na + nb].type = OPTION_END;
	return res;
}

/* Does the option take a value (always or optionally)? */
static int takes_value(const struct option *o)
{
	return option_takes_value(o);
}

/* Who gets the table for "--help-options" instead of options_dump(). */
static options_rows_fn rows_hook;
static void *rows_hook_data;

void options_on_rows(options_rows_fn fn, void *data)
{
	rows_hook = fn;
	rows_hook_data = data;
}

int option_takes_value(const struct option *o)
{
	switch (o->type) {
	case OPTION_STRING:
	case OPTION_LIST:
		return 1;
	case OPTION_CALLBACK:
		return !(o->flags & OPT_NOARG);
	default:
		return option_is_typed(o);
	}
}

/* Is the value optional, "--x" alone being "--x=1" (on/off values)? */
static int flag_value(const struct option *o)
{
	return o->type == OPTION_ONOFF || (o->flags & OPT_FLAGARG);
}

static int is_flag_word(const char *word);

/* The option as the user wrote it, for messages: "--time" or "-t". */
static void option_name(const struct option *o, int as_short,
			struct strbuf *out)
{
	if (as_short || !o->long_name)
		strbuf_addf(out, "-%c", o->short_name);
	else
		strbuf_addf(out, "--%s", o->long_name);
}

/*
 * Store arg (NULL: no value) through o, which was written as_short ("-n"
 * rather than "--count": an error names it so). 0, or -1 after an error.
 */
static int store(const struct option *o, int as_short, const char *arg)
{
	struct option_list *l;

	if (option_is_typed(o)) {
		struct strbuf note_sb = STRBUF_INIT, err = STRBUF_INIT;
		int ret = option_parse_typed(o, arg, &note_sb, &err);
		size_t n = o->long_name ? strlen(o->long_name) : 0;

		if (ret && as_short && n && !strncmp(err.buf, "--", 2) &&
		    !strncmp(err.buf + 2, o->long_name, n) &&
		    err.buf[n + 2] == ':')
			error("-%c%s", o->short_name, err.buf + n + 2);
		else if (ret)
			error("%s", err.buf);
		else if (note_sb.len)
			note("%s", note_sb.buf);
		if (!ret && o->given)
			*o->given = 1;
		strbuf_release(&note_sb);
		strbuf_release(&err);
		return ret ? -1 : 0;
	}
	if (o->flags & OPT_FLAGARG && !is_flag_word(arg)) {
		error("--%s: '%s' is not on or off (say 1, 0, yes, no, on, "
		      "off); --%s alone is 1",
		      o->long_name, arg, o->long_name);
		return -1;
	}
	switch (o->type) {
	case OPTION_BOOL:
		*(int *)o->value = 1;
		return 0;
	case OPTION_BIT:
		*(unsigned *)o->value |= (unsigned)o->bit;
		return 0;
	case OPTION_STRING:
		*(const char **)o->value = arg;
		return 0;
	case OPTION_LIST:
		l = o->value;
		ALLOC_GROW(l->v, l->nr + 1, l->alloc);
		l->v[l->nr++] = arg;
		return 0;
	case OPTION_CALLBACK:
		return o->callback(o, arg) < 0 ? -1 : 0;
	default:
		return 0;
	}
}

/* Is word an on/off value (0, 1, yes, no, true, false, on, off)? */
static int is_flag_word(const char *word)
{
	return option_onoff(word) >= 0;
}

/*
 * Does word look like an option, so that it is not taken as the value
 * of the option before it? "-" (stdin, stdout) and "-5" are not.
 */
static int looks_like_option(const char *word)
{
	return word[0] == '-' && word[1] && !isdigit((unsigned char)word[1]) &&
	       word[1] != '.';
}

/*
 * Take the value of option o found at argv[*i]. inline_value is what
 * followed '=' (or the rest of "-tVALUE"), NULL when nothing did.
 */
static int take(const struct option *o, int as_short, int argc,
		const char **argv, int *i, const char *inline_value)
{
	struct strbuf name = STRBUF_INIT;
	int ret;

	option_name(o, as_short, &name);
	if (!takes_value(o)) {
		if (inline_value) {
			error("option '%s' takes no value", name.buf);
			strbuf_release(&name);
			return -1;
		}
		strbuf_release(&name);
		return store(o, as_short, NULL);
	}
	if (!inline_value && (o->flags & OPT_OPTARG)) {
		inline_value = o->defval;
	} else if (!inline_value && flag_value(o) &&
		   (*i + 1 >= argc || looks_like_option(argv[*i + 1]))) {
		inline_value = "1";
	} else if (!inline_value) {
		struct strbuf argh = STRBUF_INIT;

		option_argh(o, &argh);
		if (*i + 1 >= argc)
			error("%s needs a value (%s)", name.buf, argh.buf);
		else if (looks_like_option(argv[*i + 1]))
			error("%s needs a value (%s); '%s' is an option "
			      "(write %s%s%s if it is the value)",
			      name.buf, argh.buf, argv[*i + 1], name.buf,
			      as_short ? "" : "=", argv[*i + 1]);
		else
			inline_value = argv[++*i];
		strbuf_release(&argh);
		if (!inline_value) {
			strbuf_release(&name);
			return -1;
		}
	}
	strbuf_release(&name);
	ret = store(o, as_short, inline_value);
	return ret;
}

/* An unknown "--x" or "-x": say so, with the nearest option if any. */
static void unknown(const char *cmd, const char *arg, const struct option *opts)
{
	struct strbuf key = STRBUF_INIT;
	const char **names;
	char **owned;
	size_t n = 0, k;
	const char *near;

	for (k = 0; opts[k].type != OPTION_END; k++)
		;
	/* long names only: every letter is one edit from "-t" */
	names = xcalloc(k + 1, sizeof(*names));
	owned = xcalloc(k + 1, sizeof(*owned));
	for (k = 0; opts[k].type != OPTION_END; k++) {
		struct strbuf sb = STRBUF_INIT;

		if (opts[k].type == OPTION_GROUP)
			continue;
		if (opts[k].long_name) {
			strbuf_addf(&sb, "--%s", opts[k].long_name);
			owned[n] = strbuf_detach(&sb, NULL);
			names[n] = owned[n];
			n++;
		}
	}
	strbuf_addstr(&key, arg);
	if (strchr(key.buf, '='))
		strbuf_setlen(&key, (size_t)(strchr(key.buf, '=') - key.buf));
	near = suggest_nearest(key.buf, names, n);
	if (near)
		error("unknown option '%s' for '%s'; did you mean '%s'?",
		      key.buf, cmd, near);
	else
		error("unknown option '%s' for '%s'; see 'iotrial %s --help'",
		      key.buf, cmd, cmd);
	for (k = 0; k < n; k++)
		free(owned[k]);
	free(owned);
	free(names);
	strbuf_release(&key);
}

/* Handle "--name[=value]" at argv[*i]. */
static int parse_long(const char *cmd, const struct option *opts, int argc,
		      const char **argv, int *i)
{
	const char *arg = argv[*i] + 2, *eq = strchr(arg, '=');
	size_t n = eq ? (size_t)(eq - arg) : strlen(arg);
	const struct option *o;

	for (o = opts; o->type != OPTION_END; o++)
		if (o->long_name && strlen(o->long_name) == n &&
		    !strncmp(o->long_name, arg, n))
			return take(o, 0, argc, argv, i, eq ? eq + 1 : NULL);
	unknown(cmd, argv[*i], opts);
	return -1;
}

/* Handle "-x", "-x VALUE" or "-xVALUE" at argv[*i]. */
static int parse_short(const char *cmd, const struct option *opts, int argc,
		       const char **argv, int *i)
{
	const char *arg = argv[*i];
	const struct option *o;

	for (o = opts; o->type != OPTION_END; o++) {
		if (o->short_name != arg[1])
			continue;
		if (arg[2] && !takes_value(o))
			break; /* "-xyz": we do not bundle flags */
		return take(o, 1, argc, argv, i, arg[2] ? arg + 2 : NULL);
	}
	unknown(cmd, arg, opts);
	return -1;
}

/* The OPT_ARGUMENTS row of opts, or NULL. */
static const struct option *arguments_row(const struct option *opts)
{
	for (; opts->type != OPTION_END; opts++)
		if (opts->type == OPTION_ARGUMENTS)
			return opts;
	return NULL;
}

int parse_options(int argc, const char **argv, const char *cmd,
		  const struct option *opts, const char *const *usage,
		  const char *epilogue, unsigned flags)
{
	const struct option *args = arguments_row(opts);
	const struct option *o;
	int i, n = 0, ret;

	/* the defaults, through the parser that reads the user's values */
	for (o = opts; o->type != OPTION_END; o++) {
		struct strbuf err = STRBUF_INIT;

		ret = option_is_typed(o) && o->def
			  ? option_parse_typed(o, o->def, NULL, &err)
			  : 0;
		if (ret) /* a bad table: the unit tests parse every one */
			error("the default of --%s: %s", o->long_name, err.buf);
		strbuf_release(&err);
		if (ret)
			return PARSE_OPT_ERROR;
	}
	for (i = 1; i < argc; i++) {
		const char *arg = argv[i];

		if (!strcmp(arg, "--")) {
			while (++i < argc) {
				if (args && args->callback(args, argv[i]) < 0)
					return PARSE_OPT_ERROR;
				if (!args)
					argv[n++] = argv[i];
			}
			break;
		}
		if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
			options_usage(stdout, opts, usage, epilogue);
			return PARSE_OPT_HELP;
		}
		if (!strcmp(arg, "--help-options")) {
			/* for the manual and the completion's tests */
			if (rows_hook)
				rows_hook(opts, rows_hook_data);
			else
				options_dump(stdout, opts);
			return PARSE_OPT_HELP;
		}
		if ((arg[0] != '-' || !arg[1]) && args) {
			if (args->callback(args, arg) < 0)
				return PARSE_OPT_ERROR;
			continue;
		}
		if (arg[0] != '-' || !arg[1]) {
			argv[n++] = arg;
			if (flags & PARSE_OPT_STOP_AT_NON_OPTION) {
				while (++i < argc)
					argv[n++] = argv[i];
				break;
			}
			continue;
		}
		if (arg[1] == '-')
			ret = parse_long(cmd, opts, argc, argv, &i);
		else
			ret = parse_short(cmd, opts, argc, argv, &i);
		if (ret < 0)
			return PARSE_OPT_ERROR;
	}
	if (n < argc)
		argv[n] = NULL;
	return n;
}

/*
 * The help of one option after head ("  -t, --target TARGET"), from
 * HELP_COLUMN on, its words wrapped to HELP_WIDTH columns.
 */
static void print_help(FILE *out, const char *head, const char *help)
{
	size_t room = HELP_WIDTH - HELP_COLUMN, n;

	fprintf(out, "%-*s", HELP_COLUMN, head);
	while (strlen(help) > room) {
		/* the last blank that leaves the line short enough */
		for (n = room; n > 0 && help[n] != ' '; n--)
			;
		if (!n) /* one long word: let it run over */
			n = strcspn(help, " ");
		if (!help[n])
			break;
		fprintf(out, "%.*s\n%*s", (int)n, help, HELP_COLUMN, "");
		help += n + 1;
	}
	fprintf(out, "%s\n", help);
}

void options_usage(FILE *out, const struct option *opts,
		   const char *const *usage, const char *epilogue)
{
	const struct option *o;
	struct strbuf line = STRBUF_INIT, argh = STRBUF_INIT;
	struct strbuf help = STRBUF_INIT;
	size_t k;
	int listed = 0;

	for (k = 0; usage && usage[k]; k++) {
		if (k && usage[k][0] == ' ')
			fprintf(out, "%s\n", usage[k]); /* a continuation */
		else
			fprintf(out, "%s %s\n",
				k ? "  or:" : "usage:", usage[k]);
	}
	for (o = opts; o->type != OPTION_END; o++) {
		if ((o->flags & OPT_HIDDEN) || o->type == OPTION_ARGUMENTS)
			continue;
		if (o->type == OPTION_GROUP) {
			fprintf(out, "\n%s\n", o->help);
			listed = 1;
			continue;
		}
		if (!listed)
			fputc('\n', out);
		listed = 1;
		strbuf_setf(&line, "  ");
		if (o->short_name)
			strbuf_addf(&line, "-%c%s", o->short_name,
				    o->long_name ? ", " : "");
		if (o->long_name)
			strbuf_addf(&line, "--%s", o->long_name);
		strbuf_reset(&argh);
		option_argh(o, &argh);
		if (takes_value(o) && (o->flags & OPT_OPTARG))
			strbuf_addf(&line, "[=%s]", argh.buf);
		else if (takes_value(o))
			strbuf_addf(&line, " %s", argh.buf);
		if (line.len + 2 > HELP_COLUMN) {
			fprintf(out, "%s\n", line.buf);
			strbuf_reset(&line);
		}
		strbuf_setf(&help, "%s", o->help ? o->help : "");
		strbuf_reset(&argh);
		option_limits(o, &argh);
		if (argh.len && help.len && help.buf[help.len - 1] == ')') {
			/* "(default: all)" and " (1 or more)": one pair */
			strbuf_setlen(&help, help.len - 1);
			strbuf_addf(&help, ", %s", argh.buf + 2);
		} else {
			strbuf_addstr(&help, argh.buf);
		}
		print_help(out, line.buf, help.buf);
	}
	if (epilogue)
		fprintf(out, "\n%s", epilogue);
	strbuf_release(&line);
	strbuf_release(&argh);
	strbuf_release(&help);
}
