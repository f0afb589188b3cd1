/*
 * iotrial info: what a result measured on, before anything is measured.
 * The environment snapshot (kernel, CPUs, memory, the vm.dirty_*
 * writeback settings) and the target's device stack with the queue values
 * admins tune: the same facts every result carries in its "env", printed
 * for a person or as JSON.
 */
#include <stdio.h>
#include "cli.h"
#include "../core/report/env_text.h"
#include "../core/targets/target.h"
#include "../util/error.h"
#include "../util/banned.h"

static const char *const info_usage[] = {
    "iotrial info [-t TARGET] [--json[=FILE]]",
    NULL,
};

static const char info_epilogue[] =
    "Print the environment results are measured in: kernel, CPUs,\n"
    "memory, vm.dirty_* settings, and TARGET's device stack (mount,\n"
    "partition -> disk, loop -> backing file -> its device, dm/md\n"
    "-> slaves) with each device's model, size, rotational, logical\n"
    "block size, scheduler, read_ahead_kb and nr_requests.\n";

int cmd_info(int argc, const char **argv)
{
	const char *spec = ".";
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
	struct target t = {0};
	struct env e = {0};
	const char *json = NULL;
	int n, ret = EXIT_OK;
	struct option opts[] = {
	    OPT_STRING('t', "target", &spec, "TARGET",
		       "a directory or a block device (default: the current "
		       "directory)"),
	    OPT_JSON(&json, "print it as JSON, or write it to FILE"),
	    OPT_SCHEMA(),
	    OPT_END(),
	};

	n = parse_options(argc, argv, "info", opts, info_usage, info_epilogue,
			  0);
	if (n == PARSE_OPT_HELP)
		return EXIT_OK;
	if (n < 0)
		return EXIT_USAGE;
	if (n > 0) {
		error("unknown argument '%s' for 'info'; expected -t TARGET "
		      "or --json",
		      argv[0]);
		return EXIT_USAGE;
	}
	if (json && cli_check_output(json))
		return EXIT_USAGE;
	if (target_open(&t, spec, TARGET_NO_WORKDIR, NULL, &err)) {
		error("%s", err.buf);
		ret = EXIT_USAGE;
		goto out;
	}
	if (env_capture_target(&e, &t, &err)) {
		error("%s", err.buf);
		ret = EXIT_RUNTIME;
		goto out;
	}
	if (json)
		report_env_json(&e, &out);
	else
		report_env_text(&e, &out);
	if (json ? cli_write_json_text(json, out.buf, 0)
		 : cli_write_text("-", out.buf))
		ret = EXIT_RUNTIME;
out:
	env_release(&e);
	target_release(&t);
	strbuf_release(&err);
	strbuf_release(&out);
	return ret;
}
