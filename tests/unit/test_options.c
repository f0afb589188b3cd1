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
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "cli/options.h"
#include "util/strbuf.h"
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
	/* a word that looks like an option is not taken as the value
	 * (test_no_swallow); after '=' it is */
	assert_int_equal(parse(0, &av, "--time", "--json", NULL),
			 PARSE_OPT_ERROR);
	assert_int_equal(parse(0, &av, "--time=--json", NULL), 0);
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
	/* a word that is no option is its value, as "--NAME VALUE" says,
	 * and refused when it is not on or off ("--fsync close") */
	S.calls = 0;
	assert_int_equal(parse_options(3, a4, "cmd", fo, NULL, NULL, 0),
			 PARSE_OPT_ERROR);
	assert_int_equal(S.calls, 0);
	/* after '=' too */
	assert_int_equal(parse_options(2, a5, "cmd", fo, NULL, NULL, 0),
			 PARSE_OPT_ERROR);
	assert_int_equal(S.calls, 0);
}

/* Where the typed rows put their values. */
static struct typed {
	uint64_t time_ns, ramp_ns, bs, runs, n;
	double precision;
	int keep, time_given;
	const char *format;
} T;

static const char *const formats[] = {"text", "json", "csv", NULL};
static const char *const auto_word[] = {"auto", NULL};

static const struct option typed_opts[] = {
    OPT_DURATION(0, "time", &T.time_ns, "5s", "1ms", "1h", "run this long",
		 .given = &T.time_given),
    OPT_DURATION(0, "ramp", &T.ramp_ns, NULL, NULL, NULL, "warm up"),
    OPT_SIZE(0, "bs", &T.bs, "4k", NULL, "64M", "bytes per I/O"),
    OPT_COUNT(0, "runs", &T.runs, "auto", "1", "10000", "runs per arm",
	      .choices = auto_word),
    OPT_COUNT('n', "count", &T.n, NULL, NULL, NULL, "how many (default: all)"),
    OPT_PERCENT(0, "precision", &T.precision, "2%", "0%", "100%",
		"the CI half-width", .flags = OPT_RANGE_OPEN),
    OPT_ONOFF(0, "keep", &T.keep, "off", "keep the files"),
    OPT_CHOICE(0, "format", &T.format, formats, "text", "the output"),
    OPT_STRING('t', "target", &S.target, "TARGET", "where to run"),
    OPT_LIST(0, "vary", &S.vary, "FACTOR=V1,V2", "a factor"),
    OPT_END(),
};

/* Parse a NULL-terminated list of words against typed_opts. */
static int parse_typed(const char *first, ...)
{
	static const char *argv[32];
	va_list ap;
	int argc = 1;
	const char *w;

	memset(&T, 0, sizeof(T));
	T.ramp_ns = 7; /* no default: left as it is */
	option_list_release(&S.vary);
	memset(&S, 0, sizeof(S));
	argv[0] = "cmd";
	va_start(ap, first);
	for (w = first; w; w = va_arg(ap, const char *))
		argv[argc++] = w;
	va_end(ap);
	argv[argc] = NULL;
	return parse_options(argc, argv, "cmd", typed_opts, NULL, NULL, 0);
}

static void test_typed_defaults(void **state)
{
	(void)state;
	assert_int_equal(parse_typed(NULL), 0);
	assert_true(T.time_ns == 5000000000ull);
	assert_int_equal(T.time_given, 0);
	assert_true(T.ramp_ns == 7);
	assert_true(T.bs == 4096);
	assert_true(T.runs == 0); /* auto */
	assert_true(T.precision > 0.0199 && T.precision < 0.0201);
	assert_int_equal(T.keep, 0);
	assert_string_equal(T.format, "text");
}

static void test_typed_values(void **state)
{
	(void)state;
	assert_int_equal(parse_typed("--time", "500ms", "--bs=64M", "--runs",
				     "12", "-n", "3k", "--precision", "0.5%",
				     "--ramp=2m", "--format", "csv", NULL),
			 0);
	assert_true(T.time_ns == 500000000ull);
	assert_int_equal(T.time_given, 1);
	assert_true(T.bs == 64ull << 20);
	assert_true(T.runs == 12);
	assert_true(T.n == 3000);
	assert_true(T.precision > 0.00499 && T.precision < 0.00501);
	assert_true(T.ramp_ns == 120000000000ull);
	assert_ptr_equal(T.format, formats[2]); /* the table's string */
	assert_int_equal(parse_typed("--runs", "AUTO", NULL), 0);
	assert_true(T.runs == 0);
}

static void test_typed_ranges(void **state)
{
	(void)state;
	/* each bound is in, past it is out */
	assert_int_equal(parse_typed("--time", "1ms", NULL), 0);
	assert_int_equal(parse_typed("--time", "1h", NULL), 0);
	assert_int_equal(parse_typed("--time", "999us", NULL), PARSE_OPT_ERROR);
	assert_int_equal(parse_typed("--time", "61m", NULL), PARSE_OPT_ERROR);
	assert_int_equal(parse_typed("--bs", "65M", NULL), PARSE_OPT_ERROR);
	assert_int_equal(parse_typed("--bs", "0", NULL), PARSE_OPT_ERROR);
	assert_int_equal(parse_typed("--runs", "0", NULL), PARSE_OPT_ERROR);
	assert_int_equal(parse_typed("--runs", "10001", NULL), PARSE_OPT_ERROR);
	assert_int_equal(parse_typed("--runs", "10000", NULL), 0);
	/* an open range excludes its bounds */
	assert_int_equal(parse_typed("--precision", "0%", NULL),
			 PARSE_OPT_ERROR);
	assert_int_equal(parse_typed("--precision", "100%", NULL),
			 PARSE_OPT_ERROR);
	assert_int_equal(parse_typed("--precision", "99.9%", NULL), 0);
	/* not of the kind at all */
	assert_int_equal(parse_typed("--time", "5x", NULL), PARSE_OPT_ERROR);
	assert_int_equal(parse_typed("--runs", "autoo", NULL), PARSE_OPT_ERROR);
	assert_int_equal(parse_typed("--format", "jsn", NULL), PARSE_OPT_ERROR);
	assert_int_equal(parse_typed("--format", "JSON", NULL),
			 PARSE_OPT_ERROR);
	assert_int_equal(parse_typed("--keep", "maybe", NULL), PARSE_OPT_ERROR);
}

