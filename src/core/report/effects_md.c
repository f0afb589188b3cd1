/*
 * The effects of each factor in the Markdown report: a table of the
 * effects and the interaction sentences, marked and footnoted as the
 * verdict table is when they rest on runs iotrial flagged.
 */
#include <math.h>
#include <string.h>
#include "fmt.h"
#include "effects_md.h"
#include "effects_text.h"
#include "expjson.h"
#include "p_note.h"
#include "report_formats.h"
#include "suspect.h"
#include "../../util/banned.h"

/* One effect's row: what it compares, at what, its numbers. */
static void effect_row(struct json_object *exp, struct json_object *e,
		       struct strbuf *out)
{
	struct strbuf h = STRBUF_INIT;
	double p = expjson_num(e, "p_adjusted");

	report_effect_heading(e, &h);
	strbuf_addstr(out, "| ");
	report_md_escape(out, h.buf);
	strbuf_addstr(out, " | ");
	if (isfinite(expjson_num(e, "ratio")))
		strbuf_addf(out, "%.3f (%.3f – %.3f)", expjson_num(e, "ratio"),
			    expjson_num(e, "ci_low"),
			    expjson_num(e, "ci_high"));
	strbuf_addstr(out, " | ");
	if (isfinite(p))
		strbuf_addf(out, p < 0.001 ? "%.1e" : "%.3f", p);
	strbuf_addstr(out, " | **");
	report_md_escape(out, expjson_str(e, "verdict"));
	strbuf_addstr(out, "**");
	if (suspect_is(exp, e))
		strbuf_addstr(out, " ⚠ suspect");
	strbuf_addstr(out, " |\n");
	strbuf_release(&h);
}

/* "⚠ suspect: HEADING: why" lines for the marked objects of key. */
static void notes_md(struct json_object *exp, const char *key,
		     void (*heading)(struct json_object *, struct strbuf *),
		     struct strbuf *out)
{
	struct json_object *xs = expjson_get_type(exp, key, json_type_array);
	size_t i, n = xs ? json_object_array_length(xs) : 0, said = 0;
	struct strbuf h = STRBUF_INIT, note = STRBUF_INIT;

	for (i = 0; i < n; i++) {
		struct json_object *x = json_object_array_get_idx(xs, i);

		if (!suspect_is(exp, x))
			continue;
		strbuf_reset(&h);
		strbuf_reset(&note);
		heading(x, &h);
		suspect_note(exp, x, h.buf, &note);
		strbuf_addstr(out, said++ ? "" : "\n");
		strbuf_addstr(out, "⚠ suspect: ");
		report_md_escape(out, note.buf);
		strbuf_addstr(out, "  \n");
	}
	strbuf_release(&h);
	strbuf_release(&note);
}

bool report_effects_md(struct json_object *exp, struct strbuf *out)
{
	struct json_object *es =
	    expjson_get_type(exp, "effects", json_type_array);
	struct strbuf lines = STRBUF_INIT;
	size_t i, n = es ? json_object_array_length(es) : 0;
	const char *line, *nl;

	if (!n)
		return false;
	strbuf_addstr(out, "\n### Effects of each factor\n\n| effect | ratio "
			   "(95% CI) | p | verdict |\n|---|---:|---:|---|\n");
	for (i = 0; i < n; i++)
		effect_row(exp, json_object_array_get_idx(es, i), out);
	report_p_note_effects(exp, report_effect_heading, &lines);
	if (lines.len) {
		strbuf_addch(out, '\n');
		report_md_escape(out, lines.buf);
		strbuf_addstr(out, ".\n");
	}
	strbuf_reset(&lines);
	notes_md(exp, "effects", report_effect_heading, out);
	if (report_interactions_text(exp, &lines)) {
		strbuf_addch(out, '\n');
		for (line = lines.buf; *line; line = nl + 1) {
			nl = strchr(line, '\n');
			if (!nl)
				nl = line + strlen(line);
			strbuf_addstr(out, "- ");
			{
				struct strbuf one = STRBUF_INIT;
				int mark = nl > line && nl[-1] == '*';

				strbuf_add(&one, line,
					   (size_t)(nl - line - mark));
				report_md_escape(out, one.buf);
				if (mark)
					strbuf_addstr(out, " ⚠ suspect");
				strbuf_release(&one);
			}
			strbuf_addch(out, '\n');
			if (!*nl)
				break;
		}
		notes_md(exp, "interactions", report_interaction_heading, out);
	}
	strbuf_release(&lines);
	return true;
}
