/*
 * Tests for core/fleet/: the merge of hosts' experiments into one fleet
 * experiment.
 *  - merge statistics against fleet_vectors.h (gen_fleet_vectors.py,
 *    scipy 1.10): all hosts faster, hosts that contradict each other
 *    ("mixed", never averaged into a verdict), one host failed (listed
 *    with its error, the others merged, the run partial); each with
 *    two arms, so Holm is in play;
 *  - a host whose environment differs is flagged, its arms must fit;
 *  - hosts whose factors or settings differ from most hosts' are
 *    refused with the difference (also when the odd one is the first);
 *  - the merged environment names the fleet and the controller;
 *  - the merged experiment keeps the member order merges printed;
 *  - a host whose revert did not run (or failed) is failed and named.
 * The playbook's side is test_fleet_plan.c's.
 * Host experiments are built in memory; nothing is stored.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <cmocka.h>
#include <json-c/json.h>
#include "core/experiment/import.h"
#include "core/fleet/fleet.h"
#include "core/model/model_json.h"
#include "core/report/page.h"
#include "fleet_vectors.h"
#include "util/banned.h"

static const char *const labels[3] = {"read_ahead_kb=128", "read_ahead_kb=1024",
				      "read_ahead_kb=4096"};

static const char *str(struct json_object *o, const char *key);

/* Tree e as the document its JSON text decodes to, into doc (release
 * it): what a host's file holds. 0, or -EINVAL with err set. */
static int doc_of_tree(struct json_object *e, struct experiment_doc *doc,
		       struct strbuf *err)
{
	const char *text = json_object_to_json_string_ext(
	    e, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);

	return experiment_doc_decode(text, strlen(text), doc, 0, err);
}

/* The fleet section of the page of tree e, as show prints it. */
static void fleet_text(struct json_object *e, struct strbuf *out)
{
	struct strbuf err = STRBUF_INIT;
	struct experiment_doc doc;

	assert_int_equal(doc_of_tree(e, &doc, &err), 0);
	report_page(&doc, &emit_text_ops, REPORT_SEC(fleet), out, &err);
	experiment_doc_release(&doc);
	strbuf_release(&err);
}

/* Document doc as the tree of the text it encodes to (the caller puts
 * it). */
static struct json_object *tree_of_doc(const struct experiment_doc *doc)
{
	struct strbuf text = STRBUF_INIT;
	struct json_object *e;

	experiment_doc_encode(doc, MODEL_ENCODE_PLAIN, &text);
	e = json_tokener_parse(text.buf);
	assert_non_null(e);
	strbuf_release(&text);
	return e;
}

/*
 * The hosts' experiments are built here as trees: each is decoded from
 * its text as the merge reads a host's file, and the merged document is
 * looked at as the tree of its text.
 */
static void add_host(struct fleet_hosts *h, const char *name,
		     const char *source, struct json_object *e,
		     const char *task, const char *error)
{
	struct strbuf err = STRBUF_INIT;
	struct experiment_doc *doc = NULL;

	if (e) {
		doc = calloc(1, sizeof(*doc));
		assert_non_null(doc);
		if (doc_of_tree(e, doc, &err))
			fail_msg("host '%s': %s", name, err.buf);
	}
	fleet_hosts_add(h, name, source, doc, task, error);
	strbuf_release(&err);
}

/* fleet_merge(), its document as a tree into *out (NULL on failure). */
static int merge(struct fleet_hosts *h, struct json_object **out, bool *partial,
		 struct strbuf *err)
{
	struct experiment_doc doc;
	int ret = fleet_merge(h, &doc, partial, err);

	*out = ret ? NULL : tree_of_doc(&doc);
	experiment_doc_release(&doc);
	return ret;
}
static struct json_object *get(struct json_object *o, const char *path0,
			       const char *path1);
static const char *warning_with(struct json_object *exp, const char *needle);

/*
 * The per-block offsets (in log ratio) that give a host's verdict from
 * its runs: eight blocks spread symmetrically around the host's ratio,
 * so that its Hodges-Lehmann estimate is that ratio; tight and on one
 * side of 1 for faster and slower (p 2/256, 1/128 after Holm over the
 * two arms), tight around a ratio near 1 for equivalent, wide for
 * inconclusive.
 */
