/*
 * iotrial show: print a stored experiment again, exactly as `compare`
 * printed it when it ran (the report reads only the stored document):
 * the text page (core/report/page.h) without the runs unless --runs,
 * so `report --format text` is `show --runs`. --json gives the stored
 * object itself.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "../core/model/model_json.h"
#include "../core/report/fmt.h"
#include "../core/report/page.h"
#include "../core/store/store.h"
#include "../util/error.h"
#include "../util/text.h"
#include "../util/banned.h"

/* What `show` was asked for. */
struct show_args {
	const char *id;
	const char *db;	  /* NULL: the default store */
	const char *json; /* --json[=FILE] */
	int runs;	  /* and one row per run */
};

static const char *const show_usage[] = {
    "iotrial show ID [--db PATH] [--json[=FILE] | --runs]",
    NULL,
};

static const char show_epilogue[] =
    "Prints a stored experiment: its table of arms and verdicts, or with "
    "--json\nthe whole experiment object. ID may be any unique prefix of "
    "an id that\n'iotrial log' lists. --runs adds one row per run in the "
    "order they ran:\nblock, arm, metric, real/user/sys time and the "
    "device's tps and MB read and\nwritten (per second and in all).\n";

/* Parse argv; returns 0, 1 for --help, -1 after printing an error. */
static int parse_args(int argc, const char **argv, struct show_args *a)
{
	struct option opts[] = {
	    OPT_STRING(0, "db", &a->db, "PATH", "the results store to read"),
	    OPT_JSON(&a->json,
		     "print the stored experiment object, or write it to FILE"),
	    OPT_BOOL(0, "runs", &a->runs, "and one row per run, in run order"),
	    OPT_SCHEMA(),
	    OPT_END(),
	};
	int n = parse_options(argc, argv, "show", opts, show_usage,
			      show_epilogue, 0);

	if (n == PARSE_OPT_HELP)
		return 1;
	if (n < 0)
		return -1;
	if (n > 1) {
		error("unexpected argument '%s' for 'show'; it takes one "
		      "experiment id",
		      argv[1]);
		return -1;
	}
	if (!n) {
		error("'show' needs an experiment id; 'iotrial log' lists "
		      "them");
		return -1;
	}
	if (a->json && a->runs) {
		error("--json and --runs do not go together; --json has "
		      "every run");
		return -1;
	}
	a->id = argv[0];
	return 0;
}

int cmd_show(int argc, const char **argv)
{
	struct show_args a = {0};
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
	struct experiment_doc doc;
	struct store s;
	int ret = EXIT_OK, r;
	unsigned page = REPORT_PAGE_TEXT;

	experiment_doc_init(&doc);
	r = parse_args(argc, argv, &a);
	if (r) {
		return r > 0 ? EXIT_OK : EXIT_USAGE;
	}
	if (a.json && cli_check_output(a.json))
		return EXIT_USAGE;
	r = store_open_flags(&s, a.db, STORE_NO_CREATE, &err);
	if (!r)
		r = store_load_doc(&s, a.id, &doc, &err);
	if (r) {
		error("%s", err.buf);
		ret = r == -EINVAL || r == -ENOENT ? EXIT_USAGE : EXIT_RUNTIME;
		goto out;
	}
	if (!a.runs)
		page &= ~REPORT_SEC(runs);
	if (!a.json && report_page(&doc, &emit_text_ops, page, &out, &err)) {
		error("experiment '%s': %s", a.id, err.buf);
		ret = EXIT_RUNTIME;
		goto out;
	}
	/* the document as JSON is printed as every one is, made safe
	 * (util/text.h) */
	if (a.json) {
		experiment_doc_encode(&doc, 0, &out);
		text_json_safe(&out, 0);
	}
	if (a.json ? cli_write_json_text(a.json, out.buf, 0)
		   : cli_write_text("-", out.buf))
		ret = EXIT_RUNTIME;
out:
	experiment_doc_release(&doc);
	store_close(&s);
	strbuf_release(&err);
	strbuf_release(&out);
	return ret;
}
