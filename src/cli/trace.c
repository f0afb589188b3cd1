/*
 * iotrial trace: read a trace file. `trace show` prints it (its
 * description, files and events), `trace stats` what it amounts to:
 * operations by kind, bytes, sizes, the rate over time, the files, the
 * threads' think times, what the capture lost and cost.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "../core/trace/trace.h"
#include "../core/trace/trace_summary.h"
#include "../util/error.h"
#include "../util/units.h"
#include "../util/banned.h"

static const char *const trace_usage[] = {
    "iotrial trace show [--limit N] TRACE",
    "iotrial trace stats TRACE",
    NULL,
};

static const char trace_epilogue[] =
    "show prints the trace's description, its files and its events, one "
    "a line\n(--limit N: the first N; 0, the default, all). stats "
    "summarizes it.\nThe format is docs/TRACE-FORMAT.md.\n";

/* Read the trace at path, or say why not. 0 or an exit code. */
static int load(const char *path, struct trace *t)
{
	struct strbuf err = STRBUF_INIT;
	int r = trace_read_file(path, t, &err);

	if (r)
		error("%s", err.buf);
	strbuf_release(&err);
	if (!r)
		return 0;
	return r == -ENOENT || r == -EACCES ? EXIT_RUNTIME : EXIT_USAGE;
}

int cmd_trace(int argc, const char **argv)
{
	const char *limit_s = NULL;
	struct option opts[] = {
	    OPT_STRING(0, "limit", &limit_s, "N",
		       "show: the first N events (0: all)"),
	    OPT_END(),
	};
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	struct trace t = {0};
	struct trace_summary s;
	uint64_t limit = 0;
	int n, ret;

	n = parse_options(argc, argv, "trace", opts, trace_usage,
			  trace_epilogue, 0);
	if (n == PARSE_OPT_HELP)
		return EXIT_OK;
	if (n < 0)
		return EXIT_USAGE;
	if (n != 2 || (strcmp(argv[0], "show") && strcmp(argv[0], "stats"))) {
		error("'trace' needs show or stats and a trace file; see "
		      "'iotrial trace --help'");
		return EXIT_USAGE;
	}
	if (limit_s && units_parse_count(limit_s, &limit, &err)) {
		error("invalid value '%s' for '--limit': expected a count of "
		      "events",
		      limit_s);
		strbuf_release(&err);
		return EXIT_USAGE;
	}
	ret = load(argv[1], &t);
	if (ret)
		goto out;
	if (!strcmp(argv[0], "show")) {
		trace_show_text(&t, (size_t)limit, &out);
	} else {
		trace_summarize(&t, &s);
		trace_stats_text(&t, &s, &out);
		trace_summary_release(&s);
	}
	fputs(out.buf, stdout);
	ret = EXIT_OK;
out:
	trace_release(&t);
	strbuf_release(&out);
	strbuf_release(&err);
	return ret;
}
