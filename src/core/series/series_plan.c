/*
 * Boot orders and the at-boot unit; see series_plan.h.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "series_plan.h"
#include "../model/model_json.h"
#include "../../util/error.h"
#include "../../util/rng.h"
#include "../../util/text.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

int series_plan_make(const char *const *values, size_t nv, unsigned boots,
		     uint64_t seed, int start, struct series_plan_doc *out,
		     struct strbuf *err)
{
	size_t i, j, *idx;
	struct rng r;
	unsigned b;

	series_plan_doc_init(out);
	if (nv < 2)
		return err_set(err, -EINVAL,
			       "a plan alternates two values or more; give "
			       "--values A,B");
	if (!boots)
		return err_set(err, -EINVAL, "a plan needs one boot or more");
	for (i = 0; i < nv; i++) {
		if (!values[i][0])
			return err_set(err, -EINVAL,
				       "an empty value in --values");
		for (j = 0; j < i; j++)
			if (!strcmp(values[i], values[j]))
				return err_set(err, -EINVAL,
					       "value '%s' is given twice",
					       values[i]);
	}
	rng_seed(&r, seed);
	idx = xcalloc(nv, sizeof(*idx));
	out->start = start;
	out->order = xcalloc((size_t)boots * nv, sizeof(*out->order));
	for (b = 0; b < boots; b++) {
		for (i = 0; i < nv; i++)
			idx[i] = i;
		for (i = nv - 1; i > 0; i--) { /* Fisher-Yates */
			size_t k = (size_t)rng_below(&r, i + 1), t = idx[i];

			idx[i] = idx[k];
			idx[k] = t;
		}
		for (i = 0; i < nv; i++)
			out->order[out->nr_order++] = xstrdup(values[idx[i]]);
	}
	free(idx);
	return 0;
}

int series_plan_next(const char *plan, int grp, char **out_tag, int *out_last)
{
	struct strbuf err = STRBUF_INIT;
	struct series_plan_doc p;
	int ret = series_plan_doc_decode(plan, strlen(plan), &p, 0, &err);
	int64_t k = -1;

	/* a stored plan is read back as data: a start no group number can
	 * have (a decoded number is clamped to int64_t) is no group's */
	if (!ret && p.start >= INT_MIN && p.start <= INT_MAX)
		k = (int64_t)grp - p.start;
	if (!ret && (k < 0 || k >= (int64_t)p.nr_order))
		ret = -ENOENT;
	if (!ret) {
		*out_tag = xstrdup(p.order[k]);
		*out_last = k == (int64_t)p.nr_order - 1;
	}
	series_plan_doc_release(&p);
	strbuf_release(&err);
	return ret;
}

int series_name_ok(const char *name)
{
	size_t i, n = strlen(name);

	if (!n || n > 64 || name[0] == '-' || name[0] == '.')
		return 0;
	for (i = 0; i < n; i++) {
		char c = name[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '.' || c == '_' ||
		      c == '-'))
			return 0;
	}
	return 1;
}

void series_unit_name(const char *name, struct strbuf *out)
{
	strbuf_addf(out, "iotrial-series-%s.service", name);
}

/* Is path absolute, UTF-8, and free of what would change an ExecStart
 * line? */
static int exec_path_ok(const char *path)
{
	const unsigned char *p = (const unsigned char *)path;
	char *copy;
	int printable;

	if (*p != '/')
		return 0;
	for (; *p; p++)
		if (*p <= ' ' || *p == 0x7f || *p == '"' || *p == '\'' ||
		    *p == '\\' || *p == ';')
			return 0;
	/* a unit file is UTF-8: no stray byte, no C1 control */
	copy = xstrdup(path);
	printable = !text_make_printable(copy);
	free(copy);
	return printable;
}

/* path with '%' and '$' doubled: systemd reads "%x" as a specifier and
 * "$X" or "${X}" as an environment variable. */
static void add_escaped(struct strbuf *out, const char *path)
{
	for (; *path; path++) {
		if (*path == '%' || *path == '$')
			strbuf_addch(out, *path);
		strbuf_addch(out, *path);
	}
}

int series_unit_text(const char *name, const char *binary, const char *db,
		     struct strbuf *out, struct strbuf *err)
{
	if (!series_name_ok(name))
		return err_set(err, -EINVAL,
			       "cannot write a unit for series '%s': a series "
			       "name is letters, digits, '.', '_' and '-'",
			       name);
	if (!exec_path_ok(binary))
		return err_set(err, -EINVAL,
			       "cannot write a unit that runs '%s': expected "
			       "an absolute path in UTF-8 without blanks, "
			       "quotes, ';' or '\\'",
			       binary);
	if (!exec_path_ok(db))
		return err_set(err, -EINVAL,
			       "cannot write a unit for the store '%s': "
			       "expected an absolute path in UTF-8 without "
			       "blanks, quotes, ';' or '\\'",
			       db);
	strbuf_addf(out,
		    "# Written by 'iotrial series %s at-boot --install'; "
		    "removed by the\n# plan's last group or by 'iotrial "
		    "series %s at-boot --remove'.\n"
		    "[Unit]\n"
		    "Description=iotrial series %s: the next planned group "
		    "of iterations\n"
		    "After=local-fs.target\n"
		    "\n[Service]\n"
		    "Type=oneshot\n"
		    "ExecStart=",
		    name, name, name);
	add_escaped(out, binary);
	strbuf_addf(out, " series %s run --planned --at-boot --db ", name);
	add_escaped(out, db);
	strbuf_addstr(out, "\n\n[Install]\nWantedBy=multi-user.target\n");
	return 0;
}
