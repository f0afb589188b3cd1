/*
 * What the commands that run an experiment write from its typed
 * document (core/model/): the arms' table of --export-csv and
 * --export-markdown, and the JSON of --json.
 */
#ifndef IOTRIAL_CLI_TYPED_DOC_H
#define IOTRIAL_CLI_TYPED_DOC_H

#include "../util/strbuf.h"

struct experiment_doc;
struct run_doc;

/* The arms' table (core/report/arms_export.h), markdown or CSV, into
 * out. */
void cli_arms_of_doc(const struct experiment_doc *doc, int markdown,
		     struct strbuf *out);

/* doc (or run) as pretty JSON into file ("-": stdout), made safe to
 * read, as every document iotrial prints (cli.h: cli_write_doc()); 0 or
 * -1 after printing the error. */
int cli_write_experiment(const char *file, const struct experiment_doc *doc);
int cli_write_run(const char *file, const struct run_doc *run);

#endif
