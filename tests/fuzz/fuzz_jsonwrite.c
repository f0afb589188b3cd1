/*
 * libFuzzer target for the JSON writers: the run object
 * (core/experiment/result_json.c) and the experiment document
 * (experiment_json.c's experiment_build(), analyze_full.c), fed strings of any
 * bytes (a target's path, a knob's value, a label, a command's output, a
 * warning; a knob's name as the knob table allows it) and numbers of any value
 * (NaN, infinities, the extremes, negative zero) where a run can hold them
 * (a replay's fidelity members too),
 * printed as every command prints JSON (the model's encoder, made safe as
 * the commands write it). The text must be strict JSON (no NaN or
 * Infinity), UTF-8 with no raw control byte, and must print again the same
 * once parsed (json-c, as jq or Python would read it): what iotrial writes,
 * jq, Python and iotrial import read back as it was.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>
#include "core/experiment/analyze_doc.h"
#include "core/experiment/experiment.h"
#include "core/experiment/result_json.h"
#include "core/model/model_json.h"
#include "core/stats/analysis.h"
#include "util/strbuf.h"
#include "util/text.h"
#include "util/xalloc.h"
#include "util/banned.h"

static void check(int ok)
{
	if (!ok)
		__builtin_trap();
}

/* The input, read from the front. */
struct cur {
	const uint8_t *p;
	size_t n;
};

static uint8_t byte(struct cur *c)
{
	if (!c->n)
		return 0;
	c->n--;
	return *c->p++;
}

static uint64_t u64(struct cur *c)
{
	uint64_t v = 0;
	unsigned i, n = byte(c) % 9;

	for (i = 0; i < n; i++)
		v = v << 8 | byte(c);
	return v;
}

/* Any double: the odd ones by name, or eight bytes as they are. */
static double num(struct cur *c)
{
	static const double odd[] = {
	    0.0,    -0.0,     1.0,	  1e308, -1e308,
	    5e-324, 1.5e-300, 123456.789, 1e17,	 9007199254740993.0};
	uint8_t k = byte(c);
	uint64_t bits;
	double d;

	if (k < 10)
		return odd[k];
	if (k == 10)
		return NAN;
	if (k == 11)
		return INFINITY;
	if (k == 12)
		return -INFINITY;
	bits = (uint64_t)byte(c) | (uint64_t)byte(c) << 8 |
	       (uint64_t)byte(c) << 16 | (uint64_t)byte(c) << 24 |
	       (uint64_t)byte(c) << 32 | (uint64_t)byte(c) << 40 |
	       (uint64_t)byte(c) << 48 | (uint64_t)byte(c) << 56;
	memcpy(&d, &bits, sizeof(d));
	return d;
}

/* A string of the input's bytes (any but NUL), owned by the caller. */
static char *str(struct cur *c)
{
	size_t n = byte(c) % 32, i;
	char *s = xmalloc(n + 1);

	for (i = 0; i < n; i++)
		s[i] = (char)byte(c);
	s[n] = 0;
	return s; /* a NUL inside cuts it: a C string */
}

/* Outside strings, is every word true, false or null (no NaN, no
 * Infinity, which no JSON reader takes), and every letter else a
 * number's exponent? */
static int bare_words_ok(const char *s)
{
	int in = 0;

	for (; *s; s++) {
		if (in) {
			if (*s == '\\' && s[1])
				s++;
			else if (*s == '"')
				in = 0;
		} else if (*s == '"') {
			in = 1;
		} else if (!strncmp(s, "true", 4) || !strncmp(s, "null", 4)) {
			s += 3;
		} else if (!strncmp(s, "false", 5)) {
			s += 4;
		} else if ((*s == 'e' || *s == 'E') &&
			   ((s[-1] >= '0' && s[-1] <= '9') || s[-1] == '.')) {
			continue;
		} else if ((*s >= 'a' && *s <= 'z') ||
			   (*s >= 'A' && *s <= 'Z')) {
			return 0;
		}
	}
	return 1;
}

