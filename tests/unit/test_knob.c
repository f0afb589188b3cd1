/*
 * Knob families against a fake sysfs/proc tree (knob_ctx.root): name
 * resolution and suggestions, unit parsing (read-ahead in KiB, sectors
 * and decimal MB; durations for centiseconds), legacy names (cfq,
 * deadline, noop; bdflush.*), the vm.dirty twin save/restore, range and
 * unit errors, plan ordering and conflicts, and the sysfs: confinement.
 * Nothing here touches the real machine.
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
#include <unistd.h>
#include <cmocka.h>
#include "core/knob/knob.h"
#include "core/knob/plan.h"
#include "core/report/knob_text.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

static char root[] = "/tmp/iotrial-test-knob.XXXXXX";

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

/* Read root/rel, trimmed. */
static char *get(const char *rel)
{
	struct strbuf p = STRBUF_INIT, v = STRBUF_INIT;

	strbuf_addf(&p, "%s%s", root, rel);
	assert_int_equal(strbuf_read_file(&v, p.buf, 0), 0);
	strbuf_trim(&v);
	strbuf_release(&p);
	return strbuf_detach(&v, NULL);
}

static int setup(void **state)
{
	(void)state;
	if (!mkdtemp(root))
		return -1;
	put("/sys/block/fake0/dev", "250:0\n");
	put("/sys/block/fake0/diskseq", "7\n");
	put("/sys/block/fake0/queue/scheduler",
	    "none [mq-deadline] kyber bfq\n");
	put("/sys/block/fake0/queue/read_ahead_kb", "128\n");
	put("/sys/block/fake0/queue/nr_requests", "256\n");
	put("/sys/block/fake0/queue/max_sectors_kb", "1280\n");
	put("/sys/block/fake0/queue/max_hw_sectors_kb", "2048\n");
	put("/sys/block/fake0/queue/wbt_lat_usec", "2000\n");
	put("/sys/block/fake0/queue/rq_affinity", "1\n");
	put("/sys/block/fake0/queue/nomerges", "0\n");
	put("/sys/block/fake0/queue/iosched/read_expire", "500\n");
	put("/sys/block/fake0/queue/iosched/fifo_batch", "16\n");
	put("/sys/block/nobfq0/dev", "252:0\n");
	put("/sys/block/nobfq0/diskseq", "8\n");
	put("/sys/block/nobfq0/queue/scheduler", "none [mq-deadline] kyber\n");
	put("/sys/block/old0/dev", "251:0\n");
	put("/sys/block/old0/queue/scheduler", "noop [deadline] cfq\n");
	put("/proc/sys/vm/dirty_ratio", "20\n");
	put("/proc/sys/vm/dirty_bytes", "0\n");
	put("/proc/sys/vm/dirty_background_ratio", "10\n");
	put("/proc/sys/vm/dirty_background_bytes", "0\n");
	put("/proc/sys/vm/dirty_expire_centisecs", "3000\n");
	put("/proc/sys/vm/dirty_writeback_centisecs", "500\n");
	put("/proc/sys/vm/dirtytime_expire_seconds", "43200\n");
	put("/proc/sys/vm/swappiness", "60\n");
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

/* A context on the fake disk. */
static void ctx_on(struct knob_ctx *c, const char *disk)
{
	knob_ctx_init(c);
	free(c->root);
	c->root = xstrdup(root);
	c->disk = disk ? xstrdup(disk) : NULL;
}

/* Resolve name and parse in; returns the parse result, canon and note. */
static int parse(const char *disk, const char *name, const char *in,
		 struct strbuf *canon, struct strbuf *note, struct strbuf *err)
{
	struct knob_ctx c;
	struct knob k;
	int ret;

	ctx_on(&c, disk);
	strbuf_reset(canon);
	strbuf_reset(note);
	ret = knob_resolve(&c, name, &k, note, err);
	if (!ret) {
		ret = k.ops->parse(&k, in, canon, note, err);
		knob_release(&k);
	}
	knob_ctx_release(&c);
	return ret;
}

static void test_resolve_and_suggest(void **state)
{
	struct knob_ctx c;
	struct knob k;
	struct knob_list names = {0};
	struct strbuf err = STRBUF_INIT;

	(void)state;
	ctx_on(&c, "fake0");
	assert_int_equal(knob_resolve(&c, "read_ahead_kb", &k, NULL, &err), 0);
	assert_string_equal(k.object, "fake0");
	assert_string_equal(k.ident, "250:0 diskseq 7");
	assert_int_equal(k.scope, KNOB_SCOPE_DEVICE);
	knob_release(&k);
	assert_int_equal(knob_resolve(&c, "schedular", &k, NULL, &err),
			 -ENOENT);
	assert_non_null(strstr(err.buf, "did you mean 'scheduler'"));
	assert_int_equal(knob_resolve(&c, "vm.dirty_ration", &k, NULL, &err),
			 -ENOENT);
	assert_non_null(strstr(err.buf, "'vm.dirty_ratio'"));
	knob_names(&c, &names);
	assert_true(knob_list_has(&names, "scheduler"));
	assert_true(knob_list_has(&names, "iosched.read_expire"));
	assert_true(knob_list_has(&names, "vm.dirtytime_expire_seconds"));
	assert_false(knob_list_has(&names, "atime")); /* no mount */
	knob_list_release(&names);
	knob_ctx_release(&c);

	/* device knobs without a device say how to give one */
	ctx_on(&c, NULL);
	assert_int_equal(knob_resolve(&c, "scheduler", &k, NULL, &err),
			 -ENODEV);
	assert_non_null(strstr(err.buf, "--device"));
	assert_int_equal(knob_resolve(&c, "atime", &k, NULL, &err), -ENODEV);
	assert_non_null(strstr(err.buf, "-t DIR"));
	knob_ctx_release(&c);

	/* a target without a disk: the advice is a different target */
	ctx_on(&c, NULL);
	c.why_no_disk = xstrdup("'/dev/shm' is on a 'tmpfs' file system");
	assert_int_equal(knob_resolve(&c, "scheduler", &k, NULL, &err),
			 -ENODEV);
	assert_non_null(strstr(err.buf, "'/dev/shm' is on a 'tmpfs'"));
	assert_non_null(strstr(err.buf, "a target on a block device"));
	knob_ctx_release(&c);
	strbuf_release(&err);
}

/* Every family's names on any target, without one at hand; and how each
 * knob persists, from its place and its family, never its name. */
static void test_names_anywhere_and_persist(void **state)
{
	struct knob_list all = {0};
	struct strbuf err = STRBUF_INIT;
	struct knob_persist p;
	struct knob_ctx c;
	struct knob k;

	(void)state;
	knob_names_anywhere(&all);
	assert_true(knob_list_has(&all, "scheduler"));
	assert_true(knob_list_has(&all, "nomerges"));
	assert_true(knob_list_has(&all, "atime"));
	assert_true(knob_list_has(&all, "vm.dirty_ratio"));
	knob_list_release(&all);

	ctx_on(&c, "fake0");
	assert_int_equal(knob_resolve(&c, "scheduler", &k, NULL, &err), 0);
	knob_persist(&k, &p);
	assert_string_equal(p.udev_attr, "queue/scheduler");
	assert_string_equal(p.tuned_disk, "elevator");
	assert_true(p.selected_word);
	assert_int_equal(p.sysctl.len, 0);
	knob_persist_release(&p);
	knob_release(&k);
	assert_int_equal(knob_resolve(&c, "nr_requests", &k, NULL, &err), 0);
	knob_persist(&k, &p);
	assert_string_equal(p.udev_attr, "queue/nr_requests");
	assert_null(p.tuned_disk);
	assert_false(p.selected_word);
	knob_persist_release(&p);
	knob_release(&k);
	assert_int_equal(knob_resolve(&c, "vm.dirty_ratio", &k, NULL, &err), 0);
	knob_persist(&k, &p);
	assert_string_equal(p.sysctl.buf, "vm.dirty_ratio");
	assert_null(p.udev_attr);
	assert_false(p.mount_option);
	knob_persist_release(&p);
	knob_release(&k);
	knob_ctx_release(&c);
	strbuf_release(&err);
}

static void test_scheduler_names(void **state)
{
	struct strbuf canon = STRBUF_INIT, note = STRBUF_INIT,
		      err = STRBUF_INIT;

	(void)state;
	assert_int_equal(
	    parse("fake0", "scheduler", "bfq", &canon, &note, &err), 0);
	assert_string_equal(canon.buf, "bfq");
	assert_int_equal(note.len, 0);
	assert_int_equal(
	    parse("fake0", "scheduler", "deadline", &canon, &note, &err), 0);
	assert_string_equal(canon.buf, "mq-deadline");
	assert_non_null(strstr(note.buf, "mq-deadline"));
	assert_int_equal(
	    parse("fake0", "scheduler", "cfq", &canon, &note, &err), 0);
	assert_string_equal(canon.buf, "bfq");
	assert_int_equal(
	    parse("fake0", "scheduler", "noop", &canon, &note, &err), 0);
	assert_string_equal(canon.buf, "none");
	/* a kernel that still offers the old names: they pass through */
	assert_int_equal(
	    parse("old0", "scheduler", "deadline", &canon, &note, &err), 0);
	assert_string_equal(canon.buf, "deadline");
	assert_int_equal(note.len, 0);
	/* not offered: the error lists what is */
	assert_int_equal(
	    parse("fake0", "scheduler", "anticipatory", &canon, &note, &err),
	    -EINVAL);
	assert_non_null(strstr(err.buf, "none mq-deadline kyber bfq"));
	/* a unit where a name belongs */
	assert_int_equal(parse("fake0", "scheduler", "4k", &canon, &note, &err),
			 -EINVAL);
	assert_non_null(strstr(err.buf, "not a number or size"));
	strbuf_release(&canon);
	strbuf_release(&note);
	strbuf_release(&err);
}

/*
 * A legacy name means its successor and nothing else: where the disk
 * does not offer it (cfq's bfq), the name is refused with why and what
 * is offered, and the listing says so instead of offering the
 * translation.
 */
static void test_scheduler_successor_not_offered(void **state)
{
	struct strbuf canon = STRBUF_INIT, note = STRBUF_INIT,
		      err = STRBUF_INIT, value = STRBUF_INIT;
	struct knob_desc d;
	struct knob_ctx c;
	struct knob k;

	(void)state;
	assert_int_equal(
	    parse("nobfq0", "scheduler", "cfq", &canon, &note, &err), -EINVAL);
	assert_string_equal(err.buf,
			    "'cfq' is a single-queue scheduler of Linux before "
			    "5.0, read as 'bfq', which 'nobfq0' does not offer "
			    "(not built into this kernel, or its module not "
			    "loaded); 'nobfq0' offers: none mq-deadline kyber");
	strbuf_reset(&err);
	assert_int_equal(
	    parse("nobfq0", "scheduler", "deadline", &canon, &note, &err), 0);
	assert_string_equal(canon.buf, "mq-deadline");

	ctx_on(&c, "nobfq0");
	assert_int_equal(knob_resolve(&c, "scheduler", &k, &note, &err), 0);
	knob_desc_init(&d);
	assert_int_equal(knob_describe(&k, &value, &d, &err), 0);
	assert_string_equal(d.allowed.buf, "none mq-deadline kyber");
	assert_non_null(strstr(d.notes.buf,
			       "legacy names are translated: cfq (bfq, not "
			       "offered here), deadline -> mq-deadline, noop "
			       "-> none\n"));
	assert_null(strstr(d.notes.buf, "cfq -> "));
	knob_desc_release(&d);
	knob_release(&k);
	knob_ctx_release(&c);

	/* a disk that offers bfq: the translation is offered */
	ctx_on(&c, "fake0");
	strbuf_reset(&value);
	assert_int_equal(knob_resolve(&c, "scheduler", &k, &note, &err), 0);
	knob_desc_init(&d);
	assert_int_equal(knob_describe(&k, &value, &d, &err), 0);
	assert_non_null(strstr(d.notes.buf, "cfq -> bfq, deadline -> "
					    "mq-deadline, noop -> none\n"));
	knob_desc_release(&d);
	knob_release(&k);
	knob_ctx_release(&c);
	strbuf_release(&canon);
	strbuf_release(&note);
	strbuf_release(&err);
	strbuf_release(&value);
}

static void test_readahead_units(void **state)
{
	static const struct {
		const char *in, *canon;
	} ok[] = {
	    {"2048", "2048"},  {"2048k", "2048"}, {"2MiB", "2048"},
	    {"4096s", "2048"}, {"2M", "2048"},	  {"0", "0"},
	    {"2047", "2044"},  {"2MB", "1952"},
	};
	struct strbuf canon = STRBUF_INIT, note = STRBUF_INIT,
		      err = STRBUF_INIT;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		assert_int_equal(parse("fake0", "read_ahead_kb", ok[i].in,
				       &canon, &note, &err),
				 0);
		assert_string_equal(canon.buf, ok[i].canon);
	}
	/* 2MB is decimal: said so, and rounded to whole pages */
	parse("fake0", "read_ahead_kb", "2MB", &canon, &note, &err);
	assert_non_null(strstr(note.buf, "2000000"));
	assert_non_null(strstr(note.buf, "pages"));
	assert_int_equal(
	    parse("fake0", "read_ahead_kb", "fast", &canon, &note, &err),
	    -EINVAL);
	assert_non_null(strstr(err.buf, "4096s"));
	assert_int_equal(
	    parse("fake0", "read_ahead_kb", "-5", &canon, &note, &err),
	    -EINVAL);
	strbuf_release(&canon);
	strbuf_release(&note);
	strbuf_release(&err);
}

