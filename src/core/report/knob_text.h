/*
 * The listing of `iotrial knobs`: every tunable that applies to a
 * target with its current value, unit, allowed values, scope and notes,
 * as text or as one JSON document. The caller resolves and describes
 * each knob (knob.h); this only renders what it found. Also what `set`
 * prints: its plan (--dry-run) and what it changed.
 */
#ifndef IOTRIAL_KNOB_TEXT_H
#define IOTRIAL_KNOB_TEXT_H

#include "../model/listing_doc.h"
#include "../knob/knob.h"
#include "../knob/plan.h"
#include "../../util/strbuf.h"

/* The heading: "knobs of device 'loop3' and mount '/mnt'" and a blank
 * line, or nothing when ctx has neither. Appends to out. */
void report_knobs_head(const struct knob_ctx *ctx, struct strbuf *out);

/*
 * One knob k holding value, described by d: its name and value (shown
 * in its unit), scope and path, allowed values, legacy names and notes.
 * Appends to out.
 */
void report_knob_text(const struct knob *k, const char *value,
		      const struct knob_desc *d, struct strbuf *out);

/* The end of the listing: the knobs ctx has no place for, and why, and
 * the escape hatches for any other tunable. Appends to out. */
void report_knobs_tail(const struct knob_ctx *ctx, struct strbuf *out);

/* One knob (name, value, shown, unit, allowed, scope, object, path,
 * legacy_names, notes) appended to doc's knobs. */
void report_knob_doc(const struct knob *k, const char *value,
		     const struct knob_desc *d, struct knobs_doc *doc);

/*
 * The JSON document of the listing, pretty-printed with a final newline,
 * appended to out: doc (initialised by the caller, its knobs added with
 * report_knob_doc(); the caller releases it) with the schema, ctx's
 * device and mount and why the missing places are missing.
 */
void report_knobs_json(const struct knob_ctx *ctx, struct knobs_doc *doc,
		       struct strbuf *out);

/*
 * The plan of `set --dry-run`: each change in apply order, old -> new
 * as people read them, what the write does and any note, then how the
 * originals are kept (in the journal at journal). Appends to out.
 */
void report_knob_plan(const struct knob_plan *p, const char *journal,
		      struct strbuf *out);

/* The numbered steps of report_knob_plan(), alone. Appends to out. */
void report_knob_plan_steps(const struct knob_plan *p, struct strbuf *out);

/* Its last line: how the originals are kept in journal. */
void report_knob_plan_journal(const char *journal, struct strbuf *out);

/*
 * What `set` did: old -> new per knob of the applied plan p, and where
 * the originals are. Appends to out.
 */
void report_knob_done(const struct knob_plan *p, const char *journal,
		      struct strbuf *out);

#endif
