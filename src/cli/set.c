/*
 * iotrial set KNOB=VALUE ...: change settings now and keep them. All or
 * nothing: every value is journaled before its write, and if any write
 * fails (or Ctrl-C arrives) the ones already made are rolled back to what
 * they were before this call (a knob an earlier set keeps included).
 * Only when all are in place does a keep record make them outlive this
 * process, until `iotrial revert`. --dry-run prints the exact plan (each
 * file or remount, old -> new, in apply order) and changes nothing.
 */
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "knobargs.h"
#include "../core/knob/keep.h"
#include "../core/report/knob_text.h"
#include "../core/model/model_json.h"
#include "../core/report/plan_json.h"
#include "../util/error.h"
#include "../util/xalloc.h"
#include "../util/banned.h"

/* The command line of `set`. */
struct set_args {
	const char *target, *device;
	const char *json; /* --json[=FILE] with --dry-run, or NULL */
	int dry_run;
	const char **assign;
	size_t nr, alloc;
};

static const char *const set_usage[] = {
    "iotrial set KNOB=VALUE ... [-t TARGET | --device DEV] [--dry-run "
    "[--json[=FILE]]]",
    NULL,
};

static const char set_epilogue[] =
    "Changes kernel I/O settings now and keeps them; the originals go to "
    "the\njournal first, and 'iotrial revert' restores them. --dry-run "
    "prints the\nplan (each file or remount, old -> new, in apply order) "
    "and changes nothing.\n'iotrial knobs' lists the knobs. Examples:\n"
    "  iotrial set --device /dev/sdb scheduler=mq-deadline "
    "read_ahead_kb=4096s\n"
    "  iotrial set -t /srv/data atime=noatime --dry-run\n"
    "  iotrial set vm.dirty_background_bytes=64MiB\n";

/* Parse argv; 1 for --help, -1 after an error. */
static int parse(int argc, const char **argv, struct set_args *a)
{
	struct option opts[] = {
	    OPT_STRING('t', "target", &a->target, "TARGET",
		       "the directory or block device whose knobs are meant"),
	    OPT_STRING(0, "device", &a->device, "DEV",
		       "the block device whose knobs are meant"),
	    OPT_BOOL(0, "dry-run", &a->dry_run,
		     "print the plan and change nothing"),
	    OPT_JSON(&a->json, "with --dry-run: the plan as JSON, or to FILE"),
	    OPT_SCHEMA(),
	    OPT_END(),
	};
	int i, n = parse_options(argc, argv, "set", opts, set_usage,
				 set_epilogue, 0);

	if (n == PARSE_OPT_HELP)
		return 1;
	if (n < 0)
		return -1;
	for (i = 0; i < n; i++) {
		const char *arg = argv[i];

		if (!strchr(arg, '=')) {
			error("unexpected argument '%s'; 'set' takes "
			      "KNOB=VALUE ... [-t TARGET | --device DEV] "
			      "[--dry-run]",
			      arg);
			return -1;
		}
		ALLOC_GROW(a->assign, a->nr + 1, a->alloc);
		a->assign[a->nr++] = arg;
	}
	if (!a->nr) {
		error("give at least one KNOB=VALUE (e.g. "
		      "scheduler=mq-deadline); 'iotrial knobs' lists them");
		return -1;
	}
	if (a->json && !a->dry_run) {
		error("--json prints the plan of --dry-run; give both (what "
		      "'set' changed is said in text)");
		return -1;
	}
	if (a->json && cli_check_output(a->json))
		return -1;
	if (a->target && !strncmp(a->target, "scratch:", 8)) {
		error("a scratch target lives only as long as one command, so "
		      "'set' on it would not last; use 'iotrial run --set' to "
		      "try settings on a scratch target");
		return -1;
	}
	return 0;
}

/* knob_keep_hooks.undoing: the reason first, then the undo's messages. */
static void say_undoing(void *data, const char *why)
{
	(void)data;
	error("%s; undoing what was changed", why);
}

int cmd_set(int argc, const char **argv)
{
	struct set_args a = {0};
	struct strbuf err = STRBUF_INIT, jpath = STRBUF_INIT, out = STRBUF_INIT;
	struct knob_keep_hooks hooks = {.undoing = say_undoing};
	enum knob_keep_stage failed;
	struct knob_ctx ctx;
	struct knob_plan plan;
	struct target t;
	size_t i;
	int code, ret, r;

	r = parse(argc, argv, &a);
	if (r) {
		free(a.assign);
		return r > 0 ? EXIT_OK : EXIT_USAGE;
	}
	knob_ctx_init(&ctx);
	knob_plan_init(&plan, &ctx);
	knob_cli_log(&hooks.log, NULL);
	code = knob_cli_context(a.target, a.device, &ctx, &t);
	if (code)
		goto out;
	ret = 0;
	for (i = 0; i < a.nr && !ret; i++)
		ret = knob_plan_add(&plan, a.assign[i], &err);
	if (!ret)
		ret = knob_plan_build(&plan, &err);
	if (ret) {
		error("%s", err.buf);
		code = knob_cli_exit_code(ret);
		goto out;
	}
	knob_journal_path(&jpath);
	/* the plan of --dry-run carries each note under its change */
	for (i = 0; !a.dry_run && i < plan.nr; i++)
		if (plan.v[i].note.len)
			note("%s: %s", plan.v[i].input_name,
			     plan.v[i].note.buf);
	if (a.dry_run && a.json) {
		struct plan_doc doc;

		report_plan_doc(&plan, "set-plan", jpath.buf, &doc);
		plan_doc_encode(&doc, 0, &out);
		if (cli_write_doc(a.json, &out))
			code = EXIT_RUNTIME;
		plan_doc_release(&doc);
		goto out;
	}
	if (a.dry_run) {
		report_knob_plan(&plan, jpath.buf, &out);
		fputs(out.buf, stdout);
		goto out;
	}
	code = knob_cli_need_root(&plan);
	if (code)
		goto out;
	/* a signal while changing: roll back instead of dying */
	hooks.stop = cli_catch_stop_signals();
	ret = knob_apply_kept(&plan, &hooks, &failed, &err);
	if (ret) {
		/* the other failures were said by say_undoing() */
		if (failed == KNOB_KEEP_FAILED_SESSION)
			error("%s", err.buf);
		if (failed == KNOB_KEEP_FAILED_APPLY && *hooks.stop)
			code = 128 + *hooks.stop;
		else if (failed == KNOB_KEEP_FAILED_APPLY)
			code = knob_cli_exit_code(ret);
		else
			code = EXIT_RUNTIME;
		goto out;
	}
	report_knob_done(&plan, jpath.buf, &out);
	fputs(out.buf, stdout);
	for (i = 0; i < plan.nr; i++)
		if (plan.v[i].side.len)
			note("%s: %s", plan.v[i].k.name, plan.v[i].side.buf);
out:
	knob_plan_release(&plan);
	knob_ctx_release(&ctx);
	target_release(&t);
	strbuf_release(&err);
	strbuf_release(&jpath);
	strbuf_release(&out);
	free(a.assign);
	return code;
}
