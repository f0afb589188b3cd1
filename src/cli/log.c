/*
 * iotrial log: the experiments in the results store, newest first, one
 * line each, so a user can find the id that `show`, `diff` and `report`
 * take. The verdict summary says what each experiment concluded without
 * opening it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "../core/compat/compat.h"
#include "../core/report/log_text.h"
#include "../core/store/store.h"
#include "../util/error.h"
#include "../util/units.h"
#include "../util/banned.h"

/* What `log` was asked for. */
struct log_args {
	const char *db;	  /* NULL: the default store */
	size_t limit;	  /* 0: all */
	const char *json; /* --json[=FILE] */
};

static const char *const log_usage[] = {
    "iotrial log [--db PATH] [-n|--count N] [--json[=FILE]]",
    NULL,
};

static const char log_epilogue[] =
    "Lists the stored experiments, newest first: id, date (UTC), "
    "workload,\ntarget, metric and what each concluded. -n N shows the "
    "newest N (0: all,\nthe default).\n";

/* Parse argv; returns 0, 1 for --help, -1 after printing an error. */
static int parse_args(int argc, const char **argv, struct log_args *a)
{
	uint64_t count = 0;
	struct option opts[] = {
	    OPT_STRING(0, "db", &a->db, "PATH", "the results store to read"),
	    OPT_COUNT('n', "count", &count, "0", NULL, NULL,
		      "show the newest N (0: all)"),
	    OPT_JSON(&a->json, "print the list as JSON, or write it to FILE"),
	    OPT_SCHEMA(),
	    OPT_END(),
	};
	int n =
	    parse_options(argc, argv, "log", opts, log_usage, log_epilogue, 0);

	a->limit = (size_t)count;
	if (n == PARSE_OPT_HELP)
		return 1;
	if (n < 0)
		return -1;
	if (n > 0) {
		error("unexpected argument '%s' for 'log'; see 'iotrial log "
		      "--help'",
		      argv[0]);
		return -1;
	}
	return 0;
}

int cmd_log(int argc, const char **argv)
{
	struct log_args a = {0};
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
	struct exp_summary *list = NULL;
	struct store s;
	size_t nr = 0;
	int ret, r, bare;

	r = parse_args(argc, argv, &a);
	if (r) {
		return r > 0 ? EXIT_OK : EXIT_USAGE;
	}
	if (a.json && cli_check_output(a.json))
		return EXIT_USAGE;
	bare = a.json && cli_compat_old(COMPAT_LOG_ARRAY);
	r = store_open_flags(&s, a.db, STORE_NO_CREATE, &err);
	if (r == -ENOENT) {
		/* nothing stored yet is an empty list, not an error */
		if (a.json)
			report_log_json(NULL, 0, bare, &out);
		else
			note("%s", err.buf);
		ret = EXIT_OK;
		goto out;
	}
	if (!r)
		r = store_list(&s, a.limit, &list, &nr, &err);
	if (r) {
		error("%s", err.buf);
		ret = r == -EINVAL ? EXIT_USAGE : EXIT_RUNTIME;
		goto out;
	}
	if (a.json)
		report_log_json(list, nr, bare, &out);
	else if (!nr)
		note("no experiments in '%s' yet; 'iotrial compare' and "
		     "'iotrial import' add them",
		     s.path);
	else
		report_log_text(list, nr, &out);
	ret = EXIT_OK;
out:
	if (a.json
		? cli_write_json_text(a.json, out.buf, bare ? CLI_JSON_OLD : 0)
		: cli_write_text("-", out.buf))
		ret = EXIT_RUNTIME;
	store_summaries_free(list, nr);
	store_close(&s);
	strbuf_release(&err);
	strbuf_release(&out);
	return ret;
}
