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
 * "before: ID arm 'L'; after: ...", the experiment table of d, then a
 * line per difference of the environments ("env differs: ...") and of
 * the targets and parameters ("params differ: ..."), or a line saying
 * there is none. Appends to out.
 */
void report_diff_text(struct json_object *e[2], const char *const id[2],
		      const int arm[2], struct json_object *d,
		      struct strbuf *out);

/*
 * The same as one JSON object, pretty-printed with a final newline:
 * before, after, arm_before, arm_after, verdict, experiment (d) and
 * differences (the lines above, as strings). Appends to out.
 */
void report_diff_json(struct json_object *e[2], const char *const id[2],
		      const int arm[2], struct json_object *d,
		      struct strbuf *out);

#endif
