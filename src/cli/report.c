/*
 * iotrial report: a stored experiment as a file to read or share: the
 * text of `show` with every run, JSON, CSV for a spreadsheet, Markdown
 * for a ticket, or one self-contained HTML page with plots. The output
 * file is never overwritten unless --force says so: a report attached
 * to a change request should not vanish under a second run.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "cli.h"
#include "../core/model/model_json.h"
#include "../core/report/fmt.h"
#include "../core/report/report_formats.h"
#include "../core/store/store.h"
#include "../util/error.h"
#include "../util/text.h"
#include "../util/outfile.h"
#include "../util/banned.h"

/* What `report` was asked for. */
struct report_args {
	const char *id;
	const char *db;	    /* NULL: the default store */
	const char *format; /* default "text" */
	const char *output; /* -o FILE; NULL: stdout */
	int force;
};

/* The help after the options: each format's summary, from the table. */
static void report_epilogue(struct strbuf *out)
{
	size_t i;

	strbuf_addstr(out, "Renders a stored experiment in FORMAT:\n");
	for (i = 0; report_formats[i]; i++) {
		const char *p = report_formats[i]->summary;
		size_t col = 8;

		strbuf_addf(out, "  %-5s", report_formats[i]->name);
		/* the summary, wrapped at 78 columns under itself */
		while (*p) {
			size_t w = strcspn(p, " ");

			if (col + 1 + w > 78) {
				strbuf_addstr(out, "\n       ");
				col = 7;
			}
			strbuf_addf(out, " %.*s", (int)w, p);
			col += 1 + w;
			p += w;
			p += strspn(p, " ");
		}
		strbuf_addch(out, '\n');
	}
	strbuf_addstr(out, "ID may be any unique prefix of an id that 'iotrial "
			   "log' lists.\n");
}

/* Parse argv; returns 0, 1 for --help, -1 after printing an error. */
static int parse_args(int argc, const char **argv, struct report_args *a)
{
	struct strbuf names = STRBUF_INIT, line = STRBUF_INIT;
	struct strbuf epilogue = STRBUF_INIT;
	const char *usage[] = {NULL, "         [--db PATH]", NULL};
	struct option opts[] = {
	    OPT_CHOICE('f', "format", &a->format, report_format_choices, "text",
		       "the format"),
	    OPT_STRING('o', "output", &a->output, "FILE",
		       "write the report to FILE instead of stdout"),
	    OPT_BOOL(0, "force", &a->force, "replace FILE if it exists"),
	    OPT_STRING(0, "db", &a->db, "PATH", "the results store to read"),
	    OPT_SCHEMA(),
	    OPT_END(),
	};
	int n;

	report_format_names("|", "|", &names);
	strbuf_addf(&line,
		    "iotrial report ID [--format %s] [-o FILE] [--force]",
		    names.buf);
	usage[0] = line.buf;
	report_epilogue(&epilogue);
	n = parse_options(argc, argv, "report", opts, usage, epilogue.buf, 0);
	strbuf_release(&names);
	strbuf_release(&line);
	strbuf_release(&epilogue);

	if (n == PARSE_OPT_HELP)
		return 1;
	if (n < 0)
		return -1;
	if (n > 1) {
		error("unexpected argument '%s' for 'report'; it takes one "
		      "experiment id",
		      argv[1]);
		return -1;
	}
	if (!n) {
		error("'report' needs an experiment id; 'iotrial log' lists "
		      "them");
		return -1;
	}
	a->id = argv[0];
	return 0;
}

int cli_check_report_file(const char *path, int force, const char *how)
{
	struct strbuf err = STRBUF_INIT;
	int ret;

	if (!*path) {
		error("the report needs a file name");
		return -1;
	}
	ret = outfile_check(path, force ? OUTFILE_REPLACE : 0, &err);
	if (ret == -EEXIST && how)
		error("'%s' exists; give another file, or %s", path, how);
	else if (ret)
		error("%s", err.buf);
	strbuf_release(&err);
	return ret ? -1 : 0;
}

int cli_write_report_file(const char *path, const char *data, size_t len,
			  int force)
{
	struct strbuf err = STRBUF_INIT;
	int ret =
	    outfile_write(path, data, len, force ? OUTFILE_REPLACE : 0, &err);

	if (ret)
		error("%s", err.buf);
	strbuf_release(&err);
	return ret ? -1 : 0;
}

int cmd_report(int argc, const char **argv)
{
	struct report_args a = {.format = "text"};
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
	struct experiment_doc doc;
	struct store s;
	int ret = EXIT_OK, r, opened = 0, is_json;

	experiment_doc_init(&doc);

	r = parse_args(argc, argv, &a);
	if (r)
		return r > 0 ? EXIT_OK : EXIT_USAGE;
	is_json = !strcmp(a.format, "json");
	/* a bad output is said before the store is read (a bad format
	 * already was, by the option table) */
	if (a.output && strcmp(a.output, "-") &&
	    cli_check_report_file(a.output, a.force, NULL)) {
		ret = EXIT_USAGE;
		goto out;
	}
	r = store_open_flags(&s, a.db, STORE_NO_CREATE, &err);
	opened = !r;
	if (!r)
		r = store_load_doc(&s, a.id, &doc, &err);
	if (r) {
		error("%s", err.buf);
		ret = r == -EINVAL || r == -ENOENT ? EXIT_USAGE : EXIT_RUNTIME;
		goto out;
	}
	/* JSON is the stored document, printed as every one is, made
	 * safe (util/text.h) */
	if (is_json) {
		experiment_doc_encode(&doc, 0, &out);
		text_json_safe(&out, 0);
	} else if (report_render(&doc, a.format, &out, &err)) {
		error("experiment '%s': %s", a.id, err.buf);
		ret = EXIT_RUNTIME;
		goto out;
	}
	if (!a.output || !strcmp(a.output, "-")) {
		if (is_json)
			cli_put_json(stdout, out.buf, 0);
		else
			fputs(out.buf, stdout);
	} else if (cli_write_report_file(a.output, out.buf, out.len, a.force)) {
		ret = EXIT_RUNTIME;
	} else if (is_json) {
		cli_log_json(out.buf, 0);
	}
out:
	experiment_doc_release(&doc);
	if (opened)
		store_close(&s);
	strbuf_release(&err);
	strbuf_release(&out);
	return ret;
}
