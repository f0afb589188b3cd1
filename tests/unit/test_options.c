/*
 * Tests for cli/options: the spellings an option table accepts ("--x=V",
 * "--x V", "-x V", "-xV", "--json" with an optional value), repeated and
 * callback options, where positional arguments end up (or, with an
 * OPT_ARGUMENTS row, the order they are handed over in), "--" and
 * stop-at-non-option, the errors (missing value, a value given to a
 * flag, an unknown option) that must stop the parse, and the layout of
 * --help (continued usage lines, headings, wrapping, hidden rows). The
 * wording of the suggestions is checked by the CLI tests, which see
 * stderr.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "cli/options.h"
#include "util/banned.h"

/* Every kind of option, and where each went. */
struct seen {
	const char *target, *time, *json;
	int quiet;
	unsigned bits;
	struct option_list vary;
	int calls;
	const char *last_cb;
};

static struct seen S;

static int count_cb(const struct option *opt, const char *arg)
{
	(void)opt;
	S.calls++;
	S.last_cb = arg;
	return arg && !strcmp(arg, "bad") ? -1 : 0;
}

static const struct option opts[] = {
    OPT_STRING('t', "target", &S.target, "TARGET", "where to run"),
    OPT_STRING(0, "time", &S.time, "DURATION", "how long"),
    OPT_STRING_OPTARG(0, "json", &S.json, "FILE", "-", "print JSON"),
    OPT_BOOL('q', "quiet", &S.quiet, "say less"),
    OPT_BIT(0, "allow-destroy", &S.bits, 4, "write over data"),
    OPT_LIST(0, "vary", &S.vary, "FACTOR=V1,V2", "a factor"),
    OPT_CALLBACK(0, "set", NULL, "KNOB=VALUE", "a knob", count_cb),
    OPT_END(),
};

/* Parse a NULL-terminated list of words after "cmd". */
static int parse(unsigned flags, const char **argv_out[], ...)
{
	static const char *argv[32];
	va_list ap;
	int argc = 1;
	const char *w;

	option_list_release(&S.vary);
	memset(&S, 0, sizeof(S));
	argv[0] = "cmd";
	va_start(ap, argv_out);
	while ((w = va_arg(ap, const char *)))
		argv[argc++] = w;
	va_end(ap);
	argv[argc] = NULL;
	*argv_out = argv;
	return parse_options(argc, argv, "cmd", opts, NULL, NULL, flags);
}

static void test_spellings(void **state)
{
	const char **av;

	(void)state;
	assert_int_equal(parse(0, &av, "--target=/a", "--time", "5s", NULL), 0);
	assert_string_equal(S.target, "/a");
	assert_string_equal(S.time, "5s");
	assert_int_equal(parse(0, &av, "-t", "/b", NULL), 0);
	assert_string_equal(S.target, "/b");
	assert_int_equal(parse(0, &av, "-t/c", NULL), 0);
	assert_string_equal(S.target, "/c");
	/* a value that looks like an option is still the value */
	assert_int_equal(parse(0, &av, "--time", "--json", NULL), 0);
	assert_string_equal(S.time, "--json");
	assert_null(S.json);
	/* the last of a repeated single option wins */
	assert_int_equal(parse(0, &av, "--time=1s", "--time=2s", NULL), 0);
	assert_string_equal(S.time, "2s");
	assert_int_equal(parse(0, &av, "--time=", NULL), 0);
	assert_string_equal(S.time, "");
}

static void test_flags_and_optarg(void **state)
{
	const char **av;

	(void)state;
	assert_int_equal(parse(0, &av, "--json", "pos", NULL), 1);
	assert_string_equal(S.json, "-");
	assert_string_equal(av[0], "pos"); /* not taken as --json's value */
	assert_int_equal(parse(0, &av, "--json=out.json", NULL), 0);
	assert_string_equal(S.json, "out.json");
	assert_int_equal(parse(0, &av, "-q", "--allow-destroy", NULL), 0);
	assert_int_equal(S.quiet, 1);
	assert_int_equal(S.bits, 4);
	assert_int_equal(parse(0, &av, "--quiet=yes", NULL), PARSE_OPT_ERROR);
	assert_int_equal(parse(0, &av, "-qq", NULL), PARSE_OPT_ERROR);
}

