/*
 * The order of a series' boots, and the systemd unit that runs the next
 * one. Boots of the values being compared are interleaved in blocks,
 * each block a random order of every value (A B, B A, A B, ...): drift
 * of the machine over the days of a series (a filling SSD, a firmware
 * update) then falls on every value alike instead of on whichever ran
 * last. The plan is kept with the series as JSON,
 * {"start": GROUP, "order": [TAG, ...]}: the group that first follows
 * it, and the tag of each boot from there on.
 */
#ifndef IOTRIAL_SERIES_PLAN_H
#define IOTRIAL_SERIES_PLAN_H

#include <stdint.h>
#include "../model/series_doc.h"
#include "../../util/strbuf.h"

/*
 * A plan of boots blocks of the nv values (each block a shuffle of all
 * of them, from seed), starting at group start, into *out (initialised
 * here; the caller releases it).
 * Returns 0, or -EINVAL with err set (fewer than two values, a value
 * repeated or empty, boots 0).
 */
int series_plan_make(const char *const *values, size_t nv, unsigned boots,
		     uint64_t seed, int start, struct series_plan_doc *out,
		     struct strbuf *err);

/*
 * The tag planned for group grp of the plan (JSON text) into *out_tag
 * (a new string), and *out_last whether it is the plan's last. Returns
 * 0, -ENOENT when grp is past the plan's end (or before its start), or
 * -EINVAL when the plan is not one.
 */
int series_plan_next(const char *plan, int grp, char **out_tag, int *out_last);

/*
 * Is name a series name: letters, digits, '.', '_' and '-', 1 to 64 of
 * them, not starting with '-' or '.'? Such a name goes into a unit's
 * file name, its Description and its command line as it is: no '/',
 * blank, quote, '%' or '$' that systemd would read as something else.
 */
int series_name_ok(const char *name);

/* The unit's file name for series name: "iotrial-series-NAME.service". */
void series_unit_name(const char *name, struct strbuf *out);

/*
 * The systemd unit that runs `BINARY series NAME run --planned --at-boot
 * --db DB` once after boot, into out. name must be a series name
 * (series_name_ok()); binary and db must be absolute paths in UTF-8: a
 * path holding a quote, a backslash, ';', a control character,
 * whitespace or bytes that are not UTF-8 is refused (-EINVAL with err
 * set, out untouched), so that the ExecStart line means exactly those
 * paths; '%' is written as systemd's "%%" and '$' as "$$".
 */
int series_unit_text(const char *name, const char *binary, const char *db,
		     struct strbuf *out, struct strbuf *err);

#endif
