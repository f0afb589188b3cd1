/*
 * An experiment as one self-contained HTML page; see report_formats.h.
 * Everything is inline (CSS, SVG; no script, font or image is fetched),
 * so the file can be attached to a ticket and opened offline years
 * later. Colours are CSS variables with a dark set under
 * prefers-color-scheme and a print set for A4. Every string from the
 * experiment goes through svg_escape(): labels and warnings are typed
 * by users.
 */
#include <errno.h>
#include <math.h>
#include <string.h>
#include "report_formats.h"
#include "report_plots.h"
#include "report_html_tables.h"
#include "report.h"
#include "effects_html.h"
#include "runs_text.h"
#include "expjson.h"
#include "p_note.h"
#include "suspect.h"
#include "regime_text.h"
#include "svg.h"
#include "../../util/error.h"
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

/* <td class="num">v</td> with a metric value. */
static void td_metric(struct strbuf *out, double v)
{
	strbuf_addstr(out, "<td class=\"num\">");
	report_fmt_metric(out, v);
	strbuf_addstr(out, "</td>");
}

/* The verdict table, then the suspect footnotes and the ratio note. */
static void verdict_table(struct json_object *exp, struct strbuf *out)
{
	struct json_object *arms =
	    expjson_get_type(exp, "arms", json_type_array);
	struct json_object *vs =
	    expjson_get_type(exp, "verdicts", json_type_array);
	struct json_object *regimes;
	int baseline = expjson_count(exp, "baseline");
	size_t i, n = json_object_array_length(arms);

	strbuf_addstr(out, "<div class=\"tbl\"><table class=\"verdicts\">"
			   "<thead><tr><th>arm</th><th class=\"num\">median"
			   "</th><th class=\"num\">95% CI</th><th "
			   "class=\"num\">cv</th><th class=\"num\">n</th>"
			   "<th class=\"num\">ratio [95% CI]</th><th "
			   "class=\"num\">p</th><th>verdict</th></tr></thead>"
			   "<tbody>\n");
	for (i = 0; i < n; i++) {
		struct json_object *a = json_object_array_get_idx(arms, i);
		int idx = expjson_count(a, "arm");
		struct json_object *v =
		    idx == baseline ? NULL : expjson_verdict(exp, idx);
		double p = expjson_num(v, "p_adjusted");

		strbuf_addstr(out, "<tr><td class=\"arm\">");
		svg_escape(out, expjson_str(a, "label"));
		strbuf_addstr(out, "</td>");
		td_metric(out, expjson_num(a, "median"));
		strbuf_addstr(out, "<td class=\"num\">");
		report_fmt_metric(out, expjson_num(a, "ci_low"));
		strbuf_addstr(out, " – ");
		report_fmt_metric(out, expjson_num(a, "ci_high"));
		strbuf_addstr(out, "</td><td class=\"num\">");
		if (isfinite(expjson_num(a, "cv")))
			strbuf_addf(out, "%.1f%%", 100 * expjson_num(a, "cv"));
		strbuf_addf(out, "</td><td class=\"num\">%d</td>",
			    expjson_count(a, "n"));
		strbuf_addstr(out, "<td class=\"num\">");
		if (v && isfinite(expjson_num(v, "ratio")))
			strbuf_addf(out, "%.3f [%.3f, %.3f]",
				    expjson_num(v, "ratio"),
				    expjson_num(v, "ci_low"),
				    expjson_num(v, "ci_high"));
		strbuf_addstr(out, "</td><td class=\"num\">");
		if (isfinite(p))
			strbuf_addf(out, p < 0.001 ? "%.1e" : "%.3f", p);
		strbuf_addstr(out, "</td><td class=\"v\">");
		if (idx == baseline) {
			strbuf_addstr(out, "<span class=\"verdict vague\">"
					   "baseline</span>");
		} else if (v) {
			strbuf_addf(
			    out, "<span class=\"verdict %s\">",
			    svg_verdict_class(expjson_str(v, "verdict")));
			svg_escape(out, expjson_str(v, "verdict"));
			strbuf_addstr(out, "</span>");
			if (suspect_is(exp, v))
				strbuf_addstr(out, "<span class=\"suspect\">"
						   "⚠ suspect</span>");
		}
		strbuf_addstr(out, "</td></tr>\n");
	}
	strbuf_addstr(out, "</tbody></table></div>\n<div class=\"notes\">");
	n = vs ? json_object_array_length(vs) : 0;
	for (i = 0; i < n; i++) {
		struct json_object *v = json_object_array_get_idx(vs, i);
		struct strbuf note = STRBUF_INIT;

		if (!suspect_is(exp, v))
			continue;
		suspect_footnote(exp, v, &note);
		strbuf_addstr(out, "<p>⚠ <b>suspect</b> ");
		svg_escape(out, note.buf);
		strbuf_addstr(out, "</p>");
		strbuf_release(&note);
	}
	regimes = report_regimes(exp);
	for (i = 0; regimes && i < json_object_array_length(regimes); i++) {
		struct strbuf s = STRBUF_INIT;

		report_regime_sentence(json_object_array_get_idx(regimes, i),
				       &s);
		strbuf_addstr(out, "<p>⚠ ");
		svg_escape(out, s.buf);
		strbuf_addstr(out, "</p>");
		strbuf_release(&s);
	}
	for (i = 0; i < n; i++)
		if (isfinite(
			expjson_num(json_object_array_get_idx(vs, i), "ratio")))
			break;
	if (i < n) {
		struct strbuf note = STRBUF_INIT;

		strbuf_addstr(out, "<p>ratio: arm over baseline (within each "
				   "block when paired: the Hodges-Lehmann "
				   "estimate, not the ratio of the medians)");
		report_p_note_arms(exp, &note);
		if (note.len) {
			strbuf_addstr(out, "; ");
			svg_escape(out, note.buf);
		}
		strbuf_addstr(out, ".</p>");
		strbuf_release(&note);
	}
	strbuf_addstr(out, "</div>\n");
}

