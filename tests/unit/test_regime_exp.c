/*
 * An experiment's "regimes" from its runs' regime entries and their
 * text, and the observations (knob_obs) a run's samples and device truth
 * give; test_regime.c judges each knob family against observations.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <cmocka.h>
#include "core/knob/knob.h"
#include "core/model/run_doc.h"
#include "core/observe/regime_obs.h"
#include "core/experiment/regime.h"
#include "core/model/model_json.h"
#include "core/report/page.h"
#include "core/report/regime_text.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define MIB (1024ull * 1024ull)
#define GIB (1024ull * MIB)

/* A run of arm with one regime entry for knob, as JSON text onto out. */
static void run_with(struct strbuf *out, int arm, const char *knob,
		     const char *value, const char *state)
{
	strbuf_addf(out,
		    "{\"arm\": %d, \"run\": {\"schema\": \"iotrial/1\", "
		    "\"regime\": [{\"knob\": \"%s\", \"canonical\": "
		    "\"vm.dirty_background_ratio\", \"object\": \"system\", "
		    "\"value\": \"%s\", \"state\": \"%s\", \"why\": "
		    "\"dirty memory peaked at 90 MiB\"}]}}",
		    arm, knob, value, state);
}

/* An experiment varying bdflush.nfract with the runs' states, into exp
 * (release it). */
static void exp_with(struct experiment_doc *exp, const char *const *states,
		     int n)
{
	struct strbuf text = STRBUF_INIT, err = STRBUF_INIT;
	int i;

	/* what every stored experiment has: the report decodes it */
	strbuf_addstr(&text,
		      "{\"schema\": \"iotrial/1\", \"type\": \"experiment\", "
		      "\"factors\": [{\"name\": \"bdflush.nfract\", "
		      "\"kind\": \"knob\"}], \"runs\": [");
	for (i = 0; i < n; i++) {
		if (i)
			strbuf_addstr(&text, ", ");
		run_with(&text, i % 2, "bdflush.nfract", i % 2 ? "80" : "10",
			 states[i]);
	}
	strbuf_addstr(&text, "]}");
	if (experiment_doc_decode(text.buf, text.len, exp, 0, &err))
		fail_msg("%s", err.buf);
	strbuf_release(&text);
	strbuf_release(&err);
}

/* exp's regimes as the analysis sets them, and the page's regimes
 * section of it onto out. */
static void regimes_text(struct experiment_doc *exp, struct strbuf *out)
{
	struct strbuf err = STRBUF_INIT;

	regime_analyze(exp);
	assert_int_equal(
	    report_page(exp, &emit_text_ops, REPORT_SEC(regimes), out, &err),
	    0);
	strbuf_release(&err);
}

static void test_experiment_regimes(void **state)
{
	static const char *const none[] = {"not_reached", "not_reached",
					   "not_reached", "unknown"};
	static const char *const one[] = {"not_reached", "reached",
					  "not_reached", "not_reached"};
	struct experiment_doc exp;
	const struct exp_regime *g;
	struct strbuf out = STRBUF_INIT;

	(void)state;
	exp_with(&exp, none, 4);
	regimes_text(&exp, &out);
	assert_int_equal(exp.nr_regimes, 1);
	g = &exp.regimes[0];
	assert_string_equal(g->factor, "bdflush.nfract");
	assert_int_equal(g->not_reached, 3);
	assert_string_equal(g->state, "not_reached");
	assert_non_null(strstr(out.buf,
			       "bdflush.nfract (vm.dirty_background_ratio) "
			       "could not matter: none of its 4 runs"));
	assert_non_null(strstr(out.buf, "(1 could not be judged)"));
	assert_non_null(strstr(out.buf, "  at 10 (2 runs): dirty memory "
					"peaked at 90 MiB\n"));
	assert_non_null(strstr(out.buf, "  at 80 (1 run): "));
	experiment_doc_release(&exp);
	/* one run that reached it: the knob could matter, no entry */
	exp_with(&exp, one, 4);
	strbuf_reset(&out);
	regimes_text(&exp, &out);
	assert_int_equal(exp.nr_regimes, 0);
	assert_int_equal(out.len, 0);
	experiment_doc_release(&exp);
	strbuf_release(&out);
}

