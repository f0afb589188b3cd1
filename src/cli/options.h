/*
 * Options are data. Each command declares one table of struct option
 * rows (name, value, help) and calls parse_options(): the same table
 * drives parsing ("--name=V", "--name V", "-t V"), the option lines of
 * --help, and the "did you mean" suggestion for a misspelled option, so
 * nothing about an option is written twice (git's parse-options is the
 * model).
 *
 *	static const char *const usage[] = {
 *		"iotrial log [--count N] [--db PATH] [--json]", NULL };
 *	struct option opts[] = {
 *		OPT_STRING(0, "count", &count, "N", "list at most N"),
 *		OPT_BOOL(0, "json", &json, "print JSON"),
 *		OPT_END(),
 *	};
 *	argc = parse_options(argc, argv, "log", opts, usage, 0);
 *
 * A run of tables can be joined (options_join): `run` puts its workload's
 * parameters, which are known only after the workload is named, in
 * front of its fixed options.
 *
 * Typed rows parse their value at the edge, as the user typed it, and
 * check it against their range: a duration, a size, a count, a percent,
 * on/off or one of a list. Each names its default and its range as text
 * ("5s", "1ms"), parsed by the same code as the user's value, so --help
 * ("(default 5s, at least 1ms)"), the manual and the value used cannot
 * differ; the default is stored before argv is read. An error names the
 * option and says what was wrong with the value:
 *
 *	uint64_t time_ns;
 *	OPT_DURATION(0, "time", &time_ns, "5s", "1ms", NULL, "run this long"),
 *
 * A value-taking option never takes a following word that is itself an
 * option ("--vary -t /x" is "--vary needs a value"); "--vary=-x" gives
 * such a value on purpose.
 */
#ifndef IOTRIAL_CLI_OPTIONS_H
#define IOTRIAL_CLI_OPTIONS_H

#include <stddef.h>
#include <stdio.h>

struct option;
struct strbuf;

/* Called with the option's value (NULL for an option without one).
 * Returns 0, or -1 after printing an error. */
typedef int (*option_cb)(const struct option *opt, const char *arg);

enum option_type {
	OPTION_END,
	OPTION_GROUP,	  /* a heading in --help; no option */
	OPTION_BOOL,	  /* int *value = 1 */
	OPTION_BIT,	  /* unsigned *value |= defval */
	OPTION_STRING,	  /* const char **value = the argument */
	OPTION_LIST,	  /* struct option_list *value: append the argument */
	OPTION_CALLBACK,  /* callback(opt, arg) */
	OPTION_ARGUMENTS, /* callback(opt, arg) for each non-option */
	/* typed: parsed and range-checked here (see the macros below) */
	OPTION_DURATION, /* uint64_t *value: nanoseconds */
	OPTION_SIZE,	 /* uint64_t *value: bytes */
	OPTION_COUNT,	 /* uint64_t *value; a word of choices is 0 */
	OPTION_PERCENT,	 /* double *value: a fraction (2% is 0.02) */
	OPTION_ONOFF,	 /* int *value: 0 or 1; "--x" alone is 1 */
	OPTION_CHOICE,	 /* const char **value: an entry of choices */
};

enum option_flags {
	OPT_OPTARG = 1 << 0, /* the value is optional: "--json[=FILE]" */
	OPT_NOARG = 1 << 1,  /* a callback without a value */
	OPT_HIDDEN = 1 << 2, /* accepted but not listed in --help */
	/* an on/off value, optional: "--keep" alone is "--keep=1"; "--keep 0"
	 * and "--keep no" still take the next word, another is not taken */
	OPT_FLAGARG = 1 << 3,
	/* typed: min and max are excluded ("more than 0%") */
	OPT_RANGE_OPEN = 1 << 4,
	/* OPTION_SIZE: 0 is a value (sizes are more than 0 otherwise) */
	OPT_ZERO_OK = 1 << 5,
};

/* One row of a command's table. */
struct option {
	enum option_type type;
	int short_name;	       /* 't' for -t, or 0 */
	const char *long_name; /* "target" for --target, or NULL */
	void *value;	       /* where the result goes (by type) */
	const char *argh;      /* the value's name in --help: "TARGET" */
	const char *help;      /* one line, lowercase, no final period */
	unsigned flags;	       /* enum option_flags */
	option_cb callback;    /* OPTION_CALLBACK */
	const char *defval;    /* OPT_OPTARG without a value: this string */
	unsigned long bit;     /* OPTION_BIT: the bit to set */
	void *data;	       /* free for the callback's use */
	/* typed rows: */
	const char *def;	    /* the default as typed, or NULL: none */
	const char *min, *max;	    /* the range as typed; NULL: no bound */
	const char *const *choices; /* CHOICE: the values; COUNT, DURATION:
				       words that mean 0 ("auto") */
	int *given;		    /* may be NULL; 1 when given */
};