static double spread_of(const char *verdict)
{
	if (!strcmp(verdict, "faster") || !strcmp(verdict, "slower"))
		return 0.002;
	if (!strcmp(verdict, "equivalent"))
		return 0.004;
	return 0.05;
}

#define HOST_BLOCKS 8

/*
 * One host's experiment: baseline runs around median base, each arm's
 * runs at base * ratio in every block, spread so that the analysis of
 * its runs gives the verdict asked for; its stated verdicts are what
 * those runs give (checked by the merge), its kernel as given.
 */
static struct json_object *host_exp(double base, const double ratio[2],
				    const char *const verdict[2],
				    const char *kernel)
{
	static const int off[HOST_BLOCKS] = {-4, 3, -2, 1, -1, 2, -3, 4};
	char text[8192];
	struct strbuf err = STRBUF_INIT;
	struct json_object *e, *runs, *vs;
	struct experiment_doc d;
	int n, b, k, seq = 0;

	n = snprintf(
	    text, sizeof(text),
	    "{\"schema\": \"iotrial/1\", \"type\": \"experiment\", "
	    "\"id\": \"0000abcd\", \"workload\": \"seqread\", "
	    "\"target\": \"/mnt\", \"params\": {}, \"seed\": \"1\", "
	    "\"metric\": {\"name\": \"mbps\", \"higher_is_better\": true, "
	    "\"unit\": \"MB/s\"}, \"baseline\": 0, \"alpha\": 0.05, "
	    "\"equivalence\": 0.02, "
	    "\"factors\": [{\"name\": \"read_ahead_kb\", \"kind\": \"knob\", "
	    "\"values\": [\"128\", \"1024\", \"4096\"]}], "
	    "\"arms\": [{\"arm\": 0, \"label\": \"%s\", \"settings\": "
	    "{\"read_ahead_kb\": \"128\"}}, "
	    "{\"arm\": 1, \"label\": \"%s\"}, "
	    "{\"arm\": 2, \"label\": \"%s\"}], "
	    "\"runs\": [], "
	    "\"env\": {\"kernel_release\": \"%s\", \"stack\": {\"devices\": "
	    "[{\"driver\": \"loop\", \"scheduler\": \"none\"}]}}}",
	    labels[0], labels[1], labels[2], kernel);
	assert_true(n > 0 && (size_t)n < sizeof(text));
	e = json_tokener_parse(text);
	assert_non_null(e);
	runs = get(e, "runs", NULL);
	for (b = 0; b < HOST_BLOCKS; b++) {
		double w = base * (1 + 0.01 * b);

		for (k = 0; k < 3; k++) {
			struct json_object *r = json_object_new_object();
			double v = w;

			if (k)
				v *= ratio[k - 1] *
				     exp(spread_of(verdict[k - 1]) *
					 off[(b + 3 * k) % HOST_BLOCKS]);
			json_object_object_add(r, "arm",
					       json_object_new_int(k));
			json_object_object_add(r, "block",
					       json_object_new_int(b));
			json_object_object_add(r, "seq",
					       json_object_new_int(seq++));
			json_object_object_add(r, "metric",
					       json_object_new_double(v));
			json_object_array_add(runs, r);
		}
	}
	/* what the host's compare found: the same analysis of the runs */
	assert_int_equal(doc_of_tree(e, &d, &err), 0);
	json_object_put(e);
	assert_int_equal(import_analyze(&d, &err), 0);
	e = tree_of_doc(&d);
	experiment_doc_release(&d);
	strbuf_release(&err);
	vs = get(e, "verdicts", NULL);
	for (k = 0; k < 2; k++)
		assert_string_equal(
		    str(json_object_array_get_idx(vs, (size_t)k), "verdict"),
		    verdict[k]);
	return e;
}

static double num(struct json_object *o, const char *key)
{
	struct json_object *v;

	assert_true(json_object_object_get_ex(o, key, &v));
	return json_object_get_double(v);
}

static const char *str(struct json_object *o, const char *key)
{
	struct json_object *v;

	assert_true(json_object_object_get_ex(o, key, &v));
	return json_object_get_string(v);
}

