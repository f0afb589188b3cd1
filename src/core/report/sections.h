/*
 * The sections of a report page (page.h), in page order: each a pair
 * of functions in the file of what it renders, declared here so that
 * the walker (page.c) and the sections need not include each other.
 */
#ifndef IOTRIAL_SECTIONS_H
#define IOTRIAL_SECTIONS_H

#include <stdbool.h>
#include "emit.h"

/* The sections, in the order a page has them. */
#define REPORT_SECTION_TABLE(S)                                                \
	S(summary)                                                             \
	S(run)                                                                 \
	S(effects)                                                             \
	S(verdicts)                                                            \
	S(regimes)                                                             \
	S(scaling)                                                             \
	S(metrics)                                                             \
	S(ops)                                                                 \
	S(warnings)                                                            \
	S(advice)                                                              \
	S(fleet)                                                               \
	S(live)                                                                \
	S(tune)                                                                \
	S(series)                                                              \
	S(devices)                                                             \
	S(runs)                                                                \
	S(origin)                                                              \
	S(env)

#define REPORT_SECTION_ENUM_(n) REPORT_SEC_##n,
enum report_section_id {
	REPORT_SECTION_TABLE(REPORT_SECTION_ENUM_) REPORT_NR_SECTIONS
};
#undef REPORT_SECTION_ENUM_

/* One section: does doc have it, and its rendering through e. */
#define REPORT_SECTION_DECLARE_(n)                                             \
	bool report_##n##_present(const struct experiment_doc *doc);           \
	void report_##n##_section(const struct experiment_doc *doc,            \
				  struct emit *e);
REPORT_SECTION_TABLE(REPORT_SECTION_DECLARE_)
#undef REPORT_SECTION_DECLARE_

/* A set of sections, by name. */
#define REPORT_SEC(n)	(1u << REPORT_SEC_##n)
#define REPORT_PAGE_ALL ((1u << REPORT_NR_SECTIONS) - 1)
/* What `compare`, `import` and `fleet merge` print first: the table of
 * verdicts and what is said under it. */
#define REPORT_PAGE_VERDICTS                                                   \
	(REPORT_SEC(summary) | REPORT_SEC(run) | REPORT_SEC(effects) |         \
	 REPORT_SEC(verdicts) | REPORT_SEC(regimes) | REPORT_SEC(scaling) |    \
	 REPORT_SEC(metrics) | REPORT_SEC(ops) | REPORT_SEC(warnings) |        \
	 REPORT_SEC(advice))
/* The text page (report --format text; show leaves out the runs unless
 * asked): the environment's table is for md and HTML, text ends with
 * one line of it (origin). */
#define REPORT_PAGE_TEXT (REPORT_PAGE_ALL & ~REPORT_SEC(env))

#endif
