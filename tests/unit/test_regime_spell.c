/*
 * Every spelling of a knob reaches the same judgement: the modern name,
 * the Linux 2.4 names (bdflush.* and a bdflush line), the raw sysfs:
 * and sysctl: paths, the old scheduler names, read-ahead in 512-byte
 * sectors as blockdev --setra counts them, sizes, durations and
 * percents. One table: each row is one setting (two values, as a
 * compare varies it) in the spellings iotrial accepts for it. For each
 * spelling and value the plan is built on a fake sysfs/proc tree, as a
 * trial builds an arm's; a spelling of one knob must write the same
 * file with the same value and be judged alike (state, the knob it is
 * judged as, the reason) for every observed run of a second table;
 * and the experiment of each row's two values, its runs judged as a
 * trial judges them, must get the same "regimes" whatever the
 * spelling. A last table holds spellings that are refused: the error
 * must not advise what it refused. A new spelling is one string in a
 * row, a new setting one row, a new kind of run one fixture.
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
#include "core/knob/plan.h"
#include "core/experiment/regime.h"
#include "core/model/model_json.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define MIB	      (1024ull * 1024ull)
#define GIB	      (1024ull * MIB)
#define MAX_SPELLINGS 8

/*
 * One setting: "NAME=V1|V2" in each spelling (values split at '|': a
 * bdflush line has spaces, an atime value commas). judged: its family
 * judges it, so some fixture must reach it and some must not.
 */
struct spelling_row {
	const char *spellings[MAX_SPELLINGS];
	int judged;
};

#define Q "sysfs:/sys/block/fake0/queue/"

static const struct spelling_row rows[] = {
    {{"vm.dirty_background_ratio=10|80", "vm.dirty_background_ratio=10%|80%",
      "bdflush.nfract=10|80", "bdflush=10|80",
      "sysctl:vm.dirty_background_ratio=10|80",
      "sysctl:vm/dirty_background_ratio=10|80"},
     1},
    {{"vm.dirty_ratio=20|40", "vm.dirty_ratio=20%|40%",
      "bdflush.nfract_sync=20|40", "sysctl:vm.dirty_ratio=20|40",
      /* a line whose values differ only in nfract_sync */
      "bdflush=10 0 0 0 500 3000 20 0 0|10 0 0 0 500 3000 40 0 0"},
     1},
    {{"vm.dirty_bytes=268435456|1073741824", "vm.dirty_bytes=256M|1G",
      "vm.dirty_bytes=256MiB|1GiB",
      "sysctl:vm.dirty_bytes=268435456|1073741824"},
     1},
    {{"vm.dirty_background_bytes=67108864|536870912",
      "vm.dirty_background_bytes=64M|512M",
      "sysctl:vm.dirty_background_bytes=67108864|536870912"},
     1},
    {{"vm.dirty_writeback_centisecs=500|1000",
      "vm.dirty_writeback_centisecs=5s|10s", "bdflush.interval=500|1000",
      "sysctl:vm.dirty_writeback_centisecs=500|1000",
      "bdflush=10 0 0 0 500|10 0 0 0 1000"},
     1},
    {{"vm.dirty_expire_centisecs=3000|6000", "vm.dirty_expire_centisecs=30s|1m",
      "bdflush.age_buffer=3000|6000",
      "sysctl:vm.dirty_expire_centisecs=3000|6000",
      "bdflush=10 0 0 0 500 3000|10 0 0 0 500 6000"},
     1},
    {{"vm.dirtytime_expire_seconds=43200|3600",
      "vm.dirtytime_expire_seconds=12h|1h",
      "sysctl:vm.dirtytime_expire_seconds=43200|3600"},
     1},
    {{"read_ahead_kb=128|2048", "read_ahead_kb=128k|2048k",
      "read_ahead_kb=128KiB|2MiB", "read_ahead_kb=256s|4096s",
      Q "read_ahead_kb=128|2048"},
     1},
    /* blockdev --setra 4096 is 2 MiB; read_ahead_kb=4096 is 4 MiB */
    {{"read_ahead_kb=4096|8192", "read_ahead_kb=8192s|16384s",
      "read_ahead_kb=4MiB|8MiB", Q "read_ahead_kb=4096|8192"},
     1},
    {{"scheduler=mq-deadline|none", "scheduler=deadline|noop",
      Q "scheduler=mq-deadline|none"},
     1},
    {{"scheduler=kyber|mq-deadline", "scheduler=kyber|deadline",
      Q "scheduler=kyber|mq-deadline"},
     1},
    {{"iosched.read_expire=500|250", "iosched.read_expire=500ms|250ms",
      "iosched.read_expire=0.5s|0.25s", Q "iosched/read_expire=500|250"},
     1},
    {{"nr_requests=64|128", Q "nr_requests=64|128"}, 1},
    {{"wbt_lat_usec=75000|2000", "wbt_lat_usec=75ms|2ms",
      Q "wbt_lat_usec=75000|2000"},
     1},
    {{"max_sectors_kb=512|1024", "max_sectors_kb=512k|1M",
      Q "max_sectors_kb=512|1024"},
     0},
    {{"nomerges=0|2", Q "nomerges=0|2"}, 0},
    {{"rq_affinity=1|2", Q "rq_affinity=1|2"}, 0},
    {{"atime=relatime,lazytime|noatime", "atime=lazytime,relatime|noatime"}, 1},
};

