/*
 * Tests for core/model: the codec of run and experiment documents.
 *
 * The oracle is what iotrial writes: tests/data/model/ holds one
 * document of each kind and shape the suite produced (a run on tmpfs,
 * an exec run, a replay, a replay whose settings differed from its
 * capture's and one whose capture recorded none, smallfiles, a cgroup
 * run, a knob's regime, --verify; compare, with effects, with advice, a stored
 * single run, adjusted for covariates, a duet, observe with an abort, stored
 * and with its adjusted ratio, a fleet merge, imports of fio output, of runs
 * and of a whole experiment, a hostile import; job files; a series; the plans
 * of set and apply, a dry run, knobs, the journal, log, diff, info and a line
 * of watch). Each must come back from decode and encode byte for byte, with
 * every member typed (but the hostile one's). The rest checks the typed fields,
 * the errors with their paths, the schema, what decode keeps, numbers, a
 * document made by hand, and the tables themselves.
 *
 * Run as `test_model_json --dir DIR` it checks every document in DIR
 * instead (make model-roundtrip: build/test-logs/json after the suite);
 * as `test_model_json --members` it lists every member the model knows,
 * with its JSON type, its printing and when it is there.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "model_roundtrip.h"
#include "util/xalloc.h"
#include "util/banned.h"

/* tests/data/model/NAME, read whole into sb. */
static void read_data(const char *name, struct strbuf *sb)
{
	struct strbuf path = STRBUF_INIT;
	const char *src = getenv("IOTRIAL_SRC");

	strbuf_addf(&path, "%s/tests/data/model/%s", src ? src : ".", name);
	assert_int_equal(strbuf_read_file(sb, path.buf, 0), 0);
	strbuf_release(&path);
}

/* Decode experiment text (must succeed). */
static void exp_decode(const char *text, struct experiment_doc *e,
		       unsigned flags)
{
	struct strbuf err = STRBUF_INIT;
	int ret = experiment_doc_decode(text, strlen(text), e, flags, &err);

	if (ret)
		fail_msg("%s", err.buf);
	strbuf_release(&err);
}

/* The error decoding text as a run gives (must fail). */
static void run_fails(const char *text, const char *want)
{
	struct strbuf err = STRBUF_INIT;
	struct run_doc r;

	assert_int_equal(run_doc_decode(text, strlen(text), &r, 0, &err),
			 -EINVAL);
	if (strcmp(err.buf, want))
		fail_msg("got '%s', want '%s'", err.buf, want);
	run_doc_release(&r);
	strbuf_release(&err);
}

/* Every document of the corpus comes back byte for byte, typed. */
static void test_corpus(void **state)
{
	const char *src = getenv("IOTRIAL_SRC");
	struct strbuf dir = STRBUF_INIT;
	struct dirent **names;
	int nr, i, files = 0;

	(void)state;
	strbuf_addf(&dir, "%s/tests/data/model", src ? src : ".");
	nr = scandir(dir.buf, &names, NULL, alphasort);
	assert_true(nr > 0);
	for (i = 0; i < nr; i++) {
		struct strbuf text = STRBUF_INIT, why = STRBUF_INIT;
		struct model_counts kc = {0};
		const char *name = names[i]->d_name, *kind;
		char buf[48];
		int typed;

		if (name[0] == '.')
			goto next;
		read_data(name, &text);
		kind = rt_kind_of(text.buf, buf, sizeof(buf));
		if (!kind)
			fail_msg("%s: no run or experiment", name);
		if (rt_one(kind, text.buf, text.len, &typed, &kc, &why))
			fail_msg("%s: %s", name, why.buf);
		/* the hostile import's runs hold a member with control
		 * bytes in its name: kept, not typed */
		if (typed == !!strstr(name, "hostile"))
			fail_msg("%s: typed %d: %s", name, typed, why.buf);
		files++;
	next:
		strbuf_release(&text);
		strbuf_release(&why);
		free(names[i]);
	}
	free(names);
	strbuf_release(&dir);
	assert_true(files >= 26);
}