static void test_ranges_and_units(void **state)
{
	struct strbuf canon = STRBUF_INIT, note = STRBUF_INIT,
		      err = STRBUF_INIT;

	(void)state;
	assert_int_equal(
	    parse("fake0", "rq_affinity", "7", &canon, &note, &err), -ERANGE);
	assert_non_null(strstr(err.buf, "0..2"));
	assert_int_equal(
	    parse("fake0", "nr_requests", "2", &canon, &note, &err), -ERANGE);
	assert_int_equal(
	    parse("fake0", "nr_requests", "64k", &canon, &note, &err), -EINVAL);
	assert_int_equal(
	    parse("fake0", "max_sectors_kb", "4096", &canon, &note, &err),
	    -ERANGE);
	assert_non_null(strstr(err.buf, "max_hw_sectors_kb"));
	assert_int_equal(
	    parse("fake0", "max_sectors_kb", "1MiB", &canon, &note, &err), 0);
	assert_string_equal(canon.buf, "1024");
	assert_int_equal(
	    parse("fake0", "wbt_lat_usec", "-1", &canon, &note, &err), 0);
	assert_non_null(strstr(note.buf, "default"));
	assert_int_equal(
	    parse("fake0", "wbt_lat_usec", "75ms", &canon, &note, &err), 0);
	assert_string_equal(canon.buf, "75000");
	assert_int_equal(
	    parse("fake0", "iosched.read_expire", "250ms", &canon, &note, &err),
	    0);
	assert_string_equal(canon.buf, "250");
	assert_int_equal(
	    parse(NULL, "vm.dirty_ratio", "101", &canon, &note, &err), -ERANGE);
	assert_int_equal(
	    parse(NULL, "vm.dirty_ratio", "15%", &canon, &note, &err), 0);
	assert_string_equal(canon.buf, "15");
	assert_int_equal(parse(NULL, "vm.dirty_expire_centisecs", "30s", &canon,
			       &note, &err),
			 0);
	assert_string_equal(canon.buf, "3000");
	assert_int_equal(parse(NULL, "vm.dirty_expire_centisecs", "15ms",
			       &canon, &note, &err),
			 -EINVAL);
	assert_int_equal(parse(NULL, "vm.dirtytime_expire_seconds", "12h",
			       &canon, &note, &err),
			 0);
	assert_string_equal(canon.buf, "43200");
	assert_int_equal(
	    parse(NULL, "vm.dirty_bytes", "256MiB", &canon, &note, &err), 0);
	assert_string_equal(canon.buf, "268435456");
	assert_int_equal(
	    parse(NULL, "vm.dirty_bytes", "0", &canon, &note, &err), -ERANGE);
	assert_non_null(strstr(err.buf, "vm.dirty_ratio"));
	strbuf_release(&canon);
	strbuf_release(&note);
	strbuf_release(&err);
}

