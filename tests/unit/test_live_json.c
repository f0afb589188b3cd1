/*
 * Tests for core/live/live_json.c: the experiment object observe makes
 * of its windows, analysed. The windows are made up (no device is
 * read), so the object is the same on every machine, and it must be
 * byte for byte the one in tests/data/live/: the goldens were written
 * by live_json.c when it still built its json-c tree by key, so they
 * hold observe's member order, its windows' run objects (device rows
 * unrounded, byte counts as 1234.0) and the marks the analysis leaves
 * (no drift reason, other I/O as a reason). Four shapes: analysed, with
 * other I/O and a drifting arm; too few windows for an analysis; an
 * abort; a window of metric 0.
 *
 * Run as `test_live_json --print N` it prints shape N's object (how
 * the goldens were made).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "core/live/live-int.h"
#include "core/model/model_json.h"
#include "core/report/openmetrics_doc.h"
#include "core/report/page.h"
#include "core/report/report_formats.h"
#include "util/xalloc.h"
#include "util/banned.h"

enum shape { ANALYSED, TOO_FEW, ABORTED, NONPOSITIVE, NR_SHAPES };

static const char *const golden[NR_SHAPES] = {
    "observe-analysed.json",
    "observe-too-few.json",
    "observe-abort.json",
    "observe-nonpositive.json",
};

static char *values[] = {"1024", "64"};

/* A two-arm observe of max_sectors_kb over blocks blocks, a settle
 * window before each measured one. */
static void make_live(struct live *lv, struct experiment_factor *f,
		      struct experiment_arm *arms, struct arm_setting *set)
{
	memset(lv, 0, sizeof(*lv));
	strbuf_init(&lv->stopped, 0);
	lv->c.target = "/dev/loop9";
	lv->c.disk = "loop9";
	lv->c.metric = "iops";
	lv->c.seed = 7;
	lv->c.window_ns = 1000000000ull;
	lv->c.settle_ns = 500000000ull;
	lv->c.command_line = "iotrial observe --device /dev/loop9 --vary "
			     "max_sectors_kb=1024,64";
	memset(f, 0, sizeof(*f));
	f->name = "max_sectors_kb";
	f->is_knob = 1;
	f->values = values;
	f->nr_values = 2;
	lv->factors = f;
	lv->nr_factors = 1;
	set[0] = (struct arm_setting){
	    .name = "max_sectors_kb", .value = "1024", .is_knob = 1};
	set[1] = (struct arm_setting){
	    .name = "max_sectors_kb", .value = "64", .is_knob = 1};
	arms[0] = (struct experiment_arm){.label = "max_sectors_kb=1024",
					  .settings = &set[0]};
	arms[1] = (struct experiment_arm){.label = "max_sectors_kb=64",
					  .settings = &set[1]};
	lv->e.arms = arms;
	lv->e.nr_arms = 2;
	lv->e.baseline = 0;
}

/* Slot i of block b for arm a: settle or measured. */
static void make_slot(struct live_slot *s, unsigned b, unsigned a, bool settle,
		      size_t i, enum shape shape)
{
	double base = a ? 900.0 : 100.0;

	memset(s, 0, sizeof(*s));
	s->w.block = b;
	s->w.arm = a;
	s->w.settle = settle;
	s->w.t_s = 0.75 + 1.5 * (double)i;
	/* arm 0 drifts up block by block */
	s->w.metric = settle ? NAN : base + (a ? 7.0 * (b % 3) : 11.0 * b);
	if (shape == NONPOSITIVE && b == 2 && a == 1 && !settle)
		s->w.metric = 0;
	if (shape == TOO_FEW && a == 1)
		s->w.metric = NAN; /* never measured */
	s->w.load = 40.0 + (double)(i % 5);
	s->start_s = 1.5 * (double)i;
	s->m.seconds = settle ? 0.5 : 1.0 + (double)i / 1024;
	s->m.have_disk = true;
	s->m.d.seconds = s->m.seconds;
	s->m.d.reads = 10 * i;
	s->m.d.writes = 3 * i + 1;
	s->m.d.write_bytes = 1048576ull * (i + 1);
	s->m.d.read_bytes = 4096ull * i;
	s->m.d.r_s = (double)s->m.d.reads / s->m.seconds;
	s->m.d.w_s = (double)s->m.d.writes / s->m.seconds;
	s->m.d.rmbps = (double)s->m.d.read_bytes / 1e6 / s->m.seconds;
	s->m.d.wmbps = (double)s->m.d.write_bytes / 1e6 / s->m.seconds;
	s->m.d.aqu_sz = 0.5 + (double)i / 3;
	s->m.d.w_await_ms = 2.0 / 3;
	s->m.mb = (double)(s->m.d.read_bytes + s->m.d.write_bytes) / 1e6;
	s->m.requests = (double)(s->m.d.reads + s->m.d.writes);
	s->m.dirty_bytes = 4096.0 * (double)i;
	s->m.writeback_bytes = NAN;
	s->m.user = NAN;
	if (b == 1 && !settle) {
		s->m.user = 17.25;
		s->m.user_ok = true;
	}
	if (b == 3 && a == 1 && !settle)
		s->note = xstrdup("the device could not be read at the end");
	if ((b == 4 || b == 1) && !settle)
		s->other = xstrdup("other processes wrote 3.1 MB beside the "
				   "cgroup's");
	if (b == 4 && a == 0 && !settle) {
		s->m.have_cg = true;
		s->m.cg_mb = 1.5;
		s->m.cg_iops = 12;
		s->m.cg_mbps = 1.5 / s->m.seconds;
		s->m.other_mb = 3.1;
	}
	if (shape == ABORTED && b == 5 && a == 1 && !settle)
		s->w.cut_short = true;
}

