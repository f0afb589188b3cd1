/*
 * Whether a run reached the regime a knob controls (knob_ops.regime)
 * against hand-made observations and a fake sysfs/proc tree: the dirty
 * thresholds a ratio implies next to the dirty peak (system and cgroup
 * v2, none of its own in v1), read-ahead against the request sizes the
 * device saw, the scheduler on a queue of one, atime without reads; the
 * "/proc/vmstat" reader; an experiment's "regimes" from its runs and
 * their text.
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
#include <json-c/json.h>
#include "core/knob/knob.h"
#include "core/observe/kvstat.h"
#include "core/observe/regime_obs.h"
#include "core/experiment/regime_json.h"
#include "core/report/regime_text.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define MIB (1024ull * 1024ull)
#define GIB (1024ull * MIB)

static char root[] = "/tmp/iotrial-test-regime.XXXXXX";

/* Write text to root/rel, creating directories. */
static void put(const char *rel, const char *text)
{
	struct strbuf p = STRBUF_INIT;
	char *slash;
	FILE *f;

	strbuf_addf(&p, "%s%s", root, rel);
	for (slash = strchr(p.buf + strlen(root) + 1, '/'); slash;
	     slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(p.buf, 0755);
		*slash = '/';
	}
	f = fopen(p.buf, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	strbuf_release(&p);
}

static int setup(void **state)
{
	(void)state;
	if (!mkdtemp(root))
		return -1;
	put("/sys/block/fake0/dev", "250:0\n");
	put("/sys/block/fake0/diskseq", "7\n");
	put("/sys/block/fake0/queue/scheduler", "none [mq-deadline]\n");
	put("/sys/block/fake0/queue/read_ahead_kb", "128\n");
	put("/sys/block/fake0/queue/max_sectors_kb", "1280\n");
	put("/sys/block/fake0/queue/nr_requests", "64\n");
	put("/sys/block/fake0/queue/wbt_lat_usec", "2000\n");
	put("/sys/block/fake0/queue/nomerges", "0\n");
	put("/sys/block/fake0/queue/add_random", "0\n");
	put("/proc/sys/vm/dirtytime_expire_seconds", "43200\n");
	put("/proc/sys/vm/swappiness", "60\n");
	put("/proc/sys/vm/dirty_ratio", "20\n");
	put("/proc/sys/vm/dirty_bytes", "0\n");
	put("/proc/sys/vm/dirty_background_ratio", "10\n");
	put("/proc/sys/vm/dirty_background_bytes", "0\n");
	put("/proc/sys/vm/dirty_expire_centisecs", "3000\n");
	put("/proc/sys/vm/dirty_writeback_centisecs", "500\n");
	return 0;
}

static int teardown(void **state)
{
	struct strbuf cmd = STRBUF_INIT;
	int ret;

	(void)state;
	strbuf_addf(&cmd, "rm -rf '%s'", root);
	ret = system(cmd.buf);
	strbuf_release(&cmd);
	return ret;
}

/* The regime of name=canon on the fake disk for o; why into why. */
static enum knob_regime judge(const char *name, const char *canon,
			      const struct knob_obs *o, struct strbuf *why)
{
	struct knob_ctx c;
	struct knob k;
	struct strbuf err = STRBUF_INIT;
	enum knob_regime g;

	knob_ctx_init(&c);
	free(c.root);
	c.root = xstrdup(root);
	c.disk = xstrdup("fake0");
	strbuf_reset(why);
	assert_int_equal(knob_resolve(&c, name, &k, NULL, &err), 0);
	g = knob_regime(&k, canon, o, why);
	knob_release(&k);
	knob_ctx_release(&c);
	strbuf_release(&err);
	return g;
}

/* Note 002's run: 24 GiB dirtyable, dirty memory peaking at 90 MiB. */
static void note_002(struct knob_obs *o)
{
	memset(o, 0, sizeof(*o));
	o->seconds = 2;
	o->have_io = 1;
	o->read_bytes = 500 * MIB;
	o->write_bytes = 400 * MIB;
	o->have_dirty = 1;
	o->dirty_peak_bytes = 90 * MIB;
	o->dirty_wb_peak_bytes = 95 * MIB;
	o->have_thresh = 1;
	o->dirtyable_bytes = 24 * GIB;
	o->bg_thresh_bytes = 24 * GIB / 10;
	o->thresh_bytes = 24 * GIB / 5;
}

static void test_dirty_thresholds(void **state)
{
	struct strbuf why = STRBUF_INIT;
	struct knob_obs o;

	(void)state;
	note_002(&o);
	/* neither arm's background threshold is reached */
	assert_int_equal(judge("bdflush.nfract", "10", &o, &why),
			 KNOB_REGIME_NOT_REACHED);
	assert_non_null(strstr(why.buf, "90 MiB"));
	assert_non_null(strstr(why.buf, "2.4 GiB background threshold"));
	assert_non_null(strstr(why.buf, "10% of 24 GiB"));
	assert_int_equal(judge("bdflush.nfract", "80", &o, &why),
			 KNOB_REGIME_NOT_REACHED);
	/* the kernel's own number is lower than 80% implies: it counts */
	assert_non_null(strstr(why.buf, "below the 2.4 GiB"));
	assert_non_null(strstr(why.buf, "half the throttle threshold"));
	/* the throttle counts from halfway up from the background */
	assert_int_equal(judge("vm.dirty_ratio", "20", &o, &why),
			 KNOB_REGIME_NOT_REACHED);
	assert_non_null(strstr(why.buf, "95 MiB, below the 3.6 GiB"));
	/* a threshold small enough is reached */
	assert_int_equal(
	    judge("vm.dirty_background_bytes", "67108864", &o, &why),
	    KNOB_REGIME_REACHED);
	assert_int_equal(judge("vm.dirty_background_ratio", "0", &o, &why),
			 KNOB_REGIME_REACHED);
	/* nothing written: nothing dirty to act on */
	o.write_bytes = 0;
	assert_int_equal(judge("vm.dirty_ratio", "20", &o, &why),
			 KNOB_REGIME_NOT_REACHED);
	assert_non_null(strstr(why.buf, "wrote nothing"));
	/* no memory numbers: cannot tell */
	note_002(&o);
	o.have_dirty = 0;
	assert_int_equal(judge("vm.dirty_ratio", "20", &o, &why),
			 KNOB_REGIME_UNKNOWN);
	strbuf_release(&why);
}

static void test_dirty_cgroup(void **state)
{
	struct strbuf why = STRBUF_INIT;
	struct knob_obs o;

	(void)state;
	/* v2: a 256 MiB cgroup's threshold is 10% of what it may dirty */
	note_002(&o);
	o.cg_version = 2;
	o.cg_memory_max = 256 * MIB;
	o.have_cg_dirty = 1;
	o.cg_dirtyable_bytes = 240 * MIB;
	o.cg_dirty_peak_bytes = 87 * MIB;
	o.cg_dirty_wb_peak_bytes = 88 * MIB;
	assert_int_equal(judge("bdflush.nfract", "10", &o, &why),
			 KNOB_REGIME_REACHED);
	assert_non_null(strstr(why.buf, "in its cgroup"));
	assert_non_null(strstr(why.buf, "reaching its 24 MiB"));
	/* at 80% of its dirtyable memory, the cgroup stays below */
	o.bg_thresh_bytes = 24 * GIB * 8 / 10;
	o.thresh_bytes = 24 * GIB * 9 / 10;
	assert_int_equal(judge("bdflush.nfract", "80", &o, &why),
			 KNOB_REGIME_NOT_REACHED);
	assert_non_null(strstr(why.buf, "below its 192 MiB"));
	/* v2 without the cgroup's numbers: cannot rule it out */
	o.have_cg_dirty = 0;
	assert_int_equal(judge("bdflush.nfract", "80", &o, &why),
			 KNOB_REGIME_REACHED);
	/* v1 keeps no per-cgroup threshold: the system's decide */
	note_002(&o);
	o.cg_version = 1;
	o.cg_memory_max = 256 * MIB;
	o.have_cg_dirty = 1;
	o.cg_dirty_peak_bytes = 87 * MIB;
	assert_int_equal(judge("bdflush.nfract", "10", &o, &why),
			 KNOB_REGIME_NOT_REACHED);
	assert_non_null(strstr(why.buf, "no dirty threshold of its own"));
	strbuf_release(&why);
}

static void test_expiry(void **state)
{
	struct strbuf why = STRBUF_INIT;
	struct knob_obs o;

	(void)state;
	note_002(&o);
	assert_int_equal(judge("vm.dirty_expire_centisecs", "3000", &o, &why),
			 KNOB_REGIME_NOT_REACHED);
	assert_non_null(strstr(why.buf, "30.0 s"));
	assert_int_equal(judge("vm.dirty_expire_centisecs", "100", &o, &why),
			 KNOB_REGIME_REACHED);
	/* the flusher's interval against the expiry in force (30 s) */
	assert_int_equal(judge("vm.dirty_writeback_centisecs", "100", &o, &why),
			 KNOB_REGIME_NOT_REACHED);
	o.seconds = 40;
	assert_int_equal(judge("vm.dirty_writeback_centisecs", "100", &o, &why),
			 KNOB_REGIME_REACHED);
	strbuf_release(&why);
}

/* An observation of one device, fake0. */
static void one_dev(struct knob_obs *o, double rareq_kib, uint64_t in_flight,
		    double aqu)
{
	memset(o, 0, sizeof(*o));
	o->seconds = 2;
	o->have_io = 1;
	o->read_bytes = 512 * MIB;
	o->nr_devs = 1;
	o->devs[0].name = "fake0";
	o->devs[0].reads = 1000;
	o->devs[0].read_bytes = 256 * MIB;
	o->devs[0].max_rareq_kib = rareq_kib;
	o->devs[0].max_in_flight = in_flight;
	o->devs[0].max_aqu_sz = aqu;
	o->devs[0].intervals = 8;
}

static void test_readahead(void **state)
{
	struct strbuf why = STRBUF_INIT;
	struct knob_obs o;

	(void)state;
	/* 16 KiB requests: small files or random reads */
	one_dev(&o, 16, 1, 0.9);
	assert_int_equal(judge("read_ahead_kb", "128", &o, &why),
			 KNOB_REGIME_NOT_REACHED);
	assert_non_null(strstr(why.buf, "at most 16 KiB"));
	assert_int_equal(judge("read_ahead_kb", "8192", &o, &why),
			 KNOB_REGIME_NOT_REACHED);
	/* the window is capped by max_sectors_kb (1280 in the fake) */
	assert_non_null(strstr(why.buf, "1280 KiB per request"));
	/* a small window does size 16 KiB requests */
	assert_int_equal(judge("read_ahead_kb", "16", &o, &why),
			 KNOB_REGIME_REACHED);
	one_dev(&o, 1200, 4, 2.5);
	assert_int_equal(judge("read_ahead_kb", "8192", &o, &why),
			 KNOB_REGIME_REACHED);
	/* direct I/O, no reads, reads from the cache */
	o.direct = 1;
	assert_int_equal(judge("read_ahead_kb", "8192", &o, &why),
			 KNOB_REGIME_NOT_REACHED);
	assert_non_null(strstr(why.buf, "direct=1"));
	o.direct = 0;
	o.read_bytes = 0;
	assert_int_equal(judge("read_ahead_kb", "8192", &o, &why),
			 KNOB_REGIME_NOT_REACHED);
	o.read_bytes = 512 * MIB;
	o.devs[0].read_bytes = 4096;
	assert_int_equal(judge("read_ahead_kb", "8192", &o, &why),
			 KNOB_REGIME_NOT_REACHED);
	assert_non_null(strstr(why.buf, "page cache"));
	strbuf_release(&why);
}

static void test_scheduler_and_atime(void **state)
{
	struct strbuf why = STRBUF_INIT;
	struct knob_obs o;

	(void)state;
	one_dev(&o, 4, 1, 0.95);
	assert_int_equal(judge("scheduler", "bfq", &o, &why),
			 KNOB_REGIME_NOT_REACHED);
	assert_non_null(strstr(why.buf, "'fake0' never had more than one"));
	one_dev(&o, 4, 1, 1.03); /* millisecond accounting */
	assert_int_equal(judge("scheduler", "bfq", &o, &why),
			 KNOB_REGIME_NOT_REACHED);
	one_dev(&o, 4, 1, 1.8);
	assert_int_equal(judge("scheduler", "bfq", &o, &why),
			 KNOB_REGIME_REACHED);
	one_dev(&o, 4, 7, 0.5);
	assert_int_equal(judge("scheduler", "bfq", &o, &why),
			 KNOB_REGIME_REACHED);
	/* the knob's device is not in the stack: cannot tell */
	o.devs[0].name = "other";
	assert_int_equal(judge("scheduler", "bfq", &o, &why),
			 KNOB_REGIME_UNKNOWN);
	strbuf_release(&why);
}

extern const struct knob_ops knob_atime_ops;

/*
 * The atime mode acts on reads only; lazytime (in the value or in force
 * on the mount) also keeps a write's mtime in memory, so a workload that
 * only wrote did reach it (it said "could not matter").
 */
static void test_atime_lazytime(void **state)
{
	struct strbuf why = STRBUF_INIT;
	struct knob k = {.ops = &knob_atime_ops};
	struct knob_obs o;

	(void)state;
	memset(&o, 0, sizeof(o));
	o.have_io = 1;
	o.write_bytes = 64 * MIB;
	assert_int_equal(knob_regime(&k, "noatime", &o, &why),
			 KNOB_REGIME_NOT_REACHED);
	assert_non_null(strstr(why.buf, "read nothing"));
	strbuf_reset(&why);
	assert_int_equal(knob_regime(&k, "relatime,lazytime", &o, &why),
			 KNOB_REGIME_REACHED);
	assert_string_equal(why.buf, "the workload wrote 64 MiB, and lazytime "
				     "also keeps the modification times of "
				     "writes in memory");
	strbuf_reset(&why);
	/* in force on the mount, though the value does not say it */
	o.have_mount = 1;
	o.lazytime = 1;
	assert_int_equal(knob_regime(&k, "noatime", &o, &why),
			 KNOB_REGIME_REACHED);
	strbuf_reset(&why);
	o.write_bytes = 0;
	assert_int_equal(knob_regime(&k, "noatime,lazytime", &o, &why),
			 KNOB_REGIME_NOT_REACHED);
	assert_non_null(strstr(why.buf, "neither read nor wrote"));
	strbuf_reset(&why);
	o.read_bytes = MIB;
	assert_int_equal(knob_regime(&k, "noatime", &o, &why),
			 KNOB_REGIME_REACHED);
	strbuf_release(&why);
}

/* nr_requests against the deepest queue; wbt against buffered writes;
 * the queue knobs not judged say nothing. */
static void test_queue(void **state)
{
	struct strbuf why = STRBUF_INIT;
	struct knob_obs o;

	(void)state;
	/* 12 in flight at most, 9.5 on average: 16 never bound */
	one_dev(&o, 4, 12, 9.5);
	assert_int_equal(judge("nr_requests", "16", &o, &why),
			 KNOB_REGIME_NOT_REACHED);
	assert_non_null(strstr(why.buf, "'fake0' never held as many as the "
					"16 requests it allows: at most 12 "
					"in flight at its 9 samples and 9.50"));
	assert_int_equal(judge("nr_requests", "12", &o, &why),
			 KNOB_REGIME_REACHED);
	assert_non_null(strstr(why.buf, "reaching the 12 nr_requests allows"));
	/* the mean of an interval above the value: it bound at some point */
	one_dev(&o, 4, 3, 20.5);
	assert_int_equal(judge("nr_requests", "16", &o, &why),
			 KNOB_REGIME_REACHED);
	/* no sampled interval, or another device: cannot tell */
	o.devs[0].intervals = 0;
	assert_int_equal(judge("nr_requests", "16", &o, &why),
			 KNOB_REGIME_UNKNOWN);
	one_dev(&o, 4, 1, 1);
	o.devs[0].name = "other";
	assert_int_equal(judge("nr_requests", "4", &o, &why),
			 KNOB_REGIME_UNKNOWN);

	one_dev(&o, 4, 1, 1);
	assert_int_equal(judge("wbt_lat_usec", "75000", &o, &why),
			 KNOB_REGIME_NOT_REACHED);
	assert_non_null(strstr(why.buf, "the workload wrote nothing"));
	o.write_bytes = 64 * MIB;
	assert_int_equal(judge("wbt_lat_usec", "0", &o, &why),
			 KNOB_REGIME_REACHED);
	assert_non_null(strstr(why.buf, "wrote 64 MiB through the page"));
	o.direct = 1;
	assert_int_equal(judge("wbt_lat_usec", "-1", &o, &why),
			 KNOB_REGIME_NOT_REACHED);
	assert_non_null(strstr(why.buf, "writes were direct"));
	o.have_io = 0;
	assert_int_equal(judge("wbt_lat_usec", "-1", &o, &why),
			 KNOB_REGIME_UNKNOWN);
	/* means cannot show that no request met these: unknown, silent */
	one_dev(&o, 4, 1, 1);
	assert_int_equal(judge("nomerges", "2", &o, &why), KNOB_REGIME_UNKNOWN);
	assert_int_equal(judge("max_sectors_kb", "64", &o, &why),
			 KNOB_REGIME_UNKNOWN);
	assert_int_equal(why.len, 0);
	strbuf_release(&why);
}

/* vm.dirtytime_expire_seconds: lazytime, then the run's length. */
static void test_dirtytime(void **state)
{
	struct strbuf why = STRBUF_INIT;
	struct knob_obs o;

	(void)state;
	note_002(&o);
	/* a mount without lazytime holds no inode with only dirty times */
	o.have_mount = 1;
	o.seconds = 100000;
	assert_int_equal(judge("vm.dirtytime_expire_seconds", "60", &o, &why),
			 KNOB_REGIME_NOT_REACHED);
	assert_non_null(strstr(why.buf, "mounted without lazytime"));
	/* with lazytime: the run against the expiry */
	o.lazytime = 1;
	o.seconds = 2;
	assert_int_equal(
	    judge("vm.dirtytime_expire_seconds", "43200", &o, &why),
	    KNOB_REGIME_NOT_REACHED);
	assert_non_null(strstr(why.buf, "the run lasted 2.0 s"));
	assert_non_null(strstr(why.buf, "only after 43200 s"));
	assert_null(strstr(why.buf, "not known"));
	o.seconds = 90;
	assert_int_equal(judge("vm.dirtytime_expire_seconds", "60", &o, &why),
			 KNOB_REGIME_REACHED);
	/* 0 stops the periodic write-back: the length does not tell */
	assert_int_equal(judge("vm.dirtytime_expire_seconds", "0", &o, &why),
			 KNOB_REGIME_UNKNOWN);
	/* a device target: no mount options, the length alone */
	o.have_mount = 0;
	o.lazytime = 0;
	o.seconds = 2;
	assert_int_equal(
	    judge("vm.dirtytime_expire_seconds", "43200", &o, &why),
	    KNOB_REGIME_NOT_REACHED);
	assert_non_null(strstr(why.buf, "whether lazytime was in force is "
					"not known"));
	strbuf_release(&why);
}

/* A raw knob: unknown, and it says so. */
static void test_raw(void **state)
{
	struct strbuf why = STRBUF_INIT;
	struct knob_obs o;

	(void)state;
	one_dev(&o, 4, 1, 1);
	assert_int_equal(
	    judge("sysfs:/sys/block/fake0/queue/add_random", "1", &o, &why),
	    KNOB_REGIME_UNKNOWN);
	assert_non_null(strstr(why.buf, "iotrial does not know what a raw "
					"knob controls"));
	assert_int_equal(judge("sysctl:vm.swappiness", "10", &o, &why),
			 KNOB_REGIME_UNKNOWN);
	assert_non_null(strstr(why.buf, "cannot tell whether a run"));
	strbuf_release(&why);
}

static void test_kvstat(void **state)
{
	static const char *const names[] = {
	    "nr_dirty_threshold", "nr_dirty_background_threshold", "absent"};
	static const char text[] = "nr_free_pages 1130135\n"
				   "nr_dirty_threshold 1204341\n"
				   "nr_dirty 40917\n"
				   "nr_dirty_background_threshold 601435\n";
	uint64_t v[3] = {0, 0, 99};

	(void)state;
	assert_int_equal(kvstat_parse(text, sizeof(text) - 1, names, 3, v), 3);
	assert_int_equal(v[0], 1204341);
	assert_int_equal(v[1], 601435);
	assert_int_equal(v[2], 99);
	/* a wanted name with a bad value; unwanted ones do not matter */
	assert_int_equal(
	    kvstat_parse("nr_dirty_threshold 12x\n", 23, names, 3, v), -EINVAL);
	assert_int_equal(kvstat_parse("other x y z\n", 12, names, 3, v), 0);
	/* not NUL-terminated, cut inside a line */
	assert_int_equal(kvstat_parse(text, 20, names, 3, v), 0);
}

/* A run of arm with one regime entry for knob. */
static struct json_object *run_with(int arm, const char *knob,
				    const char *value, const char *state)
{
	struct json_object *run = json_object_new_object();
	struct json_object *inner = json_object_new_object();
	struct json_object *list = json_object_new_array();
	struct json_object *e = json_object_new_object();

	json_object_object_add(e, "knob", json_object_new_string(knob));
	json_object_object_add(
	    e, "canonical",
	    json_object_new_string("vm.dirty_background_ratio"));
	json_object_object_add(e, "object", json_object_new_string("system"));
	json_object_object_add(e, "value", json_object_new_string(value));
	json_object_object_add(e, "state", json_object_new_string(state));
	json_object_object_add(
	    e, "why", json_object_new_string("dirty memory peaked at 90 MiB"));
	json_object_array_add(list, e);
	json_object_object_add(inner, "regime", list);
	json_object_object_add(run, "arm", json_object_new_int(arm));
	json_object_object_add(run, "run", inner);
	return run;
}

/* An experiment varying bdflush.nfract with the runs' states. */
static struct json_object *exp_with(const char *const *states, int n)
{
	struct json_object *exp = json_object_new_object();
	struct json_object *factors = json_object_new_array();
	struct json_object *f = json_object_new_object();
	struct json_object *runs = json_object_new_array();
	int i;

	json_object_object_add(f, "name",
			       json_object_new_string("bdflush.nfract"));
	json_object_object_add(f, "kind", json_object_new_string("knob"));
	json_object_array_add(factors, f);
	json_object_object_add(exp, "factors", factors);
	for (i = 0; i < n; i++)
		json_object_array_add(runs,
				      run_with(i % 2, "bdflush.nfract",
					       i % 2 ? "80" : "10", states[i]));
	json_object_object_add(exp, "runs", runs);
	return exp;
}

static void test_experiment_regimes(void **state)
{
	static const char *const none[] = {"not_reached", "not_reached",
					   "not_reached", "unknown"};
	static const char *const one[] = {"not_reached", "reached",
					  "not_reached", "not_reached"};
	struct json_object *exp = exp_with(none, 4), *g;
	struct strbuf out = STRBUF_INIT;

	(void)state;
	regime_analyze_json(exp);
	g = report_regimes(exp);
	assert_non_null(g);
	assert_int_equal(json_object_array_length(g), 1);
	g = json_object_array_get_idx(g, 0);
	assert_string_equal(
	    json_object_get_string(json_object_object_get(g, "factor")),
	    "bdflush.nfract");
	assert_int_equal(
	    json_object_get_int(json_object_object_get(g, "not_reached")), 3);
	assert_string_equal(
	    json_object_get_string(json_object_object_get(g, "state")),
	    "not_reached");
	report_regimes_text(exp, &out);
	assert_non_null(strstr(out.buf,
			       "bdflush.nfract (vm.dirty_background_ratio) "
			       "could not matter: none of its 4 runs"));
	assert_non_null(strstr(out.buf, "(1 could not be judged)"));
	assert_non_null(strstr(out.buf, "  at 10 (2 runs): dirty memory "
					"peaked at 90 MiB\n"));
	assert_non_null(strstr(out.buf, "  at 80 (1 run): "));
	json_object_put(exp);
	/* one run that reached it: the knob could matter, no entry */
	exp = exp_with(one, 4);
	regime_analyze_json(exp);
	assert_null(report_regimes(exp));
	strbuf_reset(&out);
	report_regimes_text(exp, &out);
	assert_int_equal(out.len, 0);
	json_object_put(exp);
	strbuf_release(&out);
}

/*
 * A knob none of whose runs could be judged, its family saying why (a
 * raw knob): one entry of state "unknown", one line; without a why,
 * nothing. A run's own lines: "regime unknown: ..." only with a why.
 */
static void regime_entry(struct json_object *list, const char *knob,
			 const char *object, const char *value,
			 const char *state, const char *why)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "knob", json_object_new_string(knob));
	json_object_object_add(o, "canonical", json_object_new_string(knob));
	json_object_object_add(o, "object", json_object_new_string(object));
	json_object_object_add(o, "value", json_object_new_string(value));
	json_object_object_add(o, "state", json_object_new_string(state));
	json_object_object_add(o, "why", json_object_new_string(why));
	json_object_array_add(list, o);
}

