/*
 * The tune section: the answer of `iotrial tune` or `iotrial bisect`
 * (its "tune" or "bisect" part), on every page that shows an
 * experiment. The words are tune_text()'s, the same the command
 * prints, one line of the page each.
 */
#include <string.h>
#include "sections.h"
#include "../model/model_tree.h"
#include "../tune/tune_text.h"
#include "../../util/banned.h"

bool report_tune_present(const struct experiment_doc *doc)
{
	return doc->tune || doc->bisect;
}

void report_tune_section(const struct experiment_doc *doc, struct emit *e)
{
	struct json_object *tree = experiment_doc_to_tree(doc);
	struct strbuf text = STRBUF_INIT;
	char *line, *next;

	tune_text(tree, &text);
	json_object_put(tree);
	for (line = text.buf; *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		else
			next = line + strlen(line);
		if (*line)
			emit_line(e, "%s", line);
		else
			emit_gap(e);
	}
	strbuf_release(&text);
}