/* The values of a repeatable option ("--vary A --vary B"), in order. */
struct option_list {
	const char **v; /* not owned: they point into argv */
	size_t nr, alloc;
};

#define OPT_END()                                                              \
	{                                                                      \
		.type = OPTION_END                                             \
	}
#define OPT_GROUP(h)                                                           \
	{                                                                      \
		.type = OPTION_GROUP, .help = (h)                              \
	}
#define OPT_BOOL(s, l, v, h)                                                   \
	{                                                                      \
		.type = OPTION_BOOL, .short_name = (s), .long_name = (l),      \
		.value = (v), .help = (h)                                      \
	}
#define OPT_BIT(s, l, v, b, h)                                                 \
	{                                                                      \
		.type = OPTION_BIT, .short_name = (s), .long_name = (l),       \
		.value = (v), .bit = (b), .help = (h)                          \
	}
#define OPT_STRING(s, l, v, a, h)                                              \
	{                                                                      \
		.type = OPTION_STRING, .short_name = (s), .long_name = (l),    \
		.value = (v), .argh = (a), .help = (h)                         \
	}
#define OPT_STRING_OPTARG(s, l, v, a, d, h)                                    \
	{                                                                      \
		.type = OPTION_STRING, .short_name = (s), .long_name = (l),    \
		.value = (v), .argh = (a), .help = (h), .flags = OPT_OPTARG,   \
		.defval = (d)                                                  \
	}
#define OPT_LIST(s, l, v, a, h)                                                \
	{                                                                      \
		.type = OPTION_LIST, .short_name = (s), .long_name = (l),      \
		.value = (v), .argh = (a), .help = (h)                         \
	}
#define OPT_CALLBACK(s, l, d, a, h, cb)                                        \
	{                                                                      \
		.type = OPTION_CALLBACK, .short_name = (s), .long_name = (l),  \
		.data = (d), .argh = (a), .help = (h), .callback = (cb)        \
	}
/*
 * Typed rows: v points to the type of enum option_type; def, mn and mx
 * are text in the option's own syntax (NULL: none). The trailing
 * arguments are more designated initializers: ".given = &flag",
 * ".flags = OPT_RANGE_OPEN", ".argh = \"N|auto\"".
 */
#define OPT_DURATION(s, l, v, def_, mn, mx, h, ...)                            \
	{                                                                      \
		.type = OPTION_DURATION, .short_name = (s), .long_name = (l),  \
		.value = (v), .def = (def_), .min = (mn), .max = (mx),         \
		.help = (h), __VA_ARGS__                                       \
	}
#define OPT_SIZE(s, l, v, def_, mn, mx, h, ...)                                \
	{                                                                      \
		.type = OPTION_SIZE, .short_name = (s), .long_name = (l),      \
		.value = (v), .def = (def_), .min = (mn), .max = (mx),         \
		.help = (h), __VA_ARGS__                                       \
	}
#define OPT_COUNT(s, l, v, def_, mn, mx, h, ...)                               \
	{                                                                      \
		.type = OPTION_COUNT, .short_name = (s), .long_name = (l),     \
		.value = (v), .def = (def_), .min = (mn), .max = (mx),         \
		.help = (h), __VA_ARGS__                                       \
	}
#define OPT_PERCENT(s, l, v, def_, mn, mx, h, ...)                             \
	{                                                                      \
		.type = OPTION_PERCENT, .short_name = (s), .long_name = (l),   \
		.value = (v), .def = (def_), .min = (mn), .max = (mx),         \
		.help = (h), __VA_ARGS__                                       \
	}
#define OPT_ONOFF(s, l, v, def_, h, ...)                                       \
	{                                                                      \
		.type = OPTION_ONOFF, .short_name = (s), .long_name = (l),     \
		.value = (v), .def = (def_), .help = (h), __VA_ARGS__          \
	}
