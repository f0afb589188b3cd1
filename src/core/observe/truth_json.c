/*
 * Device truth as JSON: the "devices", "truth" and "env" members of a
 * run object, and the shared per-device keys `iotrial watch --json`
 * prints too. Kept apart from truth.c so the arithmetic and the format
 * can change alone; the text section of `iotrial run` is rendered in
 * report/run_text.c.
 *
 * Numbers are rounded where they are printed (json_object_new_double_s)
 * rather than by a global json-c setting, which other writers share.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>
#include "truth.h"
#include "json_round.h"
#include "regime_obs.h"
#include "../../util/banned.h"

/* Add key: a rounded number. */
static void add_d(struct json_object *o, const char *key, double v, int dec)
{
	json_object_object_add(o, key, json_round(v, dec));
}

/* Add key: a byte or request count. */
static void add_u(struct json_object *o, const char *key, uint64_t v)
{
	json_object_object_add(o, key, json_object_new_uint64(v));
}

/* Add key: a count when known, else null. */
static void add_u_or_null(struct json_object *o, const char *key, uint64_t v,
			  int known)
{
	json_object_object_add(o, key,
			       known ? json_object_new_uint64(v) : NULL);
}

void disk_delta_to_json(const struct disk_delta *d, struct json_object *o)
{
	add_d(o, "r_s", d->r_s, 2);
	add_d(o, "w_s", d->w_s, 2);
	add_d(o, "rmbps", d->rmbps, 3);
	add_d(o, "wmbps", d->wmbps, 3);
	add_d(o, "r_await_ms", d->r_await_ms, 3);
	add_d(o, "w_await_ms", d->w_await_ms, 3);
	add_d(o, "aqu_sz", d->aqu_sz, 3);
	add_d(o, "util_pct", d->util_pct, 2);
	add_u_or_null(o, "flushes", d->flushes, d->has_flushes);
	add_u_or_null(o, "discards", d->discards, d->has_discards);
	add_u(o, "reads", d->reads);
	add_u(o, "writes", d->writes);
	add_u(o, "read_bytes", d->read_bytes);
	add_u(o, "write_bytes", d->write_bytes);
	add_u_or_null(o, "discard_bytes", d->discard_bytes, d->has_discards);
	add_d(o, "rrqm_s", d->rrqm_s, 2);
	add_d(o, "wrqm_s", d->wrqm_s, 2);
	add_d(o, "rareq_kib", d->rareq_kib, 2);
	add_d(o, "wareq_kib", d->wareq_kib, 2);
	add_d(o, "f_s", d->has_flushes ? d->f_s : NAN, 2);
	add_d(o, "f_await_ms", d->has_flushes ? d->f_await_ms : NAN, 3);
	add_d(o, "d_s", d->has_discards ? d->d_s : NAN, 2);
	add_d(o, "dmbps", d->has_discards ? d->dmbps : NAN, 3);
	add_d(o, "d_await_ms", d->has_discards ? d->d_await_ms : NAN, 3);
	add_d(o, "seconds", d->seconds, 3);
}

/*
 * The time series, compactly: t_s, dirty_bytes and writeback_bytes have
 * one entry per point; each device's rate arrays one per interval
 * between consecutive points (so one fewer).
 */
static struct json_object *series_json(const struct sampler_series *ser)
{
	struct json_object *o = json_object_new_object(), *t_s, *dirty, *wb,
			   *devs;
	static const char *const keys[] = {"r_s",   "w_s",	"rmbps",
					   "wmbps", "util_pct", "aqu_sz"};
	unsigned p, d;
	size_t k;

	t_s = json_object_new_array();
	dirty = json_object_new_array();
	wb = json_object_new_array();
	for (p = 0; p < ser->nr_points; p++) {
		const struct sampler_point *pt = &ser->points[p];
		int mem = pt->have & SAMPLER_HAVE_MEM;

		json_object_array_add(
		    t_s,
		    json_round((double)(pt->t_ns - ser->points[0].t_ns) / 1e9,
			       3));
		json_object_array_add(
		    dirty,
		    mem ? json_object_new_uint64(pt->dirty_bytes) : NULL);
		json_object_array_add(
		    wb,
		    mem ? json_object_new_uint64(pt->writeback_bytes) : NULL);
	}
	json_object_object_add(o, "t_s", t_s);
	json_object_object_add(o, "dirty_bytes", dirty);
	json_object_object_add(o, "writeback_bytes", wb);
	devs = json_object_new_array();
	for (d = 0; d < ser->nr_devs; d++) {
		struct json_object *dev = json_object_new_object(), *arr[6];

		json_object_object_add(
		    dev, "name", json_object_new_string(ser->dev_names[d]));
		for (k = 0; k < 6; k++)
			arr[k] = json_object_new_array();
		for (p = 1; p < ser->nr_points; p++) {
			const struct diskstats *a = sampler_disk(ser, p - 1, d);
			const struct diskstats *b = sampler_disk(ser, p, d);
			struct disk_delta dd;
			double v[6];
			int ok = a->nr_fields && b->nr_fields;

			diskstats_delta(a, b,
					(double)(ser->points[p].t_ns -
						 ser->points[p - 1].t_ns) /
					    1e9,
					&dd);
			v[0] = dd.r_s;
			v[1] = dd.w_s;
			v[2] = dd.rmbps;
			v[3] = dd.wmbps;
			v[4] = dd.util_pct;
			v[5] = dd.aqu_sz;
			for (k = 0; k < 6; k++)
				json_object_array_add(
				    arr[k], json_round(ok ? v[k] : NAN, 3));
		}
		for (k = 0; k < 6; k++)
			json_object_object_add(dev, keys[k], arr[k]);
		json_object_array_add(devs, dev);
	}
	json_object_object_add(o, "devices", devs);
	return o;
}

