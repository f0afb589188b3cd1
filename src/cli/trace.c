/*
 * iotrial trace: read a trace file. `trace show` prints it (its
 * description, files and events), `trace stats` what it amounts to:
 * operations by kind, bytes, sizes, the rate over time, the files, the
 * threads' think times, what the capture lost and cost.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#include "cli.h"
#include "../core/trace/iolog.h"
#include "../core/trace/trace.h"
#include "../core/trace/trace_summary.h"
#include "../core/trace/blkparse.h"
#include "../util/error.h"
#include "../util/outfile.h"
#include "../util/text.h"
#include "../util/userfile.h"
#include "../util/xalloc.h"
#include "../util/banned.h"

static const char *const trace_usage[] = {
    "iotrial trace show [--limit N] TRACE",
    "iotrial trace stats TRACE",
    "iotrial trace export --format fio-iolog3|blkparse [--root DIR] "
    "[--anonymize] [-o FILE] TRACE",
    "iotrial trace import [-o TRACE] [--force] (IOLOG | BLKTRACE)",
    NULL,
};

static const char trace_epilogue[] =
    "show prints the trace's description, its files and its events, one "
    "a line\n(--limit N: the first N; 0, the default, all). stats "
    "summarizes it.\nexport writes its reads, writes and syncs as a fio "
    "version 3 iolog\n(fio --read_iolog=FILE replays it; --root DIR maps "
    "its paths below DIR\nas a replay maps them); import makes a "
    "trace of a fio iolog\n(version 2 or 3) that the replay workload "
    "plays, or of blktrace's binary\nrecords (blkparse -d FILE): a block "
    "trace. The format is\ndocs/TRACE-FORMAT.md.\n";

/* Read the trace at path, or say why not. 0 or an exit code. */
static int load(const char *path, struct trace *t)
{
	struct strbuf err = STRBUF_INIT;
	int r = trace_read_file(path, t, &err);

	if (r)
		error("%s", err.buf);
	strbuf_release(&err);
	if (!r)
		return 0;
	return r == -ENOENT || r == -EACCES ? EXIT_RUNTIME : EXIT_USAGE;
}

/* Can out_path be written (util/outfile.h), before any work? 0, or -1
 * after the error. */
static int check_out(const char *out_path, int force)
{
	struct strbuf err = STRBUF_INIT;
	int r = outfile_check(out_path, force ? OUTFILE_REPLACE : 0, &err);

	if (r)
		error("%s", err.buf);
	strbuf_release(&err);
	return r ? -1 : 0;
}

/* What an iolog export could not carry, and what fio needs, said. */
static void say_iolog(const struct trace *t, const struct iolog_report *rep,
		      const char *root)
{
	struct rlimit rl;

	if (rep->un.nr_events) {
		char *first = xstrdup(trace_file_get(t, rep->un.first)->path);

		text_make_printable(first);
		warning("%zu reads, writes and syncs on %zu file%s left out: "
			"a fio iolog line cannot name a path with white "
			"space or a control character, or one over %d bytes "
			"('%s'%s)",
			rep->un.nr_events, rep->un.nr_files,
			rep->un.nr_files == 1 ? "" : "s", IOLOG_NAME_MAX, first,
			rep->un.nr_files > 1 ? " and others" : "");
		free(first);
	}
	if (!root && rep->writes)
		warning("the iolog writes to the trace's own paths (%zu "
			"writes): fio would write to those files where they "
			"are; --root DIR puts them below DIR instead",
			rep->writes);
	if (rep->left_advice)
		note("%zu fadvise and readahead calls left out: a fio iolog "
		     "cannot express them",
		     rep->left_advice);
	if (rep->left_names)
		note("%zu name operations (unlink, rename, mkdir, rmdir, "
		     "stat, getdents) left out: a fio iolog has no line for "
		     "them",
		     rep->left_names);
	if (rep->left_other)
		note("%zu ftruncate, fallocate, sync_file_range, sync and "
		     "syncfs calls left out: a fio iolog has no line for them",
		     rep->left_other);
	if (rep->threads > 1)
		note("the trace's %zu threads play as one fio job, their "
		     "calls in time order",
		     rep->threads);
	if (rep->renamed)
		note("%zu reads, writes and syncs of data a rename moved are "
		     "played under the name it ended with (fio renames "
		     "nothing)",
		     rep->renamed);
	if (rep->files_existed && root)
		note("fio reads %zu file%s that existed before the trace "
		     "(%.1f MiB) and makes no directory: %s and %zu "
		     "director%s below '%s' must be there first",
		     rep->files_existed, rep->files_existed == 1 ? "" : "s",
		     (double)rep->existed_bytes / (1024.0 * 1024),
		     rep->files_existed == 1 ? "it" : "they", rep->dirs,
		     rep->dirs == 1 ? "y" : "ies", root);
	else if (rep->files_existed)
		note("fio reads %zu file%s that existed before the trace "
		     "(%.1f MiB): %s must be there first",
		     rep->files_existed, rep->files_existed == 1 ? "" : "s",
		     (double)rep->existed_bytes / (1024.0 * 1024),
		     rep->files_existed == 1 ? "it" : "they");
	else if (rep->dirs)
		note("fio makes no directory: %zu director%s below '%s' must "
		     "be there first",
		     rep->dirs, rep->dirs == 1 ? "y" : "ies", root);
	if (!rep->files)
		return;
	note("fio holds at most %zu file%s open at once: each is opened at "
	     "its first line and closed after its last",
	     rep->max_open, rep->max_open == 1 ? "" : "s");
	/* fio's own descriptors besides */
	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur != RLIM_INFINITY &&
	    rep->max_open + 16 > rl.rlim_cur)
		warning("fio needs %zu descriptors or more for it; 'ulimit "
			"-n' is %llu here: raise it before running fio",
			rep->max_open + 16, (unsigned long long)rl.rlim_cur);
}

