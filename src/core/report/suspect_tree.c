/*
 * The suspect marks on the experiment engine's json-c tree (suspect.h):
 * the tree decoded through the model, marked as a document is, and what
 * was set put back through the model's bridge (model/model_tree.h).
 * Meant to be gone once the engine fills an experiment_doc.
 */
#include <stdlib.h>
#include "suspect.h"
#include "../model/model_json.h"
#include "../model/model_tree.h"
#include "../../util/banned.h"

int suspect_mark(struct json_object *exp, struct strbuf *err)
{
	struct strbuf why = STRBUF_INIT;
	struct experiment_doc doc;
	int ret = exp_marks_doc_from_tree(exp, &doc, err ? err : &why);

	if (!ret) {
		suspect_doc_mark(&doc);
		exp_marks_into_tree(exp, &doc, EXP_MARK_SUSPECT);
	}
	experiment_doc_release(&doc);
	strbuf_release(&why);
	return ret;
}

unsigned suspect_apply_strict(struct json_object *exp)
{
	struct strbuf err = STRBUF_INIT;
	struct experiment_doc doc;
	unsigned refused = 0;

	if (!exp_marks_doc_from_tree(exp, &doc, &err)) {
		refused = suspect_doc_apply_strict(&doc);
		exp_marks_into_tree(exp, &doc, EXP_MARK_STRICT);
	}
	experiment_doc_release(&doc);
	strbuf_release(&err);
	return refused;
}
