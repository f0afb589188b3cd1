/*
 * What `iotrial diff` prints, from its answer, the diff document
 * (model/command_doc.h; experiment/diff.h's diff_doc_fill() makes it),
 * as text or as JSON.
 */
#ifndef IOTRIAL_DIFF_TEXT_H
#define IOTRIAL_DIFF_TEXT_H

#include "../model/command_doc.h"
#include "../../util/strbuf.h"

/*
 * "before: ID arm 'L'; after: ...", then, when doc is not like for like,
 * that it is not with the lines of what the two arms ran differently;
 * the experiment table of doc's experiment, or when it has none
 * (refused) a line saying there is no verdict and how to force one;
 * then its differences of the environments ("env differs: ...") and of
 * the targets and parameters ("params differ: ..."), or a line saying
 * there is none. Appends to out.
 */
void report_diff_text(const struct diff_doc *doc, struct strbuf *out);

/*
 * The same as one JSON object (the codec's diff_doc_encode()),
 * pretty-printed with a final newline: before, after, arm_before,
 * arm_after, like_for_like, unlike (its lines), verdict ("" without an
 * experiment), experiment (when there is one) and differences. Appends
 * to out.
 */
void report_diff_json(const struct diff_doc *doc, struct strbuf *out);

#endif