/* trace export: the iolog to out_path, or stdout. */
static int do_export(const struct trace *t, const char *format,
		     const char *out_path, int force, const char *root)
{
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	struct iolog_report rep;
	size_t n;
	int ret = EXIT_OK;

	if (!format) { /* the table took only the formats there are */
		error("'trace export' needs --format fio-iolog3 or blkparse");
		return EXIT_USAGE;
	}
	if (!strcmp(format, "blkparse") && root) {
		error("'--root' goes with '--format fio-iolog3': blkparse "
		      "records name a device, not files");
		return EXIT_USAGE;
	}
	if (!strcmp(format, "blkparse") &&
	    (!out_path || !strcmp(out_path, "-")) && isatty(STDOUT_FILENO)) {
		error("blkparse records are binary, not for a terminal; give "
		      "-o FILE, or send standard output to a file or a pipe");
		return EXIT_USAGE;
	}
	if (!strcmp(format, "blkparse")) {
		n = blkparse_export(t, &out);
	} else {
		if (iolog_export(t, root, &out, &rep, &err)) {
			error("%s", err.buf);
			ret = EXIT_USAGE;
			goto out;
		}
		n = rep.lines;
		say_iolog(t, &rep, root);
	}
	if (out_path && strcmp(out_path, "-")) {
		if (cli_write_report_file(out_path, out.buf, out.len, force))
			ret = EXIT_RUNTIME;
		else
			note("%zu %s written to '%s'", n,
			     strcmp(format, "blkparse")
				 ? "reads, writes and syncs"
				 : "block requests",
			     out_path);
	} else {
		fwrite(out.buf, 1, out.len, stdout);
	}
out:
	strbuf_release(&out);
	strbuf_release(&err);
	return ret;
}

