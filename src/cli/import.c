/*
 * iotrial import: results measured elsewhere become a stored experiment.
 * A fio user runs their job a few times per setting with
 * --output-format=json, then `iotrial import --arm old a*.json --arm new
 * b*.json` gives them medians with confidence intervals and a verdict,
 * and an id that `diff` can compare against later. iotrial/1 run objects
 * (from `iotrial run --json`) import the same way; whole experiment
 * objects are stored as they are, re-analysed.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "cli.h"
#include "../core/experiment/import.h"
#include "../core/model/model_json.h"
#include "../core/report/page.h"
#include "../core/report/report.h"
#include "../core/store/store.h"
#include "../util/error.h"
#include "../util/text.h"
#include "../util/xalloc.h"
#include "../util/banned.h"

#define DEFAULT_LABEL "imported"

/* One arm on the command line: its label and its files' runs. */
struct cli_arm {
	const char *label;
	struct import_run *runs;
	size_t nr, alloc;
};

/* What `import` was asked for. */
struct import_args {
	const char *db;	      /* NULL: the default store */
	const char *metric;   /* NULL, "iops" or "mbps" */
	const char *workload; /* NULL: from the files */
	const char *json;     /* --json[=FILE] */
	struct cli_arm *arms; /* in command-line order */
	size_t nr_arms, alloc_arms;
	const char **files; /* every file, with its arm in file_arm */
	size_t *file_arm;
	size_t nr_files, alloc_files, alloc_file_arm;
};

static const char *const import_usage[] = {
    "iotrial import [--db PATH] [--metric iops|mbps] [--workload NAME]",
    "                      [--json] [--arm LABEL] FILE.json ... [--arm "
    "LABEL2 FILE ...]",
    NULL,
};

static const char import_epilogue[] =
    "Stores results measured elsewhere as an experiment. Each FILE is "
    "an\niotrial run object ('iotrial run --json'), fio output ('fio\n"
    "--output-format=json', one run per file) or a whole iotrial "
    "experiment.\nEach --arm starts a new arm; the first arm is the "
    "baseline. fio results\nare judged by IOPS for random patterns and "
    "MB/s for sequential ones\nunless --metric says otherwise. --workload "
    "NAME names the experiment's\nworkload when the files do not agree on "
    "one.\n";

/* Start a new arm called label. */
static void new_arm(struct import_args *a, const char *label)
{
	ALLOC_GROW(a->arms, a->nr_arms + 1, a->alloc_arms);
	memset(&a->arms[a->nr_arms], 0, sizeof(a->arms[0]));
	a->arms[a->nr_arms++].label = label;
}

/* Is path (or another name of the same file) already among the files? */
static int listed_before(const struct import_args *a, const char *path)
{
	struct stat st, other;
	size_t i;

	if (stat(path, &st) < 0)
		return 0; /* reading it will say what is wrong */
	for (i = 0; i < a->nr_files; i++)
		if (!stat(a->files[i], &other) && other.st_dev == st.st_dev &&
		    other.st_ino == st.st_ino)
			return 1;
	return 0;
}

/* --arm LABEL: the files after it are the runs of a new arm. */
static int arm_option(const struct option *opt, const char *arg)
{
	struct import_args *a = opt->data;
	size_t k;

	if (!*arg) {
		error("an empty arm label; give --arm LABEL");
		return -1;
	}
	for (k = 0; k < a->nr_arms; k++)
		if (!strcmp(a->arms[k].label, arg)) {
			error("arm '%s' is given twice; list its files after "
			      "one --arm",
			      arg);
			return -1;
		}
	new_arm(a, arg);
	return 0;
}

/* A FILE: one more run of the current arm. */
static int file_argument(const struct option *opt, const char *arg)
{
	struct import_args *a = opt->data;

	if (!a->nr_arms)
		new_arm(a, DEFAULT_LABEL);
	if (listed_before(a, arg)) {
		error("'%s' is given twice; each result may count once, or it "
		      "would weigh double in the statistics",
		      arg);
		return -1;
	}
	ALLOC_GROW(a->files, a->nr_files + 1, a->alloc_files);
	ALLOC_GROW(a->file_arm, a->nr_files + 1, a->alloc_file_arm);
	a->file_arm[a->nr_files] = a->nr_arms - 1;
	a->files[a->nr_files++] = arg;
	return 0;
}

/* Parse argv; returns 0, 1 for --help, -1 after printing an error. */
static int parse_args(int argc, const char **argv, struct import_args *a)
{
	static const char *const metrics[] = {"iops", "mbps", NULL};
	struct option opts[] = {
	    OPT_STRING(0, "db", &a->db, "PATH", "the results store to write"),
	    OPT_CHOICE(0, "metric", &a->metric, metrics, NULL,
		       "what to judge fio results by (default: by pattern)"),
	    OPT_STRING(0, "workload", &a->workload, "NAME",
		       "the experiment's workload, when the files disagree"),
	    OPT_JSON(&a->json,
		     "print the stored experiment object, or write it to FILE"),
	    OPT_CALLBACK(0, "arm", a, "LABEL",
			 "start the arm LABEL; the files after it are its "
			 "runs",
			 arm_option),
	    OPT_ARGUMENTS(a, file_argument),
	    OPT_SCHEMA(),
	    OPT_END(),
	};
	int n = parse_options(argc, argv, "import", opts, import_usage,
			      import_epilogue, 0);

	if (n == PARSE_OPT_HELP)
		return 1;
	if (n < 0)
		return -1;
	if (a->json && cli_check_output(a->json))
		return -1;
	if (!a->nr_files) {
		error("'import' needs at least one FILE.json (iotrial or fio "
		      "--output-format=json)");
		return -1;
	}
	return 0;
}