/* The typed fields of a compare's document are its members. */
static void test_typed(void **state)
{
	struct strbuf text = STRBUF_INIT;
	struct experiment_doc e;
	const struct exp_verdict *v;
	const struct run_doc *r;

	(void)state;
	read_data("exp-compare.json", &text);
	exp_decode(text.buf, &e, MODEL_DECODE_KNOWN);
	assert_string_equal(e.schema, "iotrial/1");
	assert_null(e.kind);
	assert_string_equal(e.seed, "2638972384");
	assert_string_equal(e.metric->name, "iops");
	assert_true(e.metric->higher_is_better);
	assert_int_equal(e.nr_factors, 1);
	assert_int_equal(e.factors[0].nr_values, 2);
	assert_string_equal(e.factors[0].values[1], "b");
	assert_int_equal(e.nr_arms, 2);
	assert_string_equal(e.arms[1].label, "label=b");
	assert_non_null(e.arms[1].summary);
	assert_int_equal(e.arms[1].summary->n, 4);
	assert_true(e.arms[1].summary->median == 16043.76052813582);
	assert_int_equal(e.nr_verdicts, 1);
	v = &e.verdicts[0];
	assert_string_equal(v->verdict, "inconclusive");
	assert_non_null(v->cmp);
	assert_true(v->cmp->ratio == 1.0760948666483445);
	assert_int_equal(v->cmp->has_ci_coverage, MODEL_SET);
	assert_string_equal(v->cmp->test, "wilcoxon-signed-rank");
	assert_int_equal(v->nr_suspect, 3);
	assert_string_equal(v->suspect[0].kind, "page_cache");
	assert_int_equal(v->suspect[0].runs, 3);
	assert_int_equal(e.runs[3].has_block, MODEL_SET);
	assert_int_equal(e.runs[3].block, 1);
	assert_true(e.runs[3].metric == 12980.006143696506);
	r = e.runs[3].run;
	assert_non_null(r);
	assert_string_equal(r->workload, "randread");
	assert_int_equal(r->latency_ns->read->p99, 227839);
	assert_null(r->latency_ns->write);
	assert_true(r->latency_ns->read->mean == 76376.198);
	assert_string_equal(r->env->hostname, "vm");
	assert_true(r->truth->seconds == 0.039);
	assert_true(r->devices[0].delta->r_s == 12164.2);
	assert_string_equal(r->params[0].name, "bs");
	assert_int_equal(r->params[0].value.type, MODEL_V_INT);
	assert_int_equal(r->params[0].value.i, 4096);
	assert_int_equal(r->seed.type, MODEL_V_INT);
	assert_int_equal(r->seed.i, 420278389);
	assert_int_equal(r->has_time_requested_s + r->has_ios_requested,
			 MODEL_SET);
	experiment_doc_release(&e);
	/* observe's windows and abort */
	read_data("exp-observe-abort.json", &text);
	exp_decode(text.buf, &e, MODEL_DECODE_KNOWN);
	assert_string_equal(e.kind, "observe");
	assert_non_null(e.abort);
	assert_string_equal(e.abort->rule, "iops>0");
	assert_int_equal(e.abort->has_restored_after_s, MODEL_SET);
	assert_int_equal(e.nr_windows, 1);
	assert_int_equal(e.windows[0].device->has_r_await, MODEL_NULL);
	assert_true(isnan(e.windows[0].device->r_await));
	assert_true(e.windows[0].device->w_await == 1.0 / 6);
	experiment_doc_release(&e);
	strbuf_release(&text);
}

/*
 * The members of the adjusted analysis are typed: a verdict's adjusted
 * comparison and what it rests on, a run's covariates, a duet's places,
 * a block's length, the sampler's contention, observe's adj_*; and a
 * document stored before them has none (their presence bytes clear).
 */
