/*
 * The HTML emitter (emit.h): one self-contained page. Everything is
 * inline (CSS, SVG; no script, font or image is fetched), so the file
 * can be attached to a ticket and opened offline years later. Colours
 * are CSS variables with a dark set under prefers-color-scheme and a
 * print set for A4. Every string from the experiment goes through
 * svg_escape(): labels and warnings are typed by users. The plots are
 * report_plots*.c's, drawn where a section leaves a slot.
 */
#include <string.h>
#include "sections.h"
#include "report_doc.h"
#include "report_formats.h"
#include "suspect.h"
#include "svg.h"
#include "../../util/banned.h"

static const char css[] =
    ":root{--bg:#fbfbfa;--fg:#1c1e21;--muted:#5f6670;--line:#d9dce1;"
    "--card:#fff;--grid:#e7e9ec;--warn-bg:#fff6e0;--warn-fg:#6b4500;"
    "--warn-line:#f0b429;--good:#13795b;--bad:#c0392b;--same:#4a6fa5;"
    "--vague:#8a8f98;--band:rgba(74,111,165,.13);"
    "--s0:#2563eb;--s1:#d97706;--s2:#059669;--s3:#db2777;--s4:#7c3aed;"
    "--s5:#0891b2;color-scheme:light dark}\n"
    "@media (prefers-color-scheme:dark){:root{--bg:#15171a;--fg:#e6e8eb;"
    "--muted:#9aa3ad;--line:#2f343a;--card:#1d2024;--grid:#2a2e33;"
    "--warn-bg:#3a2d0c;--warn-fg:#ffd98a;--warn-line:#d69e2e;"
    "--good:#4cc38a;--bad:#ff7b72;--same:#79a6e8;--vague:#8b939c;"
    "--band:rgba(121,166,232,.16);--s0:#6ea8ff;--s1:#f5a524;"
    "--s2:#34d399;--s3:#f472b6;--s4:#a78bfa;--s5:#22d3ee}}\n"
    "*{box-sizing:border-box}\n"
    "body{margin:0;background:var(--bg);color:var(--fg);"
    "font:15px/1.5 system-ui,-apple-system,'Segoe UI',Roboto,"
    "'Helvetica Neue',Arial,sans-serif}\n"
    "main{max-width:1040px;margin:0 auto;padding:28px 24px 48px}\n"
    "h1{font-size:1.55rem;margin:0 0 4px;font-weight:650}\n"
    "h2{font-size:1.1rem;margin:34px 0 10px;padding-bottom:4px;"
    "border-bottom:1px solid var(--line);font-weight:650}\n"
    "h3{font-size:.98rem;margin:16px 0 6px;font-weight:600}\n"
    "h3 span,figcaption span{color:var(--muted);font-weight:400;"
    "margin-left:.5em;font-size:.88rem}\n"
    ".sub{color:var(--muted);margin:0 0 18px}\n"
    "code,pre,.num{font-family:ui-monospace,'SFMono-Regular',Menlo,"
    "Consolas,'DejaVu Sans Mono',monospace;font-size:.86rem}\n"
    ".num{text-align:right;white-space:nowrap;"
    "font-variant-numeric:tabular-nums}\n"
    "pre{background:var(--card);border:1px solid var(--line);"
    "border-radius:8px;padding:10px 12px;overflow-x:auto;"
    "white-space:pre-wrap}\n"
    ".banner{background:var(--warn-bg);color:var(--warn-fg);border:1px "
    "solid var(--warn-line);border-left:6px solid var(--warn-line);"
    "border-radius:8px;padding:10px 16px;margin:14px 0 0;font-weight:600}\n"
    ".banner a{color:inherit}\n"
    ".warnings{background:var(--warn-bg);color:var(--warn-fg);"
    "border:1px solid var(--warn-line);border-left:6px solid "
    "var(--warn-line);border-radius:8px;padding:12px 16px;margin:18px 0}\n"
    ".warnings h2{margin:0 0 6px;border:0;padding:0;color:inherit}\n"
    ".warnings ul{margin:0;padding-left:1.2em}\n"
    ".warnings li{margin:4px 0;font-size:.92rem}\n"
    ".tbl{overflow-x:auto;background:var(--card);border:1px solid "
    "var(--line);border-radius:8px}\n"
    "table{border-collapse:collapse;width:100%}\n"
    "th,td{padding:6px 10px;border-bottom:1px solid var(--line);"
    "vertical-align:top}\n"
    "th{font-size:.8rem;text-transform:uppercase;letter-spacing:.04em;"
    "color:var(--muted);text-align:left;font-weight:600}\n"
    "th.num{text-align:right;font-family:inherit;font-size:.8rem}\n"
    "tr:last-child td{border-bottom:0}\n"
    "td.arm{font-weight:550;overflow-wrap:break-word}\n"
    ".verdict{font-weight:650;white-space:nowrap}\n"
    "td.v{white-space:normal;min-width:7.5em}\n"
    ".verdict.good{color:var(--good)}.verdict.bad{color:var(--bad)}\n"
    ".verdict.same{color:var(--same)}.verdict.vague{color:var(--vague)}\n"
    ".suspect{display:inline-block;margin-left:6px;padding:0 6px;"
    "border-radius:9px;background:var(--warn-bg);color:var(--warn-fg);"
    "border:1px solid var(--warn-line);font-size:.75rem;font-weight:600}\n"
    ".notes{color:var(--muted);font-size:.88rem;margin:8px 2px}\n"
    ".notes p{margin:4px 0}\n"
    "figure{margin:14px 0;background:var(--card);border:1px solid "
    "var(--line);border-radius:8px;padding:10px 12px 4px;"
    "break-inside:avoid}\n"
    "figcaption{font-weight:600;font-size:.95rem;margin-bottom:4px}\n"
    "svg.plot{display:block;width:100%;height:auto}\n"
    ".pair{display:grid;grid-template-columns:1fr 1fr;gap:0 14px;"
    "break-inside:avoid}\n"
    ".pair h3{grid-column:1/-1;margin-bottom:0}\n"
    ".pair figure{margin:8px 0}\n"
    "@media (max-width:700px){.pair{grid-template-columns:1fr}}\n"
    ".plot text{fill:var(--fg);font:12px system-ui,sans-serif}\n"
    ".plot text.tick{fill:var(--muted);font-size:11px}\n"
    ".plot text.axis{fill:var(--muted);font-size:12px}\n"
    ".plot text.note{fill:var(--muted);font-size:11px;text-anchor:end;"
    "font-weight:600}\n"
    ".plot text.v-good{fill:var(--good)}.plot text.v-bad{fill:var(--bad)}"
    ".plot text.v-same{fill:var(--same)}\n"
    ".plot .grid{stroke:var(--grid);stroke-width:1}\n"
    ".plot .one{stroke:var(--fg);stroke-width:1.2;stroke-dasharray:4 3}\n"
    ".plot .band{fill:var(--band)}\n"
    ".plot .median{stroke:var(--fg);stroke-width:2.5}\n"
    ".plot .line{fill:none;stroke-width:2}\n"
    ".plot .whisker{stroke-width:2;fill:none}\n"
    ".plot .span{stroke-width:2;opacity:.45}\n"
    ".plot .ci{opacity:.2}\n"
    ".plot .dot{fill-opacity:.8;stroke:var(--card);stroke-width:1}\n"
    ".plot .legend{fill:var(--muted)}\n"
    ".plot .good{stroke:var(--good);fill:var(--good)}\n"
    ".plot .bad{stroke:var(--bad);fill:var(--bad)}\n"
    ".plot .same{stroke:var(--same);fill:var(--same)}\n"
    ".plot .vague{stroke:var(--vague);fill:var(--vague)}\n"
    ".c0{--c:var(--s0)}.c1{--c:var(--s1)}.c2{--c:var(--s2)}"
    ".c3{--c:var(--s3)}.c4{--c:var(--s4)}.c5{--c:var(--s5)}\n"
    ".plot .ci,.plot .dot,.plot .key,.plot .pt{fill:var(--c)}\n"
    ".plot .line,.plot .whisker.c0,.plot .whisker.c1,.plot .whisker.c2,"
    ".plot .whisker.c3,.plot .whisker.c4,.plot .whisker.c5,"
    ".plot .span{stroke:var(--c)}\n"
    "dl.env{display:grid;grid-template-columns:max-content 1fr;"
    "gap:4px 18px;margin:0;background:var(--card);border:1px solid "
    "var(--line);border-radius:8px;padding:12px 16px}\n"
    "dl.env dt{color:var(--muted);font-weight:600}\n"
    "dl.env dd{margin:0;overflow-wrap:anywhere}\n"
    "footer{margin-top:36px;color:var(--muted);font-size:.8rem}\n"
    ".runs td,.runs th{padding:5px 6px;font-size:.8rem}\n"
    ".runs td.num{font-size:.78rem}\n"
    "@page{size:A4;margin:14mm 12mm}\n"
    "@media print{:root{--bg:#fff;--fg:#000;--muted:#444;--line:#bbb;"
    "--card:#fff;--grid:#ddd;--warn-bg:#fff;--warn-fg:#000}"
    "body{font-size:10pt}main{max-width:none;padding:0}"
    ".tbl{overflow:visible}h2{break-after:avoid}"
    "figure,.warnings,tr,dl.env{break-inside:avoid}"
    ".runs td,.runs th,.runs td.num{padding:2px 4px;font-size:7.5pt}}\n";

