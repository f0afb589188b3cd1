/*
 * Trials on a private temp directory with tiny runs: a single run (what
 * `iotrial run` makes) and a two-arm experiment over a workload
 * parameter (what `iotrial compare` makes), each to the store and back;
 * the checks made before anything runs; and knob factors, parsed and
 * checked but never applied (the directory's disk is the machine's).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <cmocka.h>
#include "core/store/store.h"
#include "core/experiment/trial.h"

/* A private temp directory per test: the target, the state, the store. */
static char base[64], dir[96], db[96];

static int setup(void **state)
{
	char state_path[96];

	(void)state;
	snprintf(base, sizeof(base), "/tmp/iotrial-test-trial.XXXXXX");
	if (!mkdtemp(base))
		return -1;
	snprintf(state_path, sizeof(state_path), "%s/state", base);
	snprintf(dir, sizeof(dir), "%s/t", base);
	snprintf(db, sizeof(db), "%s/results.db", base);
	if (mkdir(state_path, 0700) || mkdir(dir, 0700))
		return -1;
	setenv("IOTRIAL_STATE_DIR", state_path, 1);
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", base);
	return system(cmd) ? -1 : 0;
}

/* What the hooks heard. */
struct heard {
	struct strbuf log;   /* "N: message\n" per message, N the level */
	unsigned runs_done;  /* run_done calls */
	unsigned progressed; /* progress calls */
	uint64_t seed;	     /* of the last run done */
};

static void say(void *data, enum session_say_level level, const char *msg)
{
	struct heard *h = data;

	strbuf_addf(&h->log, "%d: %s\n", (int)level, msg);
}

static void progress(void *ctx, const struct experiment_progress *p)
{
	struct heard *h = ctx;

	assert_non_null(p->arm);
	h->progressed++;
}

static void run_done(void *ctx, const struct run_meta *meta,
		     const struct run_result *r)
{
	struct heard *h = ctx;

	assert_true(r->seconds > 0);
	h->seed = meta->w->ro.seed;
	h->runs_done++;
}

/* A trial of kind whose hooks report to h, with tiny runs of randread. */
static void start(struct trial *tr, enum trial_kind kind, struct heard *h,
		  const struct param_setting *params, unsigned nr_params)
{
	struct trial_hooks hooks = {
	    .log = {say, h},
	    .ctx = h,
	    .progress = progress,
	    .run_done = run_done,
	};

	memset(h, 0, sizeof(*h));
	strbuf_init(&h->log, 0);
	trial_init(tr, kind, &hooks);
	tr->c.ops = workload_find("randread");
	tr->c.params = params;
	tr->c.nr_params = nr_params;
	tr->c.ro.ios = 64;
	tr->c.seed = 42;
	tr->c.drop_caches = 0; /* a shared machine: leave its cache alone */
}

/* s, or "" for NULL (a member the document lacks). */
static const char *str(const char *s)
{
	return s ? s : "";
}

/* The stored experiment id, into out (release it). */
static void load(const char *id, struct experiment_doc *out)
{
	struct strbuf err = STRBUF_INIT;
	struct store s;

	assert_int_equal(store_open(&s, db, &err), 0);
	assert_int_equal(store_load_doc(&s, id, out, &err), 0);
	store_close(&s);
	strbuf_release(&err);
}

/* iotrial run: one run with the seed asked for, stored as arm "run". */
static void test_one_run(void **state)
{
	static const struct param_setting params[] = {{"size", "1MB"},
						      {"bs", "4k"}};
	struct strbuf err = STRBUF_INIT;
	struct experiment_doc exp;
	const struct run_doc *run, *back;
	struct heard h;
	struct trial tr;

	(void)state;
	start(&tr, TRIAL_ONE_RUN, &h, params, 2);
	assert_int_equal(tr.c.runs_fixed, 1);
	assert_true(tr.c.single_run);
	assert_int_equal(trial_read_params(&tr, &err), 0);
	/* how "1MB" was read is said once, as a note */
	assert_non_null(strstr(h.log.buf, "1: size: '1MB' is decimal"));
	assert_int_equal(trial_plan(&tr, &err), 0);
	assert_int_equal(trial_open(&tr, dir, 0, &err), 0);
	assert_int_equal(trial_check(&tr, &err), 0);
	assert_int_equal(trial_has_undo(&tr), 0);
	assert_int_equal(trial_run(&tr, &err), 0);
	assert_int_equal(h.runs_done, 1);
	assert_int_equal(h.seed, 42);
	run = trial_run_doc(&tr);
	assert_non_null(run);
	assert_string_equal(run->workload, "randread");
	assert_int_equal(run->seed.type, MODEL_V_INT);
	assert_int_equal(run->seed.i, 42);
	assert_int_equal(trial_store(&tr, db, &err), 0);
	assert_int_equal(strlen(tr.id), STORE_ID_LEN);
	assert_int_equal(trial_finish(&tr, &err), 0);
	load(tr.id, &exp);
	assert_string_equal(str(exp.stopped), "single run");
	assert_string_equal(str(exp.runs_mode), "run");
	/* the object run printed, stored as it was: its seed, its CPU */
	assert_string_equal(str(exp.seed), "42");
	assert_int_equal(exp.nr_runs, 1);
	back = exp.runs[0].run;
	assert_non_null(back);
	assert_non_null(back->cpu);
	assert_true(back->cpu->has_process_s);
	assert_true(run->cpu && run->cpu->has_process_s);
	assert_true(back->cpu->process_s == run->cpu->process_s);
	assert_string_equal(str(exp.target), dir);
	assert_int_equal(exp.nr_arms, 1);
	assert_string_equal(str(exp.arms[0].label), "run");
	experiment_doc_release(&exp);
	trial_release(&tr);
	strbuf_release(&h.log);
	strbuf_release(&err);
}