static void test_typed_adjusted(void **state)
{
	struct strbuf text = STRBUF_INIT;
	struct experiment_doc e;
	const struct exp_verdict *v;
	const struct truth_sampler *smp;
	const struct live_sb_adjusted *adj;
	size_t i;

	(void)state;
	read_data("exp-compare-adjusted.json", &text);
	exp_decode(text.buf, &e, MODEL_DECODE_KNOWN);
	v = &e.verdicts[0];
	assert_string_equal(v->verdict_from, "adjusted");
	assert_non_null(v->adjusted);
	assert_true(v->adjusted->used);
	assert_string_equal(v->adjusted->why, "used");
	assert_int_equal(v->adjusted->nr_covariates, 1);
	assert_string_equal(v->adjusted->covariates[0], "others_io_mbps");
	assert_true(v->adjusted->ratio == 1.0698693406946607);
	assert_true(v->adjusted->r2 == 0.30813445041648246);
	assert_int_equal(e.has_block_s, MODEL_SET);
	assert_true(e.block_s == 0.33860741442857145);
	assert_int_equal(e.has_duet, MODEL_ABSENT);
	assert_int_equal(e.runs[0].has_covariates, MODEL_SET);
	assert_int_equal(e.runs[0].nr_covariates, 3);
	assert_string_equal(e.runs[0].covariates[0].name, "steal");
	assert_true(isnan(e.runs[0].covariates[0].value));
	assert_true(e.runs[0].covariates[1].value == 1.99);
	assert_int_equal(e.runs[0].has_place, MODEL_ABSENT);
	smp = e.runs[0].run->truth->sampler;
	assert_int_equal(smp->has_cpu_wait_fraction, MODEL_SET);
	assert_true(smp->cpu_wait_fraction == 0.5775);
	assert_int_equal(smp->has_wake_late_ms, MODEL_NULL);
	assert_int_equal(smp->has_others_write_bytes, MODEL_SET);
	assert_int_equal(smp->others_write_bytes, 159744);
	experiment_doc_release(&e);
	strbuf_reset(&text);
	read_data("exp-compare-duet.json", &text);
	exp_decode(text.buf, &e, MODEL_DECODE_KNOWN);
	assert_int_equal(e.has_duet, MODEL_SET);
	assert_int_equal(e.duet, 2);
	for (i = 0; i < e.nr_runs; i++) {
		assert_int_equal(e.runs[i].has_place, MODEL_SET);
		assert_int_equal(e.runs[i].place, (int64_t)(i % 2));
	}
	experiment_doc_release(&e);
	strbuf_reset(&text);
	read_data("exp-observe-adjusted.json", &text);
	exp_decode(text.buf, &e, MODEL_DECODE_KNOWN);
	adj = e.switchback->arms[1].adjusted;
	assert_non_null(adj);
	assert_int_equal(adj->has_adj_used, MODEL_SET);
	assert_false(adj->adj_used);
	assert_string_equal(adj->adj_why, "few blocks");
	assert_true(adj->adj_p == 0.03125);
	assert_string_equal(e.runs[0].covariates[0].name, "t_s");
	assert_null(e.switchback->arms[0].adjusted);
	experiment_doc_release(&e);
	/* stored before: none of them, and nothing missing */
	strbuf_reset(&text);
	read_data("exp-compare.json", &text);
	exp_decode(text.buf, &e, MODEL_DECODE_KNOWN);
	assert_null(e.verdicts[0].adjusted);
	assert_null(e.verdicts[0].verdict_from);
	assert_int_equal(e.has_block_s, MODEL_ABSENT);
	assert_int_equal(e.runs[0].has_covariates, MODEL_ABSENT);
	smp = e.runs[0].run->truth->sampler;
	assert_int_equal(smp->has_cpu_wait_fraction, MODEL_ABSENT);
	assert_int_equal(smp->has_others_read_bytes, MODEL_ABSENT);
	experiment_doc_release(&e);
	strbuf_release(&text);
}

