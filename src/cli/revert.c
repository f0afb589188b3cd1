/*
 * iotrial revert [--list]: restore everything the journal holds, newest
 * first, or (--list) show it without changing anything. Changes left by
 * a crashed iotrial are repaired by any other invocation (--list shows
 * them first, main() skips the repair for it); revert is also how the
 * changes `iotrial set` keeps are undone. A setting someone changed since
 * iotrial wrote it is left as it is, and said so.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include "cli.h"
#include "knobargs.h"
#include "../util/error.h"
#include "../util/banned.h"

/* The help text of `revert`. */
static void revert_usage(FILE *out)
{
	fprintf(out,
		"usage: iotrial revert [--list]\n\n"
		"Restores every setting the journal holds (what 'iotrial set' "
		"kept, and\nwhat a crashed iotrial left), newest first; a "
		"setting changed since iotrial\nwrote it keeps its new value. "
		"--list shows them instead and changes nothing.\n");
}

/* revert --list: read-only, no root needed. */
static int list(void)
{
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	size_t live = 0;
	int ret;

	ret = knob_journal_describe(&out, &live, &err);
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
	struct strbuf err = STRBUF_INIT, path = STRBUF_INIT;
	struct knob_session *s = NULL;
	struct knob_log log;
	FILE *info = stdout;
	struct stat st;
	size_t n = 0;
	int i, do_list = 0, code = EXIT_OK, ret;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			revert_usage(stdout);
			return EXIT_OK;
		}
		if (cli_opt_flag(argv[i], "--list")) {
			do_list = 1;
			continue;
		}
		error("unknown argument '%s' for 'revert'; it takes only "
		      "--list",
		      argv[i]);
		return EXIT_USAGE;
	}
	if (do_list)
		return list();
	knob_cli_log(&log, &info);
	knob_journal_path(&path);
	if (stat(path.buf, &st) < 0) {
		if (errno == ENOENT) {
			printf("nothing to revert: the journal holds no "
			       "changes\n");
		} else {
			error("cannot read the journal '%s': %s; restoring "
			      "settings needs root",
			      path.buf, strerror(errno));
			code = EXIT_RUNTIME;
		}
		goto out;
	}
	ret = knob_session_open(&s, "revert", 0, &log, &err);
	if (ret) {
		error("%s", err.buf);
		code = EXIT_RUNTIME;
		goto out;
	}
	ret = knob_session_revert(s, &log, &n, &err);
	if (ret) {
		error("%s", err.buf);
		code = EXIT_RUNTIME;
	} else if (!n) {
		printf("nothing to revert: the journal holds no kept "
		       "changes\n");
	}
out:
	knob_session_close(s, &log);
	strbuf_release(&err);
	strbuf_release(&path);
	return code;
}
