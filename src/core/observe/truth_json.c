/*
 * Device truth as a document: the "devices", "truth" and "env" members
 * of a run object (model/truth_doc.h, env_doc.h), and the per-device
 * members `iotrial watch --json` prints too. Kept apart from truth.c so
 * the arithmetic and the format can change alone; the text section of
 * `iotrial run` is rendered in report/run_text.c.
 *
 * Numbers are rounded where the codec prints them (MK_RND in the
 * model's tables: 12.5, not 12.500000000000002); a NaN here is null.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "truth.h"
#include "regime_obs.h"
#include "../model/model_json.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* A count's presence byte: known or null. */
static uint8_t known(int have)
{
	return have ? MODEL_SET : MODEL_NULL;
}

void disk_delta_to_doc(const struct disk_delta *d, struct disk_delta_doc *o)
{
	memset(o, 0, sizeof(*o));
	o->r_s = d->r_s;
	o->w_s = d->w_s;
	o->rmbps = d->rmbps;
	o->wmbps = d->wmbps;
	o->r_await_ms = d->r_await_ms;
	o->w_await_ms = d->w_await_ms;
	o->aqu_sz = d->aqu_sz;
	o->util_pct = d->util_pct;
	o->flushes = d->flushes;
	o->has_flushes = known(d->has_flushes);
	o->discards = d->discards;
	o->has_discards = known(d->has_discards);
	o->reads = d->reads;
	o->writes = d->writes;
	o->read_bytes = d->read_bytes;
	o->write_bytes = d->write_bytes;
	o->discard_bytes = d->discard_bytes;
	o->has_discard_bytes = known(d->has_discards);
	o->rrqm_s = d->rrqm_s;
	o->wrqm_s = d->wrqm_s;
	o->rareq_kib = d->rareq_kib;
	o->wareq_kib = d->wareq_kib;
	o->f_s = d->has_flushes ? d->f_s : NAN;
	o->f_await_ms = d->has_flushes ? d->f_await_ms : NAN;
	o->d_s = d->has_discards ? d->d_s : NAN;
	o->dmbps = d->has_discards ? d->dmbps : NAN;
	o->d_await_ms = d->has_discards ? d->d_await_ms : NAN;
	o->seconds = d->seconds;
}

/* An array of nr doubles, for a series. */
static double *doubles(size_t nr, size_t *out_nr)
{
	*out_nr = nr;
	return xcalloc(nr ?: 1, sizeof(double));
}

/* One device's rates between consecutive points of ser: one entry per
 * interval, so one fewer than the points; NaN where a sample was
 * missing. */
static void series_dev(const struct sampler_series *ser, unsigned d,
		       struct truth_series_device *o)
{
	size_t n = ser->nr_points ? ser->nr_points - 1 : 0;
	double *v[6] = {doubles(n, &o->nr_r_s),	     doubles(n, &o->nr_w_s),
			doubles(n, &o->nr_rmbps),    doubles(n, &o->nr_wmbps),
			doubles(n, &o->nr_util_pct), doubles(n, &o->nr_aqu_sz)};
	unsigned p;

	o->name = xstrdup(ser->dev_names[d]);
	o->r_s = v[0], o->w_s = v[1], o->rmbps = v[2], o->wmbps = v[3];
	o->util_pct = v[4], o->aqu_sz = v[5];
	for (p = 1; p < ser->nr_points; p++) {
		const struct diskstats *a = sampler_disk(ser, p - 1, d);
		const struct diskstats *b = sampler_disk(ser, p, d);
		struct disk_delta dd;
		int ok = a->nr_fields && b->nr_fields;

		diskstats_delta(
		    a, b,
		    (double)(ser->points[p].t_ns - ser->points[p - 1].t_ns) /
			1e9,
		    &dd);
		v[0][p - 1] = ok ? dd.r_s : NAN;
		v[1][p - 1] = ok ? dd.w_s : NAN;
		v[2][p - 1] = ok ? dd.rmbps : NAN;
		v[3][p - 1] = ok ? dd.wmbps : NAN;
		v[4][p - 1] = ok ? dd.util_pct : NAN;
		v[5][p - 1] = ok ? dd.aqu_sz : NAN;
	}
}

/*
 * The time series, compactly: t_s, dirty_bytes and writeback_bytes have
 * one entry per point (UINT64_MAX: null); each device's rate arrays one
 * per interval between consecutive points.
 */
static struct truth_series *series_doc(const struct sampler_series *ser)
{
	struct truth_series *o = xcalloc(1, sizeof(*o));
	unsigned p, d;