/*
 * A knob none of whose runs could be judged, its family saying why (a
 * raw knob): one entry of state "unknown", one line; without a why,
 * nothing. A run's own lines: "regime unknown: ..." only with a why.
 */
static void regime_entry(struct strbuf *list, const char *knob,
			 const char *object, const char *value,
			 const char *state, const char *why)
{
	strbuf_addf(list,
		    "%s{\"knob\": \"%s\", \"canonical\": \"%s\", "
		    "\"object\": \"%s\", \"value\": \"%s\", \"state\": "
		    "\"%s\", \"why\": \"%s\"}",
		    list->buf[list->len - 1] == '[' ? "" : ", ", knob, knob,
		    object, value, state, why);
}

static void test_experiment_unknown(void **state)
{
	static const char *const unk[] = {"unknown", "unknown", "unknown",
					  "unknown"};
	struct strbuf out = STRBUF_INIT, text = STRBUF_INIT, err = STRBUF_INIT;
	struct experiment_doc exp;
	const struct exp_regime *g;
	struct run_doc run;
	size_t i;

	(void)state;
	exp_with(&exp, unk, 4);
	regimes_text(&exp, &out);
	assert_int_equal(exp.nr_regimes, 1);
	g = &exp.regimes[0];
	assert_string_equal(g->state, "unknown");
	assert_string_equal(g->why, "dirty memory peaked at 90 MiB");
	assert_int_equal(g->not_reached, 0);
	assert_int_equal(g->runs, 4);
	assert_int_equal(g->nr_values, 0);
	assert_string_equal(out.buf,
			    "\nbdflush.nfract (vm.dirty_background_ratio): "
			    "regime unknown in its 4 runs: dirty memory "
			    "peaked at 90 MiB\n");
	/* no why: silence, as for any knob the sampler cannot judge */
	for (i = 0; i < 4; i++) {
		struct run_regime_doc *e = &exp.runs[i].run->regime[0];

		free(e->why);
		e->why = xstrdup("");
	}
	strbuf_reset(&out);
	regimes_text(&exp, &out);
	assert_int_equal(exp.nr_regimes, 0);
	experiment_doc_release(&exp);

	/* the run's own lines, from its run object's "regime" */
	strbuf_addstr(&text, "{\"schema\": \"iotrial/1\", \"regime\": [");
	regime_entry(&text, "sysctl:vm.swappiness", "system", "10", "unknown",
		     "iotrial does not know what a raw knob controls");
	regime_entry(&text, "scheduler", "loop0", "bfq", "unknown", "");
	regime_entry(&text, "read_ahead_kb", "loop0", "128", "reached",
		     "requests of 128 KiB");
	strbuf_addstr(&text, "]}");
	if (run_doc_decode(text.buf, text.len, &run, 0, &err))
		fail_msg("%s", err.buf);
	strbuf_reset(&out);
	report_run_regimes(&run, &out);
	assert_string_equal(out.buf,
			    "regime unknown: sysctl:vm.swappiness=10: iotrial "
			    "does not know what a raw knob controls\n");
	run_doc_release(&run);
	strbuf_release(&text);
	strbuf_release(&err);
	strbuf_release(&out);
}

/* Point i of a series of one device at t_ms, dirty and threshold bytes. */
static void point(struct sampler_series *ser, unsigned i, uint64_t t_ms,
		  uint64_t dirty, uint64_t bg, uint64_t thresh, uint64_t reads,
		  uint64_t sectors, uint64_t in_flight, uint64_t queue_ms)
{
	struct sampler_point *p = &ser->points[i];
	struct diskstats *d = &ser->disk[i];

	p->t_ns = t_ms * 1000000ull;
	p->dirty_bytes = dirty;
	p->dirty_bg_thresh_bytes = bg;
	p->dirty_thresh_bytes = thresh;
	p->dirtyable_bytes = 10 * bg;
	p->cg_dirty_bytes = dirty / 2;
	p->cg_file_lru_bytes = 100 * MIB;
	p->cg_current_bytes = 200 * MIB;
	p->have = SAMPLER_HAVE_MEM | SAMPLER_HAVE_VMSTAT | SAMPLER_HAVE_CG;
	d->nr_fields = DS_MIN_FIELDS;
	d->v[DS_RD_IOS] = reads;
	d->v[DS_RD_SECTORS] = sectors;
	d->v[DS_IN_FLIGHT] = in_flight;
	d->v[DS_QUEUE_TICKS] = queue_ms;
	d->v[DS_IO_TICKS] = queue_ms;
}

