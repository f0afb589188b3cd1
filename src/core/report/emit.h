/*
 * The emitter: how a report page's sections write (page.h). A section
 * says what it has, a heading, a line, a note, a table, a plot, and the
 * format's emitter decides how that looks: text as `show` prints it,
 * Markdown, or HTML. So a new format is a new emitter, and no section
 * is written twice. Everything a section hands an emitter is unescaped
 * text; each emitter escapes for its format.
 */
#ifndef IOTRIAL_EMIT_H
#define IOTRIAL_EMIT_H

#include <stdbool.h>
#include <stddef.h>
#include "../model/experiment_doc.h"
#include "../../util/strbuf.h"

/* What a column holds: md and HTML align and style by it. */
enum emit_kind {
	EMIT_TEXT = 0, /* words */
	EMIT_LABEL,    /* an arm's label, a row's name */
	EMIT_NUM,      /* a number: right-aligned */
	EMIT_CODE,     /* a name from the workload, as code */
	EMIT_VERDICT,  /* a verdict word */
};

/* Column flags. */
#define EMIT_RIGHT (1u << 0) /* text: right-aligned */
#define EMIT_WIDE  (1u << 1) /* not in text: no room in 80 columns */

/* One column of a table. */
struct emit_col {
	const char *head;    /* its heading */
	unsigned char kind;  /* enum emit_kind */
	unsigned char flags; /* EMIT_RIGHT, EMIT_WIDE */
	unsigned char gap;   /* text: spaces after it */
	size_t width;	     /* text: padded to this many characters */
};

/* A table: html's class, its columns. pairs: a table of names and
 * values without headings (the environment). */
struct emit_table {
	const char *name;
	const struct emit_col *cols;
	size_t nr_cols;
	bool pairs;
};

/* The marks of a cell or an item. */
#define EMIT_MARK_SUSPECT (1u << 0) /* rests on runs iotrial flagged */
#define EMIT_MARK_STATED  (1u << 1) /* a host's file says otherwise */

/* What a note is. */
enum emit_note {
	EMIT_NOTE_PLAIN,   /* a remark under a table */
	EMIT_NOTE_SUSPECT, /* why a marked row is suspect */
	EMIT_NOTE_KEY,	   /* what the suspect mark means */
	EMIT_NOTE_CAUTION, /* a reason to doubt a setting's verdict */
	EMIT_NOTE_WARNING, /* a warning */
	EMIT_NOTE_STATED,  /* what a host's file said instead */
};

#define EMIT_MAX_COLS 32

struct emit;

/* A format's emitter: every hook writes onto e->out. */
struct emit_ops {
	void (*begin)(struct emit *e); /* the page's head */
	void (*end)(struct emit *e);   /* and foot */
	/* level 1: the page's title, 2: a section's, 3: a part's; lead:
	 * the line text prints instead of a title (either may be NULL) */
	void (*heading)(struct emit *e, int level, const char *title,
			const char *lead);
	void (*line)(struct emit *e, const char *text);
	void (*gap)(struct emit *e);
	void (*footnote)(struct emit *e, enum emit_note kind, const char *text);
	void (*list)(struct emit *e, unsigned indent); /* text's indent */
	void (*item)(struct emit *e, const char *text, unsigned marks);
	void (*list_end)(struct emit *e);
	void (*table)(struct emit *e);
	/* e->cell[0..nr_cells), e->marks[]; a row with fewer cells than
	 * columns has its last cell span the rest; head: the headings */
	void (*row)(struct emit *e, bool head);
	void (*table_end)(struct emit *e);
	void (*warnings)(struct emit *e, char *const *w, size_t n);
	void (*pre)(struct emit *e, const char *text);
	/* draw the plot (HTML); NULL: the format has no plots */
	void (*plot)(struct emit *e,
		     void (*draw)(const struct experiment_doc *doc,
				  struct strbuf *out));
};

/* An emitter at work on one page. */
struct emit {
	const struct emit_ops *ops;
	struct strbuf *out;
	const struct experiment_doc *doc;
	const struct emit_table *table; /* the open table */
	struct strbuf cell[EMIT_MAX_COLS];
	unsigned char marks[EMIT_MAX_COLS];
	size_t nr_cells;
	int state;    /* the emitter's: what block is open */
	int after_h1; /* HTML: the line under the title */
};

/* The emitters of the page formats (emit_text.c, emit_md.c,
 * emit_html.c). */
extern const struct emit_ops emit_text_ops, emit_md_ops, emit_html_ops;

/* Start e on doc, writing onto out; release with emit_release(). */
void emit_init(struct emit *e, const struct emit_ops *ops,
	       const struct experiment_doc *doc, struct strbuf *out);
void emit_release(struct emit *e);

/* What a section calls (the hooks above, with printf formats). */
void emit_heading(struct emit *e, int level, const char *title,
		  const char *lead);
void emit_line(struct emit *e, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void emit_gap(struct emit *e);
void emit_note(struct emit *e, enum emit_note kind, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void emit_list(struct emit *e, unsigned indent);
void emit_item(struct emit *e, unsigned marks, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void emit_list_end(struct emit *e);
/* A table of t's columns (t must outlive the table); its headings are
 * written unless every one is NULL. */
void emit_table(struct emit *e, const struct emit_table *t);
/* The next cell of the row, its text as fmt formats it. */
void emit_cell(struct emit *e, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Mark the last cell. */
void emit_mark(struct emit *e, unsigned marks);
void emit_row(struct emit *e);
void emit_table_end(struct emit *e);
void emit_warnings(struct emit *e, char *const *w, size_t n);
void emit_pre(struct emit *e, const char *text);
void emit_plot(struct emit *e, void (*draw)(const struct experiment_doc *doc,
					    struct strbuf *out));

/* Pad the text cell that starts at out->len == from to width (spaces
 * before it when right), for the text emitter and run_text.c. */
void emit_pad(struct strbuf *out, size_t from, size_t width, bool right);

#endif
