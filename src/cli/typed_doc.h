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

/* The arms' table (core/report/arms_export.h), markdown or CSV, into
 * out; 0 or -EINVAL with err set. */
int cli_arms_of_tree(struct json_object *tree, int markdown, struct strbuf *out,
		     struct strbuf *err);

#endif