static void test_bdflush_names(void **state)
{
	static const struct {
		const char *old, *now;
	} map[] = {
	    {"bdflush.nfract", "vm.dirty_background_ratio"},
	    {"bdflush.nfract_sync", "vm.dirty_ratio"},
	    {"bdflush.interval", "vm.dirty_writeback_centisecs"},
	    {"bdflush.age_buffer", "vm.dirty_expire_centisecs"},
	};
	struct knob_ctx c;
	struct knob k;
	struct strbuf note = STRBUF_INIT, err = STRBUF_INIT;
	size_t i;

	(void)state;
	ctx_on(&c, NULL);
	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++) {
		strbuf_reset(&note);
		assert_int_equal(knob_resolve(&c, map[i].old, &k, &note, &err),
				 0);
		assert_string_equal(k.name, map[i].now);
		assert_non_null(strstr(note.buf, "2.4"));
		knob_release(&k);
	}
	assert_int_equal(knob_resolve(&c, "bdflush.nfract", &k, &note, &err),
			 0);
	assert_non_null(strstr(note.buf, "available memory"));
	knob_release(&k);
	knob_ctx_release(&c);
	strbuf_release(&note);
	strbuf_release(&err);
}

static void test_dirty_twins(void **state)
{
	struct knob_ctx c;
	struct knob k;
	struct strbuf orig = STRBUF_INIT, err = STRBUF_INIT;
	char *v;

	(void)state;
	ctx_on(&c, NULL);
	/* the ratio is active: writing bytes saves the ratio */
	assert_int_equal(knob_resolve(&c, "vm.dirty_bytes", &k, NULL, &err), 0);
	assert_string_equal(k.group, "vm.dirty");
	assert_int_equal(knob_save(&k, &orig, &err), 0);
	assert_string_equal(orig.buf, "vm.dirty_ratio=20");
	/* the kernel's part: bytes written, ratio zeroed */
	put("/proc/sys/vm/dirty_bytes", "268435456\n");
	put("/proc/sys/vm/dirty_ratio", "0\n");
	assert_int_equal(knob_restore(&k, orig.buf, &err), 0);
	v = get("/proc/sys/vm/dirty_ratio");
	assert_string_equal(v, "20");
	free(v);
	knob_release(&k);
	/* the bytes are active: writing the ratio saves the bytes */
	put("/proc/sys/vm/dirty_ratio", "0\n");
	assert_int_equal(knob_resolve(&c, "vm.dirty_ratio", &k, NULL, &err), 0);
	assert_int_equal(knob_save(&k, &orig, &err), 0);
	assert_string_equal(orig.buf, "vm.dirty_bytes=268435456");
	assert_int_equal(knob_restore(&k, "vm.swappiness=1", &err), -EINVAL);
	knob_release(&k);
	put("/proc/sys/vm/dirty_ratio", "20\n");
	put("/proc/sys/vm/dirty_bytes", "0\n");
	knob_ctx_release(&c);
	strbuf_release(&orig);
	strbuf_release(&err);
}

