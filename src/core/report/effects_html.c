/*
 * The effects of each factor on the HTML page: what effects_text.c
 * prints, as a table (one group of rows per factor and level, one row
 * per combination of the other factors) with a forest plot of the same
 * ratios, and the interactions as a list. Every effect and interaction
 * that rests on runs iotrial flagged is marked and footnoted as the
 * verdicts are.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "effects_html.h"
#include "effects_text.h"
#include "expjson.h"
#include "p_note.h"
#include "report_plots.h"
#include "suspect.h"
#include "svg.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* "a=1 b=2" of x's "within", or "-" when it is empty. */
static void within_html(struct strbuf *out, struct json_object *x)
{
	struct json_object *w = expjson_get_type(x, "within", json_type_object);
	int first = 1;

	if (!w) {
		strbuf_addstr(out, "-");
		return;
	}
	json_object_object_foreach(w, key, val)
	{
		if (!first)
			strbuf_addch(out, ' ');
		svg_escape(out, key);
		strbuf_addch(out, '=');
		svg_escape(out, json_object_is_type(val, json_type_string)
				    ? json_object_get_string(val)
				    : "?");
		first = 0;
	}
	if (first)
		strbuf_addstr(out, "-");
}

/* One effect's row. */
static void effect_row(struct json_object *exp, struct json_object *e,
		       struct strbuf *out)
{
	double p = expjson_num(e, "p_adjusted");

	strbuf_addstr(out, "<tr><td>");
	within_html(out, e);
	strbuf_addstr(out, "</td><td class=\"num\">");
	if (isfinite(expjson_num(e, "ratio")))
		strbuf_addf(out, "%.3f [%.3f, %.3f]", expjson_num(e, "ratio"),
			    expjson_num(e, "ci_low"),
			    expjson_num(e, "ci_high"));
	strbuf_addstr(out, "</td><td class=\"num\">");
	if (isfinite(p))
		strbuf_addf(out, p < 0.001 ? "%.1e" : "%.3f", p);
	strbuf_addf(out, "</td><td class=\"num\">%d</td><td class=\"v\">",
		    expjson_count(e, "n"));
	strbuf_addf(out, "<span class=\"verdict %s\">",
		    svg_verdict_class(expjson_str(e, "verdict")));
	svg_escape(out, expjson_str(e, "verdict"));
	strbuf_addstr(out, "</span>");
	if (suspect_is(exp, e))
		strbuf_addstr(out, "<span class=\"suspect\">⚠ suspect</span>");
	strbuf_addstr(out, "</td></tr>\n");
}

/* The footnotes of the marked objects of exp's array key. */
static void notes_html(struct json_object *exp, const char *key,
		       void (*heading)(struct json_object *, struct strbuf *),
		       struct strbuf *out)
{
	struct json_object *xs = expjson_get_type(exp, key, json_type_array);
	size_t i, n = xs ? json_object_array_length(xs) : 0;
	struct strbuf h = STRBUF_INIT, note = STRBUF_INIT;

	for (i = 0; i < n; i++) {
		struct json_object *x = json_object_array_get_idx(xs, i);

		if (!suspect_is(exp, x))
			continue;
		strbuf_reset(&h);
		strbuf_reset(&note);
		heading(x, &h);
		suspect_note(exp, x, h.buf, &note);
		strbuf_addstr(out, "<p>⚠ <b>suspect</b> ");
		svg_escape(out, note.buf);
		strbuf_addstr(out, "</p>");
	}
	strbuf_release(&h);
	strbuf_release(&note);
}