static void test_list_and_callback(void **state)
{
	const char **av;

	(void)state;
	assert_int_equal(parse(0, &av, "--vary", "a=1,2", "--set=x=1",
			       "--vary=b=3,4", "--set", "y=2", NULL),
			 0);
	assert_int_equal(S.vary.nr, 2);
	assert_string_equal(S.vary.v[0], "a=1,2");
	assert_string_equal(S.vary.v[1], "b=3,4");
	assert_int_equal(S.calls, 2);
	assert_string_equal(S.last_cb, "y=2");
	/* a callback's error stops the parse */
	assert_int_equal(parse(0, &av, "--set", "bad", "--vary", "a=1", NULL),
			 PARSE_OPT_ERROR);
	assert_int_equal(S.vary.nr, 0);
	option_list_release(&S.vary);
}

/* An on/off option whose value may be left out: "--keep" alone is 1. */
static void test_flag_value(void **state)
{
	static const struct option fo[] = {
	    {.type = OPTION_CALLBACK,
	     .long_name = "keep",
	     .argh = "0|1",
	     .help = "keep it",
	     .flags = OPT_FLAGARG,
	     .callback = count_cb},
	    OPT_BOOL('q', "quiet", &S.quiet, "say less"),
	    OPT_END(),
	};
	const char *a1[] = {"cmd", "--keep", NULL};
	const char *a2[] = {"cmd", "--keep", "0", "--keep", "No", NULL};
	const char *a3[] = {"cmd", "--keep", "-q", NULL};
	const char *a4[] = {"cmd", "--keep", "pos", NULL};
	const char *a5[] = {"cmd", "--keep=2", NULL};

	(void)state;
	memset(&S, 0, sizeof(S));
	assert_int_equal(parse_options(2, a1, "cmd", fo, NULL, NULL, 0), 0);
	assert_int_equal(S.calls, 1);
	assert_string_equal(S.last_cb, "1");
	/* an on/off word after it is its value */
	assert_int_equal(parse_options(5, a2, "cmd", fo, NULL, NULL, 0), 0);
	assert_int_equal(S.calls, 3);
	assert_string_equal(S.last_cb, "No");
	/* another option or word is not */
	assert_int_equal(parse_options(3, a3, "cmd", fo, NULL, NULL, 0), 0);
	assert_string_equal(S.last_cb, "1");
	assert_int_equal(S.quiet, 1);
	assert_int_equal(parse_options(3, a4, "cmd", fo, NULL, NULL, 0), 1);
	assert_string_equal(S.last_cb, "1");
	assert_string_equal(a4[0], "pos");
	/* after '=' the value is whatever was written */
	assert_int_equal(parse_options(2, a5, "cmd", fo, NULL, NULL, 0), 0);
	assert_string_equal(S.last_cb, "2");
}

static void test_positionals(void **state)
{
	const char **av;

	(void)state;
	assert_int_equal(parse(0, &av, "one", "-t", "/x", "two", "-", NULL), 3);
	assert_string_equal(av[0], "one");
	assert_string_equal(av[1], "two");
	assert_string_equal(av[2], "-");
	assert_null(av[3]);
	/* "--" ends the options; what follows is kept as it is */
	assert_int_equal(
	    parse(0, &av, "-t", "/x", "--", "cmd", "--time", "-q", NULL), 3);
	assert_string_equal(av[0], "cmd");
	assert_string_equal(av[1], "--time");
	assert_null(S.time);
	assert_int_equal(S.quiet, 0);
	/* stop at the first word that is not an option */
	assert_int_equal(parse(PARSE_OPT_STOP_AT_NON_OPTION, &av, "-q", "sh",
			       "-c", "--time", NULL),
			 3);
	assert_int_equal(S.quiet, 1);
	assert_string_equal(av[0], "sh");
	assert_string_equal(av[1], "-c");
}

static void test_errors(void **state)
{
	const char **av;

	(void)state;
	assert_int_equal(parse(0, &av, "--time", NULL), PARSE_OPT_ERROR);
	assert_int_equal(parse(0, &av, "-t", NULL), PARSE_OPT_ERROR);
	assert_int_equal(parse(0, &av, "--tme=5s", NULL), PARSE_OPT_ERROR);
	assert_int_equal(parse(0, &av, "-z", NULL), PARSE_OPT_ERROR);
	/* no prefix matching: "--tim" is not "--time" */
	assert_int_equal(parse(0, &av, "--tim=5s", NULL), PARSE_OPT_ERROR);
}