/* trace import: the iolog at in_path as a trace at out_path. */
static int do_import(const char *in_path, const char *out_path, int force)
{
	struct strbuf in = STRBUF_INIT, err = STRBUF_INIT;
	struct trace t = {0};
	const char *imported;
	int ret = EXIT_OK, r;

	if (!out_path) {
		error("'trace import' needs -o TRACE, the trace to write");
		return EXIT_USAGE;
	}
	if (check_out(out_path, force)) {
		ret = EXIT_USAGE;
		goto out;
	}
	r = userfile_read(in_path, (size_t)1 << 31, &in, &err);
	if (r) {
		error("%s", err.buf);
		ret = r == -EINVAL || r == -EFBIG ? EXIT_USAGE : EXIT_RUNTIME;
		goto out;
	}
	if (blkparse_detect(in.buf, in.len)) {
		uint64_t others = 0;

		r = blkparse_import(in.buf, in.len, &t, &others, &err);
		if (!r && others)
			note("%llu records of other devices than %s were left "
			     "out",
			     (unsigned long long)others,
			     trace_meta_get(&t, "block.dev"));
	} else {
		r = iolog_import(in.buf, in.len, &t, &err);
	}
	if (r) {
		error("'%s': %s", in_path, err.buf);
		ret = EXIT_USAGE;
		goto out;
	}
	r = trace_write_file(&t, out_path, force, &err);
	if (r) {
		error("%s", err.buf);
		ret = r == -EEXIST || r == -ELOOP ? EXIT_USAGE : EXIT_RUNTIME;
		goto out;
	}
	imported = trace_meta_get(&t, "imported");
	if (imported && !strcmp(imported, "blktrace"))
		printf("imported %zu block request%s of %s from '%s' to "
		       "'%s'\n",
		       t.nr_events, t.nr_events == 1 ? "" : "s",
		       trace_meta_get(&t, "block.dev"), in_path, out_path);
	else
		printf("imported %zu event%s on %zu file%s from '%s' to "
		       "'%s'\n",
		       t.nr_events, t.nr_events == 1 ? "" : "s", t.nr_files,
		       t.nr_files == 1 ? "" : "s", in_path, out_path);
out:
	trace_release(&t);
	strbuf_release(&in);
	strbuf_release(&err);
	return ret;
}

int cmd_trace(int argc, const char **argv)
{
	static const char *const formats[] = {"fio-iolog3", "blkparse", NULL};
	const char *format = NULL, *out_path = NULL, *root = NULL;
	uint64_t limit = 0;
	int force = 0, anonymize = 0;
	struct option opts[] = {
	    OPT_COUNT(0, "limit", &limit, "0", NULL, NULL,
		      "show: the first N events (0: all)"),
	    OPT_CHOICE(0, "format", &format, formats, NULL,
		       "export: the format to write"),
	    OPT_STRING('o', "output", &out_path, "FILE",
		       "export: the iolog or blktrace file (default stdout); "
		       "import: the "
		       "trace"),
	    OPT_BOOL(0, "force", &force, "replace the output if it exists"),
	    OPT_BOOL(0, "anonymize", &anonymize,
		     "export: paths as stable hashes"),
	    OPT_STRING(0, "root", &root, "DIR",
		       "export: the paths below DIR, as a replay maps them"),
	    OPT_END(),
	};
	struct strbuf out = STRBUF_INIT;
	struct trace t = {0};
	struct trace_summary s;
	int n, ret;

	n = parse_options(argc, argv, "trace", opts, trace_usage,
			  trace_epilogue, 0);
	if (n == PARSE_OPT_HELP)
		return EXIT_OK;
	if (n < 0)
		return EXIT_USAGE;
	if (n != 2 ||
	    (strcmp(argv[0], "show") && strcmp(argv[0], "stats") &&
	     strcmp(argv[0], "export") && strcmp(argv[0], "import"))) {
		error("'trace' needs show, stats, export or import and a file; "
		      "see 'iotrial trace --help'");
		return EXIT_USAGE;
	}
	if (root && strcmp(argv[0], "export")) {
		error("'--root' goes with 'trace export'");
		return EXIT_USAGE;
	}
	if (!strcmp(argv[0], "import"))
		return do_import(argv[1], out_path, force);
	if (!strcmp(argv[0], "export") && out_path && strcmp(out_path, "-") &&
	    check_out(out_path, force))
		return EXIT_USAGE;
	ret = load(argv[1], &t);
	if (ret)
		goto out;
	if (anonymize)
		trace_anonymize(&t);
	if (!strcmp(argv[0], "export")) {
		ret = do_export(&t, format, out_path, force, root);
		goto out;
	}
	if (!strcmp(argv[0], "show")) {
		trace_show_text(&t, (size_t)limit, &out);
	} else {
		trace_summarize(&t, &s);
		trace_stats_text(&t, &s, &out);
		trace_summary_release(&s);
	}
	fputs(out.buf, stdout);
	ret = EXIT_OK;
out:
	trace_release(&t);
	strbuf_release(&out);
	return ret;
}
