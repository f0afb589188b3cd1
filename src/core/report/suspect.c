/*
 * Suspect verdicts (suspect.h). A run's warnings say what went wrong in
 * that run; a verdict is built from many runs of two arms, so its
 * reasons count, per kind of warning, how many runs of the arm and of
 * the baseline carried one. Only the kinds that mean the numbers may
 * not describe the device count: other I/O on the device and warnings
 * of no known kind are left to the warnings list (observe, which
 * measures a shared device, adds its own other_io reasons: the table
 * has a phrase for them that it does not count here).
 *
 * This file is the kinds and a run's warnings as a mask of them (it reads
 * result/result.h); the reasons and marks of a document are
 * suspect_doc.c's.
 */
#include "suspect.h"
#include "suspect-int.h"
#include "../result/result.h"
#include "../../util/banned.h"

/* The kinds that make a verdict suspect, in the order reasons list them;
 * SUSPECT_DRIFT is the arm's drift, not a run's warning. */
#define SUSPECT_DRIFT RUN_WARN_KINDS

const struct suspect_kind suspect_kinds_table[] = {
    {RUN_WARN_PAGE_CACHE, "page_cache", "reads measured the page cache", 1},
    {RUN_WARN_ABSORBED, "absorbed", "the page cache absorbed the writes", 1},
    {RUN_WARN_SHORT, "short", "runs too short to trust", 1},
    {RUN_WARN_CPU_BOUND, "cpu_bound", "workers CPU-bound", 1},
    {RUN_WARN_INTERRUPTED, "interrupted", "runs cut short by a signal", 1},
    {RUN_WARN_UNREACHED, "unreached", "the I/O never reached the disk", 1},
    {RUN_WARN_FIDELITY, "fidelity", "replays unfaithful to their trace", 1},
    {SUSPECT_DRIFT, "drift", "the metric drifted across blocks", 1},
    /* observe's reason: not counted from compare's runs */
    {RUN_WARN_OTHER_IO, "other_io",
     "other processes' I/O on the device during the windows", 0},
};

const size_t nr_suspect_kinds =
    sizeof(suspect_kinds_table) / sizeof(*suspect_kinds_table);

unsigned suspect_drift_kind(void)
{
	return SUSPECT_DRIFT;
}

unsigned suspect_warn_mask(char *const *w, size_t n, char *const *kinds,
			   size_t nr_kinds)
{
	unsigned mask = 0;
	size_t i;

	/* kinds that do not pair with the texts are not trusted */
	for (i = 0; i < n; i++)
		mask |= 1u << (nr_kinds == n ? run_warn_kind_parse(kinds[i])
					     : run_warn_kind_of_text(w[i]));
	return mask;
}