/* The fake disk's device, as the runs below observed it. */
#define DEV(...) .devs = {{.name = "fake0", __VA_ARGS__}}, .nr_devs = 1

/* The runs every spelling is judged on. */
static const struct knob_obs fixtures[] = {
    /* read nothing, wrote nothing */
    {.seconds = 2, .have_io = 1, .have_mount = 1, DEV(.intervals = 8)},
    /* note 002: dirty memory far below the thresholds, a queue of one,
     * small random reads */
    {.seconds = 2,
     .have_io = 1,
     .read_bytes = 500 * MIB,
     .write_bytes = 400 * MIB,
     .have_mount = 1,
     .have_dirty = 1,
     .dirty_peak_bytes = 90 * MIB,
     .dirty_wb_peak_bytes = 95 * MIB,
     .have_thresh = 1,
     .dirtyable_bytes = 24 * GIB,
     .bg_thresh_bytes = 24 * GIB / 10,
     .thresh_bytes = 24 * GIB / 5,
     DEV(.reads = 64000, .read_bytes = 250 * MIB, .max_rareq_kib = 4,
	 .max_in_flight = 1, .max_aqu_sz = 1.0, .intervals = 8)},
    /* a long heavy writer past both thresholds, a deep queue, reads
     * in requests as large as any window */
    {.seconds = 100000,
     .have_io = 1,
     .read_bytes = 8 * GIB,
     .write_bytes = 20 * GIB,
     .have_mount = 1,
     .lazytime = 1,
     .have_dirty = 1,
     .dirty_peak_bytes = 6 * GIB,
     .dirty_wb_peak_bytes = 7 * GIB,
     .have_thresh = 1,
     .dirtyable_bytes = 24 * GIB,
     .bg_thresh_bytes = 24 * GIB / 10,
     .thresh_bytes = 24 * GIB / 5,
     DEV(.reads = 8192, .read_bytes = 8 * GIB, .max_rareq_kib = 8192,
	 .max_in_flight = 64, .max_aqu_sz = 48, .intervals = 400)},
    /* direct reads */
    {.seconds = 3,
     .have_io = 1,
     .read_bytes = 1 * GIB,
     .direct = 1,
     DEV(.reads = 262144, .read_bytes = 1 * GIB, .max_rareq_kib = 4,
	 .max_in_flight = 4, .max_aqu_sz = 3.5, .intervals = 12)},
    /* buffered sequential reads in 128 KiB requests, written on a
     * lazytime mount: only the mtimes stay in memory */
    {.seconds = 4,
     .have_io = 1,
     .read_bytes = 2 * GIB,
     .write_bytes = 16 * MIB,
     .have_mount = 1,
     .lazytime = 1,
     .have_dirty = 1,
     .dirty_peak_bytes = 16 * MIB,
     .dirty_wb_peak_bytes = 16 * MIB,
     .have_thresh = 1,
     .dirtyable_bytes = 24 * GIB,
     .bg_thresh_bytes = 24 * GIB / 10,
     .thresh_bytes = 24 * GIB / 5,
     DEV(.reads = 16384, .read_bytes = 2 * GIB, .max_rareq_kib = 128,
	 .max_in_flight = 2, .max_aqu_sz = 1.8, .intervals = 16)},
    /* a cgroup v2 of 256 MiB whose dirty memory passed its own
     * background threshold */
    {.seconds = 2,
     .have_io = 1,
     .write_bytes = 400 * MIB,
     .have_dirty = 1,
     .dirty_peak_bytes = 90 * MIB,
     .dirty_wb_peak_bytes = 95 * MIB,
     .have_thresh = 1,
     .dirtyable_bytes = 24 * GIB,
     .bg_thresh_bytes = 24 * GIB / 10,
     .thresh_bytes = 24 * GIB / 5,
     .cg_version = 2,
     .cg_memory_max = 256 * MIB,
     .have_cg_dirty = 1,
     .cg_dirty_peak_bytes = 87 * MIB,
     .cg_dirty_wb_peak_bytes = 88 * MIB,
     .cg_dirtyable_bytes = 240 * MIB},
    /* nothing observed */
    {.seconds = 1},
};

