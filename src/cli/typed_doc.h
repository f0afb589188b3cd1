/*
 * What compare, run and observe render from the typed experiment
 * document (core/model/) while they still hold its json-c tree: decoded
 * through the model's bridge here, apart from their own files, because
 * the model's run_doc.h and result.h (which the experiment's headers
 * bring) cannot be included together yet.
 */
#ifndef IOTRIAL_CLI_TYPED_DOC_H
#define IOTRIAL_CLI_TYPED_DOC_H

#include <json-c/json.h>
#include "../util/strbuf.h"

/*
 * Append tree's metric families (core/report/openmetrics_doc.h), each
 * sample labelled command, to out (Prometheus text, no end marker). 0,
 * or -EINVAL with err set when the tree is no experiment object.
 */
int cli_metrics_of_tree(struct json_object *tree, const char *command,
			struct strbuf *out, struct strbuf *err);

/* The arms' table (core/report/arms_export.h), markdown or CSV, into
 * out; 0 or -EINVAL with err set. */
int cli_arms_of_tree(struct json_object *tree, int markdown, struct strbuf *out,
		     struct strbuf *err);

/* The same from the document. */
struct experiment_doc;
void cli_metrics_of_doc(const struct experiment_doc *doc, const char *command,
			struct strbuf *out);
void cli_arms_of_doc(const struct experiment_doc *doc, int markdown,
		     struct strbuf *out);

/* doc as pretty JSON into file ("-": stdout), as cli_write_json() writes
 * a tree (cli.h); 0 or -1 after printing the error. */
int cli_write_experiment(const char *file, const struct experiment_doc *doc);
struct run_doc;
int cli_write_run(const char *file, const struct run_doc *run);

#endif
