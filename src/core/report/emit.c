/*
 * The sections' side of the emitter (emit.h): printf formats, the cells
 * of a row gathered until the row ends, and the hooks of the format
 * called with the finished text.
 */
#include <stdarg.h>
#include <string.h>
#include "emit.h"
#include "../../util/banned.h"

void emit_init(struct emit *e, const struct emit_ops *ops,
	       const struct experiment_doc *doc, struct strbuf *out)
{
	size_t i;

	memset(e, 0, sizeof(*e));
	e->ops = ops;
	e->doc = doc;
	e->out = out;
	for (i = 0; i < EMIT_MAX_COLS; i++)
		strbuf_init(&e->cell[i], 0);
}

void emit_release(struct emit *e)
{
	size_t i;

	for (i = 0; i < EMIT_MAX_COLS; i++)
		strbuf_release(&e->cell[i]);
}

void emit_heading(struct emit *e, int level, const char *title,
		  const char *lead)
{
	e->ops->heading(e, level, title, lead);
}

/* fmt with ap onto a new strbuf, then hook(e, text). */
#define WITH_TEXT(fmt, CALL)                                                   \
	do {                                                                   \
		struct strbuf t_ = STRBUF_INIT;                                \
		va_list ap;                                                    \
		va_start(ap, fmt);                                             \
		strbuf_vaddf(&t_, fmt, ap);                                    \
		va_end(ap);                                                    \
		CALL;                                                          \
		strbuf_release(&t_);                                           \
	} while (0)

void emit_line(struct emit *e, const char *fmt, ...)
{
	WITH_TEXT(fmt, e->ops->line(e, t_.buf));
}

void emit_gap(struct emit *e)
{
	e->ops->gap(e);
}

void emit_note(struct emit *e, enum emit_note kind, const char *fmt, ...)
{
	WITH_TEXT(fmt, e->ops->footnote(e, kind, t_.buf));
}

void emit_list(struct emit *e, unsigned indent)
{
	e->ops->list(e, indent);
}

void emit_item(struct emit *e, unsigned marks, const char *fmt, ...)
{
	WITH_TEXT(fmt, e->ops->item(e, t_.buf, marks));
}

void emit_list_end(struct emit *e)
{
	e->ops->list_end(e);
}

void emit_table(struct emit *e, const struct emit_table *t)
{
	size_t i;

	e->table = t;
	e->nr_cells = 0;
	e->ops->table(e);
	for (i = 0; i < t->nr_cols && !t->cols[i].head; i++)
		;
	if (i == t->nr_cols)
		return;
	for (i = 0; i < t->nr_cols; i++) {
		strbuf_reset(&e->cell[i]);
		strbuf_addstr(&e->cell[i],
			      t->cols[i].head ? t->cols[i].head : "");
		e->marks[i] = 0;
	}
	e->nr_cells = t->nr_cols;
	e->ops->row(e, true);
	e->nr_cells = 0;
}

void emit_cell(struct emit *e, const char *fmt, ...)
{
	struct strbuf *c;
	va_list ap;

	if (e->nr_cells == EMIT_MAX_COLS || !e->table ||
	    e->nr_cells == e->table->nr_cols)
		return;
	c = &e->cell[e->nr_cells];
	strbuf_reset(c);
	e->marks[e->nr_cells++] = 0;
	va_start(ap, fmt);
	strbuf_vaddf(c, fmt, ap);
	va_end(ap);
}

void emit_mark(struct emit *e, unsigned marks)
{
	if (e->nr_cells)
		e->marks[e->nr_cells - 1] |= marks;
}

void emit_row(struct emit *e)
{
	if (e->nr_cells)
		e->ops->row(e, false);
	e->nr_cells = 0;
}

void emit_table_end(struct emit *e)
{
	e->ops->table_end(e);
	e->table = NULL;
}

void emit_warnings(struct emit *e, char *const *w, size_t n)
{
	if (n)
		e->ops->warnings(e, w, n);
}

void emit_pre(struct emit *e, const char *text)
{
	e->ops->pre(e, text);
}

void emit_plot(struct emit *e, void (*draw)(const struct experiment_doc *doc,
					    struct strbuf *out))
{
	if (e->ops->plot)
		e->ops->plot(e, draw);
}

void emit_pad(struct strbuf *out, size_t from, size_t width, bool right)
{
	size_t len = out->len - from, k;

	if (right && len < width) {
		strbuf_grow(out, width - len);
		memmove(out->buf + from + (width - len), out->buf + from, len);
		for (k = 0; k < width - len; k++)
			out->buf[from + k] = ' ';
		strbuf_setlen(out, from + width);
		return;
	}
	while (out->len - from < width)
		strbuf_addch(out, ' ');
}