/* Spellings refused, and the word the error must not advise. */
static const struct {
	const char *assignment, *refused;
} refusals[] = {
    {"scheduler=cfq", "cfq"}, /* bfq, its successor, is not offered */
    {"scheduler=bfq", "bfq"},
    {"elevator=deadline", "elevator"},
    {"readahead=4096", "readahead"},
    {"noatime=1", "noatime"},
    {"bdflush.ndirty=500", "ndirty"},
    {"bdflush.nfract_stop_bdflush=60", "nfract_stop_bdflush"},
    {"read_ahead_kb=fast", "fast"},
    {"vm.dirty_ratio=120", "120"},
    {"sysctl:vm.dirty_ratio=|20", "|20"},
};

static char root[] = "/tmp/iotrial-test-spell.XXXXXX";

/* Cells that differ: each is printed, the test fails at its end, so
 * that one run lists every cell that fails. */
static unsigned mismatches;

static void mismatch(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));
static void mismatch(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	mismatches++;
}

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
	static const char *const files[][2] = {
	    {"/sys/block/fake0/dev", "250:0"},
	    {"/sys/block/fake0/diskseq", "7"},
	    {"/sys/block/fake0/queue/scheduler", "none [mq-deadline] kyber"},
	    {"/sys/block/fake0/queue/iosched/read_expire", "500"},
	    {"/sys/block/fake0/queue/iosched/write_expire", "5000"},
	    {"/sys/block/fake0/queue/read_ahead_kb", "128"},
	    {"/sys/block/fake0/queue/max_sectors_kb", "1280"},
	    {"/sys/block/fake0/queue/max_hw_sectors_kb", "2048"},
	    {"/sys/block/fake0/queue/nr_requests", "64"},
	    {"/sys/block/fake0/queue/wbt_lat_usec", "2000"},
	    {"/sys/block/fake0/queue/nomerges", "0"},
	    {"/sys/block/fake0/queue/rq_affinity", "1"},
	    {"/proc/sys/vm/dirty_ratio", "20"},
	    {"/proc/sys/vm/dirty_bytes", "0"},
	    {"/proc/sys/vm/dirty_background_ratio", "10"},
	    {"/proc/sys/vm/dirty_background_bytes", "0"},
	    {"/proc/sys/vm/dirty_expire_centisecs", "3000"},
	    {"/proc/sys/vm/dirty_writeback_centisecs", "500"},
	    {"/proc/sys/vm/dirtytime_expire_seconds", "43200"},
	};
	size_t i;

	(void)state;
	if (!mkdtemp(root))
		return -1;
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		struct strbuf line = STRBUF_INIT;

		strbuf_addf(&line, "%s\n", files[i][1]);
		put(files[i][0], line.buf);
		strbuf_release(&line);
	}
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

