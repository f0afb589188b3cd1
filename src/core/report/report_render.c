/*
 * `iotrial report`'s one entry point: a stored experiment in the format
 * asked for (report_formats.h). The table of formats is the one place
 * that lists them, so the error for an unknown one, the command's help
 * and the completion cannot fall behind. The text and json rows are
 * here; each other format's row is beside its renderer.
 */
#include <errno.h>
#include <string.h>
#include "report_formats.h"
#include "report.h"
#include "devices_text.h"
#include "runs_text.h"
#include "../../util/error.h"
#include "../../util/banned.h"

/* The text format: `show`'s page with the runs before where it ran. */
static int render_text(struct json_object *exp, struct strbuf *out,
		       struct strbuf *err)
{
	int ret = report_experiment_text(exp, out, err);

	if (ret)
		return ret;
	report_experiment_devices(exp, out);
	report_runs_text(exp, out);
	report_experiment_origin(exp, out);
	return 0;
}

static int render_json(struct json_object *exp, struct strbuf *out,
		       struct strbuf *err)
{
	(void)err;
	report_json_string(exp, out);
	return 0;
}

const struct report_format report_format_text = {
    .name = "text",
    .summary = "the verdict table, then one row per run (block, arm, "
	       "metric, real/user/sys time, device tps, MB read/written per "
	       "second and in all)",
    .render = render_text,
};

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

int report_render(struct json_object *exp, const char *format,
		  struct strbuf *out, struct strbuf *err)
{
	size_t i;

	for (i = 0; format && report_formats[i]; i++)
		if (!strcmp(format, report_formats[i]->name))
			return report_formats[i]->render(exp, out, err);
	return report_format_check(format, err);
}
