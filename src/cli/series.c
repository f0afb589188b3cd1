/*
 * iotrial series: a regression test across reboots, with the boot as
 * the unit. A series fixes a workload once (--define); each `series
 * NAME run`, one per boot (or per hardware change), appends a group of
 * iterations, each a normal `iotrial run` stored as the store stores
 * runs, tagged with the boot id, the kernel's release and build and a
 * free-form --tag. `report` compares the values of what differed with
 * the boot as the unit (core/series/). `plan` advises a randomized
 * order of boots; `at-boot --install` writes a systemd unit that runs
 * the next planned group at boot, and the last planned group removes it.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>
#include "cli.h"
#include "series-int.h"
#include "../core/model/model_json.h"
#include "../core/model/model_json.h"
#include "../core/series/series_plan.h"
#include "../core/series/series_report.h"
#include "../core/store/store_series.h"
#include "../util/error.h"
#include "../util/strbuf.h"
#include "../util/text.h"
#include "../util/xalloc.h"
#include "../util/banned.h"

static const char *const series_usage[] = {
    "iotrial series NAME --define [--db PATH] -- WORKLOAD [ARGS...]",
    "iotrial series NAME add [--db PATH] -- WORKLOAD [ARGS...]",
    "iotrial series NAME run [--iterations N] [--tag TEXT] [--planned] "
    "[--db PATH]",
    "iotrial series NAME report [--by kernel|tag|boot] [--baseline VALUE]",
    "                           [--fail-on-regression] [--json[=FILE]] [--db "
    "PATH]",
    "iotrial series NAME plan --values A,B[,...] [--boots N] [--seed N]",
    "iotrial series NAME at-boot --install|--remove [--root DIR] [--db PATH]",
    "iotrial series [--db PATH]",
    NULL,
};

static const char series_epilogue[] =
    "A series fixes a workload (the arguments of 'iotrial run'); each "
    "'run' of it,\none per boot or per hardware change, appends a group of "
    "iterations tagged with\nthe boot id, the kernel release and build and "
    "--tag. 'report' summarises each\nboot by its median and compares the "
    "boots of each kernel (tag, boot) with the\nbaseline's: iterations "
    "within one boot are not independent, so the boot is\nthe unit; at "
    "least 4 boots a side give a verdict. 'plan' advises a randomized\n"
    "order of boots, 'at-boot --install' a systemd unit that runs the "
    "next planned\ngroup at boot and is removed after the last. "
    "--fail-on-regression exits 3\nwhen a value is slower than the "
    "baseline by the boot-level verdict.\n";

/* Everything not an option: NAME, the subcommand, or the workload. */
static int positional(const struct option *opt, const char *arg)
{
	struct series_args *a = opt->data;

	if (a->workload) {
		a->workload[a->nr_workload++] = arg;
		return 0;
	}
	if (!a->name) {
		a->name = arg;
	} else if (!a->sub) {
		a->sub = arg;
	} else {
		error("unexpected argument '%s'; see 'iotrial series --help'",
		      arg);
		return -1;
	}
	return 0;
}

/* --define: the subcommand "define". */
static int define_option(const struct option *opt, const char *arg)
{
	struct series_args *a = opt->data;

	(void)arg;
	if (a->sub && strcmp(a->sub, "define")) {
		error("--define and '%s' cannot be combined", a->sub);
		return -1;
	}
	a->sub = "define";
	return 0;
}

/* Does s hold a control character? */
static int has_control(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return 1;
	return 0;
}

/* The tags are printable; --by as its enum. 0, or -1 after an error. */
static int check_values(struct series_args *a)
{
	if ((a->tag && has_control(a->tag)) ||
	    (a->values && has_control(a->values))) {
		error("a tag holds a control character; tags are printed as "
		      "they are");
		return -1;
	}
	/* --by is one of its choices: the table checked it */
	series_by_parse(a->by, &a->by_value);
	return 0;
}