static void test_observations(void **state)
{
	struct sampler_point pts[4];
	struct diskstats disk[4];
	char *names[] = {"fake0"};
	struct truth t;
	struct truth_dirty td;
	struct knob_obs o;
	struct run_result r;

	(void)state;
	memset(&t, 0, sizeof(t));
	memset(pts, 0, sizeof(pts));
	memset(disk, 0, sizeof(disk));
	t.series.points = pts;
	t.series.disk = disk;
	t.series.nr_points = 4;
	t.series.nr_devs = 1;
	t.series.dev_names = names;
	t.series.cg_version = 2;
	t.series.cg_memory_max_bytes = 256 * MIB;
	/* 250 ms intervals, then a 20 ms one whose queue time reads deep */
	point(&t.series, 0, 0, 10 * MIB, 2 * GIB, 4 * GIB, 0, 0, 0, 0);
	point(&t.series, 1, 250, 80 * MIB, GIB, 3 * GIB, 100, 800, 1, 200);
	point(&t.series, 2, 500, 20 * MIB, 2 * GIB, 4 * GIB, 200, 1000, 0, 400);
	point(&t.series, 3, 520, 0, 2 * GIB, 4 * GIB, 201, 1008, 0, 440);
	t.nr_devs = 1;
	t.devs = xcalloc(1, sizeof(*t.devs));
	t.devs[0].name = names[0];
	t.devs[0].valid = 1;
	t.devs[0].d.reads = 201;
	t.devs[0].d.read_bytes = 1008 * 512;
	t.have_mem = 1;
	t.dirty_peak_bytes = 80 * MIB;
	truth_dirty_of(&t, &td);
	/* the lowest thresholds, not the last */
	assert_int_equal(td.bg_thresh_bytes, GIB);
	assert_int_equal(td.thresh_bytes, 3 * GIB);
	assert_int_equal(td.dirtyable_bytes, 10 * GIB);
	/* v2: file pages plus the headroom below memory.max, scaled */
	assert_int_equal(td.cg_dirtyable_bytes, 156 * MIB);
	assert_int_equal(td.cg_dirty_peak_bytes, 40 * MIB);
	assert_true(td.cg_bg_thresh_bytes > 15 * MIB &&
		    td.cg_bg_thresh_bytes < 16 * MIB);
	/* 3 GiB x 156 MiB / 10 GiB: 46.8 MiB */
	assert_true(td.cg_thresh_bytes > 46 * MIB + 700 * 1024 &&
		    td.cg_thresh_bytes < 46 * MIB + 900 * 1024);
	assert_int_equal(td.cg_dirty_wb_peak_bytes, 40 * MIB);
	assert_int_equal(td.cg_version, 2);
	assert_int_equal(td.cg_memory_max_bytes, 256 * MIB);
	run_result_init(&r);
	r.seconds = 0.52;
	r.bytes[IO_READ] = 1008 * 512;
	truth_knob_obs(&t, &r, 0, &o);
	assert_int_equal(o.nr_devs, 1);
	assert_int_equal(o.devs[0].intervals, 3);
	assert_int_equal(o.devs[0].max_in_flight, 1);
	/* 200 ms of queue over 250 ms: 0.8; the 20 ms interval is left out */
	assert_true(o.devs[0].max_aqu_sz > 0.79 && o.devs[0].max_aqu_sz < 0.81);
	/* 800 sectors in 100 reads: 4 KiB */
	assert_true(o.devs[0].max_rareq_kib > 3.99 &&
		    o.devs[0].max_rareq_kib < 4.01);
	assert_true(o.have_thresh && o.have_cg_dirty);
	assert_int_equal(o.cg_version, 2);
	/* the per-cgroup numbers the dirty hook scales by */
	assert_int_equal(o.cg_memory_max, 256 * MIB);
	assert_int_equal(o.cg_dirtyable_bytes, 156 * MIB);
	assert_int_equal(o.cg_dirty_peak_bytes, 40 * MIB);
	assert_int_equal(o.cg_dirty_wb_peak_bytes, 40 * MIB);
	/* and the run object's "cgroup_dirty" */
	{
		struct run_doc run;
		const struct truth_cgroup_dirty *cg;

		run_doc_init(&run);
		run.truth = xcalloc(1, sizeof(*run.truth));
		truth_regime_to_doc(&t, run.truth);
		cg = run.truth->cgroup_dirty;
		assert_non_null(cg);
		assert_int_equal(cg->version, 2);
		assert_int_equal(cg->has_dirtyable_bytes, MODEL_SET);
		assert_int_equal(cg->dirtyable_bytes, 156 * MIB);
		assert_int_equal(cg->background_bytes, td.cg_bg_thresh_bytes);
		assert_int_equal(cg->throttle_bytes, td.cg_thresh_bytes);
		assert_int_equal(cg->has_dirty_peak_bytes, MODEL_SET);
		assert_int_equal(cg->dirty_peak_bytes, 40 * MIB);
		assert_int_equal(run.truth->nr_queue_peaks, 1);
		assert_int_equal(run.truth->queue_peaks[0].max_in_flight, 1);
		run_doc_release(&run);
	}
	run_result_release(&r);
	free(t.devs);
}