static void test_scheduler_snapshot(void **state)
{
	struct knob_ctx c;
	struct knob k;
	struct strbuf orig = STRBUF_INIT, err = STRBUF_INIT;
	char *v;

	(void)state;
	ctx_on(&c, "fake0");
	assert_int_equal(knob_resolve(&c, "scheduler", &k, NULL, &err), 0);
	assert_int_equal(knob_save(&k, &orig, &err), 0);
	assert_non_null(strstr(orig.buf, "scheduler=mq-deadline"));
	assert_non_null(strstr(orig.buf, "nr_requests=256"));
	assert_non_null(strstr(orig.buf, "iosched.read_expire=500"));
	/* a switch: the fake file now says bfq, params changed */
	put("/sys/block/fake0/queue/scheduler", "bfq\n");
	put("/sys/block/fake0/queue/nr_requests", "64\n");
	put("/sys/block/fake0/queue/iosched/read_expire", "100\n");
	assert_int_equal(knob_restore(&k, orig.buf, &err), 0);
	v = get("/sys/block/fake0/queue/nr_requests");
	assert_string_equal(v, "256");
	free(v);
	v = get("/sys/block/fake0/queue/iosched/read_expire");
	assert_string_equal(v, "500");
	free(v);
	put("/sys/block/fake0/queue/scheduler",
	    "none [mq-deadline] kyber bfq\n");
	knob_release(&k);
	knob_ctx_release(&c);
	strbuf_release(&orig);
	strbuf_release(&err);
}