/* text is strict JSON, UTF-8 without a raw control byte, and prints
 * again the same. */
static void check_json(const struct strbuf *text)
{
	struct json_tokener *tok = json_tokener_new();
	struct json_object *back;
	struct strbuf again = STRBUF_INIT;
	char *copy = xstrdup(text->buf);

	check(strlen(text->buf) == text->len);
	/* line ends are the printer's; any other control is not JSON */
	check(!text_make_printable_lines(copy));
	free(copy);
	check(bare_words_ok(text->buf));
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
	back = json_tokener_parse_ex(tok, text->buf, (int)text->len);
	check(back && json_tokener_get_error(tok) == json_tokener_success);
	/* printed as the model prints: pretty, spaced, '/' as it is */
	strbuf_addstr(&again, json_object_to_json_string_ext(
				  back, JSON_C_TO_STRING_PRETTY |
					    JSON_C_TO_STRING_SPACED |
					    JSON_C_TO_STRING_NOSLASHESCAPE));
	text_json_safe(&again, 0);
	strbuf_addch(&again, '\n');
	check(again.len == text->len &&
	      !memcmp(again.buf, text->buf, again.len));
	json_object_put(back);
	json_tokener_free(tok);
	strbuf_release(&again);
}

/* A knob's name: the knob table takes only such names (a JSON key that
 * no two names can share once written). */
static char *knob_name(struct cur *c)
{
	static const char set[] = "abcdefghijklmnopqrstuvwxyz0123456789._:";
	size_t n = 1 + byte(c) % 16, i;
	char *s = xmalloc(n + 1);

	for (i = 0; i < n; i++)
		s[i] = set[byte(c) % (sizeof(set) - 1)];
	s[n] = 0;
	return s;
}

/* A run object of the input's strings and numbers, into doc (release
 * it). */
static void run_object(struct cur *c, char **owned, size_t *no,
		       struct run_doc *doc)
{
	static const char *const names[] = {"seqread", "randwrite", "randrw",
					    "exec", "smallfiles"};
	struct workload w;
	struct target t = {0};
	struct knob_setting k[2];
	struct run_meta meta = {0};
	struct run_result r;
	struct run_exec *ex;
	unsigned i;

#define S(x) ((x) = owned[(*no)++] = str(c))
	workload_init(&w, workload_find(names[byte(c) % 5]));
	S(t.spec);
	S(t.path);
	t.kind = (enum target_kind)(byte(c) % 3);
	for (i = 0; i < 2; i++) {
		k[i].name = owned[(*no)++] = knob_name(c);
		S(k[i].value);
	}
	if (!strcmp(k[0].name, k[1].name))
		meta.nr_knobs = 1; /* one value per knob */
	else
		meta.nr_knobs = 2;
	meta.w = &w;
	meta.t = &t;
	meta.knobs = k;
	run_result_init(&r);
	r.seconds = num(c);
	r.burst_seconds = num(c);
	r.ops[IO_READ] = u64(c);
	r.ops[IO_WRITE] = u64(c);
	r.bytes[IO_READ] = u64(c);
	r.bytes[IO_WRITE] = u64(c);
	r.cpu.user_s = num(c);
	r.cpu.sys_s = num(c);
	r.cpu.system_busy_s = num(c);
	r.cpu.system_total_s = num(c);
	run_result_warn(&r, "%s", owned[(*no)++] = str(c));
	run_result_note(&r, "%s", owned[(*no)++] = str(c));
	if (byte(c) & 1) {
		ex = xcalloc(1, sizeof(*ex));
		ex->cmd = str(c);
		ex->stdout_tail = str(c);
		ex->stderr_tail = str(c);
		ex->status = (int)u64(c);
		ex->printed = num(c);
		ex->have_printed =
		    isfinite(ex->printed); /* as exec.c sets it */
		r.exec = ex;
	}
	if (byte(c) & 1) {
		r.have_dbench = 1;
		r.dbench_mbps = num(c);
	}
	if (byte(c) & 1) {
		r.have_fidelity = 1;
		r.fidelity = num(c);
		r.have_fidelity_dev = 1;
		for (i = 0; i < 4; i++)
			r.fidelity_dev[i] = num(c);
		r.fidelity_dev_why = str(c);
		/* what a differing setting moved, the settings as the
		 * trace's meta named them, a class of calls */
		r.fidelity_dev_moved_bits = byte(c) & 15;
		for (i = 0; i < 4; i++)
			r.fidelity_dev_moved[i] = num(c);
		r.nr_fid_settings = 1;
		r.fid_settings = xcalloc(1, sizeof(*r.fid_settings));
		r.fid_settings->name = str(c);
		r.fid_settings->capture = byte(c) & 1 ? str(c) : NULL;
		r.fid_settings->replay = byte(c) & 1 ? str(c) : NULL;
		r.fid_settings->moves = byte(c) & 31;
		r.nr_fid_dist = 1;
		r.fid_dist = xcalloc(1, sizeof(*r.fid_dist));
		r.fid_dist->name = "read";
		r.fid_dist->calls[0] = u64(c);
		r.fid_dist->calls[1] = u64(c);
		for (i = 0; i < 4; i++)
			r.fid_dist->d[i] = num(c);
		r.fid_dist->latency_judged = byte(c) & 1;
		r.fid_dist->lat_ns[1][2] = u64(c);
		r.fid_dist->seq[0] = num(c);
		r.fid_dist->seq[1] = num(c);
	}
#undef S
	result_to_doc(&meta, &r, doc);
	run_result_release(&r);
	workload_release(&w);
}