/* The fake disk's context; atime's mount is the real "/". */
static void ctx_fake(struct knob_ctx *c)
{
	knob_ctx_init(c);
	free(c->root);
	c->root = xstrdup(root);
	c->disk = xstrdup("fake0");
	c->mountpoint = xstrdup("/");
}

/* One spelling split: its name and its values. */
struct spelled {
	char *name;
	char *values[2];
};

static void spelled_split(const char *s, struct spelled *sp)
{
	const char *eq = strchr(s, '='), *bar;

	assert_non_null(eq);
	bar = strchr(eq + 1, '|');
	assert_non_null(bar);
	sp->name = xstrndup(s, (size_t)(eq - s));
	sp->values[0] = xstrndup(eq + 1, (size_t)(bar - eq - 1));
	sp->values[1] = xstrdup(bar + 1);
}

static void spelled_release(struct spelled *sp)
{
	free(sp->name);
	free(sp->values[0]);
	free(sp->values[1]);
}

/* The plan of name=value built on ctx, as a trial builds an arm's. */
static void plan_of(struct knob_ctx *ctx, const char *name, const char *value,
		    struct knob_plan *p)
{
	struct strbuf a = STRBUF_INIT, err = STRBUF_INIT;

	strbuf_addf(&a, "%s=%s", name, value);
	knob_plan_init(p, ctx);
	if (knob_plan_add(p, a.buf, &err) || knob_plan_build(p, &err))
		fail_msg("'%s' is refused: %s", a.buf, err.buf);
	strbuf_release(&a);
	strbuf_release(&err);
}

/* What a plan of one change writes: the file and the value as its
 * named knob reads it, into out. */
static void writes(const struct knob_change *c, struct strbuf *out)
{
	struct strbuf tc = STRBUF_INIT;
	struct knob twin;
	char *real;

	if (!knob_raw_twin(&c->k, c->canon.buf, &twin, &tc)) {
		real = realpath(twin.path, NULL);
		strbuf_addf(out, "%s=%s", real ? real : "?", tc.buf);
	} else {
		real = realpath(c->k.path, NULL);
		strbuf_addf(out, "%s=%s", real ? real : c->k.path,
			    c->canon.buf);
	}
	free(real);
	knob_release(&twin);
	strbuf_release(&tc);
}

/* The judgement of change c for o: "state|judged as|why", into out. */
static enum knob_regime judgement(const struct knob_change *c,
				  const struct knob_obs *o, struct strbuf *out)
{
	struct strbuf as = STRBUF_INIT, why = STRBUF_INIT;
	enum knob_regime g = knob_judge(&c->k, c->canon.buf, o, &as, &why);

	strbuf_addf(out, "%s|%s|%s", knob_regime_name(g), as.buf, why.buf);
	strbuf_release(&as);
	strbuf_release(&why);
	return g;
}

/* Run r of arm a, its regime entries the plan's, judged on o as a
 * trial judges them. */
static void run_of(struct exp_run *r, int a, const struct knob_plan *p,
		   const struct knob_obs *o)
{
	size_t i;

	r->arm = a;
	r->run = xcalloc(1, sizeof(*r->run));
	r->run->regime = xcalloc(p->nr + 1, sizeof(*r->run->regime));
	r->run->nr_regime = p->nr;
	r->run->has_regime = MODEL_SET;
	for (i = 0; i < p->nr; i++) {
		const struct knob_change *c = &p->v[i];
		struct run_regime_doc *e = &r->run->regime[i];
		struct strbuf as = STRBUF_INIT, why = STRBUF_INIT;
		enum knob_regime g =
		    knob_judge(&c->k, c->canon.buf, o, &as, &why);

		e->knob = xstrdup(c->input_name);
		e->canonical = strbuf_detach(&as, NULL);
		e->object = xstrdup(c->k.object);
		e->value = xstrdup(c->canon.buf);
		e->state = xstrdup(knob_regime_name(g));
		e->why = strbuf_detach(&why, NULL);
	}
}

