/*
 * From a run's device truth to the numbers that say whether a knob could
 * have mattered (knob.h, struct knob_obs): the dirty thresholds the
 * kernel computed during the run (/proc/vmstat) next to the dirty peak,
 * the same for the workload's memory cgroup, and per device the deepest
 * queue and the largest read requests seen. They are also part of the
 * run object ("dirty_thresholds", "cgroup_dirty", "queue_peaks" in
 * "truth") and of the run summary.
 */
#ifndef IOTRIAL_REGIME_OBS_H
#define IOTRIAL_REGIME_OBS_H

#include <stdint.h>
#include "truth.h"
#include "../knob/knob.h"

/* Dirty memory against its thresholds over one run, in bytes. */
struct truth_dirty {
	int have_thresh;	  /* the kernel's thresholds were sampled */
	uint64_t dirtyable_bytes; /* free + file LRU pages, lowest sampled */
	uint64_t bg_thresh_bytes; /* nr_dirty_background_threshold, lowest */
	uint64_t thresh_bytes;	  /* nr_dirty_threshold, lowest */
	uint64_t dirty_wb_peak_bytes; /* the highest Dirty + Writeback */
	int cg_version;		      /* 0: no memory cgroup watched */
	uint64_t cg_memory_max_bytes; /* its limit */
	int have_cg;		      /* its memory.stat was sampled */
	uint64_t cg_dirty_peak_bytes;
	uint64_t cg_dirty_wb_peak_bytes;
	uint64_t cg_dirtyable_bytes; /* v2: file LRU + headroom below its
					limit, lowest sampled */
	uint64_t cg_bg_thresh_bytes; /* v2: the global thresholds scaled to
					its dirtyable share, as the kernel
					does */
	uint64_t cg_thresh_bytes;
};

/* The dirty side of t (zeroed first; t may be NULL). */
void truth_dirty_of(const struct truth *t, struct truth_dirty *out);

/*
 * Fill o (zeroed first) from t and the run r; direct says the workload's
 * I/O bypassed the page cache. Device names point into t: o lives no
 * longer than t. t may be NULL (then only the workload's bytes).
 */
void truth_knob_obs(const struct truth *t, const struct run_result *r,
		    int direct, struct knob_obs *o);

struct truth_doc;

/* Fill "dirty_thresholds", "cgroup_dirty" and "queue_peaks" of the truth
 * document o of t (each only when known). */
void truth_regime_to_doc(const struct truth *t, struct truth_doc *o);

#endif