	o->t_s = doubles(ser->nr_points, &o->nr_t_s);
	o->nr_dirty_bytes = o->nr_writeback_bytes = ser->nr_points;
	o->dirty_bytes = xcalloc(ser->nr_points ?: 1, sizeof(uint64_t));
	o->writeback_bytes = xcalloc(ser->nr_points ?: 1, sizeof(uint64_t));
	for (p = 0; p < ser->nr_points; p++) {
		const struct sampler_point *pt = &ser->points[p];
		int mem = pt->have & SAMPLER_HAVE_MEM;

		o->t_s[p] = (double)(pt->t_ns - ser->points[0].t_ns) / 1e9;
		o->dirty_bytes[p] = mem ? pt->dirty_bytes : UINT64_MAX;
		o->writeback_bytes[p] = mem ? pt->writeback_bytes : UINT64_MAX;
	}
	o->devices = xcalloc(ser->nr_devs ?: 1, sizeof(*o->devices));
	o->nr_devices = ser->nr_devs;
	for (d = 0; d < ser->nr_devs; d++)
		series_dev(ser, d, &o->devices[d]);
	return o;
}

/* "devices": what reached each device of the stack, top first. */
static void devices_doc(const struct truth *t, struct run_doc *run)
{
	unsigned i;

	run->devices = xcalloc(t->nr_devs, sizeof(*run->devices));
	run->nr_devices = t->nr_devs;
	run->has_devices = MODEL_SET;
	for (i = 0; i < t->nr_devs; i++) {
		const struct truth_device *td = &t->devs[i];
		struct truth_device_doc *d = &run->devices[i];

		d->name = xstrdup(td->name);
		d->kind = td->kind ? xstrdup(td->kind) : NULL;
		d->via = td->via ? xstrdup(td->via) : NULL;
		if (td->valid) {
			d->delta = xcalloc(1, sizeof(*d->delta));
			disk_delta_to_doc(&td->d, d->delta);
		}
	}
}

/* The sampler's own cost. */
static struct truth_sampler *sampler_doc(const struct truth *t)
{
	struct truth_sampler *s = xcalloc(1, sizeof(*s));

	s->interval_ms = t->interval_ms;
	s->samples = t->series.nr_points;
	s->cpu_s = t->sampler_cpu_s;
	s->cpu_pct =
	    t->seconds > 0 ? 100.0 * t->sampler_cpu_s / t->seconds : NAN;
	s->read_errors = t->read_errors;
	return s;
}

void truth_to_doc(const struct truth *t, struct run_doc *run)
{
	struct truth_doc *o;

	if (!t || !run)
		return;
	if (t->nr_devs)
		devices_doc(t, run);
	o = run->truth = xcalloc(1, sizeof(*o));
	run->has_truth = MODEL_SET;
	o->device = t->device ? xstrdup(t->device) : NULL;
	o->seconds = t->seconds;
	o->logical_write_bytes = t->logical_write_bytes;
	o->logical_read_bytes = t->logical_read_bytes;
	o->device_write_bytes = t->device_write_bytes;
	o->has_device_write_bytes = known(t->have_device);
	o->device_read_bytes = t->device_read_bytes;
	o->has_device_read_bytes = known(t->have_device);
	o->bottom_device = t->have_bottom ? xstrdup(t->bottom_device) : NULL;
	o->bottom_write_bytes = t->bottom_write_bytes;
	o->has_bottom_write_bytes = known(t->have_bottom);
	o->bottom_read_bytes = t->bottom_read_bytes;
	o->has_bottom_read_bytes = known(t->have_bottom);
	o->process_write_bytes = t->process_write_bytes;
	o->has_process_write_bytes = known(t->have_procio);
	o->process_read_bytes = t->process_read_bytes;
	o->has_process_read_bytes = known(t->have_procio);
	o->cancelled_write_bytes = t->cancelled_write_bytes;
	o->has_cancelled_write_bytes = known(t->have_procio);
	o->absorbed_fraction = t->absorbed_fraction;
	o->cached_read_fraction = t->cached_read_fraction;
	o->dirty_start_bytes = t->dirty_start_bytes;
	o->has_dirty_start_bytes = known(t->have_mem);
	o->dirty_end_bytes = t->dirty_end_bytes;
	o->has_dirty_end_bytes = known(t->have_mem);
	o->dirty_peak_bytes = t->dirty_peak_bytes;
	o->has_dirty_peak_bytes = known(t->have_mem);
	o->writeback_peak_bytes = t->writeback_peak_bytes;
	o->has_writeback_peak_bytes = known(t->have_mem);
	o->burst_seconds = t->burst_seconds > 0 ? t->burst_seconds : NAN;
	o->burst_mbps = t->burst_mbps;
	o->settled_mbps = t->settled_mbps;
	o->no_device_reason =
	    t->no_device_reason ? xstrdup(t->no_device_reason) : NULL;
	truth_regime_to_doc(t, o);
	o->sampler = sampler_doc(t);
	if (t->series.nr_points)
		o->series = series_doc(&t->series);
	if (t->have_env) {
		run->env = xcalloc(1, sizeof(*run->env));
		env_to_doc(&t->env, run->env);
	}
}
