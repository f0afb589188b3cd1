/*
 * A replay's settings and distributions in the run object. See
 * result_json_fid.h.
 */
#include <math.h>
#include <stdio.h>
#include "result_json_fid.h"
#include "../../util/banned.h"

/* The terms in the order of run_fid_setting.moves' bits. */
static const char *const move_names[5] = {"dev_read", "dev_write", "dev_size",
					  "dev_depth", "latency"};

static const char *const term_keys[4] = {"gap", "size", "offset", "latency"};

/* A number, or null for NaN. */
static struct json_object *num_or_null(double v)
{
	return isfinite(v) ? json_object_new_double(v) : NULL;
}

struct json_object *fidelity_moved_json(const struct run_result *r)
{
	struct json_object *o;
	unsigned i;

	if (!r->fidelity_dev_moved_bits)
		return NULL;
	o = json_object_new_object();
	for (i = 0; i < 4; i++)
		if (r->fidelity_dev_moved_bits & 1u << i)
			json_object_object_add(
			    o, move_names[i],
			    json_object_new_double(r->fidelity_dev_moved[i]));
	return o;
}

/* One setting: its name, both values (null: not known), what it moves. */
static struct json_object *setting_json(const struct run_fid_setting *s)
{
	struct json_object *o = json_object_new_object(),
			   *moves = json_object_new_array();
	unsigned i;

	json_object_object_add(o, "name", json_object_new_string(s->name));
	json_object_object_add(o, "capture",
			       s->capture ? json_object_new_string(s->capture)
					  : NULL);
	json_object_object_add(
	    o, "replay", s->replay ? json_object_new_string(s->replay) : NULL);
	for (i = 0; i < 5; i++)
		if (s->moves & 1u << i)
			json_object_array_add(
			    moves, json_object_new_string(move_names[i]));
	json_object_object_add(o, "moves", moves);
	return o;
}

/* One class of calls against the capture's. */
static struct json_object *class_json(const struct run_fid_class *c)
{
	static const char *const pct[3] = {"p50", "p90", "p99"};
	struct json_object *o = json_object_new_object();
	char key[32];
	unsigned i, side;

	json_object_object_add(o, "calls_capture",
			       json_object_new_uint64(c->calls[0]));
	json_object_object_add(o, "calls_replay",
			       json_object_new_uint64(c->calls[1]));
	for (i = 0; i < 4; i++)
		json_object_object_add(o, term_keys[i], num_or_null(c->d[i]));
	json_object_object_add(o, "latency_judged",
			       json_object_new_boolean(c->latency_judged));
	for (side = 0; side < 2; side++)
		for (i = 0; i < 3; i++) {
			snprintf(key, sizeof(key), "%s_%s_ns", pct[i],
				 side ? "replay" : "capture");
			json_object_object_add(
			    o, key, json_object_new_uint64(c->lat_ns[side][i]));
		}
	json_object_object_add(o, "seq_capture",
			       json_object_new_double(c->seq[0]));
	json_object_object_add(o, "seq_replay",
			       json_object_new_double(c->seq[1]));
	return o;
}

void fidelity_members_json(struct json_object *o, const struct run_result *r)
{
	struct json_object *a, *d;
	unsigned i;

	if (r->nr_fid_settings) {
		a = json_object_new_array();
		for (i = 0; i < r->nr_fid_settings; i++)
			json_object_array_add(
			    a, setting_json(&r->fid_settings[i]));
		json_object_object_add(o, "fidelity_settings", a);
	}
	if (r->nr_fid_dist) {
		d = json_object_new_object();
		for (i = 0; i < r->nr_fid_dist; i++)
			json_object_object_add(d, r->fid_dist[i].name,
					       class_json(&r->fid_dist[i]));
		json_object_object_add(o, "fidelity_dist", d);
	}
}