static struct json_object *get(struct json_object *o, const char *path0,
			       const char *path1)
{
	struct json_object *v;

	assert_true(json_object_object_get_ex(o, path0, &v));
	if (path1)
		assert_true(json_object_object_get_ex(v, path1, &v));
	return v;
}

static void assert_close(double got, double want)
{
	if (fabs(got - want) > 1e-9 * fabs(want)) {
		print_error("got %.17g, want %.17g\n", got, want);
		fail();
	}
}

static void test_vectors(void **state)
{
	size_t c, i, k;

	(void)state;
	for (c = 0; c < sizeof(fv_cases) / sizeof(fv_cases[0]); c++) {
		const struct fv_case *fc = &fv_cases[c];
		struct strbuf err = STRBUF_INIT, text = STRBUF_INIT;
		struct fleet_hosts h = {0};
		struct json_object *exp, *vs, *hosts;
		bool partial;

		for (i = 0; i < fc->nr_hosts; i++) {
			char name[16], src[32];
			double r[2] = {fc->ratios[0][i], fc->ratios[1][i]};
			const char *v[2] = {fc->host_verdicts[0][i],
					    fc->host_verdicts[1][i]};
			struct json_object *e;

			/* hosts come in any order; the merge sorts them */
			snprintf(name, sizeof(name), "host%02zu",
				 fc->nr_hosts - i);
			snprintf(src, sizeof(src), "fleet/%s.json", name);
			if (fc->failed[i]) {
				add_host(&h, name, src, NULL, "compare",
					 "cannot open the target");
				continue;
			}
			e = host_exp(1000 + 37.0 * (double)i, r, v, "6.1.0");
			add_host(&h, name, src, e, NULL, NULL);
			json_object_put(e);
		}
		assert_int_equal(merge(&h, &exp, &partial, &err), 0);
		assert_int_equal(partial, fc->nr_ok < fc->nr_hosts);
		vs = get(exp, "verdicts", NULL);
		assert_int_equal(json_object_array_length(vs), 2);
		for (k = 0; k < 2; k++) {
			struct json_object *v =
			    json_object_array_get_idx(vs, k);
			const struct fv_arm *want = &fc->arms[k];

			assert_string_equal(str(v, "label"), labels[k + 1]);
			assert_string_equal(str(v, "test"),
					    "wilcoxon-signed-rank");
			assert_close(num(v, "ratio"), want->ratio);
			assert_close(num(v, "ci_low"), want->ci_low);
			assert_close(num(v, "ci_high"), want->ci_high);
			assert_close(num(v, "p"), want->p);
			assert_close(num(v, "p_adjusted"), want->p_adjusted);
			assert_string_equal(str(v, "verdict"), want->verdict);
			if (!strcmp(want->verdict, "mixed")) {
				assert_string_equal(str(v, "agreement"),
						    "mixed");
				assert_non_null(str(v, "pooled_verdict"));
			}
		}
		/* a block per good host, every host listed */
		assert_int_equal(
		    json_object_array_length(get(exp, "runs", NULL)),
		    3 * fc->nr_ok);
		assert_int_equal(num(exp, "blocks"), fc->nr_ok);
		hosts = get(exp, "fleet", "hosts");
		assert_int_equal(json_object_array_length(hosts), fc->nr_hosts);
		assert_int_equal(num(get(exp, "fleet", NULL), "nr_failed"),
				 fc->nr_hosts - fc->nr_ok);
		for (i = 0; i < fc->nr_hosts; i++) {
			struct json_object *ho =
			    json_object_array_get_idx(hosts, i);
			/* sorted: host01 is the last one given */
			size_t given = fc->nr_hosts - 1 - i;

			if (fc->failed[given]) {
				assert_string_equal(str(ho, "status"),
						    "failed");
				assert_string_equal(str(ho, "error"),
						    "cannot open the target");
				assert_string_equal(str(ho, "task"), "compare");
				continue;
			}
			assert_string_equal(str(ho, "status"), "ok");
			/* the host's own verdict beside the fleet's */
			assert_close(num(json_object_array_get_idx(
					     get(ho, "verdicts", NULL), 0),
					 "ratio"),
				     fc->ratios[0][given]);
			assert_int_equal(
			    json_object_array_length(get(ho, "differs", NULL)),
			    0);
			/* its file agrees with its runs */
			assert_true(json_object_get_boolean(
			    get(ho, "consistent", NULL)));
		}
		fleet_text(exp, &text);
		assert_non_null(strstr(text.buf, "fleet: "));
		if (fc->nr_ok < fc->nr_hosts)
			assert_non_null(strstr(text.buf, "failed at 'compare': "
							 "cannot open the "
							 "target"));
		if (!strcmp(fc->arms[0].verdict, "mixed"))
			assert_non_null(strstr(text.buf, "no fleet verdict"));
		json_object_put(exp);
		fleet_hosts_release(&h);
		strbuf_release(&err);
		strbuf_release(&text);
	}
}

