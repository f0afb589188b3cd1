/*
 * The typed rows of an option table (options.h): a duration, a size, a
 * count, a percent, on/off, or one of a list. Each row holds its
 * default and its range as text in the option's own syntax; they are
 * parsed by the same code as what the user types, so the help that
 * prints them, the check that enforces them and the value a command
 * uses cannot disagree. Errors name the option and say what was wrong
 * with its value, and the range they quote is the one --help shows.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "options.h"
#include "../util/error.h"
#include "../util/strbuf.h"
#include "../util/units.h"
#include "../util/banned.h"

/* The on/off words: even ones are off, odd ones on. */
static const char *const onoff_words[] = {"0",	   "1",	   "no",  "yes",
					  "false", "true", "off", "on"};

int option_is_typed(const struct option *o)
{
	return o->type >= OPTION_DURATION && o->type <= OPTION_CHOICE;
}

/* Does o take words beside numbers (they set it to 0)? COUNT and
 * DURATION rows with choices. */
static int words_ok(const struct option *o)
{
	return (o->type == OPTION_COUNT || o->type == OPTION_DURATION) &&
	       o->choices;
}

/* A number of a typed row (not ONOFF, CHOICE): u or, for PERCENT, f. */
struct typed_num {
	uint64_t u;
	double f;
};

/*
 * Parse in as o's kind of number into out. note may be NULL. 0 or
 * -errno with err set to the units parser's sentence.
 */
static int parse_num(const struct option *o, const char *in,
		     struct typed_num *out, struct strbuf *note,
		     struct strbuf *err)
{
	switch (o->type) {
	case OPTION_DURATION:
		return units_parse_duration(in, &out->u, err);
	case OPTION_SIZE:
		return units_parse_size(
		    in, o->flags & OPT_ZERO_OK ? UNITS_ZERO_OK : 0, &out->u,
		    note, err);
	case OPTION_COUNT:
		return units_parse_count(in, &out->u, err);
	case OPTION_PERCENT:
		return units_parse_percent(in, &out->f, err);
	default:
		return -EINVAL;
	}
}

/* a < b (sign < 0), a == b (0), a > b (> 0), for o's kind. */
static int cmp_num(const struct option *o, const struct typed_num *a,
		   const struct typed_num *b)
{
	if (o->type == OPTION_PERCENT)
		return a->f < b->f ? -1 : a->f > b->f;
	return a->u < b->u ? -1 : a->u > b->u;
}

/* The range of o as --help and errors say it: "2..10000", "1ms or more",
 * "more than 0% and less than 100%", "at most 64M". Nothing without bounds. */
static void range_text(const struct option *o, struct strbuf *out)
{
	int open = !!(o->flags & OPT_RANGE_OPEN);

	if (o->min && o->max && open)
		strbuf_addf(out, "more than %s and less than %s", o->min,
			    o->max);
	else if (o->min && o->max)
		strbuf_addf(out, "%s..%s", o->min, o->max);
	else if (o->min)
		strbuf_addf(out, open ? "more than %s" : "%s or more", o->min);
	else if (o->max)
		strbuf_addf(out, open ? "less than %s" : "at most %s", o->max);
}

/*
 * Check v against o's range: 0, or -ERANGE with err saying which way it
 * is out and what o takes.
 */
static int check_range(const struct option *o, const char *in,
		       const struct typed_num *v, struct strbuf *err)
{
	struct strbuf junk = STRBUF_INIT;
	struct typed_num b;
	int open = !!(o->flags & OPT_RANGE_OPEN), low = 0, high = 0;

	if (o->min && !parse_num(o, o->min, &b, NULL, &junk)) {
		int c = cmp_num(o, v, &b);

		low = c < 0 || (open && c == 0);
	}
	if (o->max && !parse_num(o, o->max, &b, NULL, &junk)) {
		int c = cmp_num(o, v, &b);

		high = c > 0 || (open && c == 0);
	}
	strbuf_release(&junk);
	if (!low && !high)
		return 0;
	strbuf_addf(err, "--%s: '%s' is ", o->long_name, in);
	if (o->type == OPTION_DURATION)
		strbuf_addstr(err, low ? "too short" : "too long");
	else
		strbuf_addstr(err, low ? "too small" : "too large");
	strbuf_addstr(err, "; it takes ");
	range_text(o, err);
	return -ERANGE;
}

