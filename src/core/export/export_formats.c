/*
 * The table of export formats (export_formats.h) and what every format
 * shares before its renderer runs: a plan with something in it, and no
 * string that would break a line of any generated file. It sits above
 * the renderers (export.c, export_cm.c), which know nothing of it.
 */
#include <errno.h>
#include <string.h>
#include "export_formats.h"
#include "../../util/error.h"
#include "../../util/text.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

#define EXPORT_FORMAT_PTR_(n) &export_format_##n,
const struct export_format *const export_formats[] = {
    EXPORT_FORMAT_TABLE(EXPORT_FORMAT_PTR_) NULL};
#undef EXPORT_FORMAT_PTR_

#define EXPORT_FORMAT_NAME_(n) #n,
const char *const export_format_choices[] = {
    EXPORT_FORMAT_TABLE(EXPORT_FORMAT_NAME_) NULL};
#undef EXPORT_FORMAT_NAME_

const struct export_format *export_format_find(const char *name)
{
	size_t i;

	for (i = 0; name && export_formats[i]; i++)
		if (!strcmp(name, export_formats[i]->name))
			return export_formats[i];
	return NULL;
}

void export_format_names(int installable, const char *sep, const char *last,
			 struct strbuf *out)
{
	const struct export_format *have[ARRAY_SIZE(export_formats)];
	size_t i, n = 0;

	for (i = 0; export_formats[i]; i++)
		if (!installable || export_formats[i]->install_path)
			have[n++] = export_formats[i];
	for (i = 0; i < n; i++)
		strbuf_addf(out, "%s%s",
			    !i		 ? ""
			    : i == n - 1 ? last
					 : sep,
			    have[i]->name);
}

/* Does s hold a byte no line of a generated file may hold (a line
 * break, an escape, any other control character)? */
static int has_control(const char *s)
{
	for (; s && *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return 1;
	return 0;
}

int export_render(const struct export_format *f, const struct export_src *src,
		  struct strbuf *out, struct strbuf *err)
{
	struct strbuf what = STRBUF_INIT;
	int ret;

	if (!f)
		return err_set(err, -EINVAL, "unknown export format");
	if (!src->plan->nr)
		return err_set(err, -ENOENT, "there are no settings to export");
	if (export_find_string(src, has_control, &what)) {
		/* a store makes its strings printable: this is a plan that
		 * came some other way */
		text_make_printable(what.buf);
		ret = err_set(err, -EINVAL,
			      "%s holds a control character (a line break?), "
			      "which no generated file can hold; nothing is "
			      "written",
			      what.buf);
		strbuf_release(&what);
		return ret;
	}
	return f->render(src, out, err);
}