/*
 * The line at the top of the page when there are warnings or suspect
 * verdicts: on a laptop screen a long list of warnings would push the
 * verdicts out of sight, so the list itself follows the verdict table
 * and this line, above everything, says it is there.
 */
static void warnings_banner(struct json_object *exp, struct strbuf *out)
{
	struct json_object *w =
	    expjson_get_type(exp, "warnings", json_type_array);
	struct json_object *vs =
	    expjson_get_type(exp, "verdicts", json_type_array);
	size_t i, n = w ? json_object_array_length(w) : 0, suspect = 0;

	for (i = 0; vs && i < json_object_array_length(vs); i++)
		if (suspect_is(exp, json_object_array_get_idx(vs, i)))
			suspect++;
	if (!n && !suspect)
		return;
	strbuf_addstr(out, "<p class=\"banner\" role=\"alert\">⚠ ");
	if (n)
		strbuf_addf(out, "<a href=\"#warnings\">%zu warning%s</a>", n,
			    n == 1 ? "" : "s");
	if (n && suspect)
		strbuf_addstr(out, " and ");
	if (suspect)
		strbuf_addf(out, "%zu suspect verdict%s", suspect,
			    suspect == 1 ? "" : "s");
	strbuf_addstr(out, ": read them before trusting the verdicts</p>\n");
}

/* The warnings, right under the verdicts and hard to miss. */
static void warnings_box(struct json_object *exp, struct strbuf *out)
{
	struct json_object *w =
	    expjson_get_type(exp, "warnings", json_type_array);
	size_t i, n = w ? json_object_array_length(w) : 0;

	if (!n)
		return;
	strbuf_addf(out,
		    "<section class=\"warnings\" id=\"warnings\"><h2>⚠ %zu "
		    "warning%s: read these before trusting the verdicts</h2>"
		    "<ul>\n",
		    n, n == 1 ? "" : "s");
	for (i = 0; i < n; i++) {
		strbuf_addstr(out, "<li>");
		svg_escape(out, json_object_get_string(
				    json_object_array_get_idx(w, i)));
		strbuf_addstr(out, "</li>\n");
	}
	strbuf_addstr(out, "</ul></section>\n");
}

/* An environment row as <dt>/<dd>. */
static void env_row(void *ctx, const char *key, const char *value)
{
	struct strbuf *out = ctx;

	strbuf_addstr(out, "<dt>");
	svg_escape(out, key);
	strbuf_addstr(out, "</dt><dd>");
	svg_escape(out, value);
	strbuf_addstr(out, "</dd>\n");
}

/* A number cell with prec decimals, empty when not recorded. */
static void td_num(struct strbuf *out, double v, int prec)
{
	strbuf_addstr(out, "<td class=\"num\">");
	if (isfinite(v))
		strbuf_addf(out, "%.*f", prec, v);
	strbuf_addstr(out, "</td>");
}

