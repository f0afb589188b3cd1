/*
 * A report page: one table of sections, in page order, that every page
 * format walks over an experiment document (docs/ARCHITECTURE.md, "The
 * report page"). Each section says whether doc has it and renders it
 * through an emitter (emit.h), never asking which format it writes.
 * `show` is the text page, `report` the page of a format of
 * REPORT_FORMAT_TABLE (report_formats.h), `compare` and the other
 * commands print parts of it.
 */
#ifndef IOTRIAL_PAGE_H
#define IOTRIAL_PAGE_H

#include <stdbool.h>
#include "sections.h"

/*
 * doc's sections that are in the set sections and that doc has, written
 * with the emitter ops onto out, between the emitter's begin and end.
 * Returns 0, or -EINVAL with err set when the set has the verdicts and
 * doc is no experiment (no arms, and no single run).
 */
int report_page(const struct experiment_doc *doc, const struct emit_ops *ops,
		unsigned sections, struct strbuf *out, struct strbuf *err);

#endif
