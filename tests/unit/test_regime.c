/*
 * Whether a run reached the regime a knob controls (knob_ops.regime)
 * against hand-made observations and a fake sysfs/proc tree: the dirty
 * thresholds a ratio implies next to the dirty peak (system and cgroup
 * v2, none of its own in v1), read-ahead against the request sizes the
 * device saw, the scheduler on a queue of one, atime without reads; the
 * "/proc/vmstat" reader. An experiment's "regimes" and the observations
 * a run's samples give are in test_regime_exp.c.
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
	put("/sys/block/fake0/queue/iostats", "1\n");
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

/* A raw knob that names no known knob's file: unknown, and it says so. */
static void test_raw(void **state)
{
	struct strbuf why = STRBUF_INIT;
	struct knob_obs o;

	(void)state;
	one_dev(&o, 4, 1, 1);
	assert_int_equal(
	    judge("sysfs:/sys/block/fake0/queue/iostats", "0", &o, &why),
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
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