/*
 * The regimes of an experiment varying sp over its two values (plans
 * p[0], p[1]), two blocks of runs all observed as o, as text without
 * the factor's name (the one thing spellings may differ in), into out.
 * With no_values, without the values' names too: a line of several
 * knobs is named by its value as given, a knob by its canonical value.
 */
static void regimes_of(const struct spelled *sp, const struct knob_plan *p,
		       const struct knob_obs *o, int no_values,
		       struct strbuf *out)
{
	struct experiment_doc doc;
	size_t i, j;
	int a;

	experiment_doc_init(&doc);
	doc.factors = xcalloc(1, sizeof(*doc.factors));
	doc.nr_factors = 1;
	doc.has_factors = MODEL_SET;
	doc.factors[0].name = xstrdup(sp->name);
	doc.factors[0].kind = xstrdup("knob");
	doc.arms = xcalloc(2, sizeof(*doc.arms));
	doc.nr_arms = 2;
	for (a = 0; a < 2; a++) {
		doc.arms[a].arm = a;
		doc.arms[a].settings =
		    xcalloc(1, sizeof(*doc.arms[a].settings));
		doc.arms[a].nr_settings = 1;
		doc.arms[a].has_settings = MODEL_SET;
		doc.arms[a].settings[0].name = xstrdup(sp->name);
		doc.arms[a].settings[0].value = xstrdup(sp->values[a]);
	}
	doc.runs = xcalloc(4, sizeof(*doc.runs));
	doc.nr_runs = 4;
	for (i = 0; i < 4; i++)
		run_of(&doc.runs[i], (int)(i % 2), &p[i % 2], o);
	regime_analyze(&doc);
	assert_int_equal(doc.has_regimes, MODEL_SET);
	for (i = 0; i < doc.nr_regimes; i++) {
		const struct exp_regime *g = &doc.regimes[i];

		strbuf_addf(out, "[%s|%s|%s|%s|%lld/%lld", g->state,
			    g->why ? g->why : "-", g->canonical, g->object,
			    (long long)g->not_reached, (long long)g->runs);
		for (j = 0; j < g->nr_values; j++)
			strbuf_addf(out, " {%s%s%lld: %s}",
				    no_values ? "" : g->values[j].value,
				    no_values ? "" : " ",
				    (long long)g->values[j].runs,
				    g->values[j].why ? g->values[j].why : "-");
		strbuf_addch(out, ']');
	}
	experiment_doc_release(&doc);
}

#define NR_FIXTURES (sizeof(fixtures) / sizeof(fixtures[0]))

/* What one spelling is compared by: a cell fails when want != got. */
struct cell {
	unsigned compared, differ;
	struct strbuf first; /* the first difference, for the message */
};

/* Count want against got in c, keeping the first difference. */
static void cell_add(struct cell *c, const char *what, const char *want,
		     const char *got)
{
	c->compared++;
	if (!strcmp(want, got))
		return;
	if (!c->differ++)
		strbuf_addf(&c->first, "%s:\n    %s\n  against\n    %s", what,
			    want, got);
}

/* Print c (one line, and its first difference) when it differs. */
static void cell_report(struct cell *c, const char *what, const char *ref,
			const char *spelling)
{
	if (c->differ)
		mismatch("'%s' differs from '%s' in %u of %u %s; first, %s",
			 spelling, ref, c->differ, c->compared, what,
			 c->first.buf);
	strbuf_release(&c->first);
}

/*
 * Spelling sp (plans p) against the row's first (ref_sp, ref): what
 * each value writes and how each fixture judges it, when it is one knob
 * as the first is; the regimes of the experiment of both values.
 */
