/*
 * Analyse a stored experiment object again with this build's analysis
 * (experiment_analyze_json(), the code compare runs after each block),
 * keeping only the blocks asked for: for bench/aa.py, which cuts long
 * A/A experiments into short ones and compares the methods on the same
 * runs. Prints one line per verdict:
 *
 *	LABEL RATIO LOW HIGH P VERDICT FROM ADJ_RATIO ADJ_LOW ADJ_HIGH
 *	ADJ_P ADJ_USED ADJ_WHY R2
 *
 * Usage: reanalyze FILE.json [FIRST_BLOCK NR_BLOCKS [SKIP,SKIP,...]]
 * SKIP lists blocks to leave out (gated). A field that is not there
 * prints "-".
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>
#include "core/experiment/experiment.h"

/* Print o.key as a number, or "-". */
static void num(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (o && json_object_object_get_ex(o, key, &v) && v &&
	    (json_object_is_type(v, json_type_double) ||
	     json_object_is_type(v, json_type_int)))
		printf(" %.6g", json_object_get_double(v));
	else
		printf(" -");
}

/* Print o.key as a string, or "-". */
static void str(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (o && json_object_object_get_ex(o, key, &v) && v)
		printf(" %s", json_object_get_string(v));
	else
		printf(" -");
}

/* Is block b in the comma-separated list skip? */
static int skipped(const char *skip, int b)
{
	const char *p = skip;

	while (p && *p) {
		if (atoi(p) == b)
			return 1;
		p = strchr(p, ',');
		if (p)
			p++;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct json_object *exp, *runs, *keep, *v;
	struct analysis_opts o;
	struct strbuf err = STRBUF_INIT;
	int first = 0, nr = -1;
	const char *skip = argc > 4 ? argv[4] : NULL;
	size_t i;

	if (argc < 2) {
		fprintf(stderr,
			"usage: reanalyze FILE.json [FIRST NR [SKIP,...]]\n");
		return 2;
	}
	if (argc > 3) {
		first = atoi(argv[2]);
		nr = atoi(argv[3]);
	}
	exp = json_object_from_file(argv[1]);
	if (!exp || !json_object_object_get_ex(exp, "runs", &runs)) {
		fprintf(stderr, "reanalyze: cannot read '%s'\n", argv[1]);
		return 1;
	}
	keep = json_object_new_array();
	for (i = 0; i < json_object_array_length(runs); i++) {
		struct json_object *r = json_object_array_get_idx(runs, i);
		int b = json_object_object_get_ex(r, "block", &v)
			    ? json_object_get_int(v)
			    : -1;

		if (b < first || (nr >= 0 && b >= first + nr) ||
		    skipped(skip, b))
			continue;
		json_object_array_add(keep, json_object_get(r));
	}
	json_object_object_add(exp, "runs", keep);
	analysis_opts_init(&o);
	if (json_object_object_get_ex(exp, "baseline", &v))
		o.baseline = (unsigned)json_object_get_int(v);
	if (experiment_analyze_json(exp, &o, &err)) {
		fprintf(stderr, "reanalyze: %s\n", err.buf);
		return 1;
	}
	runs = json_object_object_get(exp, "verdicts");
	for (i = 0; runs && i < json_object_array_length(runs); i++) {
		struct json_object *x = json_object_array_get_idx(runs, i);
		struct json_object *a = json_object_object_get(x, "adjusted");

		str(x, "label");
		num(x, "ratio");
		num(x, "ci_low");
		num(x, "ci_high");
		num(x, "p");
		str(x, "verdict");
		str(x, "verdict_from");
		num(a, "ratio");
		num(a, "ci_low");
		num(a, "ci_high");
		num(a, "p");
		str(a, "used");
		printf(" \"%s\"", a && json_object_object_get(a, "why")
				      ? json_object_get_string(
					    json_object_object_get(a, "why"))
				      : "-");
		num(a, "r2");
		printf("\n");
	}
	json_object_put(exp);
	strbuf_release(&err);
	return 0;
}
