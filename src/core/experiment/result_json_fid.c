/*
 * A replay's settings and distributions in the run document. See
 * result_json_fid.h.
 */
#include <math.h>
#include "result_json_fid.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* The terms in the order of run_fid_setting.moves' bits. */
static const char *const move_names[5] = {"dev_read", "dev_write", "dev_size",
					  "dev_depth", "latency"};

/* A share or an error that is a number, or NaN (null) for none. */
static double num_or_nan(double v)
{
	return isfinite(v) ? v : NAN;
}

/* A finite number, 0 for none: the members that are never null. */
static double num_or_zero(double v)
{
	return isfinite(v) ? v : 0;
}

void fidelity_moved_doc(const struct run_result *r, struct run_fidelity_dev *f)
{
	unsigned i;

	if (!r->fidelity_dev_moved_bits)
		return;
	f->moved = xcalloc(4, sizeof(*f->moved));
	for (i = 0; i < 4; i++) {
		struct model_num *m = &f->moved[f->nr_moved];

		if (!(r->fidelity_dev_moved_bits & 1u << i))
			continue;
		m->name = xstrdup(move_names[i]);
		m->value = num_or_zero(r->fidelity_dev_moved[i]);
		f->nr_moved++;
	}
	f->has_moved = MODEL_SET;
}

/* One setting: its name, both values (NULL: not known), what it moves. */
static void setting_doc(const struct run_fid_setting *s,
			struct run_fidelity_setting *d)
{
	unsigned i;

	d->name = xstrdup(s->name ? s->name : "");
	d->capture = s->capture ? xstrdup(s->capture) : NULL;
	d->replay = s->replay ? xstrdup(s->replay) : NULL;
	d->moves = xcalloc(5, sizeof(*d->moves));
	for (i = 0; i < 5; i++)
		if (s->moves & 1u << i)
			d->moves[d->nr_moves++] = xstrdup(move_names[i]);
}

/* One class of calls against the capture's. */
static void class_doc(const struct run_fid_class *c,
		      struct run_fidelity_class *d)
{
	d->name = xstrdup(c->name);
	d->calls_capture = c->calls[0];
	d->calls_replay = c->calls[1];
	d->gap = num_or_nan(c->d[0]);
	d->size = num_or_nan(c->d[1]);
	d->offset = num_or_nan(c->d[2]);
	d->latency = num_or_nan(c->d[3]);
	d->latency_judged = c->latency_judged != 0;
	d->p50_capture_ns = c->lat_ns[0][0];
	d->p90_capture_ns = c->lat_ns[0][1];
	d->p99_capture_ns = c->lat_ns[0][2];
	d->p50_replay_ns = c->lat_ns[1][0];
	d->p90_replay_ns = c->lat_ns[1][1];
	d->p99_replay_ns = c->lat_ns[1][2];
	d->seq_capture = num_or_zero(c->seq[0]);
	d->seq_replay = num_or_zero(c->seq[1]);
}

void fidelity_members_doc(const struct run_result *r, struct run_doc *doc)
{
	unsigned i;

	if (r->nr_fid_settings) {
		doc->fidelity_settings = xcalloc(
		    r->nr_fid_settings, sizeof(*doc->fidelity_settings));
		for (i = 0; i < r->nr_fid_settings; i++)
			setting_doc(&r->fid_settings[i],
				    &doc->fidelity_settings[i]);
		doc->nr_fidelity_settings = r->nr_fid_settings;
		doc->has_fidelity_settings = MODEL_SET;
	}
	if (r->nr_fid_dist) {
		doc->fidelity_dist =
		    xcalloc(r->nr_fid_dist, sizeof(*doc->fidelity_dist));
		for (i = 0; i < r->nr_fid_dist; i++)
			class_doc(&r->fid_dist[i], &doc->fidelity_dist[i]);
		doc->nr_fidelity_dist = r->nr_fid_dist;
		doc->has_fidelity_dist = MODEL_SET;
	}
}