static void test_experiment_unknown(void **state)
{
	static const char *const unk[] = {"unknown", "unknown", "unknown",
					  "unknown"};
	struct json_object *exp = exp_with(unk, 4), *g, *runs, *run, *list;
	struct strbuf out = STRBUF_INIT;
	size_t i;

	(void)state;
	regime_analyze_json(exp);
	g = report_regimes(exp);
	assert_non_null(g);
	assert_int_equal(json_object_array_length(g), 1);
	g = json_object_array_get_idx(g, 0);
	assert_string_equal(
	    json_object_get_string(json_object_object_get(g, "state")),
	    "unknown");
	assert_string_equal(
	    json_object_get_string(json_object_object_get(g, "why")),
	    "dirty memory peaked at 90 MiB");
	assert_int_equal(
	    json_object_get_int(json_object_object_get(g, "not_reached")), 0);
	assert_int_equal(json_object_get_int(json_object_object_get(g, "runs")),
			 4);
	assert_int_equal(
	    json_object_array_length(json_object_object_get(g, "values")), 0);
	report_regimes_text(exp, &out);
	assert_string_equal(out.buf,
			    "\nbdflush.nfract (vm.dirty_background_ratio): "
			    "regime unknown in its 4 runs: dirty memory "
			    "peaked at 90 MiB\n");
	/* no why: silence, as for any knob the sampler cannot judge */
	runs = json_object_object_get(exp, "runs");
	for (i = 0; i < 4; i++) {
		struct json_object *one = json_object_object_get(
		    json_object_array_get_idx(runs, i), "run");
		struct json_object *e = json_object_array_get_idx(
		    json_object_object_get(one, "regime"), 0);

		json_object_object_add(e, "why", json_object_new_string(""));
	}
	regime_analyze_json(exp);
	assert_null(report_regimes(exp));
	json_object_put(exp);

	/* the run's own lines, from its run object's "regime" */
	run = json_object_new_object();
	list = json_object_new_array();
	json_object_object_add(run, "regime", list);
	regime_entry(list, "sysctl:vm.swappiness", "system", "10", "unknown",
		     "iotrial does not know what a raw knob controls");
	regime_entry(list, "scheduler", "loop0", "bfq", "unknown", "");
	regime_entry(list, "read_ahead_kb", "loop0", "128", "reached",
		     "requests of 128 KiB");
	strbuf_reset(&out);
	report_run_regimes_text(run, &out);
	assert_string_equal(out.buf,
			    "regime unknown: sysctl:vm.swappiness=10: iotrial "
			    "does not know what a raw knob controls\n");
	json_object_put(run);
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
		struct json_object *jo = json_object_new_object(), *cg;

		truth_regime_to_json(&t, jo);
		cg = json_object_object_get(jo, "cgroup_dirty");
		assert_non_null(cg);
		assert_int_equal(
		    json_object_get_int(json_object_object_get(cg, "version")),
		    2);
		assert_int_equal(json_object_get_int64(json_object_object_get(
				     cg, "dirtyable_bytes")),
				 156 * MIB);
		assert_int_equal(json_object_get_int64(json_object_object_get(
				     cg, "background_bytes")),
				 td.cg_bg_thresh_bytes);
		assert_int_equal(json_object_get_int64(json_object_object_get(
				     cg, "throttle_bytes")),
				 td.cg_thresh_bytes);
		assert_int_equal(json_object_get_int64(json_object_object_get(
				     cg, "dirty_peak_bytes")),
				 40 * MIB);
		json_object_put(jo);
	}
	run_result_release(&r);
	free(t.devs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_dirty_thresholds),
	    cmocka_unit_test(test_dirty_cgroup),
	    cmocka_unit_test(test_expiry),
	    cmocka_unit_test(test_readahead),
	    cmocka_unit_test(test_scheduler_and_atime),
	    cmocka_unit_test(test_atime_lazytime),
	    cmocka_unit_test(test_queue),
	    cmocka_unit_test(test_dirtytime),
	    cmocka_unit_test(test_raw),
	    cmocka_unit_test(test_kvstat),
	    cmocka_unit_test(test_experiment_regimes),
	    cmocka_unit_test(test_experiment_unknown),
	    cmocka_unit_test(test_observations),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