/*
 * A forged host file cannot sway the fleet (issue 30): its runs are
 * unchanged, its first verdict claims ratio 50, faster, p 0. The merge
 * counts what its runs give, so a unanimous fleet stays unanimous, and
 * the host is reported inconsistent with both verdicts. A host file
 * with no runs has nothing to check its verdicts against: it fails.
 */
static void test_forged_host(void **state)
{
	static const double r[2] = {0.9, 1.004};
	static const char *const v[2] = {"slower", "equivalent"};
	struct strbuf err = STRBUF_INIT, text = STRBUF_INIT;
	struct fleet_hosts h = {0};
	struct json_object *exp, *e, *fv, *ho, *hv;
	const char *w;
	bool partial;
	int i;

	(void)state;
	for (i = 0; i < 7; i++) {
		char name[8];

		snprintf(name, sizeof(name), "h%d", i);
		e = host_exp(100 + 10 * i, r, v, "6.1.0");
		if (i == 3) {
			fv = json_object_array_get_idx(get(e, "verdicts", NULL),
						       0);
			json_object_object_add(fv, "ratio",
					       json_object_new_double(50));
			json_object_object_add(
			    fv, "verdict", json_object_new_string("faster"));
			json_object_object_add(fv, "p_adjusted",
					       json_object_new_double(0));
		}
		add_host(&h, name, "x.json", e, NULL, NULL);
		json_object_put(e);
	}
	e = host_exp(100, r, v, "6.1.0");
	json_object_object_add(e, "runs", json_object_new_array());
	add_host(&h, "h7", "h7.json", e, NULL, NULL);
	json_object_put(e);
	assert_int_equal(merge(&h, &exp, &partial, &err), 0);
	fv = json_object_array_get_idx(get(exp, "verdicts", NULL), 0);
	assert_string_equal(str(fv, "verdict"), "slower");
	assert_string_equal(str(fv, "agreement"), "all slower");
	assert_int_equal(num(get(fv, "hosts", NULL), "slower"), 7);
	assert_false(
	    json_object_object_get_ex(get(fv, "hosts", NULL), "faster", NULL));
	assert_close(num(fv, "host_ratio_max"), 0.9);
	ho = json_object_array_get_idx(get(exp, "fleet", "hosts"), 3);
	assert_string_equal(str(ho, "host"), "h3");
	assert_false(json_object_get_boolean(get(ho, "consistent", NULL)));
	hv = json_object_array_get_idx(get(ho, "verdicts", NULL), 0);
	assert_string_equal(str(hv, "verdict"), "slower");
	assert_close(num(hv, "ratio"), 0.9);
	assert_string_equal(str(get(hv, "stated", NULL), "verdict"), "faster");
	assert_close(num(get(hv, "stated", NULL), "ratio"), 50);
	/* its other verdict agrees: no "stated" there */
	assert_false(json_object_object_get_ex(
	    json_object_array_get_idx(get(ho, "verdicts", NULL), 1), "stated",
	    NULL));
	w = warning_with(exp, "host 'h3' is inconsistent");
	assert_non_null(w);
	assert_non_null(strstr(w, "arm 'read_ahead_kb=1024': its file says "
				  "faster, ratio 50.000, p 0, its runs give "
				  "slower, ratio 0.900"));
	assert_null(warning_with(exp, "the hosts disagree"));
	/* the host without runs */
	ho = json_object_array_get_idx(get(exp, "fleet", "hosts"), 7);
	assert_string_equal(str(ho, "status"), "failed");
	assert_non_null(strstr(str(ho, "error"), "no runs"));
	fleet_text(exp, &text);
	assert_non_null(strstr(text.buf, "# h3 read_ahead_kb=1024: its file "
					 "says faster, ratio 50.000, p 0, its "
					 "runs give slower, ratio 0.900"));
	json_object_put(exp);
	fleet_hosts_release(&h);
	strbuf_release(&err);
	strbuf_release(&text);
}