/* Entry i of run r: knob at value, state and why, judged as canonical. */
static void typed_entry(struct exp_run *r, size_t i, const char *knob,
			const char *canonical, const char *value,
			const char *state, const char *why)
{
	struct run_regime_doc *e = &r->run->regime[i];

	e->knob = xstrdup(knob);
	e->canonical = xstrdup(canonical);
	e->object = xstrdup("system");
	e->value = xstrdup(value);
	e->state = xstrdup(state);
	e->why = xstrdup(why);
}

/*
 * A document varying the bdflush line over two values that differ in
 * nfract only, four runs (arm i % 2) whose nfract is not reached but in
 * run reached_run (-1: none); interval, alike in both, is reached in
 * every run and does not judge the line.
 */
static void typed_line_doc(struct experiment_doc *doc, int reached_run)
{
	static const char *const line[2] = {"10 0 0 0 500 3000 60 0 0",
					    "80 0 0 0 500 3000 60 0 0"};
	size_t i;
	int a;

	experiment_doc_init(doc);
	doc->factors = xcalloc(1, sizeof(*doc->factors));
	doc->nr_factors = 1;
	doc->has_factors = MODEL_SET;
	doc->factors[0].name = xstrdup("bdflush");
	doc->factors[0].kind = xstrdup("knob");
	doc->arms = xcalloc(2, sizeof(*doc->arms));
	doc->nr_arms = 2;
	for (a = 0; a < 2; a++) {
		struct exp_arm *arm = &doc->arms[a];

		arm->arm = a;
		arm->settings = xcalloc(1, sizeof(*arm->settings));
		arm->nr_settings = 1;
		arm->has_settings = MODEL_SET;
		arm->settings[0].name = xstrdup("bdflush");
		arm->settings[0].value = xstrdup(line[a]);
	}
	doc->runs = xcalloc(4, sizeof(*doc->runs));
	doc->nr_runs = 4;
	for (i = 0; i < 4; i++) {
		struct exp_run *r = &doc->runs[i];

		r->arm = (int64_t)(i % 2);
		r->run = xcalloc(1, sizeof(*r->run));
		r->run->regime = xcalloc(2, sizeof(*r->run->regime));
		r->run->nr_regime = 2;
		r->run->has_regime = MODEL_SET;
		typed_entry(r, 0, "bdflush.interval",
			    "vm.dirty_writeback_centisecs", "500", "reached",
			    "flushed every 5 s");
		typed_entry(r, 1, "bdflush.nfract", "vm.dirty_background_ratio",
			    i % 2 ? "80" : "10",
			    (int)i == reached_run ? "reached" : "not_reached",
			    i % 2 ? "dirty memory peaked at 90 MiB"
				  : "dirty memory peaked at 9 MiB");
	}
}

