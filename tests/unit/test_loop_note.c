/*
 * A queue knob of a loop device acts on the loop device's own queue,
 * not on the disk's (issue 30: a scheduler compared on a loop device
 * with no word that it is not the disk's scheduler). Said in the note
 * of a plan's change (which compare, set and apply print),
 * once in the knobs listing's head, and on the "measured:" line of an
 * experiment whose knob was set on a loop device, naming the disk
 * under its backing file and the scheduler it kept. Against a fake
 * sysfs tree (knob_ctx.root); nothing here touches the machine.
 */
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
#include "core/knob/plan.h"
#include "core/report/devices_text.h"
#include "core/report/knob_text.h"
#include "util/strbuf.h"
#include "doc_text_helper.h"
#include "util/xalloc.h"

static char root[] = "/tmp/iotrial-test-loopnote.XXXXXX";

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
	put("/sys/block/loop7/dev", "7:7\n");
	put("/sys/block/loop7/queue/scheduler", "[none] mq-deadline kyber\n");
	put("/sys/block/loop7/queue/nr_requests", "128\n");
	put("/sys/block/loop7/queue/read_ahead_kb", "128\n");
	put("/sys/block/loop7/loop/backing_file",
	    "/var/tmp/scratch\x1b[31m.img (deleted)\n");
	put("/sys/block/fake0/dev", "250:0\n");
	put("/sys/block/fake0/queue/scheduler", "none [mq-deadline] kyber\n");
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

/* The note of the plan of assignment on disk, into note. */
static void plan_note(const char *disk, const char *assignment,
		      struct strbuf *note)
{
	struct strbuf err = STRBUF_INIT;
	struct knob_plan p;
	struct knob_ctx c;

	knob_ctx_init(&c);
	free(c.root);
	c.root = xstrdup(root);
	c.disk = xstrdup(disk);
	knob_plan_init(&p, &c);
	assert_int_equal(knob_plan_add(&p, assignment, &err), 0);
	assert_int_equal(knob_plan_build(&p, &err), 0);
	assert_int_equal(p.nr, 1);
	strbuf_reset(note);
	strbuf_addstr(note, p.v[0].note.buf);
	knob_plan_release(&p);
	knob_ctx_release(&c);
	strbuf_release(&err);
}

static void test_plan_note(void **state)
{
	struct strbuf note = STRBUF_INIT;

	(void)state;
	plan_note("loop7", "scheduler=mq-deadline", &note);
	assert_string_equal(
	    note.buf, "'scheduler' on 'loop7' acts on the loop device's "
		      "own queue, not on the disk's: 'loop7' passes its "
		      "I/O to its backing file '/var/tmp/scratch?[31m.img'");
	plan_note("loop7", "nr_requests=64", &note);
	assert_non_null(strstr(note.buf, "'nr_requests' on 'loop7' acts on "
					 "the loop device's own queue"));
	/* after a translation's note, which keeps its place first */
	plan_note("loop7", "scheduler=deadline", &note);
	assert_non_null(strstr(note.buf, "; 'scheduler' on 'loop7' acts"));
	assert_ptr_equal(strstr(note.buf, "'deadline'"), note.buf);
	/* read-ahead of a loop device is what its file system reads by */
	plan_note("loop7", "read_ahead_kb=256", &note);
	assert_int_equal(note.len, 0);
	/* a disk is its own queue */
	plan_note("fake0", "scheduler=kyber", &note);
	assert_int_equal(note.len, 0);
	strbuf_release(&note);
}

static void test_knobs_head(void **state)
{
	struct strbuf out = STRBUF_INIT;
	struct knob_ctx c;

	(void)state;
	knob_ctx_init(&c);
	free(c.root);
	c.root = xstrdup(root);
	c.disk = xstrdup("loop7");
	report_knobs_head(&c, &out);
	assert_string_equal(out.buf,
			    "knobs of device 'loop7'\nnote: 'loop7' is a loop "
			    "device: its scheduler and queue limits act on its "
			    "own queue, not on the disk's: 'loop7' passes its "
			    "I/O to its backing file "
			    "'/var/tmp/scratch?[31m.img'\n\n");
	free(c.disk);
	c.disk = xstrdup("fake0");
	strbuf_reset(&out);
	report_knobs_head(&c, &out);
	assert_string_equal(out.buf, "knobs of device 'fake0'\n\n");
	knob_ctx_release(&c);
	strbuf_release(&out);
}

/* The measured line of an experiment whose scheduler was set on a loop
 * device names the disk under it and the scheduler that disk kept. */
static void test_measured_line(void **state)
{
	static const char text[] =
	    "{\"schema\": \"iotrial/1\", \"type\": \"experiment\", "
	    "\"factors\": [{\"name\": \"scheduler\", \"kind\": \"knob\", "
	    "\"canonical\": \"scheduler\", \"scope\": \"device\", "
	    "\"object\": \"loop7\"}], \"runs\": [{\"arm\": 0, \"run\": "
	    "{\"truth\": {\"device\": \"loop7\", \"device_read_bytes\": 100, "
	    "\"logical_read_bytes\": 100}}}, {\"arm\": 1, \"run\": {\"truth\": "
	    "{\"device\": \"loop7\", \"device_read_bytes\": 100, "
	    "\"logical_read_bytes\": 100}}}], \"env\": {\"stack\": "
	    "{\"devices\": [{\"name\": \"loop7\", \"kind\": \"loop\"}, "
	    "{\"name\": \"vda\", \"kind\": \"disk\", \"via\": \"backing\", "
	    "\"parent\": \"loop7\", \"scheduler\": \"mq-deadline\"}]}}}";
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	struct experiment_doc e;

	(void)state;
	doc_text(text, &e);
	assert_int_equal(doc_text_page(&e, REPORT_SEC(devices), &out, &err), 0);
	assert_non_null(strstr(out.buf, "; scheduler was set on 'loop7', the "
					"loop device's own queue, not that of "
					"'vda' under its backing file (whose "
					"scheduler stayed mq-deadline)\n"));
	experiment_doc_release(&e);
	strbuf_release(&out);
	strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_plan_note),
	    cmocka_unit_test(test_knobs_head),
	    cmocka_unit_test(test_measured_line),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