/* Parse argv; 0, 1 for --help, -1 after printing an error. */
static int parse_args(int argc, const char **argv, struct series_args *a)
{
	struct option opts[] = {
	    OPT_STRING(0, "db", &a->db, "PATH", "the results store"),
	    {.type = OPTION_CALLBACK,
	     .long_name = "define",
	     .data = a,
	     .help = "define the series: the workload follows '--'",
	     .flags = OPT_NOARG,
	     .callback = define_option},
	    OPT_GROUP("run"),
	    OPT_COUNT(0, "iterations", &a->iterations, "5", "1", "1000",
		      "iterations in this group"),
	    OPT_STRING(0, "tag", &a->tag, "TEXT",
		       "what differs in this boot, free-form"),
	    OPT_BOOL(0, "planned", &a->planned,
		     "take the tag of the plan's next boot"),
	    OPT_BOOL(0, "at-boot", &a->at_boot,
		     "started by the unit: remove it after the plan's last "
		     "group"),
	    OPT_GROUP("report"),
	    OPT_CHOICE(0, "by", &a->by, series_by_names, "kernel",
		       "what the compared values are"),
	    OPT_STRING(0, "baseline", &a->baseline, "VALUE",
		       "the value to compare with (the first run)"),
	    OPT_BOOL(0, "fail-on-regression", &a->fail_on_regression,
		     "exit 3 when a value is slower than the baseline"),
	    OPT_JSON(&a->json,
		     "print the analysis as JSON, or write it to FILE"),
	    OPT_SCHEMA(),
	    OPT_GROUP("plan, at-boot"),
	    OPT_STRING(0, "values", &a->values, "A,B",
		       "the tags to alternate between boots"),
	    OPT_COUNT(0, "boots", &a->boots, "4", "1", "100",
		      "boots per value"),
	    OPT_COUNT(0, "seed", &a->seed, NULL, NULL, NULL,
		      "seed of the order (default: from the clock)",
		      .given = &a->seed_given),
	    OPT_BOOL(0, "install", &a->install,
		     "write the unit that runs the next group at boot"),
	    OPT_BOOL(0, "remove", &a->remove, "remove that unit"),
	    OPT_STRING(0, "root", &a->root, "DIR",
		       "install under DIR instead of / (an image, a test)"),
	    OPT_ARGUMENTS(a, positional),
	    OPT_END(),
	};
	int i, n, dash = -1;

	for (i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--")) {
			dash = i;
			break;
		}
	n = parse_options(dash < 0 ? argc : dash, argv, "series", opts,
			  series_usage, series_epilogue, 0);
	if (n == PARSE_OPT_HELP)
		return 1;
	if (n < 0)
		return -1;
	if (dash >= 0) {
		a->workload = xcalloc((size_t)(argc - dash), sizeof(char *));
		for (i = dash + 1; i < argc; i++)
			a->workload[a->nr_workload++] = argv[i];
	}
	if (a->name && !series_name_ok(a->name)) {
		error("invalid series name '%s': letters, digits, '.', '_' "
		      "and '-', up to 64, not starting with '-' or '.'",
		      a->name);
		return -1;
	}
	if (a->sub && !strcmp(a->sub, "add"))
		a->sub = "define";
	return check_values(a);
}

/* series NAME --define -- WORKLOAD ARGS... */
static int do_define(struct series_args *a)
{
	static const char *const refused[] = {"--db", "--no-store", "--json"};
	struct strbuf err = STRBUF_INIT, argv = STRBUF_INIT;
	struct store s;
	size_t k;
	int i, ret;

	if (!a->nr_workload) {
		error("series '%s' needs its workload after '--': 'iotrial "
		      "series %s --define -- WORKLOAD [ARGS...]'",
		      a->name, a->name);
		return EXIT_USAGE;
	}
	for (i = 0; i < a->nr_workload; i++)
		for (k = 0; k < ARRAY_SIZE(refused); k++)
			if (!strncmp(a->workload[i], refused[k],
				     strlen(refused[k])) &&
			    (!a->workload[i][strlen(refused[k])] ||
			     a->workload[i][strlen(refused[k])] == '=')) {
				error("'%s' belongs to the series, not to its "
				      "workload: each iteration is stored in "
				      "the series' store",
				      a->workload[i]);
				return EXIT_USAGE;
			}
	ret = series_open_store(&s, a->db, 1);
	if (ret)
		return ret;
	series_argv_encode((const char *const *)a->workload,
			   (size_t)a->nr_workload, &argv);
	ret = store_series_define(&s, a->name, argv.buf, &err);
	strbuf_release(&argv);
	if (ret) {
		ret = series_store_failed(ret, &err);
	} else {
		printf("series '%s' defined: iotrial run", a->name);
		for (i = 0; i < a->nr_workload; i++)
			printf(" %s", a->workload[i]);
		printf("\n'iotrial series %s run' runs a group of iterations; "
		       "one per boot\n",
		       a->name);
	}
	store_close(&s);
	strbuf_release(&err);
	return ret;
}

/* The first line of a small file, trimmed, into out; "" on failure. */
static void read_line(const char *path, struct strbuf *out)
{
	strbuf_reset(out);
	if (strbuf_read_file(out, path, 4096) < 0)
		strbuf_reset(out);
	strbuf_trim(out);
}

