/*
 * The numbers of regime_obs.h, computed from the sampler's series: the
 * thresholds are the lowest sampled and the peaks the highest, so that a
 * run is called "below the threshold" only when it was below it at every
 * sample. A memory cgroup's dirtyable memory is computed as the kernel
 * does for cgroup v2 writeback (mm/page-writeback.c, mdtc_calc_avail):
 * its file pages plus its headroom below memory.max.
 */
#include <string.h>
#include "regime_obs.h"
#include "../model/truth_doc.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* Intervals shorter than this do not judge the depth of the queue. */
#define MIN_QUEUE_INTERVAL_S 0.1

/* Lower *min to v, or set it when first. */
static void lower(uint64_t *min, uint64_t v, int *first)
{
	if (*first || v < *min)
		*min = v;
	*first = 0;
}

/* a * b / c, for memory sizes; 0 when c is 0. */
static uint64_t scale(uint64_t a, uint64_t b, uint64_t c)
{
	return c ? (uint64_t)((long double)a * (long double)b / (long double)c)
		 : 0;
}

void truth_dirty_of(const struct truth *t, struct truth_dirty *out)
{
	const struct sampler_series *ser;
	int first = 1, cg_first = 1;
	unsigned i;

	memset(out, 0, sizeof(*out));
	if (!t)
		return;
	ser = &t->series;
	out->cg_version = ser->cg_version;
	out->cg_memory_max_bytes = ser->cg_memory_max_bytes;
	for (i = 0; i < ser->nr_points; i++) {
		const struct sampler_point *p = &ser->points[i];

		if (p->have & SAMPLER_HAVE_MEM &&
		    p->dirty_bytes + p->writeback_bytes >
			out->dirty_wb_peak_bytes)
			out->dirty_wb_peak_bytes =
			    p->dirty_bytes + p->writeback_bytes;
		if (p->have & SAMPLER_HAVE_VMSTAT) {
			lower(&out->dirtyable_bytes, p->dirtyable_bytes,
			      &first);
			out->have_thresh = 1;
			if (!out->bg_thresh_bytes ||
			    p->dirty_bg_thresh_bytes < out->bg_thresh_bytes)
				out->bg_thresh_bytes = p->dirty_bg_thresh_bytes;
			if (!out->thresh_bytes ||
			    p->dirty_thresh_bytes < out->thresh_bytes)
				out->thresh_bytes = p->dirty_thresh_bytes;
		}
		if (p->have & SAMPLER_HAVE_CG) {
			uint64_t head = 0;

			out->have_cg = 1;
			if (p->cg_dirty_bytes > out->cg_dirty_peak_bytes)
				out->cg_dirty_peak_bytes = p->cg_dirty_bytes;
			if (p->cg_dirty_bytes + p->cg_writeback_bytes >
			    out->cg_dirty_wb_peak_bytes)
				out->cg_dirty_wb_peak_bytes =
				    p->cg_dirty_bytes + p->cg_writeback_bytes;
			if (ser->cg_memory_max_bytes > p->cg_current_bytes)
				head = ser->cg_memory_max_bytes -
				       p->cg_current_bytes;
			lower(&out->cg_dirtyable_bytes,
			      p->cg_file_lru_bytes + head, &cg_first);
		}
	}
	if (out->cg_version == 2 && out->have_cg && out->have_thresh &&
	    out->cg_memory_max_bytes) {
		uint64_t avail = out->cg_dirtyable_bytes;

		if (avail > out->dirtyable_bytes)
			avail = out->dirtyable_bytes;
		out->cg_dirtyable_bytes = avail;
		out->cg_bg_thresh_bytes =
		    scale(out->bg_thresh_bytes, avail, out->dirtyable_bytes);
		out->cg_thresh_bytes =
		    scale(out->thresh_bytes, avail, out->dirtyable_bytes);
	}
}

/* Device d's peaks over the series into od. */
static void dev_obs(const struct sampler_series *ser, unsigned d,
		    struct knob_obs_dev *od)
{
	unsigned p;

	for (p = 0; p < ser->nr_points; p++) {
		const struct diskstats *b = sampler_disk(ser, p, d);
		const struct diskstats *a;
		struct disk_delta dd;
		double dt;

		if (!b->nr_fields)
			continue;
		if (b->v[DS_IN_FLIGHT] > od->max_in_flight)
			od->max_in_flight = b->v[DS_IN_FLIGHT];
		if (!p)
			continue;
		a = sampler_disk(ser, p - 1, d);
		if (!a->nr_fields)
			continue;
		dt = (double)(ser->points[p].t_ns - ser->points[p - 1].t_ns) /
		     1e9;
		diskstats_delta(a, b, dt, &dd);
		od->intervals++;
		/* the kernel adds a request's whole time in the queue when
		 * it completes: over a short interval (the last one, cut
		 * by the end of the run) that reads as a deep queue */
		if (dt >= MIN_QUEUE_INTERVAL_S && dd.aqu_sz > od->max_aqu_sz)
			od->max_aqu_sz = dd.aqu_sz;
		if (dd.reads && dd.rareq_kib > od->max_rareq_kib)
			od->max_rareq_kib = dd.rareq_kib;
	}
}