/*
 * The typed stage on a document built by hand: a bdflush line is judged
 * by the field that differs between its values, each value named as
 * given; a stale entry is replaced; one run that reached it leaves no
 * entry, and the member is there, empty.
 */
static void test_typed_line(void **state)
{
	struct experiment_doc doc;
	const struct exp_regime *g;

	(void)state;
	typed_line_doc(&doc, -1);
	/* what an earlier analysis left: replaced, not kept */
	doc.regimes = xcalloc(1, sizeof(*doc.regimes));
	doc.nr_regimes = 1;
	doc.regimes[0].factor = xstrdup("stale");
	regime_analyze(&doc);
	assert_int_equal(doc.has_regimes, MODEL_SET);
	assert_int_equal(doc.nr_regimes, 1);
	g = &doc.regimes[0];
	assert_string_equal(g->factor, "bdflush");
	assert_string_equal(g->state, "not_reached");
	assert_null(g->why);
	assert_string_equal(g->canonical, "vm.dirty_background_ratio");
	assert_string_equal(g->object, "system");
	assert_int_equal(g->runs, 4);
	assert_int_equal(g->not_reached, 4);
	assert_int_equal(g->nr_values, 2);
	assert_string_equal(g->values[0].value, "10 0 0 0 500 3000 60 0 0");
	assert_int_equal(g->values[0].runs, 2);
	/* one judge: its reason without the knob's names */
	assert_string_equal(g->values[0].why, "dirty memory peaked at 9 MiB");
	assert_string_equal(g->values[1].value, "80 0 0 0 500 3000 60 0 0");
	assert_string_equal(g->values[1].why, "dirty memory peaked at 90 MiB");
	experiment_doc_release(&doc);

	typed_line_doc(&doc, 3);
	regime_analyze(&doc);
	assert_int_equal(doc.has_regimes, MODEL_SET);
	assert_int_equal(doc.nr_regimes, 0);
	experiment_doc_release(&doc);
}

/*
 * On a document read back: "regimes" printed where it had it, the
 * members around it in their order; an empty one is an empty array.
 */
static void test_in_place(void **state)
{
	static const char text[] =
	    "{\"schema\": \"iotrial/1\", \"type\": \"experiment\", "
	    "\"a\": 1, \"regimes\": [], \"b\": 2}";
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	struct experiment_doc doc, exp;
	const char *a, *g, *b;

	(void)state;
	typed_line_doc(&doc, -1);
	regime_analyze(&doc);
	if (experiment_doc_decode(text, sizeof(text) - 1, &exp, 0, &err))
		fail_msg("%s", err.buf);
	exp_regimes_free(exp.regimes, exp.nr_regimes);
	exp.regimes = doc.regimes;
	exp.nr_regimes = doc.nr_regimes;
	exp.has_regimes = doc.has_regimes;
	doc.regimes = NULL;
	doc.nr_regimes = 0;
	experiment_doc_encode(&exp, MODEL_ENCODE_PLAIN, &out);
	a = strstr(out.buf, "\"a\":1");
	g = strstr(out.buf, "\"regimes\":[{\"factor\":\"bdflush\"");
	b = strstr(out.buf, "\"b\":2");
	assert_true(a && g && b && a < g && g < b);
	assert_int_equal(exp.nr_regimes, 1);
	assert_null(exp.regimes[0].why);
	assert_non_null(strstr(g, "\"state\":\"not_reached\",\"canonical\""));
	experiment_doc_release(&doc);
	experiment_doc_release(&exp);

	experiment_doc_init(&doc);
	regime_analyze(&doc);
	strbuf_reset(&out);
	experiment_doc_encode(&doc, MODEL_ENCODE_PLAIN, &out);
	assert_non_null(strstr(out.buf, "\"regimes\":[]"));
	experiment_doc_release(&doc);
	strbuf_release(&out);
	strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_experiment_regimes),
	    cmocka_unit_test(test_experiment_unknown),
	    cmocka_unit_test(test_typed_line),
	    cmocka_unit_test(test_in_place),
	    cmocka_unit_test(test_observations),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