/* The knobs and devices of a stored iteration, as JSON text. */
static char *context_of(struct store *s, const char *id)
{
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
	struct series_ctx_doc ctx = {0};
	struct experiment_doc e = {0};
	struct run_doc *run;
	char *text = NULL;

	if (store_load_doc(s, id, &e, &err))
		goto done;
	run = e.nr_runs ? e.runs[0].run : NULL;
	if (run) { /* taken from the run, which is released below */
		ctx.knobs = run->knobs;
		ctx.nr_knobs = run->nr_knobs;
		ctx.has_knobs = MODEL_SET;
		run->knobs = NULL;
		run->nr_knobs = 0;
	}
	if (run && run->has_devices == MODEL_SET) {
		ctx.devices = run->devices;
		ctx.nr_devices = run->nr_devices;
		ctx.has_devices = MODEL_SET;
		run->devices = NULL;
		run->nr_devices = 0;
		run->has_devices = MODEL_ABSENT;
	}
	series_ctx_doc_encode(
	    &ctx, MODEL_ENCODE_PLAIN | MODEL_ENCODE_ESCAPE_SLASH, &out);
	text = strbuf_detach(&out, NULL);
done:
	series_ctx_doc_release(&ctx);
	experiment_doc_release(&e);
	strbuf_release(&err);
	strbuf_release(&out);
	return text;
}

/* The tag of the plan's next boot into *out (a new string), and
 * whether this group is its last. 0 or an exit code. */
static int planned_tag(struct store *s, const struct series_args *a, int grp,
		       char **out, int *out_last)
{
	struct strbuf err = STRBUF_INIT;
	char *plan = NULL;
	int ret;

	*out = NULL;
	ret = store_series_get(s, a->name, NULL, &plan, &err);
	if (ret) {
		ret = series_store_failed(ret, &err);
	} else if (!plan) {
		error("series '%s' has no plan; 'iotrial series %s plan "
		      "--values A,B' makes one",
		      a->name, a->name);
		ret = EXIT_USAGE;
	} else if (series_plan_next(plan, grp, out, out_last)) {
		error("the plan of series '%s' is done (%d groups run); "
		      "'iotrial series %s report' analyses them",
		      a->name, grp - 1, a->name);
		ret = EXIT_USAGE;
	}
	if (*out)
		text_make_printable(*out); /* the store is not trusted */
	free(plan);
	strbuf_release(&err);
	return ret;
}

/* series NAME run: one group of iterations, one boot. */
static int do_run(struct series_args *a)
{
	struct strbuf err = STRBUF_INIT, db = STRBUF_INIT, boot = STRBUF_INIT;
	char **wl = NULL;
	size_t nr_wl = 0;
	struct series_tags tags = {0};
	char *argv_text = NULL, *tag = NULL;
	const char **argv = NULL;
	struct utsname u;
	struct store s;
	int ret, grp = 0, last = 0, nargs, i;
	unsigned it;

	/* the iterations change settings as `run` does: what a crashed
	 * iotrial left comes back first, as before `run` */
	cli_recover_journal(0, NULL);
	ret = series_open_store(&s, a->db, 1);
	if (ret)
		return ret;
	ret = store_series_get(&s, a->name, &argv_text, NULL, &err);
	if (!ret)
		ret = store_series_next_group(&s, a->name, &grp, &err);
	if (ret) {
		ret = series_store_failed(ret, &err);
		goto out;
	}
	if (a->planned) {
		if (a->tag) {
			error("--planned takes the tag from the plan; give "
			      "no --tag");
			ret = EXIT_USAGE;
			goto out;
		}
		ret = planned_tag(&s, a, grp, &tag, &last);
		if (ret)
			goto out;
	} else {
		tag = xstrdup(a->tag ? a->tag : "");
	}
	if (series_store_path(a->db, &db)) {
		ret = EXIT_USAGE;
		goto out;
	}
	if (series_argv_decode(argv_text, &wl, &nr_wl, &err)) {
		error("series '%s' is damaged in the store (its workload is "
		      "not a list of arguments)",
		      a->name);
		ret = EXIT_RUNTIME;
		goto out;
	}
	nargs = (int)nr_wl;
	argv = xcalloc((size_t)nargs + 4, sizeof(*argv));
	read_line("/proc/sys/kernel/random/boot_id", &boot);
	uname(&u);
	tags.boot_id = boot.buf;
	tags.kernel = u.release;
	tags.build = u.version;
	tags.tag = tag;
	fprintf(
	    stderr,
	    "series %s: group %d, %u iteration%s, kernel %s, boot %.8s%s%s\n",
	    a->name, grp, (unsigned)a->iterations,
	    a->iterations == 1 ? "" : "s", u.release, boot.buf,
	    tag[0] ? ", tag " : "", tag);
	for (it = 1; it <= a->iterations; it++) {
		char id[STORE_ID_LEN + 1] = "";
		char *ctx;

		/* a fresh argv each time: parsing reorders it */
		/* run WORKLOAD --db DB ARGS...: after the workload's name,
		 * before a "--" that may end the options */
		argv[0] = "run";
		for (i = 0; i < nargs; i++)
			argv[i ? i + 3 : 1] = wl[i];
		argv[2] = "--db";
		argv[3] = db.buf;
		argv[nargs + 3] = NULL;
		/* the run is printed as `run` prints it */
		printf("iteration %u of %u:\n", it, (unsigned)a->iterations);
		fflush(stdout);
		ret = cli_run_stored(nargs + 3, argv, id);
		fflush(stdout);
		if (ret == EXIT_OK && !id[0])
			ret = EXIT_RUNTIME;
		if (ret) {
			error("iteration %u of series '%s' failed; the group "
			      "keeps the %u before it",
			      it, a->name, it - 1);
			goto out;
		}
		ctx = context_of(&s, id);
		tags.context = ctx;
		ret = store_series_add(&s, a->name, grp, (int)it, id, &tags,
				       &err);
		free(ctx);
		if (ret) {
			ret = series_store_failed(ret, &err);
			goto out;
		}
	}
	printf("series %s: group %d stored; 'iotrial series %s report' "
	       "compares the boots\n",
	       a->name, grp, a->name);
	if (a->planned && last) {
		printf("series %s: that was the plan's last boot\n", a->name);
		if (a->at_boot)
			ret = series_remove_unit(a);
	}
out:
	while (nr_wl)
		free(wl[--nr_wl]);
	free(wl);
	free(argv);
	free(argv_text);
	free(tag);
	store_close(&s);
	strbuf_release(&err);
	strbuf_release(&db);
	strbuf_release(&boot);
	return ret;
}

