/*
 * libFuzzer target for the option parser (cli/options.c) that every
 * command's argv goes through. The input is split at NUL bytes into
 * argv[1..]; the table has one option of each kind (bool, bit, string,
 * string with an optional value, repeatable list, callback, and short
 * names that can be bundled; the typed duration, size, count, percent,
 * on/off and choice rows, whose values must stay within their ranges),
 * with and without PARSE_OPT_STOP_AT_NON_
 * OPTION (the low bit of the first byte). parse_options() must return
 * the number of arguments left (each one of the input's, in order) or
 * PARSE_OPT_HELP / PARSE_OPT_ERROR; what the options took points into
 * argv. Errors and --help text go to stderr and stdout, as for a user.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "cli/options.h"
#include "util/banned.h"

static void check(int ok)
{
	if (!ok)
		__builtin_trap();
}

/* Refuse the value "bad" (a callback that says no), accept the rest. */
static int cb(const struct option *opt, const char *arg)
{
	(void)opt;
	return arg && !strcmp(arg, "bad") ? -1 : 0;
}

/* Is p one of argv's strings, or inside one? */
static int in_argv(const char *p, const char **argv, int argc)
{
	int i;

	for (i = 0; i < argc; i++)
		if (p >= argv[i] && p <= argv[i] + strlen(argv[i]))
			return 1;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const usage[] = {"iotrial fuzz [options] ARG...",
					    NULL};
	int json = 0, force = 0, argc = 1, n, i;
	unsigned bits = 0;
	const char *target = NULL, *out = NULL, **argv, **orig;
	struct option_list vary = {0};
	static const char *const words[] = {"auto", NULL};
	static const char *const formats[] = {"text", "json", NULL};
	uint64_t time_ns = 0, bs = 0, runs = 0;
	double frac = 0;
	int keep = -1;
	const char *format = NULL;
	char *buf;
	size_t k;
	const struct option opts[] = {
	    OPT_GROUP("what"),
	    OPT_BOOL('j', "json", &json, "print JSON"),
	    OPT_BOOL('f', "force", &force, "do it anyway"),
	    OPT_BIT(0, "strict", &bits, 4, "a bit"),
	    OPT_STRING('t', "target", &target, "TARGET", "where"),
	    OPT_STRING_OPTARG('o', "output", &out, "FILE", "-", "to FILE"),
	    OPT_LIST(0, "vary", &vary, "KNOB=A,B", "a factor"),
	    OPT_CALLBACK(0, "check", NULL, "WORD", "'bad' is refused", cb),
	    OPT_DURATION('d', "time", &time_ns, "5s", "1ms", "1h", "how long"),
	    OPT_SIZE(0, "bs", &bs, "4k", "512", "64M", "bytes per I/O"),
	    OPT_COUNT('n', "runs", &runs, "auto", "1", "100", "runs",
		      .choices = words),
	    OPT_PERCENT(0, "precision", &frac, "2%", "0%", "100%", "CI",
			.flags = OPT_RANGE_OPEN),
	    OPT_ONOFF(0, "keep", &keep, "off", "keep it"),
	    OPT_CHOICE(0, "format", &format, formats, "text", "how"),
	    OPT_END(),
	};

	if (!size)
		return 0;
	buf = malloc(size + 1);
	if (!buf)
		return 0;
	memcpy(buf, data + 1, size - 1);
	buf[size - 1] = '\0';
	for (k = 0; k + 1 < size; k++)
		argc += !buf[k];
	argc += 1; /* the last string */
	argv = calloc((size_t)argc + 1, sizeof(*argv));
	orig = calloc((size_t)argc + 1, sizeof(*orig));
	if (!argv || !orig)
		abort();
	argv[0] = "fuzz";
	for (i = 1, k = 0; i < argc; i++) {
		argv[i] = buf + k;
		k += strlen(buf + k) + 1;
	}
	memcpy(orig, argv, ((size_t)argc + 1) * sizeof(*argv));
	n = parse_options(argc, argv, "fuzz", opts, usage, "the end\n",
			  data[0] & 1 ? PARSE_OPT_STOP_AT_NON_OPTION : 0);
	check(n == PARSE_OPT_HELP || n == PARSE_OPT_ERROR ||
	      (n >= 0 && n < argc));
	if (n >= 0) {
		/* what is left are the input's own strings */
		for (i = 0; i < n; i++)
			check(in_argv(argv[i], orig + 1, argc - 1));
		check(!target || in_argv(target, orig + 1, argc - 1));
		check(!out || !strcmp(out, "-") ||
		      in_argv(out, orig + 1, argc - 1));
		for (k = 0; k < vary.nr; k++)
			check(in_argv(vary.v[k], orig + 1, argc - 1));
		check(!(bits & ~4u));
		/* the typed values: the defaults or what the ranges allow */
		check(time_ns >= 1000000ull && time_ns <= 3600000000000ull);
		check(bs >= 512 && bs <= 64ull << 20);
		check(runs <= 100);
		check(frac > 0 && frac < 1);
		check(keep == 0 || keep == 1);
		check(format == formats[0] || format == formats[1]);
	}
	option_list_release(&vary);
	free(argv);
	free(orig);
	free(buf);
	return 0;
}
