/*
 * Renderings of the typed experiment document from a tree
 * (typed_doc.h).
 */
#include "typed_doc.h"
#include "../core/model/model_tree.h"
#include "../core/report/arms_export.h"
#include "../util/banned.h"

int cli_arms_of_tree(struct json_object *tree, int markdown, struct strbuf *out,
		     struct strbuf *err)
{
	struct experiment_doc doc;
	int ret = experiment_doc_from_tree(tree, &doc, 0, err);

	if (!ret && markdown)
		report_arms_md(&doc, out);
	else if (!ret)
		report_arms_csv(&doc, out);
	experiment_doc_release(&doc);
	return ret;
}