static void test_typed_onoff(void **state)
{
	(void)state;
	assert_int_equal(parse_typed("--keep", NULL), 0);
	assert_int_equal(T.keep, 1);
	assert_int_equal(parse_typed("--keep", "off", NULL), 0);
	assert_int_equal(T.keep, 0);
	assert_int_equal(parse_typed("--keep=Yes", NULL), 0);
	assert_int_equal(T.keep, 1);
	/* an option after it is not its value */
	assert_int_equal(parse_typed("--keep", "-t", "/x", NULL), 0);
	assert_int_equal(T.keep, 1);
	assert_string_equal(S.target, "/x");
}

static void test_no_swallow(void **state)
{
	(void)state;
	/* a value-taking option does not take the next option as its value */
	assert_int_equal(parse_typed("--vary", "-t", "/x", NULL),
			 PARSE_OPT_ERROR);
	assert_int_equal(S.vary.nr, 0);
	assert_int_equal(parse_typed("--time", "-t", "/x", NULL),
			 PARSE_OPT_ERROR);
	assert_int_equal(parse_typed("-t", "--time", "1s", NULL),
			 PARSE_OPT_ERROR);
	assert_null(S.target);
	/* but "=" gives such a value on purpose, and "-" is a value */
	assert_int_equal(parse_typed("--vary=-t", NULL), 0);
	assert_string_equal(S.vary.v[0], "-t");
	assert_int_equal(parse_typed("-t", "-", NULL), 0);
	assert_string_equal(S.target, "-");
	/* a negative number is a value (and then a wrong one) */
	assert_int_equal(parse_typed("--time", "-1s", NULL), PARSE_OPT_ERROR);
	assert_int_equal(parse_typed("--vary", "-1", NULL), 0);
	assert_string_equal(S.vary.v[0], "-1");
}

static void test_typed_messages(void **state)
{
	struct strbuf note = STRBUF_INIT, err = STRBUF_INIT;
	uint64_t ns = 0;
	const struct option o =
	    OPT_DURATION(0, "time", &ns, NULL, "1ms", NULL, "x");

	(void)state;
	assert_int_equal(option_parse_typed(&o, "5x", &note, &err), -EINVAL);
	assert_non_null(strstr(err.buf, "--time: "));
	assert_non_null(strstr(err.buf, "'5x'"));
	strbuf_reset(&err);
	assert_int_equal(option_parse_typed(&o, "0", &note, &err), -ERANGE);
	assert_string_equal(err.buf,
			    "--time: '0' is too short; it takes 1ms or more");
	strbuf_reset(&err);
	/* a bare number is seconds, and a note says so */
	assert_int_equal(option_parse_typed(&o, "10", &note, &err), 0);
	assert_true(ns == 10000000000ull);
	assert_non_null(strstr(note.buf, "--time 10 has no unit"));
	strbuf_release(&note);
	strbuf_release(&err);
}

static void test_typed_help(void **state)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	(void)state;
	assert_non_null(f);
	options_usage(f, typed_opts, NULL, NULL);
	fclose(f);
	assert_non_null(strstr(text, "--time DURATION         run this long "
				     "(default 5s, 1ms..1h)\n"));
	assert_non_null(strstr(text, "--bs SIZE               bytes per I/O "
				     "(default 4k, at most 64M)\n"));
	assert_non_null(strstr(text, "--runs N|auto"));
	assert_non_null(strstr(text, "(default auto, 1..10000)"));
	/* one pair of parentheses when the help has its own */
	assert_non_null(strstr(text, "how many (default: all)\n"));
	assert_non_null(strstr(text, "(default 2%, more than 0% and less"));
	assert_non_null(strstr(text, "--keep on|off"));
	assert_non_null(strstr(text, "--format text|json|csv"));
	assert_null(strstr(text, "--ramp DURATION         warm up ("));
	free(text);
	text = NULL;
	f = open_memstream(&text, &len);
	assert_non_null(f);
	options_dump(f, typed_opts);
	fclose(f);
	assert_non_null(
	    strstr(text, "--time\tduration\tDURATION\t5s\t1ms\t1h\t-\t-\n"));
	assert_non_null(
	    strstr(text, "--runs\tcount\tN|auto\tauto\t1\t10000\tauto\t-\n"));
	assert_non_null(strstr(
	    text,
	    "--format\tchoice\ttext|json|csv\ttext\t-\t-\ttext|json|csv\t-\n"));
	free(text);
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
	    cmocka_unit_test(test_typed_defaults),
	    cmocka_unit_test(test_typed_values),
	    cmocka_unit_test(test_typed_ranges),
	    cmocka_unit_test(test_typed_onoff),
	    cmocka_unit_test(test_no_swallow),
	    cmocka_unit_test(test_typed_messages),
	    cmocka_unit_test(test_typed_help),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
