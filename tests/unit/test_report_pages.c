/*
 * The pages of every experiment shape, against goldens: each experiment
 * document of tests/data/model/ (compare, effects, advice, a fleet
 * merge, imports, observe, a single run) rendered as the text page
 * (`report --format text`, `show --runs`) and as Markdown must be byte
 * for byte tests/data/report/NAME.txt and NAME.md; its HTML page must
 * have the structure of NAME.html.skel (the headings, tables, plots and
 * notes in their order, not the SVG's coordinates). So a change to a
 * renderer or an emitter shows here as the pages it changes.
 *
 * After a change meant to alter pages, IOTRIAL_UPDATE_GOLDEN=1 writes the
 * goldens anew (then read the diff before committing it).
 */
#include <dirent.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "core/model/model_json.h"
#include "core/report/page.h"
#include "core/report/report_formats.h"
#include "util/banned.h"

/* IOTRIAL_SRC/tests/data/DIR/NAME. */
static void path_of(struct strbuf *p, const char *dir, const char *name)
{
	const char *src = getenv("IOTRIAL_SRC");

	strbuf_reset(p);
	strbuf_addf(p, "%s/tests/data/%s/%s", src ? src : ".", dir, name);
}

/* The file at path into sb: 0, or -errno. */
static int read_file(const char *path, struct strbuf *sb)
{
	FILE *f = fopen(path, "r");
	char buf[8192];
	size_t n;

	if (!f)
		return -errno;
	while ((n = fread(buf, 1, sizeof(buf), f)))
		strbuf_add(sb, buf, n);
	fclose(f);
	return 0;
}

/*
 * The structure of an HTML page, one line per element that makes it:
 * headings, figure captions and the banner with their text, tables,
 * lists, code blocks and the notes' boxes with their class. The SVG
 * inside a figure is left out.
 */
static void skeleton(const char *html, struct strbuf *out)
{
	static const char *const texts[] = {"h1", "h2", "h3", "figcaption"};
	static const char *const tags[] = {"table",   "ul",  "pre", "dl",
					   "section", "div", "p"};
	const char *p = html;
	size_t i;

	while ((p = strchr(p, '<'))) {
		size_t n = strcspn(p + 1, " >");
		const char *cls = strstr(p, " class=\""), *end = strchr(p, '>');

		if (!end)
			break;
		for (i = 0; i < sizeof(texts) / sizeof(*texts); i++)
			if (n == strlen(texts[i]) &&
			    !strncmp(p + 1, texts[i], n)) {
				const char *close = strchr(end, '<');

				strbuf_addf(out, "%s %.*s\n", texts[i],
					    close ? (int)(close - end - 1) : 0,
					    end + 1);
			}
		for (i = 0; i < sizeof(tags) / sizeof(*tags); i++)
			if (n == strlen(tags[i]) &&
			    !strncmp(p + 1, tags[i], n) &&
			    (strcmp(tags[i], "div") && strcmp(tags[i], "p")
				 ? 1
				 : cls && cls < end))
				strbuf_addf(out, "%s %.*s\n", tags[i],
					    cls && cls < end
						? (int)strcspn(cls + 8, "\"")
						: 0,
					    cls && cls < end ? cls + 8 : "");
		p = end;
	}
}

/* got against the golden dir/name, or write it with
 * IOTRIAL_UPDATE_GOLDEN. Returns whether they are the same. */
static int same(const char *name, const char *ext, const struct strbuf *got)
{
	struct strbuf path = STRBUF_INIT, want = STRBUF_INIT,
		      file = STRBUF_INIT;
	int ok;

	strbuf_addf(&file, "%s.%s", name, ext);
	path_of(&path, "report", file.buf);
	if (getenv("IOTRIAL_UPDATE_GOLDEN")) {
		FILE *f = fopen(path.buf, "w");

		assert_non_null(f);
		fwrite(got->buf, 1, got->len, f);
		fclose(f);
	}
	ok = !read_file(path.buf, &want) && !strcmp(want.buf, got->buf);
	if (!ok)
		print_message("%s differs from the golden %s (%zu bytes, the "
			      "golden %zu)\n",
			      file.buf, path.buf, got->len, want.len);
	strbuf_release(&path);
	strbuf_release(&want);
	strbuf_release(&file);
	return ok;
}

