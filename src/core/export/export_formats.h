/*
 * The table of export formats: `iotrial export --format`, `apply
 * --persist`, their help and their errors all read it. Each format is a
 * `const struct export_format export_format_<name>` (export.h) defined
 * beside its renderer; adding one is that file and a line here.
 */
#ifndef IOTRIAL_EXPORT_FORMATS_H
#define IOTRIAL_EXPORT_FORMATS_H

#include "export.h"

/* Every format, in the order --help lists them. */
#define EXPORT_FORMAT_TABLE(FORMAT)                                            \
	FORMAT(sysctl)                                                         \
	FORMAT(udev)                                                           \
	FORMAT(fstab)                                                          \
	FORMAT(tuned)                                                          \
	FORMAT(ansible)                                                        \
	FORMAT(puppet)                                                         \
	FORMAT(shell)

#define EXPORT_FORMAT_DECLARE_(n)                                              \
	extern const struct export_format export_format_##n;
EXPORT_FORMAT_TABLE(EXPORT_FORMAT_DECLARE_)
#undef EXPORT_FORMAT_DECLARE_

/* The formats in table order, NULL-terminated. */
extern const struct export_format *const export_formats[];

/* Their names in the same order, NULL-terminated: the choices of
 * `export --format` (each row's name is its table word). */
extern const char *const export_format_choices[];

/* The format named name, or NULL. */
const struct export_format *export_format_find(const char *name);

/*
 * Append the names of the formats (only those apply can install, with
 * installable), joined with sep and the last with last: "sysctl, udev,
 * fstab or tuned", "sysctl|udev|...".
 */
void export_format_names(int installable, const char *sep, const char *last,
			 struct strbuf *out);

/*
 * Render src in format f into out. 0, or -errno with err set: -EINVAL
 * for a plan with nothing in it or a string no generated file can hold
 * (a control character), else what f->render answers.
 */
int export_render(const struct export_format *f, const struct export_src *src,
		  struct strbuf *out, struct strbuf *err);

#endif