/* A host on another kernel is flagged; one with other arms is failed. */
static void test_differs(void **state)
{
	static const double r[2] = {1.1, 0.9};
	static const char *const v[2] = {"faster", "slower"};
	struct strbuf err = STRBUF_INIT;
	struct fleet_hosts h = {0};
	struct json_object *exp, *e, *hosts, *arms;
	bool partial;

	(void)state;
	add_host(&h, "a", "a.json", e = host_exp(100, r, v, "6.1.0"), NULL,
		 NULL);
	json_object_put(e);
	add_host(&h, "b", "b.json", e = host_exp(100, r, v, "6.1.0"), NULL,
		 NULL);
	json_object_put(e);
	add_host(&h, "c", "c.json", e = host_exp(100, r, v, "6.5.0"), NULL,
		 NULL);
	json_object_put(e);
	e = host_exp(100, r, v, "6.1.0");
	arms = get(e, "arms", NULL);
	json_object_array_del_idx(arms, 2, 1);
	add_host(&h, "d", "d.json", e, NULL, NULL);
	json_object_put(e);
	assert_int_equal(merge(&h, &exp, &partial, &err), 0);
	assert_true(partial);
	hosts = get(exp, "fleet", "hosts");
	assert_string_equal(
	    json_object_get_string(json_object_array_get_idx(
		get(json_object_array_get_idx(hosts, 2), "differs", NULL), 0)),
	    "kernel");
	assert_int_equal(
	    json_object_array_length(
		get(json_object_array_get_idx(hosts, 0), "differs", NULL)),
	    0);
	assert_string_equal(str(json_object_array_get_idx(hosts, 2), "status"),
			    "ok");
	assert_string_equal(str(json_object_array_get_idx(hosts, 3), "status"),
			    "failed");
	assert_non_null(
	    strstr(str(json_object_array_get_idx(hosts, 3), "error"),
		   "arms are not the fleet's"));
	/* three hosts: no verdict yet, and the settings came along */
	assert_string_equal(
	    str(json_object_array_get_idx(get(exp, "verdicts", NULL), 0),
		"verdict"),
	    "no verdict");
	assert_string_equal(
	    str(get(json_object_array_get_idx(get(exp, "arms", NULL), 0),
		    "settings", NULL),
		"read_ahead_kb"),
	    "128");
	json_object_put(exp);
	fleet_hosts_release(&h);

	/* nothing to merge */
	add_host(&h, "x", "x.error", NULL, NULL, "unreachable");
	assert_int_equal(merge(&h, &exp, &partial, &err), -EINVAL);
	assert_null(exp);
	assert_non_null(strstr(err.buf, "unreachable"));
	fleet_hosts_release(&h);
	strbuf_release(&err);
}

/* observe hosts: each host's windows and switchback are kept under its
 * entry (the merge dropped them), and a compare host has none. */
static void test_observe_hosts(void **state)
{
	static const double r[2] = {1.1, 0.9};
	static const char *const v[2] = {"faster", "slower"};
	struct strbuf err = STRBUF_INIT;
	struct fleet_hosts h = {0};
	struct json_object *exp, *e, *hosts, *ho;
	bool partial;
	int i;

	(void)state;
	for (i = 0; i < 2; i++) {
		e = host_exp(100, r, v, "6.1.0");
		json_object_object_add(e, "kind",
				       json_object_new_string("observe"));
		json_object_object_add(
		    e, "windows",
		    json_tokener_parse("[{\"seq\": 0, \"arm\": 0}]"));
		json_object_object_add(
		    e, "switchback",
		    json_tokener_parse(i ? "{\"blocks\": 7}"
					 : "{\"blocks\": 6}"));
		add_host(&h, i ? "b" : "a", i ? "b.json" : "a.json", e, NULL,
			 NULL);
		json_object_put(e);
	}
	add_host(&h, "c", "c.json", e = host_exp(100, r, v, "6.1.0"), NULL,
		 NULL);
	json_object_put(e);
	assert_int_equal(merge(&h, &exp, &partial, &err), 0);
	hosts = get(exp, "fleet", "hosts");
	for (i = 0; i < 2; i++) {
		ho = json_object_array_get_idx(hosts, (size_t)i);
		assert_string_equal(str(ho, "kind"), "observe");
		assert_int_equal(
		    json_object_array_length(get(ho, "windows", NULL)), 1);
		assert_int_equal(num(get(ho, "switchback", NULL), "blocks"),
				 6 + i);
	}
	ho = json_object_array_get_idx(hosts, 2);
	assert_false(json_object_object_get_ex(ho, "windows", NULL));
	assert_false(json_object_object_get_ex(ho, "switchback", NULL));
	json_object_put(exp);
	fleet_hosts_release(&h);
	strbuf_release(&err);
}

