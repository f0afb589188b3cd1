/*
 * What compare, run, job, tune and bisect write from the typed
 * experiment document (typed_doc.h).
 */
#include "cli.h"
#include "typed_doc.h"
#include "../core/model/model_json.h"
#include "../core/report/arms_export.h"
#include "../util/banned.h"

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
