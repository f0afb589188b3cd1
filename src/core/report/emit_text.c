/*
 * The text emitter (emit.h): the page `show` prints to a terminal.
 * Columns are padded to the widths the sections give (a wider cell
 * pushes the rest of its line, as the old tables did), a heading is its
 * lead-in line, a mark is a character after its cell ('*' suspect, '#'
 * stated) with its footnote under the table, and a line's trailing
 * spaces are cut.
 */
#include <string.h>
#include "sections.h"
#include "report_formats.h"
#include "../../util/banned.h"

static void text_nothing(struct emit *e)
{
	(void)e;
}

static void text_heading(struct emit *e, int level, const char *title,
			 const char *lead)
{
	(void)level;
	(void)title;
	if (lead)
		strbuf_addf(e->out, "%s\n", lead);
}

static void text_line(struct emit *e, const char *text)
{
	strbuf_addf(e->out, "%s\n", text);
}

static void text_gap(struct emit *e)
{
	strbuf_addch(e->out, '\n');
}

static void text_note(struct emit *e, enum emit_note kind, const char *text)
{
	static const char *const prefix[] = {
	    [EMIT_NOTE_PLAIN] = "",
	    [EMIT_NOTE_SUSPECT] = "* ",
	    [EMIT_NOTE_KEY] = "* suspect: ",
	    [EMIT_NOTE_CAUTION] = "",
	    [EMIT_NOTE_WARNING] = "warning: ",
	    [EMIT_NOTE_STATED] = "# ",
	};

	strbuf_addf(e->out, "%s%s\n", prefix[kind], text);
}

/* The marks as text: "*", "#". */
static void add_marks(struct strbuf *out, unsigned marks)
{
	if (marks & EMIT_MARK_SUSPECT)
		strbuf_addch(out, '*');
	if (marks & EMIT_MARK_STATED)
		strbuf_addch(out, '#');
}

static void text_list(struct emit *e, unsigned indent)
{
	e->state = (int)indent;
}

static void text_item(struct emit *e, const char *text, unsigned marks)
{
	strbuf_addf(e->out, "%*s%s", e->state, "", text);
	add_marks(e->out, marks);
	strbuf_addch(e->out, '\n');
}

static void text_row(struct emit *e, bool head)
{
	const struct emit_table *t = e->table;
	size_t i, last = 0, line = e->out->len, from;
	bool spans = e->nr_cells < t->nr_cols;

	(void)head;
	for (i = 0; i < e->nr_cells; i++)
		if (!(t->cols[i].flags & EMIT_WIDE))
			last = i;
	for (i = 0; i < e->nr_cells; i++) {
		const struct emit_col *c = &t->cols[i];

		if (c->flags & EMIT_WIDE)
			continue;
		from = e->out->len;
		strbuf_add(e->out, e->cell[i].buf, e->cell[i].len);
		add_marks(e->out, e->marks[i]);
		if (i == last && spans)
			break;
		emit_pad(e->out, from, c->width, c->flags & EMIT_RIGHT);
		if (i < last)
			strbuf_addf(e->out, "%*s", (int)c->gap, "");
	}
	/* the spaces padding left at the end of the line */
	while (e->out->len > line && e->out->buf[e->out->len - 1] == ' ')
		strbuf_setlen(e->out, e->out->len - 1);
	strbuf_addch(e->out, '\n');
}

static void text_warnings(struct emit *e, char *const *w, size_t n)
{
	size_t i;

	strbuf_addch(e->out, '\n');
	for (i = 0; i < n; i++)
		strbuf_addf(e->out, "warning: %s\n", w[i]);
}

static void text_pre(struct emit *e, const char *text)
{
	strbuf_addstr(e->out, text);
}

const struct emit_ops emit_text_ops = {
    .begin = text_nothing,
    .end = text_nothing,
    .heading = text_heading,
    .line = text_line,
    .gap = text_gap,
    .footnote = text_note,
    .list = text_list,
    .item = text_item,
    .list_end = text_nothing,
    .table = text_nothing,
    .row = text_row,
    .table_end = text_nothing,
    .warnings = text_warnings,
    .pre = text_pre,
};

const struct report_format report_format_text = {
    .name = "text",
    .summary = "the page of show, the fleet and live parts included, with "
	       "one row per run (block, arm, metric, real/user/sys time, "
	       "device tps, MB read/written per second and in all)",
    .emit = &emit_text_ops,
    .sections = REPORT_PAGE_TEXT,
};
