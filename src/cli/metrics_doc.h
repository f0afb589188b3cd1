/*
 * An experiment object's metric families (core/report/openmetrics_doc.h)
 * from the tree the commands still hold: decoded through the model's
 * bridge here, apart from progress.c, because the model's run_doc.h and
 * result.h (which the experiment's headers bring) cannot be included
 * together yet.
 */
#ifndef IOTRIAL_CLI_METRICS_DOC_H
#define IOTRIAL_CLI_METRICS_DOC_H

#include <json-c/json.h>
#include "../util/strbuf.h"

/*
 * Append tree's families, each sample labelled command, to out
 * (Prometheus text, no end marker). 0, or -EINVAL with err set when the
 * tree is no experiment object.
 */
int cli_metrics_of_tree(struct json_object *tree, const char *command,
			struct strbuf *out, struct strbuf *err);

#endif
