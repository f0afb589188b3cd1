/*
 * The Markdown emitter (emit.h): the page for a ticket or a change
 * request. Labels and warnings are user input, and a '|' in one would
 * split a table cell, a '*' start emphasis and a '<' an HTML tag on the
 * sites that render Markdown, so every string goes through
 * report_md_escape(). Lines and notes run on in one paragraph (a hard
 * break after each), and a blank line comes before every other block.
 */
#include <string.h>
#include "fmt.h"
#include "sections.h"
#include "report_formats.h"
#include "../../util/banned.h"

/* The block the page is in (e->state). */
enum md_block { MD_NONE, MD_PARA, MD_HEAD, MD_TABLE, MD_LIST, MD_PRE };

/* Start a block of kind: a blank line first, unless it goes on the
 * paragraph it is in or the page is at one already. */
static void md_block(struct emit *e, enum md_block kind)
{
	if (e->state != MD_NONE && !(kind == MD_PARA && e->state == MD_PARA))
		strbuf_addch(e->out, '\n');
	e->state = kind;
}

static void md_nothing(struct emit *e)
{
	(void)e;
}

/* The marks after a cell or an item. */
static void md_marks(struct strbuf *out, unsigned marks)
{
	if (marks & EMIT_MARK_SUSPECT)
		strbuf_addstr(out, " ⚠ suspect");
	if (marks & EMIT_MARK_STATED)
		strbuf_addstr(out, " ⚠ stated");
}

static void md_line(struct emit *e, const char *text)
{
	md_block(e, MD_PARA);
	report_md_escape(e->out, text);
	strbuf_addstr(e->out, "  \n");
}

static void md_heading(struct emit *e, int level, const char *title,
		       const char *lead)
{
	if (!title) {
		if (lead)
			md_line(e, lead);
		return;
	}
	md_block(e, MD_HEAD);
	strbuf_addf(e->out, "%.*s ", level + 1, "####");
	report_md_escape(e->out, title);
	strbuf_addch(e->out, '\n');
}

static void md_gap(struct emit *e)
{
	if (e->state != MD_NONE)
		strbuf_addch(e->out, '\n');
	e->state = MD_NONE;
}

static void md_note(struct emit *e, enum emit_note kind, const char *text)
{
	static const char *const prefix[] = {
	    [EMIT_NOTE_PLAIN] = "",
	    [EMIT_NOTE_SUSPECT] = "⚠ suspect: ",
	    [EMIT_NOTE_KEY] = "⚠ suspect: ",
	    [EMIT_NOTE_CAUTION] = "⚠ ",
	    [EMIT_NOTE_WARNING] = "⚠ ",
	    [EMIT_NOTE_STATED] = "⚠ stated: ",
	};

	md_block(e, MD_PARA);
	strbuf_addstr(e->out, prefix[kind]);
	report_md_escape(e->out, text);
	strbuf_addstr(e->out, "  \n");
}

static void md_list(struct emit *e, unsigned indent)
{
	(void)indent;
	md_block(e, MD_LIST);
}

static void md_item(struct emit *e, const char *text, unsigned marks)
{
	strbuf_addstr(e->out, "- ");
	report_md_escape(e->out, text);
	md_marks(e->out, marks);
	strbuf_addch(e->out, '\n');
}

static void md_table(struct emit *e)
{
	md_block(e, MD_TABLE);
	if (e->table->pairs)
		strbuf_addstr(e->out, "| | |\n|---|---|\n");
}

static void md_row(struct emit *e, bool head)
{
	const struct emit_table *t = e->table;
	size_t i;

	strbuf_addch(e->out, '|');
	for (i = 0; i < t->nr_cols; i++) {
		bool verdict = t->cols[i].kind == EMIT_VERDICT && !head &&
			       i < e->nr_cells && e->cell[i].len;

		strbuf_addch(e->out, ' ');
		if (verdict)
			strbuf_addstr(e->out, "**");
		if (i < e->nr_cells)
			report_md_escape(e->out, e->cell[i].buf);
		if (verdict)
			strbuf_addstr(e->out, "**");
		if (i < e->nr_cells)
			md_marks(e->out, e->marks[i]);
		strbuf_addstr(e->out, " |");
	}
	strbuf_addch(e->out, '\n');
	if (!head)
		return;
	strbuf_addch(e->out, '|');
	for (i = 0; i < t->nr_cols; i++)
		strbuf_addstr(e->out,
			      t->cols[i].kind == EMIT_NUM ? "---:|" : "---|");
	strbuf_addch(e->out, '\n');
}

static void md_warnings(struct emit *e, char *const *w, size_t n)
{
	size_t i;

	md_block(e, MD_HEAD);
	strbuf_addf(e->out, "### Warnings (%zu)\n\n", n);
	for (i = 0; i < n; i++) {
		strbuf_addstr(e->out, "- ⚠ ");
		report_md_escape(e->out, w[i]);
		strbuf_addch(e->out, '\n');
	}
	e->state = MD_LIST;
}

/* A code fence of n backquotes. */
static void md_fence(struct strbuf *out, size_t n)
{
	while (n--)
		strbuf_addch(out, '`');
	strbuf_addch(out, '\n');
}

/* Text as it is, in a fence longer than any run of backquotes in it. */
static void md_pre(struct emit *e, const char *text)
{
	size_t run = 0, most = 2;
	const char *p;

	for (p = text; *p; p++) {
		run = *p == '`' ? run + 1 : 0;
		most = run > most ? run : most;
	}
	md_block(e, MD_PRE);
	md_fence(e->out, most + 1);
	strbuf_addstr(e->out, text);
	if (*text && text[strlen(text) - 1] != '\n')
		strbuf_addch(e->out, '\n');
	md_fence(e->out, most + 1);
}

const struct emit_ops emit_md_ops = {
    .begin = md_nothing,
    .end = md_nothing,
    .heading = md_heading,
    .line = md_line,
    .gap = md_gap,
    .footnote = md_note,
    .list = md_list,
    .item = md_item,
    .list_end = md_nothing,
    .table = md_table,
    .row = md_row,
    .table_end = md_nothing,
    .warnings = md_warnings,
    .pre = md_pre,
};

const struct report_format report_format_md = {
    .name = "md",
    .summary = "the verdicts, warnings and environment for a ticket",
    .emit = &emit_md_ops,
    .sections = REPORT_PAGE_ALL & ~(REPORT_SEC(runs) | REPORT_SEC(origin)),
};
