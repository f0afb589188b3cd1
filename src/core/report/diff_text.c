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
#include "../observe/env.h"
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

/* The lines of text as a JSON array of strings. */
static struct json_object *lines_json(const char *text)
{
	struct json_object *lines = json_object_new_array();
	const char *p, *nl;

	for (p = text; *p; p = nl + 1) {
		nl = strchrnul(p, '\n');
		json_object_array_add(
		    lines, json_object_new_string_len(p, (int)(nl - p)));
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
	struct json_object *o = json_object_new_object();
	struct strbuf env = STRBUF_INIT;
	const char *label[2];

	labels(e, arm, label);
	env_lines(e, id, &env);
	json_object_object_add(o, "schema",
			       json_object_new_string(IOTRIAL_SCHEMA));
	json_object_object_add(o, "before",
			       json_object_get(expjson_get(e[0], "id")));
	json_object_object_add(o, "after",
			       json_object_get(expjson_get(e[1], "id")));
	json_object_object_add(o, "arm_before",
			       json_object_new_string(label[0]));
	json_object_object_add(o, "arm_after",
			       json_object_new_string(label[1]));
	json_object_object_add(o, "like_for_like",
			       json_object_new_boolean(!unlike || !*unlike));
	json_object_object_add(o, "unlike", lines_json(unlike ? unlike : ""));
	json_object_object_add(o, "verdict",
			       json_object_new_string(report_diff_verdict(d)));
	if (d)
		json_object_object_add(o, "experiment", json_object_get(d));
	json_object_object_add(o, "differences", lines_json(env.buf));
	report_json_string(o, out);
	json_object_put(o);
	strbuf_release(&env);
}