/* A plan of nothing builds, as an arm without knobs does (compare
 * --dry-run asks for every arm's): nothing to sort, nothing to check. */
static void test_plan_empty(void **state)
{
	struct knob_ctx c;
	struct knob_plan p;
	struct strbuf err = STRBUF_INIT;

	(void)state;
	ctx_on(&c, "fake0");
	knob_plan_init(&p, &c);
	assert_int_equal(knob_plan_build(&p, &err), 0);
	assert_int_equal(p.nr, 0);
	knob_plan_release(&p);
	knob_ctx_release(&c);
	strbuf_release(&err);
}

static void test_plan_order_and_conflicts(void **state)
{
	struct knob_ctx c;
	struct knob_plan p;
	struct strbuf err = STRBUF_INIT;

	(void)state;
	ctx_on(&c, "fake0");
	knob_plan_init(&p, &c);
	assert_int_equal(knob_plan_add(&p, "read_ahead_kb=4096s", &err), 0);
	assert_int_equal(knob_plan_add(&p, "iosched.slice_idle=0", &err), 0);
	assert_int_equal(knob_plan_add(&p, "nr_requests=64", &err), 0);
	assert_int_equal(knob_plan_add(&p, "scheduler=cfq", &err), 0);
	assert_int_equal(knob_plan_build(&p, &err), 0);
	assert_int_equal(p.nr, 4);
	assert_string_equal(p.v[0].k.name, "scheduler");
	assert_string_equal(p.v[0].canon.buf, "bfq");
	/* a parameter of the scheduler being switched to: checked, later */
	assert_string_equal(p.v[1].k.name, "iosched.slice_idle");
	assert_true(p.v[1].k.deferred);
	assert_string_equal(p.v[2].k.name, "nr_requests");
	assert_string_equal(p.v[3].k.name, "read_ahead_kb");
	knob_plan_release(&p);

	/* kyber has no slice_idle */
	knob_plan_init(&p, &c);
	knob_plan_add(&p, "scheduler=kyber", &err);
	knob_plan_add(&p, "iosched.slice_idle=0", &err);
	assert_int_equal(knob_plan_build(&p, &err), -EINVAL);
	assert_non_null(strstr(err.buf, "read_lat_nsec"));
	knob_plan_release(&p);

	/* the twins cannot both be set */
	knob_plan_init(&p, &c);
	knob_plan_add(&p, "vm.dirty_bytes=1G", &err);
	knob_plan_add(&p, "vm.dirty_ratio=5", &err);
	assert_int_equal(knob_plan_build(&p, &err), -EINVAL);
	assert_non_null(strstr(err.buf, "one setting in two units"));
	knob_plan_release(&p);

	/* one knob twice, and a legacy spelling of it */
	knob_plan_init(&p, &c);
	knob_plan_add(&p, "vm.dirty_ratio=5", &err);
	knob_plan_add(&p, "bdflush.nfract_sync=6", &err);
	assert_int_equal(knob_plan_build(&p, &err), -EINVAL);
	assert_non_null(strstr(err.buf, "twice"));
	knob_plan_release(&p);

	knob_plan_init(&p, &c);
	assert_int_equal(knob_plan_add(&p, "scheduler", &err), -EINVAL);
	assert_non_null(strstr(err.buf, "KNOB=VALUE"));
	knob_plan_release(&p);

	/* an empty plan builds to nothing (no qsort of a NULL array:
	 * UBSan halts the test on that) */
	knob_plan_init(&p, &c);
	assert_int_equal(knob_plan_build(&p, &err), 0);
	assert_int_equal(p.nr, 0);
	knob_plan_release(&p);
	knob_ctx_release(&c);
	strbuf_release(&err);
}