/* A replay's settings, moved terms and distributions are typed. */
static void test_typed_replay(void **state)
{
	struct strbuf text = STRBUF_INIT, err = STRBUF_INIT;
	const struct run_fidelity_class *c = NULL;
	struct run_doc r;
	size_t i;

	(void)state;
	read_data("run-replay-moved.json", &text);
	if (run_doc_decode(text.buf, text.len, &r, MODEL_DECODE_KNOWN, &err))
		fail_msg("%s", err.buf);
	assert_int_equal(r.has_fidelity_settings, MODEL_SET);
	assert_int_equal(r.nr_fidelity_settings, 5);
	assert_string_equal(r.fidelity_settings[1].name, "read_ahead_kb");
	assert_string_equal(r.fidelity_settings[1].capture, "8192");
	assert_string_equal(r.fidelity_settings[1].replay, "2560");
	assert_int_equal(r.fidelity_settings[1].nr_moves, 4);
	assert_string_equal(r.fidelity_settings[1].moves[0], "dev_read");
	assert_non_null(r.fidelity_device);
	assert_true(isnan(r.fidelity_device->dev_write));
	assert_non_null(r.fidelity_device->not_judged);
	assert_int_equal(r.fidelity_device->has_moved, MODEL_SET);
	assert_int_equal(r.fidelity_device->nr_moved, 1);
	assert_string_equal(r.fidelity_device->moved[0].name, "dev_write");
	assert_true(r.fidelity_device->moved[0].value == 0);
	assert_int_equal(r.has_fidelity_dist, MODEL_SET);
	assert_int_equal(r.nr_fidelity_dist, 4);
	for (i = 0; i < r.nr_fidelity_dist; i++)
		if (!strcmp(r.fidelity_dist[i].name, "read"))
			c = &r.fidelity_dist[i];
	assert_non_null(c);
	assert_int_equal(c->calls_capture, 88);
	assert_true(isnan(c->gap));
	assert_false(c->latency_judged);
	assert_int_equal(c->p99_capture_ns, 2893631);
	assert_true(c->seq_replay == 0.8717948717948718);
	run_doc_release(&r);
	/* a capture that recorded no settings: both values null */
	read_data("run-replay-unrecorded.json", &text);
	if (run_doc_decode(text.buf, text.len, &r, MODEL_DECODE_KNOWN, &err))
		fail_msg("%s", err.buf);
	assert_int_equal(r.nr_fidelity_settings, 1);
	assert_null(r.fidelity_settings[0].capture);
	assert_null(r.fidelity_settings[0].replay);
	assert_int_equal(r.fidelity_settings[0].nr_moves, 5);
	assert_int_equal(r.fidelity_device->has_moved, MODEL_ABSENT);
	run_doc_release(&r);
	strbuf_release(&text);
	strbuf_release(&err);
}

/* A member of the wrong type is an error naming its path. */
static void test_wrong_type(void **state)
{
	struct strbuf text = STRBUF_INIT, err = STRBUF_INIT;
	struct experiment_doc e;
	struct json_object *o, *p;

	(void)state;
	read_data("exp-compare.json", &text);
	o = json_tokener_parse(text.buf);
	p = json_object_object_get(
	    json_object_object_get(
		json_object_object_get(
		    json_object_object_get(
			json_object_array_get_idx(
			    json_object_object_get(o, "runs"), 3),
			"run"),
		    "latency_ns"),
		"read"),
	    "p99");
	assert_non_null(p);
	json_object_object_add(
	    json_object_object_get(
		json_object_object_get(
		    json_object_object_get(
			json_object_array_get_idx(
			    json_object_object_get(o, "runs"), 3),
			"run"),
		    "latency_ns"),
		"read"),
	    "p99", json_object_new_string("fast"));
	strbuf_reset(&text);
	strbuf_addstr(&text, json_object_to_json_string(o));
	json_object_put(o);
	assert_int_equal(experiment_doc_decode(text.buf, text.len, &e, 0, &err),
			 -EINVAL);
	assert_string_equal(err.buf,
			    "runs[3].run.latency_ns.read.p99: expected an "
			    "integer");
	experiment_doc_release(&e);
	strbuf_release(&err);
	strbuf_release(&text);
	run_fails("{\"schema\": \"iotrial/1\", \"ops\": 1.5}",
		  "ops: expected an integer");
	run_fails("{\"schema\": \"iotrial/1\", \"ops\": -1}",
		  "ops: expected a count, not a negative number");
	run_fails("{\"schema\": \"iotrial/1\", \"interrupted\": 0}",
		  "interrupted: expected true or false");
	run_fails("{\"schema\": \"iotrial/1\", \"warnings\": [\"a\", 2]}",
		  "warnings[1]: expected a string");
	run_fails("{\"schema\": \"iotrial/1\", \"seconds\": \"1\"}",
		  "seconds: expected a number");
	run_fails("{\"schema\": \"iotrial/1\", \"ops\": null}",
		  "ops: expected an integer");
	run_fails("{\"schema\": \"iotrial/1\", \"params\": {\"bs\": [4]}}",
		  "params.bs: expected a string, a number or true/false");
	run_fails("{\"schema\": \"iotrial/1\", \"env\": {\"cpu\": {\"count\": "
		  "\"x\"}}}",
		  "env.cpu.count: expected an integer");
	run_fails("{\"schema\": \"iotrial/1\", \"devices\": [{\"name\": "
		  "\"vda\", \"r_s\": true}]}",
		  "devices[0].r_s: expected a number");
	run_fails("{\"schema\": \"iotrial/1\", \"knobs\": "
		  "{\"a\\u001b[2J\": 1}}",
		  "knobs.a?[2J: expected a string");
}