/* A "baseline" that names no arm is arm 0, as the analysis takes it
 * (it once wrote past the labels' array). */
static void test_baseline_out_of_range(void **state)
{
	static const double r[2] = {1.1, 0.9};
	static const char *const v[2] = {"faster", "slower"};
	struct strbuf err = STRBUF_INIT;
	struct fleet_hosts h = {0};
	struct json_object *exp, *e;
	bool partial;

	(void)state;
	e = host_exp(100, r, v, "6.1.0");
	json_object_object_add(e, "baseline", json_object_new_int(5));
	add_host(&h, "a", "a.json", e, NULL, NULL);
	add_host(&h, "b", "b.json", e, NULL, NULL);
	json_object_put(e);
	assert_int_equal(merge(&h, &exp, &partial, &err), 0);
	assert_false(partial);
	assert_string_equal(
	    str(json_object_array_get_idx(get(exp, "arms", NULL), 0), "label"),
	    labels[0]);
	assert_int_equal(json_object_array_length(get(exp, "arms", NULL)), 3);
	json_object_put(exp);
	fleet_hosts_release(&h);
	strbuf_release(&err);
}

/* The warning of exp that holds needle, or NULL. */
static const char *warning_with(struct json_object *exp, const char *needle)
{
	struct json_object *w = get(exp, "warnings", NULL);
	size_t i;

	for (i = 0; i < json_object_array_length(w); i++) {
		const char *s =
		    json_object_get_string(json_object_array_get_idx(w, i));

		if (strstr(s, needle))
			return s;
	}
	return NULL;
}

/*
 * Hosts whose factors or arm settings differ from what most hosts ran
 * are refused, the difference named; the odd host may be the first by
 * name (it once decided the whole fleet's settings).
 */
static void test_disagreeing_hosts(void **state)
{
	static const double r[2] = {1.1, 0.9};
	static const char *const v[2] = {"faster", "slower"};
	struct strbuf err = STRBUF_INIT;
	struct fleet_hosts h = {0};
	struct json_object *exp, *e, *hosts, *f;
	bool partial;

	(void)state;
	/* "a": a factor of its own values */
	e = host_exp(100, r, v, "6.1.0");
	f = json_object_array_get_idx(get(e, "factors", NULL), 0);
	json_object_array_put_idx(get(f, "values", NULL), 2,
				  json_object_new_string("65536"));
	add_host(&h, "a", "a.json", e, NULL, NULL);
	json_object_put(e);
	add_host(&h, "b", "b.json", e = host_exp(100, r, v, "6.1.0"), NULL,
		 NULL);
	json_object_put(e);
	/* "c": the same knob, set on a disk of its own: that agrees */
	e = host_exp(100, r, v, "6.1.0");
	f = json_object_array_get_idx(get(e, "factors", NULL), 0);
	json_object_object_add(f, "object", json_object_new_string("sdc"));
	add_host(&h, "c", "c.json", e, NULL, NULL);
	json_object_put(e);
	/* "d": the baseline arm sets another value */
	e = host_exp(100, r, v, "6.1.0");
	json_object_object_add(
	    get(json_object_array_get_idx(get(e, "arms", NULL), 0), "settings",
		NULL),
	    "read_ahead_kb", json_object_new_string("|/tmp/evil"));
	add_host(&h, "d", "d.json", e, NULL, NULL);
	json_object_put(e);
	assert_int_equal(merge(&h, &exp, &partial, &err), 0);
	assert_true(partial);
	hosts = get(exp, "fleet", "hosts");
	assert_string_equal(str(json_object_array_get_idx(hosts, 0), "status"),
			    "failed");
	assert_non_null(strstr(
	    str(json_object_array_get_idx(hosts, 0), "error"),
	    "factor 1 is 'read_ahead_kb' (knob) = 128,1024,65536 on the host, "
	    "'read_ahead_kb' (knob) = 128,1024,4096 in the fleet"));
	assert_string_equal(str(json_object_array_get_idx(hosts, 1), "status"),
			    "ok");
	assert_string_equal(str(json_object_array_get_idx(hosts, 3), "status"),
			    "failed");
	assert_non_null(
	    strstr(str(json_object_array_get_idx(hosts, 3), "error"),
		   "its arm 'read_ahead_kb=128' sets read_ahead_kb "
		   "'|/tmp/evil' on the host, '128' in the fleet"));
	assert_non_null(warning_with(exp, "host 'd' failed"));
	/* what the fleet says was set is what the agreeing hosts ran */
	assert_string_equal(
	    str(get(json_object_array_get_idx(get(exp, "arms", NULL), 0),
		    "settings", NULL),
		"read_ahead_kb"),
	    "128");
	json_object_put(exp);
	fleet_hosts_release(&h);
	strbuf_release(&err);
}