static void test_raw_confined(void **state)
{
	struct knob_ctx c;
	struct knob k;
	struct strbuf err = STRBUF_INIT, now = STRBUF_INIT, p = STRBUF_INIT;

	(void)state;
	ctx_on(&c, NULL);
	assert_int_equal(
	    knob_resolve(&c, "sysctl:vm.swappiness", &k, NULL, &err), 0);
	assert_int_equal(knob_apply(&k, "10", &now, NULL, &err), 0);
	assert_string_equal(now.buf, "10");
	knob_release(&k);
	assert_int_equal(knob_resolve(&c,
				      "sysfs:/sys/block/fake0/queue/"
				      "nomerges",
				      &k, NULL, &err),
			 0);
	knob_release(&k);
	/* outside /sys, through .. or a symlink: refused */
	assert_int_equal(knob_resolve(&c,
				      "sysfs:/sys/../proc/sys/vm/"
				      "swappiness",
				      &k, NULL, &err),
			 -EINVAL);
	assert_non_null(strstr(err.buf, "outside"));
	strbuf_addf(&p, "%s/sys/escape", root);
	assert_int_equal(symlink("/etc/hostname", p.buf), 0);
	assert_int_equal(knob_resolve(&c, "sysfs:/sys/escape", &k, NULL, &err),
			 -EINVAL);
	assert_int_equal(knob_resolve(&c, "sysctl:vm.nothing", &k, NULL, &err),
			 -ENODEV);
	assert_int_equal(knob_resolve(&c, "sysfs:relative", &k, NULL, &err),
			 -EINVAL);
	knob_ctx_release(&c);
	strbuf_release(&err);
	strbuf_release(&now);
	strbuf_release(&p);
}

