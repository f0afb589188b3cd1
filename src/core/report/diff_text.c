/*
 * What `iotrial diff` prints (diff_text.h): the before/after table, then
 * every difference between the two recorded environments and between
 * the parameters, because a result is only as good as the knowledge of
 * what else changed.
 */
#include <string.h>
#include "diff_text.h"
#include "expjson.h"
#include "report.h"
#include "../../version.h"
#include "../model/model_tree.h"
#include "../observe/env.h"
#include "../../util/text.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* Lines "env differs: ..." and "params differ: ..." into out; count. */
static int env_lines(struct json_object *e[2], const char *const id[2],
		     struct strbuf *out)
{
	struct json_object *env0 = expjson_env(e[0]), *env1 = expjson_env(e[1]);
	struct strbuf d = STRBUF_INIT;
	const char *p, *nl;
	int n = 0;

	if (!env0 != !env1) {
		strbuf_addf(out,
			    "env differs: only '%s' recorded its environment\n",
			    env0 ? id[0] : id[1]);
		n++;
	} else if (env0) {
		/* stack.path is the run's private work directory */
		static const char *const ignore[] = {"path", NULL};

		env_json_diff(env0, env1, ignore, &d);
		for (p = d.buf; *p; p = nl + 1, n++) {
			nl = strchrnul(p, '\n');
			strbuf_addf(out, "env differs: %.*s\n", (int)(nl - p),
				    p);
			if (!*nl)
				break;
		}
	}
	strbuf_reset(&d);
	if (strcmp(expjson_target(e[0]), expjson_target(e[1])))
		strbuf_addf(&d, "target: '%s' vs '%s'\n", expjson_target(e[0]),
			    expjson_target(e[1]));
	if (expjson_get(e[0], "params") && expjson_get(e[1], "params"))
		env_json_diff(expjson_get(e[0], "params"),
			      expjson_get(e[1], "params"), NULL, &d);
	for (p = d.buf; *p; p = nl + 1, n++) {
		nl = strchrnul(p, '\n');
		strbuf_addf(out, "params differ: %.*s\n", (int)(nl - p), p);
		if (!*nl)
			break;
	}
	strbuf_release(&d);
	return n;
}

const char *report_diff_verdict(struct json_object *d)
{
	struct json_object *v = expjson_get(d, "verdicts");

	if (!v || !json_object_is_type(v, json_type_array) ||
	    !json_object_array_length(v))
		return "";
	return expjson_str(json_object_array_get_idx(v, 0), "verdict");
}

/* The arms' labels. */
static void labels(struct json_object *e[2], const int arm[2],
		   const char *label[2])
{
	int k;

	for (k = 0; k < 2; k++)
		label[k] = expjson_str(json_object_array_get_idx(
					   expjson_get(e[k], "arms"), arm[k]),
				       "label");
}

/* The lines of text as an array of *nr strings. */
static char **lines_of(const char *text, size_t *nr)
{
	char **lines = xcalloc(strlen(text) + 1, sizeof(*lines));
	const char *p, *nl;

	*nr = 0;
	for (p = text; *p; p = nl + 1) {
		nl = strchrnul(p, '\n');
		lines[(*nr)++] = xstrndup(p, (size_t)(nl - p));
		if (!*nl)
			break;
	}
	return lines;
}

/* "not like for like" and its lines, first: before any verdict. */
static void unlike_text(const char *unlike, int refused, struct strbuf *out)
{
	const char *p, *nl;

	strbuf_addstr(out, "not like for like: the two arms ran differently\n");
	for (p = unlike; *p; p = nl + 1) {
		nl = strchrnul(p, '\n');
		strbuf_addf(out, "  %.*s\n", (int)(nl - p), p);
		if (!*nl)
			break;
	}
	if (refused)
		strbuf_addstr(out, "no verdict: a difference would be as much "
				   "theirs as the change's; --force compares "
				   "them anyway\n");
	else
		strbuf_addstr(out, "compared anyway (--force): the verdict "
				   "covers these differences too\n\n");
}

void report_diff_text(struct json_object *e[2], const char *const id[2],
		      const int arm[2], struct json_object *d,
		      const char *unlike, struct strbuf *out)
{
	struct strbuf env = STRBUF_INIT, err = STRBUF_INIT;
	const char *label[2];

	labels(e, arm, label);
	strbuf_addf(out, "before: %s arm '%s'; after: %s arm '%s'\n",
		    expjson_str(e[0], "id"), label[0], expjson_str(e[1], "id"),
		    label[1]);
	if (unlike && *unlike)
		unlike_text(unlike, !d, out);
	if (d)
		report_experiment_text(d, out, &err);
	strbuf_addch(out, '\n');
	if (env_lines(e, id, &env))
		strbuf_addstr(out, env.buf);
	else
		strbuf_addstr(out, "no differences in the recorded "
				   "environments\n");
	strbuf_release(&env);
	strbuf_release(&err);
}

void report_diff_json(struct json_object *e[2], const char *const id[2],
		      const int arm[2], struct json_object *d,
		      const char *unlike, struct strbuf *out)
{
	struct strbuf env = STRBUF_INIT, err = STRBUF_INIT;
	const char *label[2];
	struct diff_doc doc;
	size_t from = out->len;

	labels(e, arm, label);
	env_lines(e, id, &env);
	diff_doc_init(&doc);
	doc.schema = xstrdup(IOTRIAL_SCHEMA);
	doc.before = xstrdup(expjson_str(e[0], "id"));
	doc.after = xstrdup(expjson_str(e[1], "id"));
	doc.arm_before = xstrdup(label[0]);
	doc.arm_after = xstrdup(label[1]);
	doc.like_for_like = !unlike || !*unlike;
	doc.unlike = lines_of(unlike ? unlike : "", &doc.nr_unlike);
	doc.verdict = xstrdup(report_diff_verdict(d));
	if (d) {
		/* the seam until diff_build() makes a document */
		doc.experiment = xcalloc(1, sizeof(*doc.experiment));
		if (experiment_doc_from_tree(d, doc.experiment, 0, &err)) {
			experiment_doc_free(doc.experiment);
			doc.experiment = NULL;
		}
	}
	doc.differences = lines_of(env.buf, &doc.nr_differences);
	diff_doc_encode(&doc, 0, out);
	/* json-c writes a string's bytes as they are, UTF-8 or not */
	text_json_safe(out, from);
	diff_doc_release(&doc);
	strbuf_release(&env);
	strbuf_release(&err);
}
