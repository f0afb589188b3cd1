/*
 * The fleet part of the page for a caller that still holds a json-c
 * tree (fleet_text.h): the tree decoded into a document
 * (model/model_tree.h) and its fleet section rendered. Its last caller
 * is a test; it goes, with the bridge, when that test holds documents.
 */
#include "fleet_text.h"
#include "page.h"
#include "../model/model_tree.h"
#include "../../util/banned.h"

void report_fleet_text(struct json_object *exp, struct strbuf *out)
{
	struct experiment_doc doc;
	struct strbuf err = STRBUF_INIT;

	if (!experiment_doc_from_tree(exp, &doc, 0, &err))
		report_page(&doc, &emit_text_ops, REPORT_SEC(fleet), out, &err);
	experiment_doc_release(&doc);
	strbuf_release(&err);
}
