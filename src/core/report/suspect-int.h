/*
 * What suspect.c's two halves share: the kinds of flags that make a row
 * suspect, and a run's warnings as a mask of them. suspect.c reads
 * result/result.h, suspect_doc.c the model; their
 * run structs share names, so no file includes both.
 */
#ifndef IOTRIAL_SUSPECT_INT_H
#define IOTRIAL_SUSPECT_INT_H

#include <stddef.h>

/* A kind of flag, in the order reasons list them. */
struct suspect_kind {
	unsigned kind;	    /* enum run_warn_kind, or suspect_drift_kind() */
	const char *name;   /* "page_cache" */
	const char *phrase; /* for the footnote */
	int counted;	    /* does a run's warning of it make a reason */
};
extern const struct suspect_kind suspect_kinds_table[];
extern const size_t nr_suspect_kinds;

/* The kind of an arm's drift, after every run_warn_kind: counts of the
 * kinds are indexed 0..suspect_drift_kind(). */
unsigned suspect_drift_kind(void);

/* The kinds of a run's n warnings w, as a mask of 1 << kind: kinds[] when
 * there is one per warning, else each text's kind. */
unsigned suspect_warn_mask(char *const *w, size_t n, char *const *kinds,
			   size_t nr_kinds);

#endif
