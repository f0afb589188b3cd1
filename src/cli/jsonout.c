/*
 * What the commands write out: text, and JSON documents. Every JSON
 * document goes through cli_put_json(), so that none escapes the copy
 * IOTRIAL_JSON_LOG_DIR asks for (util/doclog.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "../core/report/fmt.h"
#include "../util/doclog.h"
#include "../util/error.h"
#include "../util/outfile.h"
#include "../util/text.h"
#include "../util/banned.h"

/* The copy of one document of len bytes. */
static void log_document(const char *text, size_t len, unsigned flags)
{
	static int warned;
	const char *dir = getenv(DOCLOG_ENV);
	struct strbuf err = STRBUF_INIT;

	if (!dir || !*dir || !len)
		return;
	if (doclog_write(dir, text, len, flags & CLI_JSON_OLD ? DOCLOG_OLD : 0,
			 NULL, &err) &&
	    !warned) {
		warning("%s: no copy of the JSON kept: %s", DOCLOG_ENV,
			err.buf);
		warned = 1;
	}
	strbuf_release(&err);
}

void cli_log_json(const char *text, unsigned flags)
{
	const char *p, *nl;

	if (!(flags & CLI_JSON_LINES)) {
		log_document(text, strlen(text), flags);
		return;
	}
	for (p = text; *p; p = nl) {
		nl = strchr(p, '\n');
		nl = nl ? nl + 1 : p + strlen(p);
		log_document(p, (size_t)(nl - p), flags);
	}
}

int cli_put_json(FILE *f, const char *text, unsigned flags)
{
	int ret = fputs(text, f) == EOF ? -1 : 0;

	cli_log_json(text, flags);
	return ret;
}

/* --json=FILE's error: err, and for what only stdout takes (a link
 * such as /dev/stdout, a FIFO, a device) how to get there. */
static void output_error(int ret, const struct strbuf *err)
{
	error("%s%s", err->buf,
	      ret == -ELOOP || ret == -EINVAL
		  ? "; plain --json prints to standard output"
		  : "");
}

int cli_write_text(const char *file, const char *text)
{
	struct strbuf err = STRBUF_INIT;
	int ret;

	if (!strcmp(file, "-")) {
		fputs(text, stdout);
		return 0;
	}
	/* --json=FILE has always replaced the file it names */
	ret = outfile_write(file, text, strlen(text), OUTFILE_REPLACE, &err);
	if (ret)
		output_error(ret, &err);
	strbuf_release(&err);
	return ret ? -1 : 0;
}

int cli_write_json_text(const char *file, const char *text, unsigned flags)
{
	if (!strcmp(file, "-")) {
		cli_put_json(stdout, text, flags);
		return 0;
	}
	if (cli_write_text(file, text))
		return -1;
	cli_log_json(text, flags);
	return 0;
}

int cli_write_doc(const char *file, struct strbuf *text)
{
	text_json_safe(text, 0);
	return cli_write_json_text(file, text->buf, 0);
}

int cli_check_output(const char *path)
{
	struct strbuf err = STRBUF_INIT;
	int ret;

	if (!strcmp(path, "-"))
		return 0;
	if (!*path) {
		error("--json= needs a file name, or plain --json for stdout");
		return -1;
	}
	ret = outfile_check(path, OUTFILE_REPLACE, &err);
	if (ret)
		output_error(ret, &err);
	strbuf_release(&err);
	return ret ? -1 : 0;
}
