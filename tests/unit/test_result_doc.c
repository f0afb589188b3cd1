/*
 * Tests for experiment/result_json.c's result_to_doc() on a replay's
 * members beyond its score: the settings that differed from the
 * capture's, the device terms they moved and the calls as
 * distributions are typed members of the run document, and the codec
 * prints them as docs/schema/run.schema.json says.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "core/experiment/result_json.h"
#include "core/model/model_json.h"
#include "core/workload/workload.h"
#include "util/xalloc.h"
#include "util/banned.h"

/* A replay's result: two settings, a moved term, two classes. */
static void replay_result(struct run_result *r)
{
	unsigned i;

	run_result_init(r);
	r->have_fidelity = 1;
	r->fidelity = 97.5;
	r->have_fidelity_dev = 1;
	for (i = 0; i < 4; i++)
		r->fidelity_dev[i] = -1; /* not judged */
	r->fidelity_dev[1] = 0.25;
	r->fidelity_dev_moved_bits = 1u << 0 | 1u << 3;
	r->fidelity_dev_moved[0] = 0.5;
	r->fidelity_dev_moved[3] = 1.5;
	r->nr_fid_settings = 2;
	r->fid_settings = xcalloc(2, sizeof(*r->fid_settings));
	r->fid_settings[0].name = xstrdup("read_ahead_kb");
	r->fid_settings[0].capture = xstrdup("128");
	r->fid_settings[0].replay = xstrdup("2560");
	r->fid_settings[0].moves = 1u << 0 | 1u << 4;
	r->fid_settings[1].name = xstrdup("bdi.max_ratio");
	r->nr_fid_dist = 2;
	r->fid_dist = xcalloc(2, sizeof(*r->fid_dist));
	r->fid_dist[0].name = "read";
	r->fid_dist[0].calls[0] = 10;
	r->fid_dist[0].calls[1] = 9;
	r->fid_dist[0].d[0] = 0.5;
	r->fid_dist[0].d[1] = NAN;
	r->fid_dist[0].d[2] = 0.125;
	r->fid_dist[0].d[3] = NAN;
	r->fid_dist[0].lat_ns[1][2] = 4096;
	r->fid_dist[0].seq[0] = 0.75;
	r->fid_dist[1].name = "sync";
	r->fid_dist[1].latency_judged = 1;
}

/* result_to_doc() types every member; encode and decode keep them. */
static void test_replay_members(void **state)
{
	struct workload w;
	char spec[] = "scratch:64M", path[] = "/mnt";
	struct target t = {.spec = spec, .kind = TARGET_SCRATCH, .path = path};
	struct run_meta meta = {.w = &w, .t = &t};
	struct run_result r;
	struct run_doc doc, back;
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	const struct run_fidelity_dev *f;

	(void)state;
	workload_init(&w, workload_find("replay"));
	replay_result(&r);
	result_to_doc(&meta, &r, &doc);
	f = doc.fidelity_device;
	assert_non_null(f);
	assert_true(isnan(f->dev_read));
	assert_true(f->dev_write == 0.25);
	assert_int_equal(f->has_moved, MODEL_SET);
	assert_int_equal(f->nr_moved, 2);
	assert_string_equal(f->moved[0].name, "dev_read");
	assert_true(f->moved[0].value == 0.5);
	assert_string_equal(f->moved[1].name, "dev_depth");
	assert_int_equal(doc.has_fidelity_settings, MODEL_SET);
	assert_int_equal(doc.nr_fidelity_settings, 2);
	assert_string_equal(doc.fidelity_settings[0].replay, "2560");
	assert_int_equal(doc.fidelity_settings[0].nr_moves, 2);
	assert_string_equal(doc.fidelity_settings[0].moves[1], "latency");
	assert_null(doc.fidelity_settings[1].capture);
	assert_null(doc.fidelity_settings[1].replay);
	assert_int_equal(doc.fidelity_settings[1].nr_moves, 0);
	assert_int_equal(doc.nr_fidelity_dist, 2);
	assert_string_equal(doc.fidelity_dist[0].name, "read");
	assert_int_equal(doc.fidelity_dist[0].calls_replay, 9);
	assert_true(isnan(doc.fidelity_dist[0].size));
	assert_true(doc.fidelity_dist[0].offset == 0.125);
	assert_int_equal(doc.fidelity_dist[0].p99_replay_ns, 4096);
	assert_true(doc.fidelity_dist[1].latency_judged);

	/* printed as the schema says: null for none, a map by class */
	run_doc_encode(&doc, MODEL_ENCODE_PLAIN, &out);
	assert_non_null(strstr(out.buf, "\"moved\":{\"dev_read\":0.5,"
					"\"dev_depth\":1.5}"));
	assert_non_null(strstr(out.buf, "\"capture\":null,\"replay\":null,"
					"\"moves\":[]"));
	assert_non_null(strstr(out.buf, "\"fidelity_dist\":{\"read\":{"));
	assert_non_null(strstr(out.buf, "\"size\":null,\"offset\":0.125,"));
	if (run_doc_decode(out.buf, out.len, &back, MODEL_DECODE_KNOWN, &err))
		fail_msg("%s", err.buf);
	assert_true(run_doc_equal(&doc, &back));
	run_doc_release(&back);
	run_doc_release(&doc);

	/* a run that is no replay has none of them */
	run_result_release(&r);
	run_result_init(&r);
	result_to_doc(&meta, &r, &doc);
	assert_null(doc.fidelity_device);
	assert_int_equal(doc.has_fidelity_settings, MODEL_ABSENT);
	assert_int_equal(doc.has_fidelity_dist, MODEL_ABSENT);
	strbuf_reset(&out);
	run_doc_encode(&doc, MODEL_ENCODE_PLAIN, &out);
	assert_null(strstr(out.buf, "fidelity"));
	run_doc_release(&doc);
	run_result_release(&r);
	workload_release(&w);
	strbuf_release(&out);
	strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_replay_members),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
