/*
 * `iotrial report`'s one entry point: a stored experiment in the format
 * asked for (report_formats.h). The table of formats is the one place
 * that lists them, so the error for an unknown one cannot fall behind.
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

static const struct {
	const char *name;
	int (*fn)(struct json_object *, struct strbuf *, struct strbuf *);
} formats[] = {
    {"text", render_text},
    {"json", render_json},
    {"csv", report_experiment_csv},
    {"md", report_experiment_md},
    {"html", report_experiment_html},
};

int report_format_check(const char *format, struct strbuf *err)
{
	size_t i;

	for (i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
		if (!strcmp(format, formats[i].name))
			return 0;
	return err_set(err, -EINVAL,
		       "unknown format '%s'; the formats are " REPORT_FORMATS,
		       format);
}

int report_render(struct json_object *exp, const char *format,
		  struct strbuf *out, struct strbuf *err)
{
	size_t i;

	for (i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
		if (!strcmp(format, formats[i].name))
			return formats[i].fn(exp, out, err);
	return report_format_check(format, err);
}