static void test_help_and_join(void **state)
{
	static const struct option extra[] = {
	    OPT_STRING(0, "bs", &S.time, "SIZE", "block size"),
	    OPT_END(),
	};
	static const char *const usage[] = {"cmd [options]", NULL};
	struct option *joined = options_join(extra, opts);
	const char *argv[] = {"cmd", "--bs=4k", "--help", NULL};
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	assert_int_equal(joined[0].type, OPTION_STRING);
	assert_string_equal(joined[0].long_name, "bs");
	assert_string_equal(joined[1].long_name, "target");
	assert_int_equal(parse_options(2, argv, "cmd", joined, NULL, NULL, 0),
			 0);
	assert_string_equal(S.time, "4k");
	f = open_memstream(&text, &len);
	assert_non_null(f);
	options_usage(f, joined, usage, "more text\n");
	fclose(f);
	assert_non_null(strstr(text, "usage: cmd [options]\n"));
	assert_non_null(strstr(text, "  -t, --target TARGET"));
	assert_non_null(strstr(text, "--json[=FILE]"));
	assert_non_null(strstr(text, "--bs SIZE"));
	assert_non_null(strstr(text, "\nmore text\n"));
	free(text);
	free(joined);
}

/* The order the arguments and options came in, as "a:x" and "o:y". */
static char order[256];

static int note_arg(const struct option *opt, const char *arg)
{
	(void)opt;
	if (!strcmp(arg, "refused"))
		return -1;
	snprintf(order + strlen(order), sizeof(order) - strlen(order), "a:%s ",
		 arg);
	return 0;
}

static int note_opt(const struct option *opt, const char *arg)
{
	(void)opt;
	snprintf(order + strlen(order), sizeof(order) - strlen(order), "o:%s ",
		 arg);
	return 0;
}

static void test_arguments_in_order(void **state)
{
	static const struct option with_args[] = {
	    OPT_CALLBACK(0, "arm", NULL, "LABEL", "a new arm", note_opt),
	    OPT_ARGUMENTS(NULL, note_arg),
	    OPT_END(),
	};
	const char *argv[] = {"cmd",	 "x.json", "--arm", "b", "y.json",
			      "--arm=c", "--",	   "--arm", "-", NULL};
	const char *bad[] = {"cmd", "x.json", "refused", "--arm", "b", NULL};
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	order[0] = '\0';
	/* each where it stood; after "--" all are arguments; none kept */
	assert_int_equal(
	    parse_options(9, argv, "cmd", with_args, NULL, NULL, 0), 0);
	assert_string_equal(order, "a:x.json o:b a:y.json o:c a:--arm a:- ");
	/* the callback's error stops the parse there */
	order[0] = '\0';
	assert_int_equal(parse_options(5, bad, "cmd", with_args, NULL, NULL, 0),
			 PARSE_OPT_ERROR);
	assert_string_equal(order, "a:x.json ");
	/* the row is not an option in --help */
	f = open_memstream(&text, &len);
	assert_non_null(f);
	options_usage(f, with_args, NULL, NULL);
	fclose(f);
	assert_string_equal(text, "\n  --arm LABEL             a new arm\n");
	free(text);
}

static void test_usage_layout(void **state)
{
	static const struct option rows[] = {
	    OPT_GROUP("parameters:"),
	    OPT_STRING(0, "engine", &S.time, "psync|io_uring|libaio|mmap",
		       "how I/O is submitted"),
	    OPT_GROUP("options:"),
	    OPT_BOOL('q', "quiet", &S.quiet,
		     "no progress line and no header on standard error, "
		     "which is what a script wants"),
	    {.type = OPTION_BOOL,
	     .long_name = "secret",
	     .value = &S.quiet,
	     .help = "not listed",
	     .flags = OPT_HIDDEN},
	    OPT_END(),
	};
	static const char *const usage[] = {"cmd [--engine E]", "    [--quiet]",
					    "cmd --other", NULL};
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	f = open_memstream(&text, &len);
	assert_non_null(f);
	options_usage(f, rows, usage, NULL);
	fclose(f);
	assert_string_equal(
	    text,
	    /* a line that starts with a blank continues the one before */
	    "usage: cmd [--engine E]\n"
	    "    [--quiet]\n"
	    "  or: cmd --other\n"
	    "\n"
	    "parameters:\n"
	    /* too long for the column: the help goes on the next line */
	    "  --engine psync|io_uring|libaio|mmap\n"
	    "                          how I/O is submitted\n"
	    "\n"
	    "options:\n"
	    /* wrapped at a blank, within 79 columns */
	    "  -q, --quiet             no progress line and no header on "
	    "standard error,\n"
	    "                          which is what a script wants\n");
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_spellings),
	    cmocka_unit_test(test_flags_and_optarg),
	    cmocka_unit_test(test_list_and_callback),
	    cmocka_unit_test(test_flag_value),
	    cmocka_unit_test(test_positionals),
	    cmocka_unit_test(test_errors),
	    cmocka_unit_test(test_help_and_join),
	    cmocka_unit_test(test_arguments_in_order),
	    cmocka_unit_test(test_usage_layout),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