/* What is open on the page (e->state). */
enum html_open { HTML_NONE, HTML_NOTES, HTML_TABLE };

/* Close the notes' box when something else comes. */
static void html_close(struct emit *e)
{
	if (e->state == HTML_NOTES)
		strbuf_addstr(e->out, "</div>\n");
	e->state = HTML_NONE;
}

static void html_begin(struct emit *e)
{
	const struct experiment_doc *doc = e->doc;

	strbuf_addstr(e->out,
		      "<!DOCTYPE html>\n<html lang=\"en\"><head>"
		      "<meta charset=\"utf-8\">\n<meta name=\"viewport\" "
		      "content=\"width=device-width,initial-scale=1\">\n"
		      "<meta http-equiv=\"Content-Security-Policy\" "
		      "content=\"default-src 'none'; style-src "
		      "'unsafe-inline'\">\n<title>iotrial ");
	svg_escape(e->out, doc->id && *doc->id ? doc->id : "(not stored)");
	strbuf_addstr(e->out, ": ");
	svg_escape(e->out, rd_s(doc->workload));
	strbuf_addf(e->out,
		    "</title>\n<style>\n%s</style></head>\n<body><main>\n",
		    css);
}

static void html_end(struct emit *e)
{
	html_close(e);
	strbuf_addstr(e->out, "<footer>made by iotrial from the stored "
			      "experiment; this page loads nothing from "
			      "anywhere</footer>\n</main></body></html>\n");
}