/* Analyse exp and store it (import_save()), then print it. */
static int analyse_store_print(struct experiment_doc *exp,
			       const struct import_args *a, size_t nr_runs)
{
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
	char id[STORE_ID_LEN + 1];
	int ret = EXIT_OK;
	bool bad_runs;

	if (import_save(a->db, exp, id, &bad_runs, &err)) {
		error("%s", err.buf);
		ret = bad_runs ? EXIT_USAGE : EXIT_RUNTIME;
		goto out;
	}
	if (a->json) {
		/* as every document is printed, made safe (util/text.h) */
		experiment_doc_encode(exp, 0, &out);
		text_json_safe(&out, 0);
	} else {
		strbuf_addf(&out, "imported %zu run%s as experiment %s\n\n",
			    nr_runs, nr_runs == 1 ? "" : "s", id);
		report_page(exp, &emit_text_ops, REPORT_PAGE_VERDICTS, &out,
			    &err);
	}
	if (a->json ? cli_write_json_text(a->json, out.buf, 0)
		    : cli_write_text("-", out.buf))
		ret = EXIT_RUNTIME;
out:
	strbuf_release(&err);
	strbuf_release(&out);
	return ret;
}

/* Read every file into its arm; -1 after printing an error. */
static int read_files(struct import_args *a, size_t *out_nr_exp)
{
	struct strbuf err = STRBUF_INIT;
	size_t i, nr_exp = 0;

	for (i = 0; i < a->nr_files; i++) {
		struct cli_arm *arm = &a->arms[a->file_arm[i]];
		struct import_run r;

		if (import_read_file(a->files[i], a->metric, &r, &err)) {
			error("%s", err.buf);
			strbuf_release(&err);
			return -1;
		}
		nr_exp += r.kind == IMPORT_EXPERIMENT;
		ALLOC_GROW(arm->runs, arm->nr + 1, arm->alloc);
		arm->runs[arm->nr++] = r;
	}
	strbuf_release(&err);
	if (nr_exp && (nr_exp != a->nr_files || a->nr_arms > 1 ||
		       strcmp(a->arms[0].label, DEFAULT_LABEL))) {
		error("whole experiments and run files cannot be mixed, nor "
		      "given arms; import experiment files on their own");
		return -1;
	}
	for (i = 0; i < a->nr_arms; i++)
		if (!a->arms[i].nr) {
			error("arm '%s' has no files; give them after "
			      "'--arm %s'",
			      a->arms[i].label, a->arms[i].label);
			return -1;
		}
	*out_nr_exp = nr_exp;
	return 0;
}

int cmd_import(int argc, const char **argv)
{
	struct import_args a = {0};
	struct strbuf err = STRBUF_INIT;
	struct import_arm *arms = NULL;
	struct experiment_doc exp;
	size_t i, k, nr_exp = 0;
	int ret = EXIT_USAGE, r;

	experiment_doc_init(&exp);
	r = parse_args(argc, argv, &a);
	if (r) {
		if (r > 0)
			ret = EXIT_OK;
		goto out;
	}
	if (read_files(&a, &nr_exp))
		goto out;
	/* a store that is not ours is said before anything else */
	ret = cli_check_store(a.db, NULL);
	if (ret)
		goto out;
	if (nr_exp) {
		for (i = 0, ret = EXIT_OK; i < nr_exp && ret == EXIT_OK; i++) {
			struct experiment_doc *e = a.arms[0].runs[i].doc.exp;

			ret = analyse_store_print(e, &a, e->nr_runs);
		}
		goto out;
	}
	arms = xcalloc(a.nr_arms, sizeof(*arms));
	for (i = 0; i < a.nr_arms; i++) {
		arms[i].label = a.arms[i].label;
		arms[i].runs = a.arms[i].runs;
		arms[i].nr = a.arms[i].nr;
	}
	if (import_build_experiment(arms, a.nr_arms, a.workload, &exp, &err)) {
		error("%s", err.buf);
		ret = EXIT_USAGE;
		goto out;
	}
	ret = analyse_store_print(&exp, &a, a.nr_files);
out:
	experiment_doc_release(&exp);
	free(arms);
	for (i = 0; i < a.nr_arms; i++) {
		for (k = 0; k < a.arms[i].nr; k++)
			import_run_release(&a.arms[i].runs[k]);
		free(a.arms[i].runs);
	}
	free(a.arms);
	free(a.files);
	free(a.file_arm);
	strbuf_release(&err);
	return ret;
}
