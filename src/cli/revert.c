/*
 * iotrial revert [KNOB ...] [--list]: restore everything the journal
 * holds, newest first, or only the knobs named, or (--list) show it
 * without changing anything. Changes left by
 * a crashed iotrial are repaired by any other invocation (--list shows
 * them first, main() skips the repair for it); revert is also how the
 * changes `iotrial set` keeps are undone. A setting someone changed since
 * iotrial wrote it is left as it is, and said so.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "knobargs.h"
#include "../core/knob/keep.h"
#include "../core/model/model_json.h"
#include "../core/report/journal_text.h"
#include "../util/error.h"
#include "../util/xalloc.h"
#include "../util/banned.h"

static const char *const revert_usage[] = {
    "iotrial revert [KNOB ...]",
    "iotrial revert --list [--json[=FILE]]",
    NULL,
};

static const char revert_epilogue[] =
    "Restores every setting the journal holds (what 'iotrial set' kept, "
    "and\nwhat a crashed iotrial left), newest first; a setting changed "
    "since iotrial\nwrote it keeps its new value. With KNOB names "
    "(read_ahead_kb, vm.dirty_ratio),\nonly those, on every device or "
    "mount they were set for; vm.dirty_ratio\nand vm.dirty_bytes come "
    "back together, as the kernel keeps them. --list\nshows what is held "
    "and changes nothing.\n";

/*
 * The canonical names of the knobs typed, into names (argv's strings or
 * the registry's spelling, owned by ks). 0, or an exit code after the
 * error: a name that is no knob gets the nearest one.
 */
static int knob_names_of(int argc, const char **argv, struct knob *ks,
			 const char **names)
{
	struct strbuf err = STRBUF_INIT, note = STRBUF_INIT;
	struct knob_ctx ctx;
	int i, ret = 0;

	knob_ctx_init(&ctx);
	for (i = 0; i < argc && !ret; i++) {
		int r;

		if (strchr(argv[i], '=')) {
			error("revert takes knob names, not '%s'; it puts back "
			      "what the knob held before iotrial set it "
			      "(e.g. 'iotrial revert read_ahead_kb')",
			      argv[i]);
			ret = EXIT_USAGE;
			break;
		}
		strbuf_reset(&err);
		r = knob_resolve(&ctx, argv[i], &ks[i], &note, &err);
		if (r == -ENOENT) {
			error("%s", err.buf);
			ret = EXIT_USAGE;
		} else {
			/* a device or mount knob is known without one */
			names[i] = !r && ks[i].name ? ks[i].name : argv[i];
		}
	}
	knob_ctx_release(&ctx);
	strbuf_release(&err);
	strbuf_release(&note);
	return ret;
}

/* revert --list: read-only, no root needed; as JSON to json unless
 * NULL. */
static int list(const char *json)
{
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	size_t live = 0;
	int ret;

	if (json) {
		struct journal_doc doc;

		ret = report_journal_json(&doc, &err);
		if (ret) {
			error("%s", err.buf);
		} else {
			journal_doc_encode(&doc, 0, &out);
			if (cli_write_doc(json, &out))
				ret = -EIO;
		}
		journal_doc_release(&doc);
		strbuf_release(&out);
		strbuf_release(&err);
		return ret ? EXIT_RUNTIME : EXIT_OK;
	}
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
	struct session_log log;
	FILE *info = stdout;
	struct knob *ks = NULL;
	const char **names = NULL, *json = NULL;
	size_t n = 0, repaired;
	int i, left, do_list = 0, no_journal, code = EXIT_OK, ret;
	struct option opts[] = {
	    OPT_BOOL(0, "list", &do_list,
		     "show what the journal holds and change nothing (no root "
		     "needed)"),
	    OPT_JSON(&json, "with --list: the journal as JSON, or to FILE"),
	    OPT_SCHEMA(),
	    OPT_END(),
	};

	left = parse_options(argc, argv, "revert", opts, revert_usage,
			     revert_epilogue, 0);
	if (left == PARSE_OPT_HELP)
		return EXIT_OK;
	if (left < 0)
		return EXIT_USAGE;
	if (do_list && left) {
		error("--list shows the whole journal; give no knob names "
		      "with it");
		return EXIT_USAGE;
	}
	if (json && !do_list) {
		error("--json prints what --list shows; give both");
		return EXIT_USAGE;
	}
	if (json && cli_check_output(json))
		return EXIT_USAGE;
	if (do_list)
		return list(json);
	ks = xcalloc((size_t)left + 1, sizeof(*ks));
	names = xcalloc((size_t)left + 1, sizeof(*names));
	code = knob_names_of(left, argv, ks, names);
	if (code)
		goto out;
	knob_cli_log(&log, &info);
	/* an undo that a closed stdout (an SSH session gone) cut short is
	 * worse than a message lost */
	signal(SIGPIPE, SIG_IGN);
	/* what a gone iotrial left first (main() leaves it to us), so
	 * that what we say below covers it */
	repaired = knob_recover_stale(&log);
	ret = knob_revert_kept(&log, left ? names : NULL, (size_t)left, &n,
			       &no_journal, &err);
	if (ret) {
		error("%s", err.buf);
		code = EXIT_RUNTIME;
	} else if ((no_journal || !n) && repaired) {
		/* not "restored": a setting someone changed since was
		 * kept, and the lines above say which */
		printf("settled what a gone iotrial left behind (%zu "
		       "record%s: restored, or kept where someone changed "
		       "the setting since, as said above); the journal holds "
		       "nothing else to revert\n",
		       repaired, repaired == 1 ? "" : "s");
	} else if (no_journal) {
		printf("nothing to revert: the journal holds no changes\n");
	} else if (!n && left) {
		printf("nothing to revert: the journal holds no kept change "
		       "of '%s'%s; 'iotrial revert --list' shows what it "
		       "holds\n",
		       names[0], left > 1 ? " or the other knobs named" : "");
	} else if (!n) {
		printf("nothing to revert: the journal holds no kept "
		       "changes\n");
	}
out:
	for (i = 0; i < left; i++)
		knob_release(&ks[i]);
	free(ks);
	free(names);
	strbuf_release(&err);
	return code;
}