/*
 * The line under the title when there are warnings or suspect verdicts:
 * on a laptop screen a long list of warnings would push the verdicts
 * out of sight, so this line, above everything, says they are there.
 */
static void banner(struct emit *e)
{
	const struct experiment_doc *doc = e->doc;
	size_t i, suspect = 0;
	size_t n = report_warnings_present(doc) ? doc->nr_warnings : 0;

	for (i = 0; i < doc->nr_verdicts; i++)
		suspect += suspect_verdict_is(doc, &doc->verdicts[i]);
	if (!n && !suspect)
		return;
	strbuf_addstr(e->out, "<p class=\"banner\" role=\"alert\">⚠ ");
	if (n)
		strbuf_addf(e->out, "<a href=\"#warnings\">%zu warning%s</a>",
			    n, n == 1 ? "" : "s");
	if (n && suspect)
		strbuf_addstr(e->out, " and ");
	if (suspect)
		strbuf_addf(e->out, "%zu suspect verdict%s", suspect,
			    suspect == 1 ? "" : "s");
	strbuf_addstr(e->out, ": read them before trusting the verdicts</p>\n");
}

static void html_line(struct emit *e, const char *text)
{
	html_close(e);
	strbuf_addstr(e->out, e->after_h1 ? "<p class=\"sub\">" : "<p>");
	e->after_h1 = 0;
	svg_escape(e->out, text);
	strbuf_addstr(e->out, "</p>\n");
}