void truth_knob_obs(const struct truth *t, const struct run_result *r,
		    int direct, struct knob_obs *o)
{
	struct truth_dirty td;
	unsigned i;

	memset(o, 0, sizeof(*o));
	o->direct = direct;
	if (r) {
		o->seconds = r->seconds;
		o->have_io = !r->io_uncounted;
		o->read_bytes = r->bytes[IO_READ];
		o->write_bytes = r->bytes[IO_WRITE];
	}
	if (!t)
		return;
	o->have_dirty = t->have_mem;
	o->dirty_peak_bytes = t->dirty_peak_bytes;
	truth_dirty_of(t, &td);
	o->dirty_wb_peak_bytes = td.dirty_wb_peak_bytes;
	o->have_thresh = td.have_thresh;
	o->dirtyable_bytes = td.dirtyable_bytes;
	o->bg_thresh_bytes = td.bg_thresh_bytes;
	o->thresh_bytes = td.thresh_bytes;
	o->cg_version = td.cg_version;
	o->cg_memory_max = td.cg_memory_max_bytes;
	o->have_cg_dirty = td.have_cg;
	o->cg_dirty_peak_bytes = td.cg_dirty_peak_bytes;
	o->cg_dirty_wb_peak_bytes = td.cg_dirty_wb_peak_bytes;
	o->cg_dirtyable_bytes = td.cg_dirtyable_bytes;
	for (i = 0; i < t->nr_devs && i < KNOB_OBS_MAX_DEVS; i++) {
		const struct truth_device *dev = &t->devs[i];
		struct knob_obs_dev *od = &o->devs[o->nr_devs++];
		unsigned k;

		od->name = dev->name;
		if (!dev->valid)
			continue;
		od->reads = dev->d.reads;
		od->read_bytes = dev->d.read_bytes;
		for (k = 0; k < t->series.nr_devs; k++)
			if (!strcmp(t->series.dev_names[k], dev->name))
				dev_obs(&t->series, k, od);
	}
}

void truth_regime_to_doc(const struct truth *t, struct truth_doc *o)
{
	struct truth_dirty td;
	struct knob_obs ko;
	struct truth_dirty_thresholds *d;
	struct truth_cgroup_dirty *c;
	unsigned i;

	if (!t || !o)
		return;
	truth_dirty_of(t, &td);
	if (td.have_thresh) {
		d = o->dirty_thresholds = xcalloc(1, sizeof(*d));
		d->dirtyable_bytes = td.dirtyable_bytes;
		d->background_bytes = td.bg_thresh_bytes;
		d->throttle_bytes = td.thresh_bytes;
		d->dirty_writeback_peak_bytes = td.dirty_wb_peak_bytes;
	}
	if (td.cg_version) {
		c = o->cgroup_dirty = xcalloc(1, sizeof(*c));
		c->version = td.cg_version;
		c->memory_max_bytes = td.cg_memory_max_bytes;
		c->dirty_peak_bytes = td.cg_dirty_peak_bytes;
		c->dirty_writeback_peak_bytes = td.cg_dirty_wb_peak_bytes;
		c->has_dirty_peak_bytes = c->has_dirty_writeback_peak_bytes =
		    td.have_cg ? MODEL_SET : MODEL_ABSENT;
		c->dirtyable_bytes = td.cg_dirtyable_bytes;
		c->background_bytes = td.cg_bg_thresh_bytes;
		c->throttle_bytes = td.cg_thresh_bytes;
		c->has_dirtyable_bytes = c->has_background_bytes =
		    c->has_throttle_bytes =
			td.cg_bg_thresh_bytes ? MODEL_SET : MODEL_ABSENT;
	}
	truth_knob_obs(t, NULL, 0, &ko);
	if (!ko.nr_devs)
		return;
	o->queue_peaks = xcalloc(ko.nr_devs, sizeof(*o->queue_peaks));
	o->nr_queue_peaks = ko.nr_devs;
	o->has_queue_peaks = MODEL_SET;
	for (i = 0; i < ko.nr_devs; i++) {
		const struct knob_obs_dev *od = &ko.devs[i];
		struct truth_queue_peak *p = &o->queue_peaks[i];

		p->name = xstrdup(od->name);
		p->max_in_flight = od->max_in_flight;
		p->max_aqu_sz = od->max_aqu_sz;
		p->max_rareq_kib = od->max_rareq_kib;
		p->intervals = od->intervals;
	}
}