/* The interaction sentences, one list item each. */
static void interactions_html(struct json_object *exp, struct strbuf *out)
{
	struct strbuf lines = STRBUF_INIT;
	const char *line, *nl;

	if (!report_interactions_text(exp, &lines))
		goto out;
	strbuf_addstr(out, "<h3>Does one factor's effect depend on another?"
			   "</h3>\n<ul class=\"interactions\">\n");
	for (line = lines.buf; *line; line = nl + 1) {
		nl = strchr(line, '\n');
		if (!nl)
			nl = line + strlen(line);
		strbuf_addstr(out, "<li>");
		/* the text's '*' mark becomes the page's badge */
		if (nl > line && nl[-1] == '*') {
			struct strbuf one = STRBUF_INIT;

			strbuf_add(&one, line, (size_t)(nl - line - 1));
			svg_escape(out, one.buf);
			strbuf_addstr(out, "<span class=\"suspect\">⚠ suspect"
					   "</span>");
			strbuf_release(&one);
		} else {
			struct strbuf one = STRBUF_INIT;

			strbuf_add(&one, line, (size_t)(nl - line));
			svg_escape(out, one.buf);
			strbuf_release(&one);
		}
		strbuf_addstr(out, "</li>\n");
		if (!*nl)
			break;
	}
	strbuf_addstr(out, "</ul>\n<div class=\"notes\">");
	notes_html(exp, "interactions", report_interaction_heading, out);
	strbuf_addstr(out, "</div>\n");
out:
	strbuf_release(&lines);
}

/* The forest plot of the effects, each labelled by what it compares. */
static void effects_forest(struct json_object *exp, struct json_object *es,
			   struct strbuf *out)
{
	size_t i, n = json_object_array_length(es);
	struct plot_forest_row *rows = xcalloc(n ? n : 1, sizeof(*rows));
	struct strbuf *labels = xcalloc(n ? n : 1, sizeof(*labels));

	for (i = 0; i < n; i++) {
		strbuf_init(&labels[i], 0);
		rows[i].x = json_object_array_get_idx(es, i);
		report_effect_heading(rows[i].x, &labels[i]);
		rows[i].label = labels[i].buf;
	}
	plot_forest_rows(exp, rows, n, "Effect of each factor",
			 "level / baseline level, the others alike", out);
	for (i = 0; i < n; i++)
		strbuf_release(&labels[i]);
	free(labels);
	free(rows);
}

bool report_effects_html(struct json_object *exp, struct strbuf *out)
{
	struct json_object *es =
	    expjson_get_type(exp, "effects", json_type_array);
	size_t i, n = es ? json_object_array_length(es) : 0;

	if (!n)
		return false;
	strbuf_addstr(out,
		      "<h2>Effects of each factor</h2>\n<div class=\"tbl\">"
		      "<table class=\"effects\"><thead><tr><th>at</th>"
		      "<th class=\"num\">ratio [95% CI]</th><th "
		      "class=\"num\">p</th><th class=\"num\">n</th>"
		      "<th>verdict</th></tr></thead><tbody>\n");
	for (i = 0; i < n; i++) {
		struct json_object *e = json_object_array_get_idx(es, i);
		struct json_object *prev =
		    i ? json_object_array_get_idx(es, i - 1) : NULL;

		if (!prev ||
		    strcmp(expjson_str(e, "factor"),
			   expjson_str(prev, "factor")) ||
		    strcmp(expjson_str(e, "level"),
			   expjson_str(prev, "level"))) {
			strbuf_addstr(out,
				      "<tr><td class=\"arm\" colspan=\"5\">");
			svg_escape(out, expjson_str(e, "factor"));
			strbuf_addch(out, '=');
			svg_escape(out, expjson_str(e, "level"));
			strbuf_addstr(out, " vs ");
			svg_escape(out, expjson_str(e, "factor"));
			strbuf_addch(out, '=');
			svg_escape(out, expjson_str(e, "baseline_level"));
			strbuf_addstr(out, "</td></tr>\n");
		}
		effect_row(exp, e, out);
	}
	strbuf_addstr(out, "</tbody></table></div>\n<div class=\"notes\">");
	notes_html(exp, "effects", report_effect_heading, out);
	strbuf_addstr(out, "<p>ratio: the factor at that level over its "
			   "baseline level, every other factor alike (paired "
			   "by block when the runs are)");
	{
		struct strbuf note = STRBUF_INIT;

		report_p_note_effects(exp, report_effect_heading, &note);
		if (note.len) {
			strbuf_addstr(out, "; ");
			svg_escape(out, note.buf);
		}
		strbuf_release(&note);
	}
	strbuf_addstr(out, ".</p></div>\n");
	effects_forest(exp, es, out);
	interactions_html(exp, out);
	return true;
}