static void html_heading(struct emit *e, int level, const char *title,
			 const char *lead)
{
	if (!title) {
		if (lead)
			html_line(e, lead);
		return;
	}
	html_close(e);
	strbuf_addf(e->out, "<h%d>", level);
	svg_escape(e->out, title);
	strbuf_addf(e->out, "</h%d>\n", level);
	if (level == 1) {
		banner(e);
		e->after_h1 = 1;
	}
}

static void html_gap(struct emit *e)
{
	(void)e;
}

/* The marks after a cell or an item. */
static void html_marks(struct strbuf *out, unsigned marks)
{
	if (marks & EMIT_MARK_SUSPECT)
		strbuf_addstr(out, "<span class=\"suspect\">⚠ suspect</span>");
	if (marks & EMIT_MARK_STATED)
		strbuf_addstr(out, "<span class=\"suspect\">⚠ stated</span>");
}

static void html_note(struct emit *e, enum emit_note kind, const char *text)
{
	static const char *const prefix[] = {
	    [EMIT_NOTE_PLAIN] = "",
	    [EMIT_NOTE_SUSPECT] = "⚠ <b>suspect</b> ",
	    [EMIT_NOTE_KEY] = "⚠ <b>suspect</b>: ",
	    [EMIT_NOTE_CAUTION] = "⚠ ",
	    [EMIT_NOTE_WARNING] = "⚠ ",
	    [EMIT_NOTE_STATED] = "⚠ <b>stated</b> ",
	};

	if (e->state != HTML_NOTES) {
		html_close(e);
		strbuf_addstr(e->out, "<div class=\"notes\">");
		e->state = HTML_NOTES;
	}
	strbuf_addf(e->out, "<p>%s", prefix[kind]);
	svg_escape(e->out, text);
	strbuf_addstr(e->out, "</p>");
}

static void html_list(struct emit *e, unsigned indent)
{
	(void)indent;
	html_close(e);
	strbuf_addstr(e->out, "<ul>\n");
}

static void html_item(struct emit *e, const char *text, unsigned marks)
{
	strbuf_addstr(e->out, "<li>");
	svg_escape(e->out, text);
	html_marks(e->out, marks);
	strbuf_addstr(e->out, "</li>\n");
}

static void html_list_end(struct emit *e)
{
	strbuf_addstr(e->out, "</ul>\n");
}

static void html_table(struct emit *e)
{
	html_close(e);
	if (e->table->pairs) {
		strbuf_addf(e->out, "<dl class=\"%s\">\n", e->table->name);
		return;
	}
	strbuf_addf(e->out, "<div class=\"tbl\"><table class=\"%s\">",
		    e->table->name);
	e->state = HTML_TABLE; /* no <tbody> yet */
}

/* The class of a cell of kind k, or NULL. */
static const char *cell_class(unsigned k)
{
	return k == EMIT_LABEL	   ? "arm"
	       : k == EMIT_NUM	   ? "num"
	       : k == EMIT_VERDICT ? "v"
				   : NULL;
}

