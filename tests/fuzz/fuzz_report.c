/*
 * libFuzzer target for the report renderers, fed as `iotrial import`
 * feeds the store: the input goes through import_parse() (iotrial run
 * and experiment objects, fio JSON), a run becomes a one-arm
 * experiment (import_build_experiment()), and the experiment is
 * analysed by import_analyze(). Whatever comes out is decoded into a
 * document (as `show` decodes what the store holds) and rendered in
 * every report format (text, json, csv, md, html), as `show` prints it,
 * section by section, and as `log` sums it up. The input is not
 * NUL-terminated, so AddressSanitizer sees any read past its end. What
 * is checked: for an analysed experiment that decodes (import does not
 * decode what it stores yet: an embedded run naming another schema is
 * stored, and `show` refuses it), every renderer returns 0, its output
 * is one NUL-terminated string of its length, the HTML ends its page
 * and holds no "nan" or "inf" in what it draws, and the JSON decodes
 * back into a document.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "core/experiment/import.h"
#include "core/model/model_json.h"
#include "core/report/page.h"
#include "core/report/report.h"
#include "core/report/report_formats.h"
#include "util/banned.h"

/* Stop the run: libFuzzer reports the crash with the input. */
static void check(int ok)
{
	if (!ok)
		__builtin_trap();
}

/* out is a string of its length: no NUL inside, one at the end. */
static void check_string(const struct strbuf *out)
{
	check(out->buf != NULL);
	check(strlen(out->buf) == out->len);
}

/* Render doc in format; it must succeed for an analysed experiment. */
static void render(const struct experiment_doc *doc, const char *format)
{
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;

	check(report_render(doc, format, &out, &err) == 0);
	check_string(&out);
	if (!strcmp(format, "html")) {
		check(out.len >= 8 &&
		      !strcmp(out.buf + out.len - 8, "</html>\n"));
		/* a NaN or an infinity reached a coordinate or a label */
		check(!strstr(out.buf, "\"nan") && !strstr(out.buf, "\"-nan"));
		check(!strstr(out.buf, "\"inf") && !strstr(out.buf, "\"-inf"));
	} else if (!strcmp(format, "json")) {
		struct experiment_doc back;

		check(!experiment_doc_decode(out.buf, out.len, &back, 0, &err));
		experiment_doc_release(&back);
	}
	strbuf_release(&out);
	strbuf_release(&err);
}

/* Each section of the text page alone (what the commands print of
 * it), and the line of `log`. */
static void show(const struct experiment_doc *doc)
{
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	unsigned i;

	for (i = 0; i < REPORT_NR_SECTIONS; i++)
		check(report_page(doc, &emit_text_ops, 1u << i, &out, &err) ==
		      0);
	report_doc_verdict_summary(doc, &out);
	report_doc_arm_labels(doc, &out);
	check_string(&out);
	strbuf_release(&out);
	strbuf_release(&err);
}

/* Every renderer of doc. */
static void render_all(const struct experiment_doc *doc)
{
	static const char *const formats[] = {"text", "json", "csv", "md",
					      "html"};
	size_t i;

	for (i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
		render(doc, formats[i]);
	show(doc);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf err = STRBUF_INIT;
	struct experiment_doc built, *exp = NULL;
	struct import_run r;
	char *buf = malloc(size ? size : 1);

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	if (import_parse(buf, size, "fuzz.json", NULL, &r, &err))
		goto out;
	experiment_doc_init(&built);
	if (r.kind == IMPORT_EXPERIMENT) {
		exp = r.doc.exp;
	} else {
		struct import_arm arm = {"imported", &r, 1};

		if (!import_build_experiment(&arm, 1, NULL, &built, &err))
			exp = &built;
	}
	/* what import stores has been analysed; the rest is refused */
	if (exp && !import_analyze(exp, &err))
		render_all(exp);
	experiment_doc_release(&built);
	import_run_release(&r);
out:
	strbuf_release(&err);
	free(buf);
	return 0;
}