/* series NAME report */
static int do_report(struct series_args *a)
{
	struct series_report_opts o = {
	    .by = a->by_value,
	    .baseline = a->baseline,
	    .conf = 0.95,
	    .margin = 0.02,
	};
	struct strbuf err = STRBUF_INIT, text = STRBUF_INIT;
	struct series_doc doc;
	struct store s;
	int ret, regression = 0;

	ret = series_open_store(&s, a->db, 0);
	if (ret)
		return ret;
	series_doc_init(&doc);
	ret = series_report(&s, a->name, &o, &text, a->json ? &doc : NULL,
			    &regression, &err);
	store_close(&s);
	if (ret) {
		ret = series_store_failed(ret, &err);
		goto out;
	}
	if (a->json) {
		strbuf_reset(&text);
		series_doc_encode(&doc, 0, &text);
		ret = cli_write_doc(a->json, &text) ? EXIT_RUNTIME : EXIT_OK;
	} else {
		fputs(text.buf, stdout);
	}
	if (!ret && a->fail_on_regression && regression)
		ret = EXIT_REGRESSION;
out:
	series_doc_release(&doc);
	strbuf_release(&err);
	strbuf_release(&text);
	return ret;
}

int cmd_series(int argc, const char **argv)
{
	struct series_args a = {0};
	int ret;

	ret = parse_args(argc, argv, &a);
	if (ret) {
		free(a.workload);
		return ret > 0 ? EXIT_OK : EXIT_USAGE;
	}
	if (!a.name) {
		ret = series_list(&a);
	} else if (!a.sub) {
		error("series '%s': what to do? --define, run, report, plan "
		      "or at-boot (see 'iotrial series --help')",
		      a.name);
		ret = EXIT_USAGE;
	} else if (!strcmp(a.sub, "define")) {
		ret = do_define(&a);
	} else if (a.workload) {
		error("'--' and a workload belong to --define only");
		ret = EXIT_USAGE;
	} else if (!strcmp(a.sub, "run")) {
		ret = do_run(&a);
	} else if (!strcmp(a.sub, "report")) {
		ret = do_report(&a);
	} else if (!strcmp(a.sub, "plan")) {
		ret = series_plan(&a);
	} else if (!strcmp(a.sub, "at-boot")) {
		ret = series_at_boot(&a);
	} else {
		error("unknown series subcommand '%s': --define, add, run, "
		      "report, plan or at-boot",
		      a.sub);
		ret = EXIT_USAGE;
	}
	free(a.workload);
	return ret;
}