/* doc's page in every format of `report`, and its metrics, into out. */
static void render_all(const struct experiment_doc *doc, struct strbuf *out)
{
	static const char *const formats[] = {"text", "md", "html", "csv"};
	struct strbuf err = STRBUF_INIT;
	struct om_writer w;
	size_t i;

	for (i = 0; i < sizeof(formats) / sizeof(*formats); i++) {
		strbuf_addf(out, "--- %s\n", formats[i]);
		if (report_render(doc, formats[i], out, &err))
			strbuf_addf(out, "error: %s\n", err.buf);
		strbuf_reset(&err);
	}
	strbuf_addstr(out, "--- verdicts\n");
	report_page(doc, &emit_text_ops, REPORT_PAGE_VERDICTS, out, &err);
	strbuf_addstr(out, "--- metrics\n");
	om_init(&w, out, OM_PROMETHEUS, "observe");
	om_experiment(&w, doc);
	strbuf_release(&err);
}

/*
 * What observe renders from its document is what it rendered when it
 * held the tree, decoded: what `show` renders of the stored text.
 */
static void same_decoded(const struct experiment_doc *doc,
			 const struct strbuf *text)
{
	struct experiment_doc back;
	struct strbuf err = STRBUF_INIT, got = STRBUF_INIT, want = STRBUF_INIT;

	if (experiment_doc_decode(text->buf, text->len, &back, 0, &err))
		fail_msg("the document does not decode: %s", err.buf);
	render_all(doc, &got);
	render_all(&back, &want);
	if (strcmp(got.buf, want.buf))
		fail_msg("rendered differently; from the document:\n%s\n"
			 "decoded:\n%s",
			 got.buf, want.buf);
	experiment_doc_release(&back);
	strbuf_release(&err);
	strbuf_release(&got);
	strbuf_release(&want);
}

/* Shape shape's object, pretty, into out. */
static void build(enum shape shape, struct strbuf *out)
{
	struct experiment_factor f;
	struct experiment_arm arms[2];
	struct arm_setting set[2];
	struct strbuf err = STRBUF_INIT;
	unsigned blocks = shape == TOO_FEW ? 1 : 6, b, k;
	size_t nr = 0, i;
	struct live_slot *slots = xcalloc(4 * blocks, sizeof(*slots));
	const char *warn[] = {"the load was light"};
	struct live_abort *ab = NULL;
	struct live lv;

	make_live(&lv, &f, arms, set);
	lv.c.blocks = blocks;
	for (b = 0; b < blocks; b++)
		for (k = 0; k < 2; k++) {
			unsigned a = (b + k) % 2; /* each block's own order */

			make_slot(&slots[nr], b, a, true, nr, shape);
			nr++;
			make_slot(&slots[nr], b, a, false, nr, shape);
			nr++;
		}
	if (shape == ABORTED) {
		ab = xcalloc(1, sizeof(*ab));
		ab->rule = xstrdup("await>50");
		ab->why = xstrdup("await 61.2 ms > 50");
		ab->value = 61.2;
		ab->window = (int64_t)nr - 1;
		ab->restored_after_s = 0.25;
		ab->has_restored_after_s = MODEL_SET;
		strbuf_addstr(&lv.stopped, "aborted: await>50");
	}
	assert_int_equal(live_build_object(&lv, slots, nr, warn, 1, ab, &err),
			 0);
	assert_non_null(lv.doc);
	experiment_doc_encode(lv.doc, 0, out);
	same_decoded(lv.doc, out);
	for (i = 0; i < nr; i++) {
		free(slots[i].note);
		free(slots[i].other);
	}
	free(slots);
	/* live_release() would release the plan's parts too: ours are on
	 * the stack */
	experiment_doc_free(lv.doc);
	strbuf_release(&lv.stopped);
	strbuf_release(&err);
}

/* tests/data/live/NAME, read whole into sb. */
static void read_data(const char *name, struct strbuf *sb)
{
	struct strbuf path = STRBUF_INIT;
	const char *src = getenv("IOTRIAL_SRC");
	FILE *fp;
	char buf[4096];
	size_t n;

	strbuf_addf(&path, "%s/tests/data/live/%s", src ? src : ".", name);
	fp = fopen(path.buf, "r");
	if (!fp)
		fail_msg("cannot read %s", path.buf);
	while ((n = fread(buf, 1, sizeof(buf), fp)) > 0)
		strbuf_add(sb, buf, n);
	fclose(fp);
	strbuf_release(&path);
}

static void check_shape(enum shape shape)
{
	struct strbuf got = STRBUF_INIT, want = STRBUF_INIT;

	build(shape, &got);
	read_data(golden[shape], &want);
	if (strcmp(got.buf, want.buf))
		fail_msg("%s differs; got:\n%s", golden[shape], got.buf);
	strbuf_release(&got);
	strbuf_release(&want);
}

static void test_analysed(void **state)
{
	(void)state;
	check_shape(ANALYSED);
}

static void test_too_few(void **state)
{
	(void)state;
	check_shape(TOO_FEW);
}

static void test_aborted(void **state)
{
	(void)state;
	check_shape(ABORTED);
}

static void test_nonpositive(void **state)
{
	(void)state;
	check_shape(NONPOSITIVE);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_analysed),
	    cmocka_unit_test(test_too_few),
	    cmocka_unit_test(test_aborted),
	    cmocka_unit_test(test_nonpositive),
	};

	if (argc == 3 && !strcmp(argv[1], "--print")) {
		struct strbuf out = STRBUF_INIT;
		int n = atoi(argv[2]);

		if (n < 0 || n >= NR_SHAPES)
			return 2;
		build((enum shape)n, &out);
		fputs(out.buf, stdout);
		strbuf_release(&out);
		return 0;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
