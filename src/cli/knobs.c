/*
 * iotrial knobs: every tunable that applies to a target, with its current
 * value, unit, allowed values, scope and notes. Read-only, so it works
 * without root; the same listing as JSON with --json.
 */
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "knobargs.h"
#include "../core/report/knob_text.h"
#include "../util/error.h"
#include "../util/banned.h"

static const char *const knobs_usage[] = {
    "iotrial knobs [-t TARGET | --device DEV] [--json[=FILE]]",
    NULL,
};

static const char knobs_epilogue[] =
    "Lists the kernel I/O tunables for a target: device knobs (the "
    "scheduler,\nread-ahead, queue limits) need -t or --device, 'atime' a "
    "mounted file\nsystem; vm.* apply to the whole system. Read-only: works "
    "without root.\nChange them with 'iotrial set' or 'iotrial run "
    "--set'.\n";

/* Parse options; 1 for --help, -1 after an error. */
static int parse(int argc, const char **argv, const char **target,
		 const char **device, const char **json)
{
	struct option opts[] = {
	    OPT_STRING('t', "target", target, "TARGET",
		       "a directory (its disk and mount) or a block device"),
	    OPT_STRING(0, "device", device, "DEV",
		       "a block device, as /dev/sdb or sdb"),
	    OPT_JSON(json, "print the list as JSON, or write it to FILE"),
	    OPT_SCHEMA(),
	    OPT_END(),
	};
	int n = parse_options(argc, argv, "knobs", opts, knobs_usage,
			      knobs_epilogue, 0);

	if (n == PARSE_OPT_HELP)
		return 1;
	if (n < 0)
		return -1;
	if (n > 0) {
		error("unknown argument '%s' for 'knobs'; see 'iotrial knobs "
		      "--help'",
		      argv[0]);
		return -1;
	}
	return 0;
}

int cmd_knobs(int argc, const char **argv)
{
	const char *target = NULL, *device = NULL;
	struct knob_list names = {0};
	struct knobs_doc doc;
	struct strbuf err = STRBUF_INIT, value = STRBUF_INIT;
	struct strbuf out = STRBUF_INIT;
	struct knob_ctx ctx;
	struct target t;
	const char *json = NULL;
	int code, r;
	size_t i;

	knobs_doc_init(&doc);
	r = parse(argc, argv, &target, &device, &json);
	if (r) {
		return r > 0 ? EXIT_OK : EXIT_USAGE;
	}
	if (json && cli_check_output(json))
		return EXIT_USAGE;
	knob_ctx_init(&ctx);
	code = knob_cli_context(target, device, &ctx, &t);
	if (code)
		goto out;
	knob_names(&ctx, &names);
	if (!json)
		report_knobs_head(&ctx, &out);
	for (i = 0; i < names.nr; i++) {
		struct knob k;
		struct knob_desc d;

		knob_desc_init(&d);
		strbuf_reset(&value);
		if (knob_resolve(&ctx, names.v[i], &k, NULL, &err) ||
		    knob_describe(&k, &value, &d, &err)) {
			/* what is listed so far comes first */
			fputs(out.buf, stdout);
			strbuf_reset(&out);
			warning("%s", err.buf);
			knob_desc_release(&d);
			if (k.ops)
				knob_release(&k);
			continue;
		}
		if (json)
			report_knob_doc(&k, value.buf, &d, &doc);
		else
			report_knob_text(&k, value.buf, &d, &out);
		knob_release(&k);
		knob_desc_release(&d);
	}
	if (json)
		report_knobs_json(&ctx, &doc, &out);
	else
		report_knobs_tail(&ctx, &out);
	if (json ? cli_write_json_text(json, out.buf, 0)
		 : cli_write_text("-", out.buf))
		code = EXIT_RUNTIME;
out:
	knobs_doc_release(&doc);
	knob_list_release(&names);
	knob_ctx_release(&ctx);
	target_release(&t);
	strbuf_release(&err);
	strbuf_release(&value);
	strbuf_release(&out);
	return code;
}