/* The schema is checked; what is not a document is refused. */
static void test_schema(void **state)
{
	struct strbuf err = STRBUF_INIT;
	struct experiment_doc e;
	const char *text;
	const char *exp2 = "{\"schema\": \"iotrial/1\", \"type\": "
			   "\"experiment\", \"runs\": [{\"arm\": 0, \"run\": "
			   "{\"schema\": \"iotrial/2\"}}]}";

	(void)state;
	run_fails("{\"schema\": \"iotrial/2\", \"workload\": \"x\"}",
		  "schema: 'iotrial/2'; this iotrial reads 'iotrial/1'");
	run_fails("{\"workload\": \"x\"}",
		  "schema: missing; not an iotrial run object");
	run_fails("{\"schema\": \"iotrial/\\u0007\"}",
		  "schema: 'iotrial/?'; this iotrial reads 'iotrial/1'");
	assert_int_equal(experiment_doc_decode(exp2, strlen(exp2), &e, 0, &err),
			 -EINVAL);
	assert_string_equal(err.buf, "runs[0].run.schema: 'iotrial/2'; this "
				     "iotrial reads 'iotrial/1'");
	experiment_doc_release(&e);
	strbuf_reset(&err);
	text = "{\"schema\": \"iotrial/1\"}";
	assert_int_equal(experiment_doc_decode(text, strlen(text), &e, 0, &err),
			 -EINVAL);
	assert_string_equal(err.buf, "type: missing");
	experiment_doc_release(&e);
	strbuf_reset(&err);
	text = "{\"schema\": \"iotrial/1\", \"type\": \"job_file\"}";
	assert_int_equal(experiment_doc_decode(text, strlen(text), &e, 0, &err),
			 -EINVAL);
	assert_string_equal(err.buf, "type: 'job_file'; expected 'experiment'");
	experiment_doc_release(&e);
	strbuf_release(&err);
	run_fails("[1]", "expected an object");
	run_fails("{\"schema\": \"iotrial/1\"",
		  "not valid JSON: it ends in the "
		  "middle");
	run_fails("{\"schema\": \"iotrial/1\"} x",
		  "text after the JSON object");
	run_fails("{\"schema\": \"iotrial/1\", \"workload\": \"a\\u0000b\"}",
		  "workload: the string holds a NUL byte");
}

/* An unknown member is kept in its place, or refused when asked. */
static void test_unknown(void **state)
{
	const char *text = "{\n"
			   "  \"schema\": \"iotrial/1\",\n"
			   "  \"future\": {\n"
			   "    \"a\": [\n"
			   "      1,\n"
			   "      2.50\n"
			   "    ]\n"
			   "  },\n"
			   "  \"workload\": \"randread\",\n"
			   "  \"truth\": {\n"
			   "    \"seconds\": 1.5,\n"
			   "    \"later\": \"x\"\n"
			   "  }\n"
			   "}\n";
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	struct run_doc r;

	(void)state;
	assert_int_equal(run_doc_decode(text, strlen(text), &r, 0, &err), 0);
	assert_int_equal(run_doc_unknown(&r), 2);
	assert_string_equal(r.workload, "randread");
	assert_true(r.truth->seconds == 1.5);
	run_doc_encode(&r, 0, &out);
	assert_string_equal(out.buf, text);
	/* a member given a value after decode is written, after those
	 * the document had, as json-c adds a member */
	r.fsyncs = 3;
	strbuf_reset(&out);
	run_doc_encode(&r, MODEL_ENCODE_PLAIN, &out);
	assert_string_equal(out.buf,
			    "{\"schema\":\"iotrial/1\",\"future\":{\"a\":[1,"
			    "2.50]},\"workload\":\"randread\",\"truth\":{"
			    "\"seconds\":1.5,\"later\":\"x\"},\"fsyncs\":3}");
	run_doc_release(&r);
	assert_int_equal(
	    run_doc_decode(text, strlen(text), &r, MODEL_DECODE_KNOWN, &err),
	    -EINVAL);
	assert_string_equal(err.buf, "future: not a member iotrial knows");
	run_doc_release(&r);
	strbuf_release(&out);
	strbuf_release(&err);
}

