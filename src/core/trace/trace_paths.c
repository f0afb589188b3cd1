/*
 * Mapping a trace's paths beneath a directory. See trace_paths.h.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "trace_paths.h"
#include "../../util/error.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

int trace_path_plain(const char *p)
{
	const char *s;

	if (p[0] != '/')
		return 0;
	if (!p[1])
		return 1;
	for (s = p + 1;;) {
		const char *e = strchr(s, '/');
		size_t n = e ? (size_t)(e - s) : strlen(s);

		if (!n || (n == 1 && s[0] == '.') ||
		    (n == 2 && s[0] == '.' && s[1] == '.'))
			return 0;
		if (!e)
			return 1;
		s = e + 1;
	}
}

int trace_map_names(const struct trace *t, char ***out, struct strbuf *err)
{
	size_t i, root = 0, n = t->nr_files;
	const char *first = NULL;
	char **rel;

	rel = xcalloc(n ? n : 1, sizeof(*rel));
	*out = rel;
	for (i = 0; i < n; i++) {
		const char *p = t->files[i].path;

		if (!trace_path_plain(p))
			return err_set(err, -EINVAL,
				       "file %zu of the trace is not a plain "
				       "absolute path: refused",
				       i + 1);
		if (t->files[i].kind == TFK_OTHER)
			continue;
		if (!first) {
			/* the first file's directory, shortened below to
			 * what every path shares */
			first = p;
			root = (size_t)(strrchr(p, '/') - p);
			continue;
		}
		while (root && (strncmp(first, p, root) ||
				(p[root] && p[root] != '/'))) {
			while (root && first[--root] != '/')
				;
		}
	}
	/* the shared directory: a file's own name never goes */
	for (i = 0; first && i < n; i++) {
		const char *p = t->files[i].path;

		if (t->files[i].kind == TFK_OTHER)
			continue;
		if (strlen(p) <= root + 1) { /* the shared directory itself */
			rel[i] = xstrdup(".");
			continue;
		}
		rel[i] = xstrdup(p + root + 1);
	}
	return 0;
}

void trace_names_free(char **rel, size_t nr_files)
{
	size_t i;

	for (i = 0; rel && i < nr_files; i++)
		free(rel[i]);
	free(rel);
}