void truth_to_json(const struct truth *t, struct json_object *run)
{
	struct json_object *o, *devs, *s;
	unsigned i;

	if (!t || !run)
		return;
	if (t->nr_devs) {
		devs = json_object_new_array();
		for (i = 0; i < t->nr_devs; i++) {
			const struct truth_device *td = &t->devs[i];
			struct json_object *d = json_object_new_object();

			json_object_object_add(
			    d, "name", json_object_new_string(td->name));
			json_object_object_add(
			    d, "kind",
			    td->kind ? json_object_new_string(td->kind) : NULL);
			json_object_object_add(
			    d, "via",
			    td->via ? json_object_new_string(td->via) : NULL);
			if (td->valid)
				disk_delta_to_json(&td->d, d);
			json_object_array_add(devs, d);
		}
		json_object_object_add(run, "devices", devs);
	}
	o = json_object_new_object();
	json_object_object_add(
	    o, "device", t->device ? json_object_new_string(t->device) : NULL);
	add_d(o, "seconds", t->seconds, 3);
	add_u(o, "logical_write_bytes", t->logical_write_bytes);
	add_u(o, "logical_read_bytes", t->logical_read_bytes);
	add_u_or_null(o, "device_write_bytes", t->device_write_bytes,
		      t->have_device);
	add_u_or_null(o, "device_read_bytes", t->device_read_bytes,
		      t->have_device);
	json_object_object_add(
	    o, "bottom_device",
	    t->have_bottom ? json_object_new_string(t->bottom_device) : NULL);
	add_u_or_null(o, "bottom_write_bytes", t->bottom_write_bytes,
		      t->have_bottom);
	add_u_or_null(o, "bottom_read_bytes", t->bottom_read_bytes,
		      t->have_bottom);
	add_u_or_null(o, "process_write_bytes", t->process_write_bytes,
		      t->have_procio);
	add_u_or_null(o, "process_read_bytes", t->process_read_bytes,
		      t->have_procio);
	add_u_or_null(o, "cancelled_write_bytes", t->cancelled_write_bytes,
		      t->have_procio);
	add_d(o, "absorbed_fraction", t->absorbed_fraction, 4);
	add_d(o, "cached_read_fraction", t->cached_read_fraction, 4);
	add_u_or_null(o, "dirty_start_bytes", t->dirty_start_bytes,
		      t->have_mem);
	add_u_or_null(o, "dirty_end_bytes", t->dirty_end_bytes, t->have_mem);
	add_u_or_null(o, "dirty_peak_bytes", t->dirty_peak_bytes, t->have_mem);
	add_u_or_null(o, "writeback_peak_bytes", t->writeback_peak_bytes,
		      t->have_mem);
	add_d(o, "burst_seconds", t->burst_seconds > 0 ? t->burst_seconds : NAN,
	      6);
	add_d(o, "burst_mbps", t->burst_mbps, 3);
	add_d(o, "settled_mbps", t->settled_mbps, 3);
	if (t->no_device_reason)
		json_object_object_add(
		    o, "no_device_reason",
		    json_object_new_string(t->no_device_reason));
	s = json_object_new_object();
	add_d(s, "interval_ms", t->interval_ms, 3);
	add_u(s, "samples", t->series.nr_points);
	add_d(s, "cpu_s", t->sampler_cpu_s, 6);
	add_d(s, "cpu_pct",
	      t->seconds > 0 ? 100.0 * t->sampler_cpu_s / t->seconds : NAN, 4);
	add_u(s, "read_errors", t->read_errors);
	add_d(s, "cpu_wait_fraction", t->cpu_wait_fraction, 4);
	add_d(s, "runnable_mean", t->runnable_mean, 3);
	add_d(s, "runnable_ours", t->runnable_ours, 3);
	add_d(s, "wake_late_ms", t->wake_late_ms, 3);
	if (t->have_others) {
		add_u(s, "others_read_bytes", t->others_read_bytes);
		add_u(s, "others_write_bytes", t->others_write_bytes);
	}
	truth_regime_to_json(t, o);
	json_object_object_add(o, "sampler", s);
	if (t->series.nr_points)
		json_object_object_add(o, "series", series_json(&t->series));
	json_object_object_add(run, "truth", o);
	if (t->have_env)
		env_to_json(&t->env, run);
}