/* A number keeps its text while it holds the value it was read as. */
static void test_numbers(void **state)
{
	const char *text = "{\"schema\":\"iotrial/1\",\"seconds\":1,"
			   "\"ops\":1234.0,\"iops\":0.1,\"truth\":{"
			   "\"seconds\":1.2345,\"burst_mbps\":null}}";
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	struct run_doc r;

	(void)state;
	assert_int_equal(run_doc_decode(text, strlen(text), &r, 0, &err), 0);
	assert_int_equal(r.ops, 1234);
	assert_true(isnan(r.truth->burst_mbps));
	run_doc_encode(&r, MODEL_ENCODE_PLAIN, &out);
	assert_string_equal(out.buf, text);
	/* changed: printed as the writers print them */
	r.seconds = 2.5;
	r.ops = 5;
	r.iops = 0.1 + 0.2;
	r.truth->seconds = 0.1 + 0.2;
	r.truth->burst_mbps = 12.5000000001;
	strbuf_reset(&out);
	run_doc_encode(&r, MODEL_ENCODE_PLAIN, &out);
	assert_string_equal(out.buf,
			    "{\"schema\":\"iotrial/1\",\"seconds\":2.5,"
			    "\"ops\":5,\"iops\":0.30000000000000004,"
			    "\"truth\":{\"seconds\":0.3,\"burst_mbps\":12.5}}");
	run_doc_release(&r);
	strbuf_release(&out);
	strbuf_release(&err);
}

/* A run made by hand prints as result_json.c prints one: every member
 * the writers always write, measurements with 17 digits, the truth's
 * rounded, null for what is not known. */
static void test_made(void **state)
{
	static const char want[] =
	    "{\"schema\":\"iotrial/1\",\"iotrial_version\":\"0.1.0\","
	    "\"workload\":\"randread\",\"params\":{\"bs\":4096,\"direct\":"
	    "true,\"engine\":\"psync\"},\"knobs\":{},\"target\":{\"spec\":"
	    "\"/x\",\"kind\":\"dir\",\"path\":\"/x\",\"logical_block_bytes\":"
	    "512},\"ios_requested\":256,\"ramp_s\":0.0,\"seed\":7,\"seconds\":"
	    "1.0,\"burst_seconds\":0.0,\"ops\":256,\"iops\":256.0,\"mbps\":"
	    "null,\"bytes_read\":1048576,\"bytes_written\":0,\"ops_read\":256,"
	    "\"ops_written\":0,\"fsyncs\":0,\"interrupted\":false,"
	    "\"latency_ns\":{},\"cpu\":{\"user_s\":0.0,\"sys_s\":0.0,"
	    "\"system_busy_s\":0.0,\"system_total_s\":0.0,\"system_steal_s\":"
	    "0.0},\"jobs\":[],\"metric\":{\"name\":\"iops\",\"value\":256.0,"
	    "\"higher_is_better\":true,\"unit\":\"IO/s\"},\"metrics\":{"
	    "\"iops\":256.0},\"devices\":[{\"name\":\"vda\",\"kind\":null,"
	    "\"via\":null}],\"warnings\":[],\"warning_kinds\":[],\"notes\":[]}";
	struct run_doc r, back;
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	struct model_param params[3] = {
	    {.name = "bs"}, {.name = "direct"}, {.name = "engine"}};
	struct model_num metrics[1] = {{.name = "iops", .value = 256}};
	struct truth_device_doc dev = {.name = "vda"};
	struct run_target target = {.spec = "/x",
				    .kind = "dir",
				    .path = "/x",
				    .logical_block_bytes = 512};
	struct run_latencies lat = {0};
	struct run_cpu cpu = {0};
	struct run_metric metric = {.name = "iops",
				    .value = 256,
				    .higher_is_better = true,
				    .unit = "IO/s"};

	(void)state;
	run_doc_init(&r);
	params[0].value.type = MODEL_V_INT;
	params[0].value.i = 4096;
	params[1].value.type = MODEL_V_BOOL;
	params[1].value.b = true;
	params[2].value.type = MODEL_V_STR;
	params[2].value.s = "psync";
	r.schema = "iotrial/1";
	r.iotrial_version = "0.1.0";
	r.workload = "randread";
	r.params = params;
	r.nr_params = 3;
	r.target = &target;
	r.ios_requested = 256;
	r.has_ios_requested = MODEL_SET;
	r.seed.type = MODEL_V_INT;
	r.seed.i = 7;
	r.seconds = 1;
	r.ops = 256;
	r.iops = 256;
	r.mbps = NAN;
	r.bytes_read = 1 << 20;
	r.ops_read = 256;
	r.latency_ns = &lat;
	r.cpu = &cpu;
	r.metric = &metric;
	r.metrics = metrics;
	r.nr_metrics = 1;
	r.devices = &dev;
	r.nr_devices = 1;
	r.has_devices = MODEL_SET;
	run_doc_encode(&r, MODEL_ENCODE_PLAIN, &out);
	assert_string_equal(out.buf, want);
	/* and decodes to the same run */
	assert_int_equal(
	    run_doc_decode(out.buf, out.len, &back, MODEL_DECODE_KNOWN, &err),
	    0);
	assert_true(run_doc_equal(&r, &back));
	back.ops++;
	assert_false(run_doc_equal(&r, &back));
	run_doc_release(&back);
	strbuf_release(&out);
	strbuf_release(&err);
}