#define OPT_CHOICE(s, l, v, list, def_, h, ...)                                \
	{                                                                      \
		.type = OPTION_CHOICE, .short_name = (s), .long_name = (l),    \
		.value = (v), .choices = (list), .def = (def_), .help = (h),   \
		__VA_ARGS__                                                    \
	}

/*
 * The arguments that are not options, when their place among the
 * options matters ("--arm A a.json --arm B b.json"): each is passed to
 * cb as it comes, and so is every argument after "--". parse_options()
 * then keeps none and returns 0. Not listed in --help.
 */
#define OPT_ARGUMENTS(d, cb)                                                   \
	{                                                                      \
		.type = OPTION_ARGUMENTS, .data = (d), .callback = (cb)        \
	}

/* parse_options() flags. */
enum parse_options_flags {
	/* Stop at the first argument that is not an option (and keep it
	 * and all after it): for a command line that follows, as in
	 * "run exec -- CMD". "--" always stops. */
	PARSE_OPT_STOP_AT_NON_OPTION = 1 << 0,
};

/* parse_options() returns these (below 0) when it does not return the
 * number of arguments left. */
enum parse_options_result {
	PARSE_OPT_HELP = -1,  /* --help was given; usage went to stdout */
	PARSE_OPT_ERROR = -2, /* an error was printed */
};

/*
 * Parse argv[1..argc) against opts (argv[0] is the command's name).
 * Options may come anywhere; what is not an option is moved, in order,
 * to argv[0..n) and n is returned. cmd names the command in messages
 * ("run"). usage (NULL-terminated lines) heads --help: the first is
 * printed after "usage: ", a line that starts with a blank continues
 * the one before it as it is, any other after "  or: ". The option lines
 * follow, then epilogue (may be NULL).
 */
int parse_options(int argc, const char **argv, const char *cmd,
		  const struct option *opts, const char *const *usage,
		  const char *epilogue, unsigned flags);

/* Print the usage lines and every option of opts to out. */
void options_usage(FILE *out, const struct option *opts,
		   const char *const *usage, const char *epilogue);

/* A new table: a's rows then b's (either may be NULL), one OPT_END. Free
 * it with free(). */
struct option *options_join(const struct option *a, const struct option *b);

/*
 * Parse value for the typed row o (o->long_name in messages) into
 * o->value, and check its range; as parse_options() does with what the
 * user typed. 0, or -EINVAL / -ERANGE with err set to "--NAME: what was
 * wrong". note (may be NULL) gets how the value was read when that may
 * surprise ("--time 10 has no unit and is read as seconds").
 */
int option_parse_typed(const struct option *o, const char *value,
		       struct strbuf *note, struct strbuf *err);

/* 1 for an on word (1, yes, true, on), 0 for an off one, -1 for any
 * other (case does not matter). */
int option_onoff(const char *word);

/* Is o a typed row (OPTION_DURATION .. OPTION_CHOICE)? */
int option_is_typed(const struct option *o);

/*
 * What the value of o looks like in --help into out: its argh, else
 * from its kind ("DURATION", "SIZE", "N|auto", "on|off", "a|b|c").
 */
void option_argh(const struct option *o, struct strbuf *out);

/*
 * The default and range of a row (def, min, max) as --help puts them
 * after its help, into out: " (default 5s, 1ms or more)"; nothing for a
 * row that has neither. Rows that are not typed may carry them too, for
 * help only (a workload's parameters, which the workload parses).
 */
void option_limits(const struct option *o, struct strbuf *out);

/*
 * Every row of opts as one line each, for the manual's and completion's
 * tests: parse_options() prints it for the hidden "--help-options" (and
 * 'iotrial help --options CMD' asks for that): "--NAME\tKIND\tARGH\tDEFAULT\t
 * MIN\tMAX\tCHOICES\tOPEN" with "-" for none, choices joined by '|',
 * OPEN "open" when the bounds are excluded.
 */
void options_dump(FILE *out, const struct option *opts);

/* Does o take a value, always or optionally ("--json[=FILE]")? */
int option_takes_value(const struct option *o);

/*
 * Hand the table to fn(opts, data) instead of printing options_dump()
 * when "--help-options" is parsed (NULL: print again): how the manual's
 * generator (manpage.c) reads every command's rows inside the program.
 */
typedef void (*options_rows_fn)(const struct option *opts, void *data);
void options_on_rows(options_rows_fn fn, void *data);

/* Free the array of an option_list (not the strings). */
void option_list_release(struct option_list *l);

#endif
