/*
 * iotrial revert [--list]: restore everything the journal holds, newest
 * first, or (--list) show it without changing anything. Changes left by
 * a crashed iotrial are repaired by any other invocation (--list shows
 * them first, main() skips the repair for it); revert is also how the
 * changes `iotrial set` keeps are undone. A setting someone changed since
 * iotrial wrote it is left as it is, and said so.
 */
#include <stdio.h>
#include "cli.h"
#include "knobargs.h"
#include "../core/knob/keep.h"
#include "../core/report/journal_text.h"
#include "../util/error.h"
#include "../util/banned.h"

static const char *const revert_usage[] = {
    "iotrial revert [--list]",
    NULL,
};

static const char revert_epilogue[] =
    "Restores every setting the journal holds (what 'iotrial set' kept, "
    "and\nwhat a crashed iotrial left), newest first; a setting changed "
    "since iotrial\nwrote it keeps its new value. --list shows them "
    "instead and changes nothing.\n";

/* revert --list: read-only, no root needed. */
static int list(void)
{
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	size_t live = 0;
	int ret;

	ret = report_journal_text(&out, &live, &err);
	if (ret) {
		error("%s", err.buf);
		if (out.len)
			fprintf(stderr, "%s", out.buf);
	} else if (!live) {
		printf("the journal holds nothing to restore\n");
	} else {
		fputs(out.buf, stdout);
	}
	strbuf_release(&out);
	strbuf_release(&err);
	return ret ? EXIT_RUNTIME : EXIT_OK;
}

int cmd_revert(int argc, const char **argv)
{
	struct strbuf err = STRBUF_INIT;
	struct knob_log log;
	FILE *info = stdout;
	size_t n = 0;
	int left, do_list = 0, no_journal, code = EXIT_OK, ret;
	struct option opts[] = {
	    OPT_BOOL(0, "list", &do_list,
		     "show what the journal holds and change nothing (no root "
		     "needed)"),
	    OPT_END(),
	};

	left = parse_options(argc, argv, "revert", opts, revert_usage,
			     revert_epilogue, 0);
	if (left == PARSE_OPT_HELP)
		return EXIT_OK;
	if (left) {
		if (left > 0)
			error("unknown argument '%s' for 'revert'; it takes "
			      "only --list",
			      argv[0]);
		return EXIT_USAGE;
	}
	if (do_list)
		return list();
	knob_cli_log(&log, &info);
	ret = knob_revert_kept(&log, &n, &no_journal, &err);
	if (ret) {
		error("%s", err.buf);
		code = EXIT_RUNTIME;
	} else if (no_journal) {
		printf("nothing to revert: the journal holds no changes\n");
	} else if (!n) {
		printf("nothing to revert: the journal holds no kept "
		       "changes\n");
	}
	strbuf_release(&err);
	return code;
}
