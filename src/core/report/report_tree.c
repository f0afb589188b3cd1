/*
 * The page for callers that still hold a json-c tree (report.h): each
 * decodes the tree into a document (model/model_tree.h) and renders
 * that, so what they print is what `show` prints. It goes, with the
 * bridge, when the producers fill documents themselves; so does the
 * tree's row of a run, kept for series/series_report.c.
 */
#include <errno.h>
#include <string.h>
#include "devices_text.h"
#include "expjson.h"
#include "fleet_text.h"
#include "page.h"
#include "regime_text.h"
#include "report.h"
#include "report_formats.h"
#include "run_text.h"
#include "runs_text.h"
#include "../model/model_tree.h"
#include "../../util/banned.h"

/* The sections of exp's text page in set, onto out: 0 or -EINVAL. */
static int tree_page(struct json_object *exp, const struct emit_ops *ops,
		     unsigned set, struct strbuf *out, struct strbuf *err)
{
	struct experiment_doc doc;
	struct strbuf e = STRBUF_INIT;
	int ret = experiment_doc_from_tree(exp, &doc, 0, err ? err : &e);

	if (!ret)
		ret = report_page(&doc, ops, set, out, err ? err : &e);
	experiment_doc_release(&doc);
	strbuf_release(&e);
	return ret;
}

int report_tune_text(struct json_object *exp, struct strbuf *out,
		     struct strbuf *err)
{
	return tree_page(exp, &emit_text_ops, REPORT_SEC(tune), out, err);
}

int report_experiment_text(struct json_object *exp, struct strbuf *out,
			   struct strbuf *err)
{
	return tree_page(exp, &emit_text_ops, REPORT_PAGE_VERDICTS, out, err);
}

void report_experiment_devices(struct json_object *exp, struct strbuf *out)
{
	tree_page(exp, &emit_text_ops, REPORT_SEC(devices), out, NULL);
}

void report_fleet_text(struct json_object *exp, struct strbuf *out)
{
	tree_page(exp, &emit_text_ops, REPORT_SEC(fleet), out, NULL);
}

void report_live_text(struct json_object *exp, struct strbuf *out)
{
	tree_page(exp, &emit_text_ops, REPORT_SEC(live), out, NULL);
}

int report_render_tree(struct json_object *exp, const char *format,
		       struct strbuf *out, struct strbuf *err)
{
	struct experiment_doc doc;
	int ret = experiment_doc_from_tree(exp, &doc, 0, err);

	if (!ret)
		ret = report_render(&doc, format, out, err);
	experiment_doc_release(&doc);
	return ret;
}

int report_experiment_html(struct json_object *exp, struct strbuf *out,
			   struct strbuf *err)
{
	return report_render_tree(exp, "html", out, err);
}

void report_regimes_text(struct json_object *exp, struct strbuf *out)
{
	tree_page(exp, &emit_text_ops, REPORT_SEC(regimes), out, NULL);
}

struct json_object *report_regimes(struct json_object *exp)
{
	struct json_object *g =
	    expjson_get_type(exp, "regimes", json_type_array);

	return g && json_object_array_length(g) ? g : NULL;
}

void report_run_regimes_text(struct json_object *run, struct strbuf *out)
{
	struct run_doc doc;
	struct strbuf err = STRBUF_INIT;

	if (!run_doc_from_tree(run, &doc, 0, &err))
		report_run_regimes(&doc, out);
	run_doc_release(&doc);
	strbuf_release(&err);
}

void report_run_text(struct json_object *run, unsigned flags,
		     struct strbuf *out)
{
	struct run_doc doc;
	struct strbuf err = STRBUF_INIT;

	if (!run_doc_from_tree(run, &doc, 0, &err))
		report_run_summary(&doc, flags, out);
	else /* never silent: a run iotrial cannot read back is a bug */
		strbuf_addf(out, "cannot show this run: %s\n", err.buf);
	run_doc_release(&doc);
	strbuf_release(&err);
}

/* The device object of run r that its truth measured, else its first. */
static struct json_object *run_device(struct json_object *r)
{
	struct json_object *devs =
	    expjson_get_type(r, "devices", json_type_array);
	const char *want = expjson_str(expjson_get(r, "truth"), "device");
	size_t i, n = devs ? json_object_array_length(devs) : 0;

	for (i = 0; i < n && *want; i++) {
		struct json_object *d = json_object_array_get_idx(devs, i);

		if (!strcmp(expjson_str(d, "name"), want))
			return d;
	}
	return n ? json_object_array_get_idx(devs, 0) : NULL;
}

/* The label of arm index arm of exp, or "". */
static const char *arm_label(struct json_object *exp, int arm)
{
	struct json_object *arms =
	    expjson_get_type(exp, "arms", json_type_array);
	size_t i, n = arms ? json_object_array_length(arms) : 0;

	for (i = 0; i < n; i++) {
		struct json_object *a = json_object_array_get_idx(arms, i);

		if (expjson_count(a, "arm") == arm)
			return expjson_str(a, "label");
	}
	return "";
}

int report_run_row(struct json_object *exp, size_t i,
		   struct report_run_row *row)
{
	struct json_object *runs =
	    expjson_get_type(exp, "runs", json_type_array);
	struct json_object *e, *r, *cpu, *d;

	if (!runs || i >= json_object_array_length(runs))
		return -ENOENT;
	e = json_object_array_get_idx(runs, i);
	r = expjson_get_type(e, "run", json_type_object);
	cpu = expjson_get(r, "cpu");
	d = run_device(r);
	row->arm = expjson_count(e, "arm");
	row->block = expjson_count(e, "block");
	row->label = arm_label(exp, row->arm);
	row->metric = expjson_num(e, "metric");
	row->wall_s = expjson_num(r, "seconds");
	row->user_s = expjson_num(cpu, "user_s");
	row->sys_s = expjson_num(cpu, "sys_s");
	row->device = expjson_str(d, "name");
	row->tps = expjson_num(d, "r_s") + expjson_num(d, "w_s");
	row->rmbps = expjson_num(d, "rmbps");
	row->wmbps = expjson_num(d, "wmbps");
	row->read_mb = expjson_num(d, "read_bytes") / 1e6;
	row->write_mb = expjson_num(d, "write_bytes") / 1e6;
	row->run = r;
	return 0;
}
