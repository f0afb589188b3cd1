/*
 * Renderings of the typed experiment document from a tree
 * (typed_doc.h).
 */
#include "cli.h"
#include "typed_doc.h"
#include "../core/model/model_tree.h"
#include "../core/report/arms_export.h"
#include "../core/report/openmetrics_doc.h"
#include "../util/banned.h"

int cli_metrics_of_tree(struct json_object *tree, const char *command,
			struct strbuf *out, struct strbuf *err)
{
	struct experiment_doc doc;
	int ret = experiment_doc_from_tree(tree, &doc, 0, err);

	if (!ret)
		cli_metrics_of_doc(&doc, command, out);
	experiment_doc_release(&doc);
	return ret;
}

void cli_metrics_of_doc(const struct experiment_doc *doc, const char *command,
			struct strbuf *out)
{
	struct om_writer w;

	om_init(&w, out, OM_PROMETHEUS, command);
	om_experiment(&w, doc);
}

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

void cli_arms_of_doc(const struct experiment_doc *doc, int markdown,
		     struct strbuf *out)
{
	if (markdown)
		report_arms_md(doc, out);
	else
		report_arms_csv(doc, out);
}

int cli_write_experiment(const char *file, const struct experiment_doc *doc)
{
	struct strbuf text = STRBUF_INIT;
	int ret;

	experiment_doc_encode(doc, 0, &text);
	ret = cli_write_doc(file, &text);
	strbuf_release(&text);
	return ret;
}

int cli_write_run(const char *file, const struct run_doc *run)
{
	struct strbuf text = STRBUF_INIT;
	int ret;

	run_doc_encode(run, 0, &text);
	ret = cli_write_doc(file, &text);
	strbuf_release(&text);
	return ret;
}