/* The merged environment describes the fleet and the controller. */
static void test_fleet_env(void **state)
{
	static const double r[2] = {1.1, 0.9};
	static const char *const v[2] = {"faster", "slower"};
	struct strbuf err = STRBUF_INIT;
	struct fleet_hosts h = {0};
	struct json_object *exp, *e, *env;
	struct utsname u;
	char want[512];
	bool partial;

	(void)state;
	assert_int_equal(uname(&u), 0);
	add_host(&h, "fleet-h1", "1.json", e = host_exp(100, r, v, "6.1.0"),
		 NULL, NULL);
	json_object_put(e);
	add_host(&h, "fleet-h2", "2.json", e = host_exp(100, r, v, "6.1.0"),
		 NULL, NULL);
	json_object_put(e);
	add_host(&h, "fleet-h3", "3.json", e = host_exp(100, r, v, "6.5.0"),
		 NULL, NULL);
	json_object_put(e);
	assert_int_equal(merge(&h, &exp, &partial, &err), 0);
	env = get(exp, "env", NULL);
	snprintf(want, sizeof(want),
		 "fleet of 3 hosts: fleet-h1, fleet-h2, fleet-h3 (merged on "
		 "%s)",
		 u.nodename);
	assert_string_equal(str(env, "hostname"), want);
	assert_int_equal(
	    json_object_array_length(get(env, "fleet_hosts", NULL)), 3);
	assert_string_equal(str(get(env, "controller", NULL), "hostname"),
			    u.nodename);
	assert_string_equal(str(env, "kernel_release"),
			    "several: 6.1.0, 6.5.0");
	json_object_put(exp);
	fleet_hosts_release(&h);
	strbuf_release(&err);
}

/* Where needle first is in text, failing when it is not there. */
static size_t where(const char *text, const char *needle)
{
	const char *p = strstr(text, needle);

	if (!p)
		fail_msg("no '%s' in %s", needle, text);
	return (size_t)(p - text);
}

/*
 * The merged experiment keeps the member order the fleet merge has
 * always printed (its JSON is an interface): the fleet's environment
 * from its hostname, then the hosts' factors, alpha (as the hosts
 * wrote it: 0.05) and equivalence, each run's block and host after
 * its source, the fleet part and the origin last.
 */