static void html_row(struct emit *e, bool head)
{
	const struct emit_table *t = e->table;
	size_t i;

	if (t->pairs) {
		strbuf_addstr(e->out, "<dt>");
		svg_escape(e->out, e->cell[0].buf);
		strbuf_addstr(e->out, "</dt><dd>");
		svg_escape(e->out, e->nr_cells > 1 ? e->cell[1].buf : "");
		strbuf_addstr(e->out, "</dd>\n");
		return;
	}
	if (head)
		strbuf_addstr(e->out, "<thead>");
	else if (e->state == HTML_TABLE)
		strbuf_addstr(e->out, "<tbody>\n");
	e->state = HTML_NONE;
	strbuf_addstr(e->out, "<tr>");
	for (i = 0; i < e->nr_cells; i++) {
		unsigned k = t->cols[i].kind;
		bool span = i == e->nr_cells - 1 && e->nr_cells < t->nr_cols;
		/* words across number columns ("baseline") read from the
		 * left */
		const char *cls = span && k == EMIT_NUM ? NULL : cell_class(k);
		const char *tag = head ? "th" : "td";

		strbuf_addf(e->out, "<%s", tag);
		if (cls && (!head || k == EMIT_NUM))
			strbuf_addf(e->out, " class=\"%s\"", cls);
		if (span)
			strbuf_addf(e->out, " colspan=\"%zu\"", t->nr_cols - i);
		strbuf_addch(e->out, '>');
		if (head || !e->cell[i].len) {
			svg_escape(e->out, e->cell[i].buf);
		} else if (k == EMIT_VERDICT) {
			strbuf_addf(e->out, "<span class=\"verdict %s\">",
				    svg_verdict_class(e->cell[i].buf));
			svg_escape(e->out, e->cell[i].buf);
			strbuf_addstr(e->out, "</span>");
		} else if (k == EMIT_CODE) {
			strbuf_addstr(e->out, "<code>");
			svg_escape(e->out, e->cell[i].buf);
			strbuf_addstr(e->out, "</code>");
		} else {
			svg_escape(e->out, e->cell[i].buf);
		}
		html_marks(e->out, e->marks[i]);
		strbuf_addf(e->out, "</%s>", tag);
	}
	strbuf_addstr(e->out, head ? "</tr></thead><tbody>\n" : "</tr>\n");
}

static void html_table_end(struct emit *e)
{
	if (e->table->pairs) {
		strbuf_addstr(e->out, "</dl>\n");
		return;
	}
	if (e->state == HTML_TABLE)
		strbuf_addstr(e->out, "<tbody>");
	e->state = HTML_NONE;
	strbuf_addstr(e->out, "</tbody></table></div>\n");
}

/* The warnings, hard to miss. */
static void html_warnings(struct emit *e, char *const *w, size_t n)
{
	size_t i;

	html_close(e);
	strbuf_addf(e->out,
		    "<section class=\"warnings\" id=\"warnings\"><h2>⚠ %zu "
		    "warning%s: read these before trusting the verdicts</h2>"
		    "<ul>\n",
		    n, n == 1 ? "" : "s");
	for (i = 0; i < n; i++) {
		strbuf_addstr(e->out, "<li>");
		svg_escape(e->out, w[i]);
		strbuf_addstr(e->out, "</li>\n");
	}
	strbuf_addstr(e->out, "</ul></section>\n");
}

static void html_pre(struct emit *e, const char *text)
{
	html_close(e);
	strbuf_addstr(e->out, "<pre>");
	svg_escape(e->out, text);
	strbuf_addstr(e->out, "</pre>\n");
}

static void html_plot(struct emit *e,
		      void (*draw)(const struct experiment_doc *doc,
				   struct strbuf *out))
{
	html_close(e);
	draw(e->doc, e->out);
}

const struct emit_ops emit_html_ops = {
    .begin = html_begin,
    .end = html_end,
    .heading = html_heading,
    .line = html_line,
    .gap = html_gap,
    .footnote = html_note,
    .list = html_list,
    .item = html_item,
    .list_end = html_list_end,
    .table = html_table,
    .row = html_row,
    .table_end = html_table_end,
    .warnings = html_warnings,
    .pre = html_pre,
    .plot = html_plot,
};

const struct report_format report_format_html = {
    .name = "html",
    .summary = "one self-contained page with plots (nothing is fetched when it "
	       "is opened)",
    .emit = &emit_html_ops,
    .sections = REPORT_PAGE_ALL & ~REPORT_SEC(origin),
};