/* Linux 2.4's whole bdflush line: each field that has a modern knob
 * becomes its change, the others are named in the note, not set. */
static void test_bdflush_line(void **state)
{
	struct knob_ctx c;
	struct knob_plan p;
	struct knob k;
	struct strbuf err = STRBUF_INIT;

	(void)state;
	ctx_on(&c, NULL);
	knob_plan_init(&p, &c);
	assert_int_equal(
	    knob_plan_add(&p, "bdflush=80 0 0 0 500 3000 90 0 0", &err), 0);
	assert_int_equal(knob_plan_build(&p, &err), 0);
	assert_int_equal(p.nr, 4);
	assert_string_equal(p.v[0].k.name, "vm.dirty_background_ratio");
	assert_string_equal(p.v[0].canon.buf, "80");
	assert_string_equal(p.v[1].k.name, "vm.dirty_writeback_centisecs");
	assert_string_equal(p.v[1].canon.buf, "500");
	assert_string_equal(p.v[2].k.name, "vm.dirty_expire_centisecs");
	assert_string_equal(p.v[2].canon.buf, "3000");
	assert_string_equal(p.v[3].k.name, "vm.dirty_ratio");
	assert_string_equal(p.v[3].canon.buf, "90");
	assert_non_null(strstr(p.v[0].note.buf,
			       "ndirty=0 and nfract_stop_bdflush=0 have no "
			       "modern knob and are not set"));
	assert_non_null(strstr(p.v[0].note.buf, "fields 3, 4 and 9"));
	/* each note once: the line's only on its first change */
	assert_null(strstr(p.v[1].note.buf, "ndirty"));
	knob_plan_release(&p);

	/* fewer fields set only those; tabs as cat prints them */
	knob_plan_init(&p, &c);
	assert_int_equal(knob_plan_add(&p, "bdflush=40\t0", &err), 0);
	assert_int_equal(knob_plan_build(&p, &err), 0);
	assert_int_equal(p.nr, 1);
	assert_non_null(strstr(p.v[0].note.buf, "fields 3 to 9 were not "
						"given"));
	knob_plan_release(&p);

	knob_plan_init(&p, &c);
	assert_int_equal(knob_plan_add(&p, "bdflush=80 x", &err), -EINVAL);
	assert_non_null(strstr(err.buf, "field 2 (ndirty) is 'x'"));
	assert_int_equal(
	    knob_plan_add(&p, "bdflush=1 2 3 4 5 6 7 8 9 10", &err), -EINVAL);
	assert_non_null(strstr(err.buf, "more than 9 fields"));
	assert_int_equal(knob_plan_add(&p, "bdflush= ", &err), -EINVAL);
	knob_plan_release(&p);

	/* the line and one of its fields: the same knob twice */
	knob_plan_init(&p, &c);
	knob_plan_add(&p, "bdflush=80 0 0 0 500 3000 90 0 0", &err);
	knob_plan_add(&p, "vm.dirty_ratio=5", &err);
	assert_int_equal(knob_plan_build(&p, &err), -EINVAL);
	knob_plan_release(&p);

	/* the name alone, and a field without a modern knob, say what to
	 * give instead */
	assert_int_equal(knob_resolve(&c, "bdflush", &k, NULL, &err), -EINVAL);
	assert_non_null(strstr(err.buf, "bdflush='40 0 0 0 500 3000 60"));
	assert_non_null(strstr(err.buf, "bdflush.nfract"));
	assert_int_equal(knob_resolve(&c, "bdflush.ndirty", &k, NULL, &err),
			 -EINVAL);
	assert_non_null(strstr(err.buf, "no modern knob"));
	assert_int_equal(knob_resolve(&c, "bdflush.nfrac", &k, NULL, &err),
			 -EINVAL);
	assert_non_null(strstr(err.buf, "not a field of Linux 2.4's bdflush; "
					"those with a modern knob are "
					"bdflush.nfract,"));
	knob_ctx_release(&c);
	strbuf_release(&err);
}