static void test_member_order(void **state)
{
	static const double r[2] = {1.1, 0.9};
	static const char *const v[2] = {"faster", "slower"};
	struct strbuf err = STRBUF_INIT, text = STRBUF_INIT;
	struct fleet_hosts h = {0};
	struct experiment_doc doc;
	struct json_object *e;
	bool partial;

	(void)state;
	add_host(&h, "b", "b.json", e = host_exp(100, r, v, "6.1.0"), NULL,
		 NULL);
	json_object_put(e);
	add_host(&h, "a", "a.json", e = host_exp(120, r, v, "6.1.0"), NULL,
		 NULL);
	json_object_put(e);
	assert_int_equal(fleet_merge(&h, &doc, &partial, &err), 0);
	experiment_doc_encode(&doc, MODEL_ENCODE_PLAIN, &text);
	assert_true(where(text.buf, "\"env\":{\"hostname\":\"fleet of 2") <
		    where(text.buf, "\"factors\":"));
	assert_true(where(text.buf, "\"factors\":") <
		    where(text.buf, "\"alpha\":0.05,\"equivalence\":0.02,"));
	assert_true(where(text.buf, "\"equivalence\":") <
		    where(text.buf, "\"verdicts\":"));
	assert_true(where(text.buf, "\"verdicts\":") <
		    where(text.buf, "\"fleet\":"));
	assert_true(where(text.buf, "\"fleet\":") <
		    where(text.buf, "\"origin\":\"fleet\"}"));
	where(text.buf, "\"source\":\"a.json\",\"block\":0,\"host\":\"a\"}");
	where(text.buf, "\"source\":\"b.json\",\"block\":1,\"host\":\"b\"}");
	experiment_doc_release(&doc);
	fleet_hosts_release(&h);
	strbuf_release(&err);
	strbuf_release(&text);
}

/*
 * A host whose revert did not run is failed and named: it may still
 * hold a change. A host whose compare failed keeps that error when its
 * revert fails too.
 */
static void test_revert_not_done(void **state)
{
	static const double r[2] = {1.1, 0.9};
	static const char *const v[2] = {"faster", "slower"};
	struct strbuf err = STRBUF_INIT, text = STRBUF_INIT;
	struct fleet_hosts h = {0};
	struct json_object *exp, *e, *hosts, *b, *c;
	bool partial;

	(void)state;
	add_host(&h, "a", "a.json", e = host_exp(100, r, v, "6.1.0"), NULL,
		 NULL);
	json_object_put(e);
	fleet_hosts_set_revert(&h, "a", "ok", NULL);
	add_host(&h, "b", "b.json", e = host_exp(100, r, v, "6.1.0"), NULL,
		 NULL);
	json_object_put(e);
	fleet_hosts_set_revert(&h, "b", "not run", "the play ended");
	add_host(&h, "c", "c.error", NULL, "compare", "killed by signal 9");
	fleet_hosts_set_revert(&h, "c", "failed",
			       "iotrial revert failed: exit status 1");
	assert_int_equal(merge(&h, &exp, &partial, &err), 0);
	assert_true(partial);
	hosts = get(exp, "fleet", "hosts");
	b = json_object_array_get_idx(hosts, 1);
	c = json_object_array_get_idx(hosts, 2);
	assert_string_equal(str(b, "status"), "failed");
	assert_string_equal(str(b, "task"), "iotrial revert");
	assert_string_equal(str(b, "revert"), "not run");
	assert_string_equal(str(b, "error"), "the play ended");
	assert_string_equal(str(c, "task"), "compare");
	assert_string_equal(str(c, "error"), "killed by signal 9");
	assert_string_equal(str(c, "revert_error"),
			    "iotrial revert failed: exit status 1");
	assert_string_equal(str(json_object_array_get_idx(hosts, 0), "revert"),
			    "ok");
	e = get(exp, "fleet", "revert_not_done");
	assert_int_equal(json_object_array_length(e), 2);
	assert_string_equal(
	    json_object_get_string(json_object_array_get_idx(e, 0)), "b");
	assert_non_null(warning_with(
	    exp, "host 'b': iotrial revert did not run there, so it may still "
		 "hold a changed setting"));
	fleet_text(exp, &text);
	assert_non_null(strstr(text.buf, "(!) iotrial revert did not run "
					 "there: the host may still hold"));
	json_object_put(exp);
	fleet_hosts_release(&h);
	strbuf_release(&err);
	strbuf_release(&text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_vectors),
	    cmocka_unit_test(test_forged_host),
	    cmocka_unit_test(test_differs),
	    cmocka_unit_test(test_observe_hosts),
	    cmocka_unit_test(test_baseline_out_of_range),
	    cmocka_unit_test(test_disagreeing_hosts),
	    cmocka_unit_test(test_fleet_env),
	    cmocka_unit_test(test_member_order),
	    cmocka_unit_test(test_revert_not_done),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