int option_onoff(const char *word)
{
	size_t k;

	for (k = 0; word && k < sizeof(onoff_words) / sizeof(*onoff_words); k++)
		if (!strcasecmp(word, onoff_words[k]))
			return (int)(k & 1);
	return -1;
}

/* Store on/off in into o. */
static int parse_onoff(const struct option *o, const char *in,
		       struct strbuf *err)
{
	int v = option_onoff(in);

	if (v >= 0) {
		*(int *)o->value = v;
		return 0;
	}
	strbuf_addf(err,
		    "--%s: '%s' is not on or off (say on, off, yes, no, 1, 0); "
		    "--%s alone is on",
		    o->long_name, in ? in : "", o->long_name);
	return -EINVAL;
}

/* Store the entry of o->choices that in names into o, or say which it
 * might have meant. */
static int parse_choice(const struct option *o, const char *in,
			struct strbuf *err)
{
	const char *near;
	size_t k, n = 0;

	for (k = 0; o->choices && o->choices[k]; k++, n++)
		if (!strcmp(in, o->choices[k])) {
			*(const char **)o->value = o->choices[k];
			return 0;
		}
	strbuf_addf(err, "--%s: '%s' is not one of ", o->long_name, in);
	for (k = 0; k < n; k++)
		strbuf_addf(err, "%s%s", k ? ", " : "", o->choices[k]);
	near = n ? suggest_nearest(in, (const char **)o->choices, n) : NULL;
	if (near)
		strbuf_addf(err, "; did you mean '%s'?", near);
	return -EINVAL;
}

/* A note for a value whose reading may surprise, into note. */
static void surprise_note(const struct option *o, const char *in,
			  const struct typed_num *v, struct strbuf *note)
{
	if (o->type == OPTION_DURATION && v->u &&
	    strspn(in, "0123456789.") == strlen(in)) {
		strbuf_addf(note,
			    "--%s %s has no unit and is read as seconds; "
			    "write %ss to say so (ms, m and h work too)",
			    o->long_name, in, in);
	} else if (o->type == OPTION_PERCENT && !strchr(in, '%') &&
		   v->f < 0.01) {
		strbuf_addf(note,
			    "--%s %s is read as %s%%; write %g%% if you meant "
			    "a fraction",
			    o->long_name, in, in, v->f * 1e4);
	}
}

int option_parse_typed(const struct option *o, const char *value,
		       struct strbuf *note, struct strbuf *err)
{
	struct strbuf why = STRBUF_INIT, how = STRBUF_INIT;
	struct typed_num v = {0, 0};
	size_t k;
	int ret;

	if (o->type == OPTION_ONOFF)
		return parse_onoff(o, value, err);
	if (o->type == OPTION_CHOICE)
		return parse_choice(o, value ? value : "", err);
	if (!option_is_typed(o) || !value)
		return err_set(err, -EINVAL, "--%s needs a value",
			       o->long_name);
	for (k = 0; words_ok(o) && o->choices[k]; k++)
		if (!strcasecmp(value, o->choices[k])) {
			*(uint64_t *)o->value = 0;
			return 0;
		}
	ret = parse_num(o, value, &v, &how, &why);
	if (ret) {
		strbuf_addf(err, "--%s: %s", o->long_name, why.buf);
		for (k = 0; words_ok(o) && o->choices[k]; k++)
			strbuf_addf(err, "%s'%s'", k ? ", " : "; or ",
				    o->choices[k]);
	} else {
		ret = check_range(o, value, &v, err);
	}
	if (!ret && note) {
		if (how.len)
			strbuf_addf(note, "--%s %s", o->long_name, how.buf);
		else
			surprise_note(o, value, &v, note);
	}
	if (!ret && o->type == OPTION_PERCENT)
		*(double *)o->value = v.f;
	else if (!ret)
		*(uint64_t *)o->value = v.u;
	strbuf_release(&why);
	strbuf_release(&how);
	return ret;
}

