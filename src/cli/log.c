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
#include "../core/report/report.h"
#include "../core/store/store.h"
#include "../util/error.h"
#include "../util/units.h"
#include "../util/banned.h"

/* What `log` was asked for. */
struct log_args {
	const char *db; /* NULL: the default store */
	size_t limit;	/* 0: all */
	int json;
};

static const char *const log_usage[] = {
    "iotrial log [--db PATH] [-n|--count N] [--json]",
    NULL,
};

static const char log_epilogue[] =
    "Lists the stored experiments, newest first: id, date (UTC), "
    "workload,\ntarget, metric and what each concluded. -n N shows the "
    "newest N (0: all,\nthe default).\n";

/* -n N: how many experiments, newest first. */
static int count_option(const struct option *opt, const char *arg)
{
	struct log_args *a = opt->data;
	struct strbuf err = STRBUF_INIT;
	uint64_t n;

	if (units_parse_count(arg, &n, &err)) {
		error("invalid value '%s' for '-n': expected a count of "
		      "experiments (0 for all)",
		      arg);
		strbuf_release(&err);
		return -1;
	}
	a->limit = (size_t)n;
	return 0;
}

/* Parse argv; returns 0, 1 for --help, -1 after printing an error. */
static int parse_args(int argc, const char **argv, struct log_args *a)
{
	struct option opts[] = {
	    OPT_STRING(0, "db", &a->db, "PATH", "the results store to read"),
	    OPT_CALLBACK('n', "count", a, "N",
			 "show the newest N (0, the default: all)",
			 count_option),
	    OPT_BOOL(0, "json", &a->json, "print the list as JSON"),
	    OPT_END(),
	};
	int n =
	    parse_options(argc, argv, "log", opts, log_usage, log_epilogue, 0);

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

/* "2026-11-29T22:58:00Z" as "2026-11-29 22:58". */
static void fmt_date(char out[17], const char *created)
{
	snprintf(out, 17, "%s", created);
	if (out[10] == 'T')
		out[10] = ' ';
}

/* Widen *w to hold s. */
static void widen(int *w, const char *s)
{
	int n = (int)strlen(s);

	if (n > *w)
		*w = n;
}

/* The table, widths fitted to the content. */
static void print_table(const struct store_summary *l, size_t nr)
{
	int ww = 8, tw = 6, mw = 6;
	char date[17];
	size_t i;

	for (i = 0; i < nr; i++) {
		widen(&ww, l[i].workload);
		widen(&tw, l[i].target);
		widen(&mw, l[i].metric);
	}
	printf("%-8s  %-16s  %-*s  %-*s  %-*s  %s\n", "id", "date (UTC)", ww,
	       "workload", tw, "target", mw, "metric", "result");
	for (i = 0; i < nr; i++) {
		fmt_date(date, l[i].created);
		printf("%-8s  %-16s  %-*s  %-*s  %-*s  %s\n", l[i].id, date, ww,
		       l[i].workload, tw, l[i].target, mw, l[i].metric,
		       l[i].verdicts);
	}
}

/* The list as a JSON array of objects, one per experiment. */
static void print_json(const struct store_summary *l, size_t nr)
{
	struct json_object *arr = json_object_new_array();
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	for (i = 0; i < nr; i++) {
		struct json_object *o = json_object_new_object();

#define ADD(key, v) json_object_object_add(o, key, json_object_new_string(v))
		ADD("id", l[i].id);
		ADD("created", l[i].created);
		ADD("workload", l[i].workload);
		ADD("target", l[i].target);
		ADD("metric", l[i].metric);
		ADD("arms", l[i].arms);
		ADD("host", l[i].host);
		ADD("kernel", l[i].kernel);
		ADD("result", l[i].verdicts);
#undef ADD
		json_object_array_add(arr, o);
	}
	report_json_string(arr, &sb);
	fputs(sb.buf, stdout);
	strbuf_release(&sb);
	json_object_put(arr);
}

int cmd_log(int argc, const char **argv)
{
	struct log_args a = {0};
	struct strbuf err = STRBUF_INIT;
	struct store_summary *list = NULL;
	struct store s;
	size_t nr = 0;
	int ret, r;

	r = parse_args(argc, argv, &a);
	if (r) {
		return r > 0 ? EXIT_OK : EXIT_USAGE;
	}
	r = store_open_flags(&s, a.db, STORE_NO_CREATE, &err);
	if (r == -ENOENT) {
		/* nothing stored yet is an empty list, not an error */
		if (a.json)
			print_json(NULL, 0);
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
		print_json(list, nr);
	else if (!nr)
		note("no experiments in '%s' yet; 'iotrial compare' and "
		     "'iotrial import' add them",
		     s.path);
	else
		print_table(list, nr);
	ret = EXIT_OK;
out:
	store_summaries_free(list, nr);
	store_close(&s);
	strbuf_release(&err);
	return ret;
}