/* iotrial compare over a parameter: two arms in fixed blocks, stored. */
static void test_param_factor(void **state)
{
	static const struct param_setting params[] = {{"size", "256k"}};
	struct strbuf err = STRBUF_INIT;
	struct experiment_doc exp;
	struct heard h;
	struct trial tr;

	(void)state;
	start(&tr, TRIAL_EXPERIMENT, &h, params, 1);
	tr.c.runs_fixed = 2;
	assert_int_equal(trial_open(&tr, dir, 0, &err), 0);
	assert_int_equal(trial_add_factor(&tr, "bs=4k,8k", &err), 0);
	assert_false(tr.c.factors[0].is_knob);
	assert_int_equal(trial_plan(&tr, &err), 0);
	assert_int_equal(tr.e.nr_arms, 2);
	assert_int_equal(trial_check(&tr, &err), 0);
	assert_int_equal(trial_run(&tr, &err), 0);
	assert_int_equal(h.runs_done, 4);
	assert_int_equal(h.progressed, 4);
	assert_null(trial_run_doc(&tr));
	assert_int_equal(trial_finish(&tr, &err), 0);
	assert_non_null(tr.e.doc->env);
	assert_string_equal(tr.e.doc->stopped, "fixed run count");
	assert_int_equal(trial_store(&tr, db, &err), 0);
	assert_string_equal(tr.e.doc->id, tr.id);
	load(tr.id, &exp);
	assert_int_equal(exp.nr_arms, 2);
	assert_string_equal(str(exp.arms[1].label), "bs=8k");
	assert_int_equal(exp.nr_runs, 4);
	assert_int_equal(exp.nr_verdicts, 1);
	experiment_doc_release(&exp);
	trial_release(&tr);
	strbuf_release(&h.log);
	strbuf_release(&err);
}

/* Factors that cannot make a comparison are refused before any run. */
static void test_bad_factors(void **state)
{
	static const struct {
		const char *spec;
		int ret;
		const char *says;
	} bad[] = {
	    {"bs", -EINVAL, "expected FACTOR=V1,V2"},
	    {"bs=4k", -EINVAL, "gives one value"},
	    {"bs=4k,,8k", -EINVAL, "empty value"},
	    {"bs=4k,4096", -EINVAL, "the same value twice"},
	    {"label=a\tb,c", -EINVAL, "printable"},
	    {"bss=4k,8k", -ENOENT, "did you mean 'bs'?"},
	    {"iodepth=1,2", -EINVAL, "varied twice"},
	};
	struct strbuf err = STRBUF_INIT;
	struct heard h;
	struct trial tr;
	size_t i;

	(void)state;
	start(&tr, TRIAL_EXPERIMENT, &h, NULL, 0);
	assert_int_equal(trial_open(&tr, dir, 0, &err), 0);
	assert_int_equal(trial_add_factor(&tr, "iodepth=1,4", &err), 0);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		strbuf_reset(&err);
		assert_int_equal(trial_add_factor(&tr, bad[i].spec, &err),
				 bad[i].ret);
		assert_non_null(strstr(err.buf, bad[i].says));
	}
	assert_int_equal(tr.c.nr_factors, 1);
	/* a value the workload refuses fails the plan, naming its arm */
	assert_int_equal(trial_add_factor(&tr, "bs=4k,3x", &err), 0);
	assert_true(trial_plan(&tr, &err) < 0);
	assert_non_null(strstr(err.buf, "arm 'iodepth=1 bs=3x'"));
	trial_release(&tr);
	strbuf_release(&h.log);
	strbuf_release(&err);
}

