/*
 * Tests for core/observe/env.c: a snapshot of this machine has the facts a
 * result needs (kernel, CPUs, memory, vm.dirty_*, the target's stack),
 * its JSON carries them under stable names, and the comparison of two
 * snapshots flags what differs, skips what it is told to (and boot_id),
 * and names devices in its lines. In a chroot, whose root is no mount it
 * can see, the snapshot of "/" has no mount, but still its device.
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
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <cmocka.h>
#include "core/model/model_json.h"
#include "core/observe/env.h"
#include "util/xalloc.h"
#include "util/banned.h"

/* Is "/" a mount point listed in /proc/self/mountinfo? Not in a chroot,
 * whose root is a directory of a mount outside it. */
static int root_is_listed_mount(void)
{
	FILE *f = fopen("/proc/self/mountinfo", "r");
	char *line = NULL, mnt_point[4096];
	size_t alloc = 0;
	int found = 0;

	assert_non_null(f);
	/* ID PARENT MAJ:MIN ROOT MOUNT-POINT OPTIONS ... */
	while (!found && getline(&line, &alloc, f) > 0)
		found =
		    sscanf(line, "%*s %*s %*s %*s %4095s", mnt_point) == 1 &&
		    !strcmp(mnt_point, "/");
	free(line);
	fclose(f);
	return found;
}

/* Does "/" live on a block device (and not, say, an overlay)? */
static int root_on_block_device(void)
{
	struct stat st;

	assert_int_equal(stat("/", &st), 0);
	return major(st.st_dev) != 0;
}

static void test_capture(void **state)
{
	struct env e;
	struct strbuf err = STRBUF_INIT;
	struct utsname u;
	unsigned i;

	(void)state;
	assert_int_equal(env_capture(&e, "/", &err), 0);
	assert_int_equal(uname(&u), 0);
	assert_string_equal(e.kernel_release, u.release);
	assert_string_equal(e.hostname, u.nodename);
	assert_non_null(e.iotrial_version);
	assert_true(e.nr_cpus > 0);
	assert_true(e.mem_total_bytes > 0);
	for (i = 0; i < ENV_NR_VM; i++)
		if (!strcmp(e.vm[i].name, "dirty_ratio"))
			assert_true(e.vm[i].value >= 0);
	assert_true(e.have_stack);
	/* in a chroot whose root is not a mount: told by st_dev, unlisted */
	assert_true(e.stack.have_mount);
	assert_int_equal(e.stack.mnt.unlisted, !root_is_listed_mount());
	if (root_on_block_device())
		assert_true(e.stack.nr_devs >= 1);
	env_release(&e);
	env_release(NULL);
	strbuf_release(&err);
}

/* A missing path is an error, but the machine facts are still there. */
static void test_capture_bad_path(void **state)
{
	struct env e;
	struct strbuf err = STRBUF_INIT;

	(void)state;
	assert_int_equal(env_capture(&e, "/no/such/place", &err), -ENOENT);
	assert_non_null(strstr(err.buf, "/no/such/place"));
	assert_non_null(e.kernel_release);
	env_release(&e);
	strbuf_release(&err);
}

static void test_doc(void **state)
{
	struct env e;
	struct env_doc o;
	struct strbuf err = STRBUF_INIT;
	const struct env_stack *st;

	(void)state;
	assert_int_equal(env_capture(&e, "/", &err), 0);
	env_to_doc(&e, &o);
	assert_string_equal(o.kernel_release, e.kernel_release);
	assert_non_null(o.boot_id);
	assert_int_equal(o.cpu->has_count, MODEL_SET);
	assert_true(o.cpu->count > 0);
	assert_int_equal(o.has_mem_total_bytes, MODEL_SET);
	assert_true(o.mem_total_bytes > 0);
	assert_int_equal(o.vm->has_dirty_ratio, MODEL_SET);
	st = o.stack;
	assert_string_equal(st->path, "/");
	assert_string_equal(st->mount->target, "/");
	assert_int_equal(st->mount->has_unlisted != MODEL_ABSENT,
			 !root_is_listed_mount());
	assert_int_equal(st->nr_devices, e.stack.nr_devs);
	if (e.stack.nr_devs) {
		const struct env_device *d = &st->devices[0];

		assert_string_equal(d->name, e.stack.devs[0].name);
		assert_int_equal(d->has_read_ahead_kb, MODEL_SET);
		assert_int_equal(d->has_logical_block_bytes, MODEL_SET);
		assert_true(d->size_bytes > 0);
	}
	env_doc_release(&o);
	env_release(&e);
	strbuf_release(&err);
}

static const char env_a[] =
    "{\"kernel_release\":\"6.1.0\",\"boot_id\":\"aaa\","
    "\"cpu\":{\"model\":\"X\",\"count\":2},"
    "\"stack\":{\"devices\":[{\"name\":\"vda\",\"scheduler\":"
    "\"mq-deadline\",\"read_ahead_kb\":128}]}}";

