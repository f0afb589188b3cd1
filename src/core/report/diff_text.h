/*
 * What `iotrial diff` prints, from the two stored experiments e[0]
 * (before) and e[1] (after), the arm used of each and their before/after
 * experiment d (experiment/diff.h), as text or as JSON. id holds the ids
 * as the user gave them.
 */
#ifndef IOTRIAL_DIFF_TEXT_H
#define IOTRIAL_DIFF_TEXT_H

#include <json-c/json.h>
#include "../../util/strbuf.h"

/* The verdict of "after" against "before" in d ("slower", ...), or "".
 * Valid while d. */
const char *report_diff_verdict(struct json_object *d);

/*
 * "before: ID arm 'L'; after: ...", then, when unlike holds lines (what
 * the two arms ran differently, experiment/diff.h's diff_unlike()),
 * that they are not like for like with those lines; the experiment
 * table of d, or when d is NULL (refused) a line saying there is no
 * verdict and how to force one; then a line per difference of the
 * environments ("env differs: ...") and of the targets and parameters
 * ("params differ: ..."), or a line saying there is none. Appends to
 * out.
 */
void report_diff_text(struct json_object *e[2], const char *const id[2],
		      const int arm[2], struct json_object *d,
		      const char *unlike, struct strbuf *out);

/*
 * The same as one JSON object, pretty-printed with a final newline:
 * before, after, arm_before, arm_after, like_for_like, unlike (its
 * lines), verdict ("" when d is NULL), experiment (d, when given) and
 * differences (the lines above, as strings). Appends to out.
 */
void report_diff_json(struct json_object *e[2], const char *const id[2],
		      const int arm[2], struct json_object *d,
		      const char *unlike, struct strbuf *out);

#endif