/* A copy is equal and owns its members; plain is what the store keeps. */
static void test_copy_plain(void **state)
{
	static const char *const names[] = {
	    "exp-fleet.json", "exp-import-fio.json", "exp-observe-stored.json",
	    "exp-import-hostile.json", "exp-compare-effects.json"};
	struct strbuf text = STRBUF_INIT, out = STRBUF_INIT;
	struct experiment_doc e, c;
	struct json_object *o;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(names); i++) {
		read_data(names[i], &text);
		exp_decode(text.buf, &e, 0);
		experiment_doc_copy(&c, &e);
		assert_true(experiment_doc_equal(&e, &c));
		experiment_doc_release(&e);
		strbuf_reset(&out);
		experiment_doc_encode(&c, 0, &out);
		assert_string_equal(out.buf, text.buf);
		/* plain, as the store's experiments table */
		o = json_tokener_parse(text.buf);
		strbuf_reset(&out);
		experiment_doc_encode(&c, MODEL_ENCODE_PLAIN, &out);
		assert_string_equal(out.buf,
				    json_object_to_json_string_ext(
					o, JSON_C_TO_STRING_PLAIN |
					       JSON_C_TO_STRING_NOSLASHESCAPE));
		strbuf_reset(&out);
		experiment_doc_encode(
		    &c, MODEL_ENCODE_PLAIN | MODEL_ENCODE_ESCAPE_SLASH, &out);
		assert_string_equal(out.buf, json_object_to_json_string_ext(
						 o, JSON_C_TO_STRING_PLAIN));
		json_object_put(o);
		if (c.nr_arms) {
			free(c.arms[0].label);
			c.arms[0].label = xstrdup("changed");
			exp_decode(text.buf, &e, 0);
			assert_false(experiment_doc_equal(&e, &c));
			experiment_doc_release(&e);
		}
		experiment_doc_release(&c);
	}
	strbuf_release(&text);
	strbuf_release(&out);
}

/* Members the writers always write, missing: kept missing. */
static void test_missing(void **state)
{
	const char *text = "{\"schema\":\"iotrial/1\",\"type\":\"experiment\","
			   "\"metric\":{\"name\":\"iops\"},\"arms\":[{\"arm\":"
			   "0}],\"runs\":[{\"arm\":0,\"metric\":5,\"run\":{"
			   "\"seconds\":null,\"devices\":[{\"name\":\"vda\","
			   "\"r_s\":1.5}]}}]}";
	struct strbuf out = STRBUF_INIT;
	struct experiment_doc e;
	const struct truth_device_doc *d;

	(void)state;
	exp_decode(text, &e, MODEL_DECODE_KNOWN);
	assert_null(e.workload);
	assert_false(e.metric->higher_is_better);
	assert_true(isnan(e.runs[0].run->seconds));
	assert_true(isnan(e.runs[0].run->iops));
	d = &e.runs[0].run->devices[0];
	assert_null(d->kind);
	assert_non_null(d->delta);
	assert_true(d->delta->r_s == 1.5);
	assert_true(isnan(d->delta->w_s));
	experiment_doc_encode(&e, MODEL_ENCODE_PLAIN, &out);
	assert_string_equal(out.buf, text);
	experiment_doc_release(&e);
	strbuf_release(&out);
}