/* The first from in t replaced by to (the test fails when t has none). */
static void replace(struct strbuf *t, const char *from, const char *to)
{
	char *at = strstr(t->buf, from);
	struct strbuf out = STRBUF_INIT;

	assert_non_null(at);
	strbuf_add(&out, t->buf, (size_t)(at - t->buf));
	strbuf_addf(&out, "%s%s", to, at + strlen(from));
	strbuf_setf(t, "%s", out.buf);
	strbuf_release(&out);
}

/* The environment of JSON text env as a run holds it, decoded into
 * run (release it). */
static const struct env_doc *env_of(struct run_doc *run, const char *env)
{
	struct strbuf text = STRBUF_INIT, err = STRBUF_INIT;

	strbuf_addf(&text, "{\"schema\":\"iotrial/1\",\"env\":%s}", env);
	if (run_doc_decode(text.buf, text.len, run, 0, &err))
		fail_msg("%s", err.buf);
	assert_non_null(run->env);
	strbuf_release(&text);
	strbuf_release(&err);
	return run->env;
}

/* Differences are listed with their paths, as `iotrial diff` shows them
 * (env_doc_json_diff()); ignored names are skipped. */
static void test_diff(void **state)
{
	static const char *const skip[] = {"boot_id", NULL};
	static const char *const ignore_sched[] = {"scheduler", "boot_id",
						   NULL};
	struct strbuf out = STRBUF_INIT, t = STRBUF_INIT;
	struct run_doc ra, rb, rc;
	const struct env_doc *a, *b, *c;

	(void)state;
	a = env_of(&ra, env_a);
	b = env_of(&rb, env_a);
	assert_int_equal(env_doc_json_diff(a, b, skip, &out), 0);
	assert_int_equal(out.len, 0);
	run_doc_release(&rb);
	/* a reboot alone does not matter */
	strbuf_addstr(&t, env_a);
	replace(&t, "\"aaa\"", "\"bbb\"");
	b = env_of(&rb, t.buf);
	assert_int_equal(env_doc_json_diff(a, b, skip, &out), 0);
	assert_int_equal(out.len, 0);
	run_doc_release(&rb);
	/* a kernel and a scheduler do */
	replace(&t, "6.1.0", "6.6.0");
	replace(&t, "\"mq-deadline\"", "\"none\"");
	b = env_of(&rb, t.buf);
	assert_int_equal(env_doc_json_diff(a, b, skip, &out), 2);
	assert_non_null(strstr(out.buf, "kernel_release: '6.1.0' vs '6.6.0'"));
	assert_non_null(strstr(out.buf, "stack.devices[vda].scheduler: "
					"'mq-deadline' vs 'none'"));
	/* an experiment varying the scheduler ignores it */
	strbuf_reset(&out);
	assert_int_equal(env_doc_json_diff(a, b, ignore_sched, &out), 1);
	/* a member only one side has, one decode kept as unknown */
	strbuf_setf(&t, "%s", env_a);
	replace(&t, "\"boot_id\"", "\"extra\":1,\"boot_id\"");
	c = env_of(&rc, t.buf);
	strbuf_reset(&out);
	assert_int_equal(env_doc_json_diff(a, c, skip, &out), 1);
	assert_non_null(strstr(out.buf, "extra: 'null' vs '1'"));
	run_doc_release(&rc);
	/* a device more */
	replace(&t, "128}]", "128},{}]");
	c = env_of(&rc, t.buf);
	strbuf_reset(&out);
	assert_int_equal(env_doc_json_diff(a, c, skip, &out), 2);
	assert_non_null(strstr(out.buf, "1 entries vs 2"));
	/* a part only one side has: its JSON against null */
	strbuf_reset(&out);
	assert_int_equal(env_doc_json_diff(a, NULL, skip, &out), 1);
	assert_non_null(strstr(out.buf, ": '{\"kernel_release\":\"6.1.0\","));
	run_doc_release(&ra);
	run_doc_release(&rb);
	run_doc_release(&rc);
	strbuf_release(&out);
	strbuf_release(&t);
}

/* A device of one stack for env_doc_diff()'s tests. */
static void one_dev(struct env_doc *e, const char *sched)
{
	e->stack = xcalloc(1, sizeof(*e->stack));
	e->stack->devices = xcalloc(2, sizeof(*e->stack->devices));
	e->stack->nr_devices = 1;
	e->stack->devices[0].name = xstrdup("vda");
	e->stack->devices[0].scheduler = xstrdup(sched);
	e->stack->devices[0].read_ahead_kb = 128;
	e->stack->devices[0].has_read_ahead_kb = MODEL_SET;
}