/* A value already in force is "unchanged" in the plan, not a change. */
static void test_plan_unchanged(void **state)
{
	struct knob_ctx c;
	struct knob_plan p;
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;

	(void)state;
	ctx_on(&c, "fake0");
	knob_plan_init(&p, &c);
	knob_plan_add(&p, "scheduler=mq-deadline", &err);
	knob_plan_add(&p, "vm.dirty_writeback_centisecs=500", &err);
	knob_plan_add(&p, "read_ahead_kb=256", &err);
	assert_int_equal(knob_plan_build(&p, &err), 0);
	assert_true(knob_change_unchanged(&p.v[0]));
	assert_false(knob_change_unchanged(&p.v[1]));
	report_knob_plan(&p, "/j", &out);
	assert_non_null(strstr(out.buf, "plan: 1 change and 2 values already "
					"in force"));
	assert_non_null(strstr(out.buf, "'scheduler' on 'fake0': "
					"mq-deadline, unchanged"));
	assert_non_null(strstr(out.buf, "500 centiseconds (5 s), unchanged"));
	/* no write is described for it, so no nr_requests reset either */
	assert_null(strstr(out.buf, "resets nr_requests"));
	assert_null(strstr(out.buf, "-> mq-deadline"));
	knob_plan_release(&p);

	/* nothing but values in force: no changes */
	knob_plan_init(&p, &c);
	knob_plan_add(&p, "scheduler=mq-deadline", &err);
	assert_int_equal(knob_plan_build(&p, &err), 0);
	strbuf_reset(&out);
	report_knob_plan(&p, "/j", &out);
	assert_non_null(strstr(out.buf, "plan: no changes, 1 value already "
					"in force,"));
	knob_plan_release(&p);
	knob_ctx_release(&c);
	strbuf_release(&err);
	strbuf_release(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_resolve_and_suggest),
	    cmocka_unit_test(test_names_anywhere_and_persist),
	    cmocka_unit_test(test_scheduler_names),
	    cmocka_unit_test(test_scheduler_successor_not_offered),
	    cmocka_unit_test(test_readahead_units),
	    cmocka_unit_test(test_ranges_and_units),
	    cmocka_unit_test(test_bdflush_names),
	    cmocka_unit_test(test_dirty_twins),
	    cmocka_unit_test(test_scheduler_snapshot),
	    cmocka_unit_test(test_plan_empty),
	    cmocka_unit_test(test_plan_order_and_conflicts),
	    cmocka_unit_test(test_raw_confined),
	    cmocka_unit_test(test_bdflush_line),
	    cmocka_unit_test(test_plan_unchanged),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