/* Failures say where they happened, for the exit code. */
static void test_failures(void **state)
{
	static const struct param_setting huge[] = {{"size", "100T"}};
	volatile int stop = 1;
	struct strbuf err = STRBUF_INIT;
	struct heard h;
	struct trial tr;

	(void)state;
	/* more than the directory holds: the layout fails */
	start(&tr, TRIAL_ONE_RUN, &h, huge, 1);
	assert_int_equal(trial_plan(&tr, &err), 0);
	assert_int_equal(trial_open(&tr, dir, 0, &err), 0);
	assert_int_equal(trial_run(&tr, &err), -ENOSPC);
	assert_int_equal(tr.failed, TRIAL_FAILED_PREPARE);
	assert_null(trial_run_doc(&tr));
	assert_int_equal(h.runs_done, 0);
	trial_release(&tr);
	strbuf_release(&h.log);

	/* stopped before the run: nothing measured, nothing to store */
	start(&tr, TRIAL_ONE_RUN, &h, NULL, 0);
	tr.c.stop = &stop;
	assert_int_equal(trial_plan(&tr, &err), 0);
	assert_int_equal(trial_open(&tr, dir, 0, &err), 0);
	strbuf_reset(&err);
	assert_int_equal(trial_run(&tr, &err), -EINTR);
	assert_int_equal(tr.failed, TRIAL_FAILED_RUN);
	assert_non_null(strstr(err.buf, "nothing measured"));
	assert_true(trial_store(&tr, db, &err) < 0);
	assert_int_equal(h.runs_done, 0);
	trial_release(&tr);
	strbuf_release(&h.log);
	strbuf_release(&err);
}

/*
 * Knob factors and --set knobs are parsed and their rights checked, but
 * not applied here: the directory's disk is the machine's own. Without
 * root the check refuses; as root it passes without changing anything.
 */
static void test_knobs_checked(void **state)
{
	static const char *const bad_set[] = {"read_ahead_kb=abc"};
	static const char *const set[] = {"read_ahead_kb=128"};
	struct strbuf err = STRBUF_INIT;
	struct heard h;
	struct trial tr;
	int ret;

	(void)state;
	start(&tr, TRIAL_EXPERIMENT, &h, NULL, 0);
	assert_int_equal(trial_open(&tr, dir, 0, &err), 0);
	ret = trial_add_factor(&tr, "read_ahead_kb=128,256", &err);
	if (ret == -ENODEV) { /* no disk under the directory (tmpfs) */
		trial_release(&tr);
		strbuf_release(&h.log);
		strbuf_release(&err);
		skip();
	}
	assert_int_equal(ret, 0);
	assert_true(tr.c.factors[0].is_knob);
	assert_int_equal(trial_plan(&tr, &err), 0);
	ret = trial_check(&tr, &err);
	if (geteuid()) {
		assert_int_equal(ret, -EPERM);
		assert_non_null(strstr(err.buf, "changing 'read_ahead_kb' "
						"needs root"));
	} else {
		/* each arm planned once, kept for its runs */
		assert_int_equal(ret, 0);
		assert_int_equal(tr.nr_arm_plans, 2);
		assert_int_equal(tr.arm_plans[0].nr, 1);
		assert_string_equal(tr.arm_plans[0].v[0].canon.buf, "128");
		assert_string_equal(tr.arm_plans[1].v[0].canon.buf, "256");
		assert_null(tr.arm_plan);
	}
	trial_release(&tr);
	strbuf_release(&h.log);

	/* a fixed knob's value is parsed before anything runs */
	start(&tr, TRIAL_ONE_RUN, &h, NULL, 0);
	tr.set = bad_set;
	tr.nr_set = 1;
	assert_int_equal(trial_open(&tr, dir, 0, &err), 0);
	assert_int_equal(trial_has_undo(&tr), 1);
	strbuf_reset(&err);
	assert_int_equal(trial_check(&tr, &err), -EINVAL);
	assert_non_null(strstr(err.buf, "read_ahead_kb"));
	trial_release(&tr);
	strbuf_release(&h.log);

	start(&tr, TRIAL_ONE_RUN, &h, NULL, 0);
	tr.set = set;
	tr.nr_set = 1;
	assert_int_equal(trial_open(&tr, dir, 0, &err), 0);
	ret = trial_check(&tr, &err);
	assert_int_equal(ret, geteuid() ? -EPERM : 0);
	trial_release(&tr);
	strbuf_release(&h.log);
	strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_one_run, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_param_factor, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_bad_factors, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_failures, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_knobs_checked, setup,
					    teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