/* The same on documents: paths, ignored names, null, a device more. */
static void test_doc_diff(void **state)
{
	struct env_doc a, b;
	struct strbuf out = STRBUF_INIT;
	static const char *const ignore_sched[] = {"scheduler", NULL};

	(void)state;
	env_doc_init(&a);
	env_doc_init(&b);
	a.kernel_release = xstrdup("6.1.0");
	b.kernel_release = xstrdup("6.1.0");
	a.boot_id = xstrdup("aaa");
	b.boot_id = xstrdup("bbb");
	one_dev(&a, "mq-deadline");
	one_dev(&b, "mq-deadline");
	/* a reboot alone does not matter */
	assert_int_equal(env_doc_diff(&a, &b, NULL, &out), 0);
	assert_int_equal(out.len, 0);
	/* a kernel and a scheduler do */
	free(b.kernel_release);
	b.kernel_release = xstrdup("6.6.0");
	free(b.stack->devices[0].scheduler);
	b.stack->devices[0].scheduler = xstrdup("none");
	assert_int_equal(env_doc_diff(&a, &b, NULL, &out), 2);
	assert_string_equal(out.buf,
			    "kernel_release: '6.1.0' vs '6.6.0'\n"
			    "stack.devices[vda].scheduler: 'mq-deadline' vs "
			    "'none'\n");
	/* an experiment varying the scheduler ignores it */
	strbuf_reset(&out);
	assert_int_equal(env_doc_diff(&a, &b, ignore_sched, &out), 1);
	/* null and a number; a part only one side has */
	b.stack->devices[0].has_read_ahead_kb = MODEL_NULL;
	b.vm = xcalloc(1, sizeof(*b.vm));
	b.vm->dirty_ratio = 20;
	b.vm->has_dirty_ratio = MODEL_SET;
	strbuf_reset(&out);
	assert_int_equal(env_doc_diff(&a, &b, ignore_sched, &out), 3);
	assert_non_null(strstr(out.buf, "vm.dirty_ratio: 'null' vs '20'\n"));
	assert_non_null(strstr(out.buf, "stack.devices[vda].read_ahead_kb: "
					"'128' vs 'null'\n"));
	/* a device more */
	b.stack->nr_devices = 2;
	b.stack->devices[1].name = xstrdup("vdb");
	strbuf_reset(&out);
	assert_int_equal(env_doc_diff(&a, &b, ignore_sched, &out), 3);
	assert_non_null(strstr(out.buf, "stack.devices: 1 entries vs 2\n"));
	/* a list of strings, entry by entry */
	a.fleet_hosts = xcalloc(2, sizeof(char *));
	b.fleet_hosts = xcalloc(2, sizeof(char *));
	a.nr_fleet_hosts = b.nr_fleet_hosts = 2;
	a.has_fleet_hosts = b.has_fleet_hosts = MODEL_SET;
	a.fleet_hosts[0] = xstrdup("h1");
	b.fleet_hosts[0] = xstrdup("h1");
	a.fleet_hosts[1] = xstrdup("h2");
	b.fleet_hosts[1] = xstrdup("h3");
	strbuf_reset(&out);
	assert_int_equal(env_doc_diff(&a, &b, ignore_sched, &out), 4);
	assert_non_null(strstr(out.buf, "fleet_hosts[1]: 'h2' vs 'h3'\n"));
	/* none recorded on one side */
	strbuf_reset(&out);
	assert_true(env_doc_diff(&a, NULL, NULL, &out) > 0);
	assert_non_null(strstr(out.buf, "kernel_release: '6.1.0' vs 'null'"));
	env_doc_release(&a);
	env_doc_release(&b);
	strbuf_release(&out);
}

/* Two snapshots of the same target now are equal. */
static void test_same_machine_same_env(void **state)
{
	struct env e1, e2;
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
	struct env_doc d1, d2;

	(void)state;
	assert_int_equal(env_capture(&e1, "/", &err), 0);
	assert_int_equal(env_capture(&e2, "/", &err), 0);
	env_to_doc(&e1, &d1);
	env_to_doc(&e2, &d2);
	assert_int_equal(env_doc_json_diff(&d1, &d2, NULL, &out), 0);
	assert_int_equal(env_doc_diff(&d1, &d2, NULL, &out), 0);
	assert_int_equal(out.len, 0);
	env_doc_release(&d1);
	env_doc_release(&d2);
	env_release(&e1);
	env_release(&e2);
	strbuf_release(&err);
	strbuf_release(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_capture),
	    cmocka_unit_test(test_capture_bad_path),
	    cmocka_unit_test(test_doc),
	    cmocka_unit_test(test_diff),
	    cmocka_unit_test(test_doc_diff),
	    cmocka_unit_test(test_same_machine_same_env),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