/* An experiment of runs with the input's metrics and strings, into
 * e, analysed: as import builds one. */
static void exp_doc(struct cur *c, const struct run_doc *rd, char **owned,
		    size_t *no, struct experiment_doc *e)
{
	struct experiment_src_run runs[2][3];
	struct experiment_src_arm arms[2];
	struct experiment_src src = {0};
	struct analysis_opts ao;
	struct strbuf err = STRBUF_INIT;
	unsigned a, i;

	for (a = 0; a < 2; a++) {
		for (i = 0; i < 3; i++) {
			double m = num(c);

			/* import takes only a metric > 0 and finite */
			if (!(m > 0) || !isfinite(m))
				m = 1 + i + a;
			runs[a][i] = (struct experiment_src_run){
			    m, i ? NULL : rd, i == 1 ? "f.json" : NULL, -1,
			    NULL};
		}
		arms[a].label = owned[(*no)++] = str(c);
		arms[a].runs = runs[a];
		arms[a].nr = 3;
	}
	src.workload = owned[(*no)++] = str(c);
	src.target = owned[(*no)++] = str(c);
	src.seed = "none";
	src.metric = byte(c) & 1 ? "iops" : (owned[(*no)++] = str(c));
	src.higher_is_better = byte(c) & 1;
	src.metric_unit = owned[(*no)++] = str(c);
	src.factor_kind = "import";
	src.arms = arms;
	src.nr_arms = 2;
	src.stopped = "imported";
	src.warnings = true;
	experiment_build(&src, e);
	analysis_opts_init(&ao);
	experiment_analyze_full(e, &ao, &err); /* a refusal is fine here */
	strbuf_release(&err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cur c = {data, size};
	struct strbuf out = STRBUF_INIT;
	struct run_doc run;
	struct experiment_doc e;
	char *owned[32];
	size_t no = 0, i;

	run_object(&c, owned, &no, &run);
	/* as `run --json` prints it */
	run_doc_encode(&run, 0, &out);
	text_json_safe(&out, 0);
	check_json(&out);
	exp_doc(&c, &run, owned, &no, &e);
	strbuf_reset(&out);
	/* as import prints it */
	experiment_doc_encode(&e, 0, &out);
	text_json_safe(&out, 0);
	check_json(&out);
	experiment_doc_release(&e);
	run_doc_release(&run);
	for (i = 0; i < no; i++)
		free(owned[i]);
	strbuf_release(&out);
	return 0;
}