void option_argh(const struct option *o, struct strbuf *out)
{
	size_t k;

	if (o->argh) {
		strbuf_addstr(out, o->argh);
		return;
	}
	switch (o->type) {
	case OPTION_DURATION:
		strbuf_addstr(out, "DURATION");
		for (k = 0; o->choices && o->choices[k]; k++)
			strbuf_addf(out, "|%s", o->choices[k]);
		break;
	case OPTION_SIZE:
		strbuf_addstr(out, "SIZE");
		break;
	case OPTION_COUNT:
		strbuf_addstr(out, "N");
		for (k = 0; o->choices && o->choices[k]; k++)
			strbuf_addf(out, "|%s", o->choices[k]);
		break;
	case OPTION_PERCENT:
		strbuf_addstr(out, "PERCENT");
		break;
	case OPTION_ONOFF:
		strbuf_addstr(out, "on|off");
		break;
	case OPTION_CHOICE:
		for (k = 0; o->choices && o->choices[k]; k++)
			strbuf_addf(out, "%s%s", k ? "|" : "", o->choices[k]);
		break;
	default:
		strbuf_addstr(out, "...");
	}
}

void option_limits(const struct option *o, struct strbuf *out)
{
	size_t start = out->len;

	if (o->def)
		strbuf_addf(out, " (default %s", o->def);
	if (o->min || o->max) {
		strbuf_addstr(out, o->def ? ", " : " (");
		range_text(o, out);
	}
	if (out->len > start)
		strbuf_addch(out, ')');
}

/* A field of options_dump(): s, or "-" for none. */
static void dump_field(FILE *out, const char *s, int last)
{
	fprintf(out, "%s%c", s && *s ? s : "-", last ? '\n' : '\t');
}

void options_dump(FILE *out, const struct option *opts)
{
	static const char *const kinds[] = {
	    [OPTION_BOOL] = "flag",	  [OPTION_BIT] = "flag",
	    [OPTION_STRING] = "text",	  [OPTION_LIST] = "text",
	    [OPTION_CALLBACK] = "text",	  [OPTION_DURATION] = "duration",
	    [OPTION_SIZE] = "size",	  [OPTION_COUNT] = "count",
	    [OPTION_PERCENT] = "percent", [OPTION_ONOFF] = "onoff",
	    [OPTION_CHOICE] = "choice",
	};
	struct strbuf sb = STRBUF_INIT;
	const struct option *o;
	size_t k;

	for (o = opts; o->type != OPTION_END; o++) {
		if (!o->long_name || o->type == OPTION_GROUP ||
		    o->type == OPTION_ARGUMENTS || (o->flags & OPT_HIDDEN))
			continue;
		fprintf(out, "--%s\t", o->long_name);
		dump_field(out, kinds[o->type], 0);
		strbuf_reset(&sb);
		if (o->type != OPTION_BOOL && o->type != OPTION_BIT &&
		    !(o->type == OPTION_CALLBACK && (o->flags & OPT_NOARG)))
			option_argh(o, &sb);
		dump_field(out, sb.buf, 0);
		dump_field(out, o->def, 0);
		dump_field(out, o->min, 0);
		dump_field(out, o->max, 0);
		strbuf_reset(&sb);
		for (k = 0; o->choices && o->choices[k]; k++)
			strbuf_addf(&sb, "%s%s", k ? "|" : "", o->choices[k]);
		dump_field(out, sb.buf, 0);
		dump_field(out, o->flags & OPT_RANGE_OPEN ? "open" : NULL, 1);
	}
	strbuf_release(&sb);
}