/* One row per run in run order, as `show --runs` prints them. */
static void runs_table(struct json_object *exp, struct strbuf *out)
{
	size_t i, n = report_nr_runs(exp);
	struct report_run_row row;

	if (!n)
		return;
	strbuf_addstr(out, "<h2>Runs, in the order they ran</h2><div "
			   "class=\"tbl\"><table class=\"runs\"><thead><tr>"
			   "<th class=\"num\">block</th><th>arm</th>"
			   "<th class=\"num\">");
	svg_escape(out, expjson_str(expjson_get(exp, "metric"), "name"));
	strbuf_addstr(out, "</th><th class=\"num\">real s</th><th "
			   "class=\"num\">user s</th><th class=\"num\">sys s"
			   "</th><th>device</th><th class=\"num\">tps</th>"
			   "<th class=\"num\">MB read/s</th><th class=\"num\">"
			   "MB written/s</th><th class=\"num\">MB read</th>"
			   "<th class=\"num\">MB written</th></tr></thead>"
			   "<tbody>\n");
	for (i = 0; i < n && !report_run_row(exp, i, &row); i++) {
		strbuf_addf(out, "<tr><td class=\"num\">%d</td><td>",
			    row.block);
		svg_escape(out, row.label);
		strbuf_addstr(out, "</td>");
		td_metric(out, row.metric);
		td_num(out, row.wall_s, 3);
		td_num(out, row.user_s, 3);
		td_num(out, row.sys_s, 3);
		strbuf_addstr(out, "<td>");
		svg_escape(out, row.device);
		strbuf_addstr(out, "</td>");
		td_num(out, row.tps, 1);
		td_num(out, row.rmbps, 2);
		td_num(out, row.wmbps, 2);
		td_num(out, row.read_mb, 0);
		td_num(out, row.write_mb, 0);
		strbuf_addstr(out, "</tr>\n");
	}
	strbuf_addstr(out, "</tbody></table></div>\n");
}

int report_experiment_html(struct json_object *exp, struct strbuf *out,
			   struct strbuf *err)
{
	struct json_object *metric = expjson_get(exp, "metric");
	const char *id =
	    *expjson_str(exp, "id") ? expjson_str(exp, "id") : "(not stored)";
	if (!expjson_get_type(exp, "arms", json_type_array))
		return err_set(err, -EINVAL,
			       "not an iotrial experiment object (no 'arms')");
	strbuf_addstr(out, "<!DOCTYPE html>\n<html lang=\"en\"><head>"
			   "<meta charset=\"utf-8\">\n<meta name=\"viewport\" "
			   "content=\"width=device-width,initial-scale=1\">\n"
			   "<meta http-equiv=\"Content-Security-Policy\" "
			   "content=\"default-src 'none'; style-src "
			   "'unsafe-inline'\">\n<title>iotrial ");
	svg_escape(out, id);
	strbuf_addstr(out, ": ");
	svg_escape(out, expjson_str(exp, "workload"));
	strbuf_addf(out, "</title>\n<style>\n%s</style></head>\n<body><main>\n",
		    css);
	strbuf_addstr(out, "<h1>");
	svg_escape(out, expjson_str(exp, "workload"));
	strbuf_addstr(out, " on <code>");
	svg_escape(out, expjson_target(exp));
	strbuf_addstr(out, "</code></h1>\n<p class=\"sub\">experiment <code>");
	svg_escape(out, id);
	strbuf_addstr(out, "</code> · judged by <b>");
	svg_escape(out, expjson_str(metric, "name"));
	strbuf_addstr(out, "</b>");
	if (*expjson_str(metric, "unit")) {
		strbuf_addstr(out, " (");
		svg_escape(out, expjson_str(metric, "unit"));
		strbuf_addch(out, ')');
	}
	strbuf_addf(
	    out, ", %s is better · %d blocks · ",
	    json_object_get_boolean(expjson_get(metric, "higher_is_better"))
		? "higher"
		: "lower",
	    expjson_count(exp, "blocks"));
	svg_escape(out, expjson_str(exp, "created"));
	strbuf_addstr(out, "</p>\n");
	warnings_banner(exp, out);
	strbuf_addstr(out, "<h2>Verdicts</h2>\n");
	verdict_table(exp, out);
	warnings_box(exp, out);
	report_effects_html(exp, out);
	strbuf_addstr(out, "<h2>Runs and ratios</h2>\n");
	plot_strip(exp, out);
	plot_forest(exp, out);
	plot_factors(exp, out);
	plot_windows(exp, out);
	plot_latency(exp, out);
	plot_op_latency(exp, out);
	plot_series(exp, out);
	html_metrics_table(exp, out);
	html_ops_table(exp, out);
	runs_table(exp, out);
	strbuf_addstr(out, "<h2>Environment</h2>\n<dl class=\"env\">\n");
	report_env_rows(exp, env_row, out);
	strbuf_addstr(out, "</dl>\n<footer>made by iotrial from the stored "
			   "experiment; this page loads nothing from "
			   "anywhere</footer>\n</main></body></html>\n");
	return 0;
}

const struct report_format report_format_html = {
    .name = "html",
    .summary = "one self-contained page with plots (nothing is fetched when it "
	       "is opened)",
    .render = report_experiment_html,
};
