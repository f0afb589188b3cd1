/*
 * `iotrial report`'s one entry point: a stored experiment in the format
 * asked for (report_formats.h). The table of formats is the one place
 * that lists them, so the error for an unknown one, the command's help
 * and the completion cannot fall behind. The json row is here; each
 * other format's row is beside its emitter or renderer.
 */
#include <errno.h>
#include <string.h>
#include "page.h"
#include "report_formats.h"
#include "../model/model_json.h"
#include "../../util/error.h"
#include "../../util/banned.h"

static int render_json(const struct experiment_doc *doc, struct strbuf *out,
		       struct strbuf *err)
{
	(void)err;
	experiment_doc_encode(doc, 0, out);
	return 0;
}

const struct report_format report_format_json = {
    .name = "json",
    .summary = "the stored object",
    .render = render_json,
};

#define REPORT_FORMAT_PTR_(n) &report_format_##n,
const struct report_format *const report_formats[] = {
    REPORT_FORMAT_TABLE(REPORT_FORMAT_PTR_) NULL};
#undef REPORT_FORMAT_PTR_

#define REPORT_FORMAT_NAME_(n) #n,
const char *const report_format_choices[] = {
    REPORT_FORMAT_TABLE(REPORT_FORMAT_NAME_) NULL};
#undef REPORT_FORMAT_NAME_

void report_format_names(const char *sep, const char *last, struct strbuf *out)
{
	size_t i;

	for (i = 0; report_formats[i]; i++)
		strbuf_addf(out, "%s%s",
			    !i			    ? ""
			    : report_formats[i + 1] ? sep
						    : last,
			    report_formats[i]->name);
}

int report_format_check(const char *format, struct strbuf *err)
{
	struct strbuf names = STRBUF_INIT;
	size_t i;
	int ret;

	for (i = 0; format && report_formats[i]; i++)
		if (!strcmp(format, report_formats[i]->name))
			return 0;
	report_format_names(", ", ", ", &names);
	ret = err_set(err, -EINVAL, "unknown format '%s'; the formats are %s",
		      format ? format : "", names.buf);
	strbuf_release(&names);
	return ret;
}

int report_render(const struct experiment_doc *doc, const char *format,
		  struct strbuf *out, struct strbuf *err)
{
	const struct report_format *f;
	size_t i;

	for (i = 0; format && report_formats[i]; i++) {
		f = report_formats[i];
		if (strcmp(format, f->name))
			continue;
		if (f->emit)
			return report_page(doc, f->emit, f->sections, out, err);
		return f->render(doc, out, err);
	}
	return report_format_check(format, err);
}