/* Every page of the experiment document name; how many differ. */
static int pages_of(const char *name)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT, err = STRBUF_INIT;
	struct strbuf out = STRBUF_INIT, skel = STRBUF_INIT;
	struct experiment_doc doc;
	char base[256];
	int bad = 0;

	snprintf(base, sizeof(base), "%.*s", (int)(strlen(name) - 5), name);
	path_of(&path, "model", name);
	assert_int_equal(read_file(path.buf, &text), 0);
	assert_int_equal(
	    experiment_doc_decode(text.buf, text.len, &doc, 0, &err), 0);
	assert_int_equal(report_render(&doc, "text", &out, &err), 0);
	bad += !same(base, "txt", &out);
	strbuf_reset(&out);
	assert_int_equal(report_render(&doc, "md", &out, &err), 0);
	bad += !same(base, "md", &out);
	strbuf_reset(&out);
	assert_int_equal(report_render(&doc, "html", &out, &err), 0);
	skeleton(out.buf, &skel);
	bad += !same(base, "html.skel", &skel);
	experiment_doc_release(&doc);
	strbuf_release(&path);
	strbuf_release(&text);
	strbuf_release(&err);
	strbuf_release(&out);
	strbuf_release(&skel);
	return bad;
}

/* Every experiment of the corpus (exp-*.json), each shape's pages. */
static void test_pages(void **state)
{
	struct strbuf dir = STRBUF_INIT;
	struct dirent *d;
	DIR *dh;
	int bad = 0, seen = 0;

	(void)state;
	path_of(&dir, "model", "");
	dh = opendir(dir.buf);
	assert_non_null(dh);
	while ((d = readdir(dh)))
		if (!strncmp(d->d_name, "exp-", 4) &&
		    strstr(d->d_name, ".json")) {
			bad += pages_of(d->d_name);
			seen++;
		}
	closedir(dh);
	strbuf_release(&dir);
	assert_true(seen >= 10);
	assert_int_equal(bad, 0);
}

/*
 * `show` is the text page without the runs unless --runs, so `report
 * --format text` is `show --runs`; the fleet and live sections are on
 * both (report's text left them out before).
 */
static void test_show_is_report(void **state)
{
	static const char *const names[] = {"exp-fleet.json",
					    "exp-observe-stored.json"};
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT, err = STRBUF_INIT;
	struct strbuf show = STRBUF_INIT, report = STRBUF_INIT;
	struct experiment_doc doc;
	size_t i;

	(void)state;
	for (i = 0; i < 2; i++) {
		path_of(&path, "model", names[i]);
		strbuf_reset(&text);
		assert_int_equal(read_file(path.buf, &text), 0);
		assert_int_equal(
		    experiment_doc_decode(text.buf, text.len, &doc, 0, &err),
		    0);
		strbuf_reset(&show);
		strbuf_reset(&report);
		assert_int_equal(report_page(&doc, &emit_text_ops,
					     REPORT_PAGE_TEXT, &show, &err),
				 0);
		assert_int_equal(report_render(&doc, "text", &report, &err), 0);
		assert_string_equal(show.buf, report.buf);
		assert_non_null(strstr(report.buf, i ? "\nswitchback: "
						     : "\nfleet: 3 hosts"));
		experiment_doc_release(&doc);
	}
	strbuf_release(&path);
	strbuf_release(&text);
	strbuf_release(&err);
	strbuf_release(&show);
	strbuf_release(&report);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_pages),
	    cmocka_unit_test(test_show_is_report),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
