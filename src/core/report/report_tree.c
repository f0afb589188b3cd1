/*
 * The page for callers that still hold a json-c tree (report.h): each
 * decodes the tree into a document (model/model_tree.h) and renders
 * that, so what they print is what `show` prints. It goes, with the
 * bridge, when the producers fill documents themselves.
 */
#include "devices_text.h"
#include "fleet_text.h"
#include "page.h"
#include "regime_text.h"
#include "report.h"
#include "report_formats.h"
#include "run_text.h"
#include "runs_text.h"
#include "../model/model_tree.h"
#include "../../util/banned.h"

/* The sections of exp's text page in set, onto out: 0 or -EINVAL. */
static int tree_page(struct json_object *exp, const struct emit_ops *ops,
		     unsigned set, struct strbuf *out, struct strbuf *err)
{
	struct experiment_doc doc;
	struct strbuf e = STRBUF_INIT;
	int ret = experiment_doc_from_tree(exp, &doc, 0, err ? err : &e);

	if (!ret)
		ret = report_page(&doc, ops, set, out, err ? err : &e);
	experiment_doc_release(&doc);
	strbuf_release(&e);
	return ret;
}

int report_tune_text(struct json_object *exp, struct strbuf *out,
		     struct strbuf *err)
{
	return tree_page(exp, &emit_text_ops, REPORT_SEC(tune), out, err);
}

int report_experiment_text(struct json_object *exp, struct strbuf *out,
			   struct strbuf *err)
{
	return tree_page(exp, &emit_text_ops, REPORT_PAGE_VERDICTS, out, err);
}

void report_experiment_devices(struct json_object *exp, struct strbuf *out)
{
	tree_page(exp, &emit_text_ops, REPORT_SEC(devices), out, NULL);
}

void report_fleet_text(struct json_object *exp, struct strbuf *out)
{
	tree_page(exp, &emit_text_ops, REPORT_SEC(fleet), out, NULL);
}

void report_live_text(struct json_object *exp, struct strbuf *out)
{
	tree_page(exp, &emit_text_ops, REPORT_SEC(live), out, NULL);
}

int report_render_tree(struct json_object *exp, const char *format,
		       struct strbuf *out, struct strbuf *err)
{
	struct experiment_doc doc;
	int ret = experiment_doc_from_tree(exp, &doc, 0, err);

	if (!ret)
		ret = report_render(&doc, format, out, err);
	experiment_doc_release(&doc);
	return ret;
}

int report_experiment_html(struct json_object *exp, struct strbuf *out,
			   struct strbuf *err)
{
	return report_render_tree(exp, "html", out, err);
}

void report_regimes_text(struct json_object *exp, struct strbuf *out)
{
	tree_page(exp, &emit_text_ops, REPORT_SEC(regimes), out, NULL);
}

void report_run_regimes_text(struct json_object *run, struct strbuf *out)
{
	struct run_doc doc;
	struct strbuf err = STRBUF_INIT;

	if (!run_doc_from_tree(run, &doc, 0, &err))
		report_run_regimes(&doc, out);
	run_doc_release(&doc);
	strbuf_release(&err);
}

void report_run_text(struct json_object *run, unsigned flags,
		     struct strbuf *out)
{
	struct run_doc doc;
	struct strbuf err = STRBUF_INIT;

	if (!run_doc_from_tree(run, &doc, 0, &err))
		report_run_summary(&doc, flags, out);
	else /* never silent: a run iotrial cannot read back is a bug */
		strbuf_addf(out, "cannot show this run: %s\n", err.buf);
	run_doc_release(&doc);
	strbuf_release(&err);
}