/* What the codec's walk needs of every table holds. */
static void check_desc(const struct model_desc *d, int depth)
{
	size_t i, j, k;

	assert_true(depth < 12);
	assert_true(d->nr_rows > 0 && d->nr_rows < 0xffff);
	for (i = 0; i < d->nr_rows; i++) {
		const struct model_row *row = &d->rows[i];
		unsigned k0 = row->kind;
		bool ptr = k0 == MK_STR || k0 == MK_PTR || k0 == MK_RAW ||
			   k0 == MK_FLAT;

		assert_true(row->off + 1 <= d->size);
		if (row->has >= 0)
			assert_true((size_t)row->has < d->size);
		/* absent needs a way to say so: NULL, or a has_ byte */
		if ((row->flags & MF_OPT) && !ptr && row->has < 0)
			fail_msg("%s.%s: optional without has_", d->name,
				 row->key);
		/* so does null, where the type has no NULL or NaN */
		if ((row->flags & MF_NULL) && row->has < 0 && !ptr &&
		    k0 != MK_DBL && k0 != MK_RND && k0 != MK_VAL &&
		    k0 != MK_ARR)
			fail_msg("%s.%s: null without has_", d->name, row->key);
		if ((row->flags & (MF_OPT | MF_NULL)) == (MF_OPT | MF_NULL) &&
		    row->has < 0 && k0 != MK_STR)
			fail_msg("%s.%s: absent and null alike", d->name,
				 row->key);
		if (k0 == MK_ARR || k0 == MK_MAP)
			assert_true(row->nr >= 0);
		if (k0 == MK_MAP)
			assert_true(row->sub->key >= 0);
		if (k0 == MK_FLAT)
			assert_true(row->sub->nr_rows <= 64);
		/* keys are unique, a group's among its parent's too */
		for (j = i + 1; j < d->nr_rows; j++)
			if (k0 != MK_FLAT && d->rows[j].kind != MK_FLAT)
				assert_string_not_equal(row->key,
							d->rows[j].key);
		for (j = 0; j < d->nr_rows; j++) {
			if (d->rows[j].kind != MK_FLAT || j == i)
				continue;
			for (k = 0; k < d->rows[j].sub->nr_rows; k++)
				if (k0 != MK_FLAT)
					assert_string_not_equal(
					    row->key,
					    d->rows[j].sub->rows[k].key);
		}
		if (row->sub && (k0 != MK_ARR || row->elem == MK_OBJ))
			check_desc(row->sub, depth + 1);
	}
}

static void test_tables(void **state)
{
	(void)state;
	check_desc(&model_run_desc, 0);
	check_desc(&model_experiment_desc, 0);
	check_desc(&model_job_desc, 0);
	check_desc(&model_series_desc, 0);
	check_desc(&model_plan_desc, 0);
	check_desc(&model_dry_run_desc, 0);
	check_desc(&model_knobs_desc, 0);
	check_desc(&model_journal_desc, 0);
	check_desc(&model_log_desc, 0);
	check_desc(&model_diff_desc, 0);
	check_desc(&model_info_desc, 0);
	check_desc(&model_watch_desc, 0);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_corpus),
	    cmocka_unit_test(test_typed),
	    cmocka_unit_test(test_typed_adjusted),
	    cmocka_unit_test(test_typed_replay),
	    cmocka_unit_test(test_wrong_type),
	    cmocka_unit_test(test_schema),
	    cmocka_unit_test(test_unknown),
	    cmocka_unit_test(test_numbers),
	    cmocka_unit_test(test_made),
	    cmocka_unit_test(test_copy_plain),
	    cmocka_unit_test(test_missing),
	    cmocka_unit_test(test_tables),
	};

	if (argc == 3 && !strcmp(argv[1], "--dir"))
		return rt_dir(argv[2]);
	if (argc == 2 && !strcmp(argv[1], "--members")) {
		printf("# a run object\n");
		rt_members(&model_run_desc, "");
		printf("# an experiment object\n");
		rt_members(&model_experiment_desc, "");
		printf("# a job file's runs\n");
		rt_members(&model_job_desc, "");
		printf("# a series' report\n");
		rt_members(&model_series_desc, "");
		return 0;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