static void compare_spelling(const struct spelled *ref_sp,
			     const struct knob_plan *ref, const char *ref_text,
			     const struct spelled *sp,
			     const struct knob_plan *p, const char *text)
{
	struct cell knob = {0, 0, STRBUF_INIT}, exp = {0, 0, STRBUF_INIT};
	struct strbuf want = STRBUF_INIT, got = STRBUF_INIT, what = STRBUF_INIT;
	int lines = p[0].nr > 1 || p[1].nr > 1, a;
	size_t f;

	for (a = 0; a < 2 && !lines; a++) {
		strbuf_reset(&want);
		strbuf_reset(&got);
		writes(&ref[a].v[0], &want);
		writes(&p[a].v[0], &got);
		strbuf_setf(&what, "what value %d writes", a);
		cell_add(&knob, what.buf, want.buf, got.buf);
		for (f = 0; f < NR_FIXTURES; f++) {
			strbuf_reset(&want);
			strbuf_reset(&got);
			judgement(&ref[a].v[0], &fixtures[f], &want);
			judgement(&p[a].v[0], &fixtures[f], &got);
			strbuf_setf(&what,
				    "the judgement of value %d on run %zu", a,
				    f);
			cell_add(&knob, what.buf, want.buf, got.buf);
		}
	}
	for (f = 0; f < NR_FIXTURES; f++) {
		strbuf_reset(&want);
		strbuf_reset(&got);
		regimes_of(ref_sp, ref, &fixtures[f], lines, &want);
		regimes_of(sp, p, &fixtures[f], lines, &got);
		strbuf_setf(&what, "the regimes when every run is run %zu", f);
		cell_add(&exp, what.buf, want.buf, got.buf);
	}
	cell_report(&knob, "knob checks", ref_text, text);
	cell_report(&exp, "experiments", ref_text, text);
	strbuf_release(&want);
	strbuf_release(&got);
	strbuf_release(&what);
}

/*
 * Every row: each spelling against the first, for each value, each
 * fixture, and the experiment of both values; and the fixtures must
 * reach a judged setting in some run and miss it in another.
 */
static void test_spellings_judged_alike(void **state)
{
	size_t r, s, f;
	int a;

	(void)state;
	mismatches = 0;
	for (r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
		const struct spelling_row *row = &rows[r];
		struct knob_plan ref[2];
		struct spelled ref_sp;
		struct knob_ctx ctx;
		int seen[3] = {0}, entries = 0;

		ctx_fake(&ctx);
		spelled_split(row->spellings[0], &ref_sp);
		for (a = 0; a < 2; a++)
			plan_of(&ctx, ref_sp.name, ref_sp.values[a], &ref[a]);
		assert_int_equal(ref[0].nr, 1);
		assert_int_equal(ref[1].nr, 1);
		for (s = 1; s < MAX_SPELLINGS && row->spellings[s]; s++) {
			struct knob_plan p[2];
			struct spelled sp;

			spelled_split(row->spellings[s], &sp);
			for (a = 0; a < 2; a++)
				plan_of(&ctx, sp.name, sp.values[a], &p[a]);
			compare_spelling(&ref_sp, ref, row->spellings[0], &sp,
					 p, row->spellings[s]);
			for (a = 0; a < 2; a++)
				knob_plan_release(&p[a]);
			spelled_release(&sp);
		}
		for (f = 0; f < NR_FIXTURES; f++) {
			struct strbuf sb = STRBUF_INIT;

			for (a = 0; a < 2; a++)
				seen[judgement(&ref[a].v[0], &fixtures[f],
					       &sb)]++;
			/* a fixture that misses both values: an entry */
			strbuf_reset(&sb);
			regimes_of(&ref_sp, ref, &fixtures[f], 0, &sb);
			if (strstr(sb.buf, "[not_reached|"))
				entries++;
			strbuf_release(&sb);
		}
		if (row->judged && !(seen[KNOB_REGIME_REACHED] &&
				     seen[KNOB_REGIME_NOT_REACHED]))
			mismatch("no fixture both reaches and misses '%s'",
				 row->spellings[0]);
		if (row->judged && !entries)
			mismatch("no experiment of '%s' has a regimes entry",
				 row->spellings[0]);
		for (a = 0; a < 2; a++)
			knob_plan_release(&ref[a]);
		spelled_release(&ref_sp);
		knob_ctx_release(&ctx);
	}
	assert_int_equal(mismatches, 0);
}

