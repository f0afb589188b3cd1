/*
 * iotrial diff: the same workload measured in two stored experiments,
 * before and after a change that is not a knob: a kernel patch, a new
 * disk, a firmware update. That is the kernel developer's "five runs
 * with and without the patch", done with the same statistics as
 * compare (core/experiment/diff.h), analysed and printed but not
 * stored; then every difference between the two recorded environments
 * is listed (core/report/diff_text.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "../core/compat/compat.h"
#include "../core/experiment/diff.h"
#include "../core/report/diff_text.h"
#include "../core/store/store.h"
#include "../util/error.h"
#include "../util/banned.h"

/* What `diff` was asked for. */
struct diff_args {
	const char *id[2];
	const char *arm;  /* NULL: each experiment's baseline arm */
	const char *db;	  /* NULL: the default store */
	const char *json; /* --json[=FILE] */
	int fail_on_regression;
	int force;  /* a verdict even when not like for like */
	int strict; /* no faster/slower from flagged runs */
};

static const char *const diff_usage[] = {
    "iotrial diff ID1 ID2 [--arm LABEL] [--db PATH] [--json[=FILE]]",
    "                    [--fail-on-regression] [--strict] [--force]",
    NULL,
};

static const char diff_epilogue[] =
    "Compares the same workload in two stored experiments: ID1 is "
    "'before',\nID2 'after' (a kernel, firmware or hardware change). Uses "
    "each one's\nbaseline arm, or the arm LABEL present in both, and lists "
    "how their\nenvironments differ. --fail-on-regression exits 3 when "
    "'after' is slower.\nWhen the two arms ran differently (parameters "
    "as they took effect,\nknobs, target, run length), diff says so "
    "first and gives no verdict\n(exit 2) unless --force. A verdict "
    "marked '*' comes from runs iotrial\nflagged; --strict and "
    "--fail-on-regression treat it as for compare.\n";

/* Parse argv; returns 0, 1 for --help, -1 after printing an error. */
static int parse_args(int argc, const char **argv, struct diff_args *a)
{
	struct option opts[] = {
	    OPT_STRING(0, "arm", &a->arm, "LABEL",
		       "compare the arm LABEL present in both, not the "
		       "baselines"),
	    OPT_STRING(0, "db", &a->db, "PATH", "the results store to read"),
	    OPT_JSON(&a->json,
		     "print the comparison as JSON, or write it to FILE"),
	    OPT_BOOL(0, "fail-on-regression", &a->fail_on_regression,
		     "exit 3 when ID2 is significantly slower than ID1; a "
		     "suspect 'slower' exits 0 unless --strict"),
	    OPT_BOOL(0, "strict", &a->strict,
		     "no faster/slower from runs iotrial flagged; with "
		     "--fail-on-regression such a slower estimate fails"),
	    OPT_BOOL(0, "force", &a->force,
		     "give a verdict even when the two are not like for "
		     "like"),
	    OPT_SCHEMA(),
	    OPT_END(),
	};
	int n = parse_options(argc, argv, "diff", opts, diff_usage,
			      diff_epilogue, 0);

	if (n == PARSE_OPT_HELP)
		return 1;
	if (n < 0)
		return -1;
	if (n > 2) {
		error("unexpected argument '%s' for 'diff'; it takes two "
		      "experiment ids",
		      argv[2]);
		return -1;
	}
	if (n < 2) {
		error("'diff' needs two experiment ids (before and after); "
		      "'iotrial log' lists them");
		return -1;
	}
	a->id[0] = argv[0];
	a->id[1] = argv[1];
	return 0;
}

int cmd_diff(int argc, const char **argv)
{
	struct diff_args a = {0};
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
	struct strbuf unlike = STRBUF_INIT;
	struct experiment_doc doc[2], *d = NULL;
	const struct experiment_doc *const e[2] = {&doc[0], &doc[1]};
	struct diff_doc answer;
	struct store s = {0};
	int ret = EXIT_USAGE, r, k, arm[2];

	experiment_doc_init(&doc[0]);
	experiment_doc_init(&doc[1]);
	diff_doc_init(&answer);
	r = parse_args(argc, argv, &a);
	if (r) {
		return r > 0 ? EXIT_OK : EXIT_USAGE;
	}
	if (a.json && cli_check_output(a.json))
		return EXIT_USAGE;
	r = store_open_flags(&s, a.db, STORE_NO_CREATE, &err);
	for (k = 0; k < 2 && !r; k++)
		r = store_load_doc(&s, a.id[k], &doc[k], &err);
	if (r) {
		error("%s", err.buf);
		ret = r == -EINVAL || r == -ENOENT ? EXIT_USAGE : EXIT_RUNTIME;
		goto out;
	}
	if (diff_build(e, a.id, a.arm, arm, &d, &err)) {
		error("%s", err.buf);
		goto out;
	}
	/* --behaviour=diff-verdict-unlike: the old way, a verdict anyway */
	if (diff_unlike(e, arm, &unlike) && !a.force &&
	    !cli_compat_old(COMPAT_DIFF_UNLIKE)) {
		/* what differs comes first, and no verdict */
		experiment_doc_free(d);
		d = NULL;
	}
	if (d && a.strict)
		diff_strict(d);
	diff_doc_fill(&answer, e, a.id, arm, d, unlike.buf);
	if (a.json)
		report_diff_json(&answer, &out);
	else
		report_diff_text(&answer, &out);
	if (a.json ? cli_write_json_text(a.json, out.buf, 0)
		   : cli_write_text("-", out.buf)) {
		ret = EXIT_RUNTIME;
		goto out;
	}
	if (!answer.experiment) {
		error("experiments '%s' and '%s' are not like for like (the "
		      "differences are listed above); --force compares them "
		      "anyway",
		      a.id[0], a.id[1]);
		goto out;
	}
	ret = a.fail_on_regression &&
		      cli_doc_has_regression(answer.experiment, a.strict)
		  ? EXIT_REGRESSION
		  : EXIT_OK;
out:
	diff_doc_release(&answer);
	experiment_doc_release(&doc[0]);
	experiment_doc_release(&doc[1]);
	store_close(&s);
	strbuf_release(&err);
	strbuf_release(&out);
	strbuf_release(&unlike);
	return ret;
}