/*
 * Two spellings of one setting in one plan are one setting given twice:
 * refused, whichever spellings they are.
 */
static void test_spellings_given_twice(void **state)
{
	size_t r, s;

	(void)state;
	mismatches = 0;
	for (r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
		struct spelled ref;

		spelled_split(rows[r].spellings[0], &ref);
		for (s = 1; s < MAX_SPELLINGS && rows[r].spellings[s]; s++) {
			struct strbuf a = STRBUF_INIT, err = STRBUF_INIT;
			struct knob_ctx ctx;
			struct knob_plan p;
			struct spelled sp;
			int ret;

			spelled_split(rows[r].spellings[s], &sp);
			ctx_fake(&ctx);
			knob_plan_init(&p, &ctx);
			strbuf_addf(&a, "%s=%s", ref.name, ref.values[0]);
			ret = knob_plan_add(&p, a.buf, &err);
			strbuf_setf(&a, "%s=%s", sp.name, sp.values[1]);
			if (!ret)
				ret = knob_plan_add(&p, a.buf, &err);
			if (!ret)
				ret = knob_plan_build(&p, &err);
			if (ret != -EINVAL ||
			    (!strstr(err.buf, "give only one") &&
			     !strstr(err.buf, "given twice")))
				mismatch("'%s=%s' beside '%s' is not refused "
					 "as one setting given twice (%d: %s)",
					 ref.name, ref.values[0], a.buf, ret,
					 err.buf);
			knob_plan_release(&p);
			knob_ctx_release(&ctx);
			spelled_release(&sp);
			strbuf_release(&a);
			strbuf_release(&err);
		}
		spelled_release(&ref);
	}
	assert_int_equal(mismatches, 0);
}

/* Does err advise word: "did you mean 'WORD'", "give WORD", "use
 * WORD", "e.g. WORD", "such as WORD" (quoted or not)? */
static int advises(const char *err, const char *word)
{
	static const char *const phrases[] = {"did you mean ", "give ", "use ",
					      "e.g. ", "such as "};
	size_t i;

	for (i = 0; i < sizeof(phrases) / sizeof(phrases[0]); i++) {
		const char *p = err;

		while ((p = strstr(p, phrases[i]))) {
			p += strlen(phrases[i]);
			if (!strncmp(p + (*p == '\''), word, strlen(word)))
				return 1;
		}
	}
	return 0;
}

/* A refused spelling's error never advises what it refused. */
static void test_refusals_advise_otherwise(void **state)
{
	size_t i;

	(void)state;
	mismatches = 0;
	for (i = 0; i < sizeof(refusals) / sizeof(refusals[0]); i++) {
		struct strbuf err = STRBUF_INIT;
		struct knob_ctx ctx;
		struct knob_plan p;
		int ret;

		ctx_fake(&ctx);
		knob_plan_init(&p, &ctx);
		ret = knob_plan_add(&p, refusals[i].assignment, &err);
		if (!ret)
			ret = knob_plan_build(&p, &err);
		if (!ret)
			mismatch("'%s' is accepted", refusals[i].assignment);
		if (advises(err.buf, refusals[i].refused) ||
		    advises(err.buf, refusals[i].assignment))
			mismatch("'%s' is refused with advice to give it: %s",
				 refusals[i].assignment, err.buf);
		knob_plan_release(&p);
		knob_ctx_release(&ctx);
		strbuf_release(&err);
	}
	assert_int_equal(mismatches, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_spellings_judged_alike),
	    cmocka_unit_test(test_spellings_given_twice),
	    cmocka_unit_test(test_refusals_advise_otherwise),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
