/*
 * The environment rows of the Markdown and HTML reports; see
 * report_formats.h. They say what a reader of a change request needs to
 * judge whether the result applies to their machine: what ran where,
 * on which kernel, with which dirty-memory limits and device queues.
 */
#include <math.h>
#include <string.h>
#include "report_formats.h"
#include "expjson.h"
#include "../../util/units.h"
#include "../../util/banned.h"

/* Call fn with key and the text of v when v is not empty; resets v. */
static void emit(void (*fn)(void *, const char *, const char *), void *ctx,
		 const char *key, struct strbuf *v)
{
	if (v->len)
		fn(ctx, key, v->buf);
	strbuf_reset(v);
}

/* "k=v k=v" of the members of object o, onto out. */
static void add_members(struct strbuf *out, struct json_object *o)
{
	if (!o || !json_object_is_type(o, json_type_object))
		return;
	json_object_object_foreach(o, k, val)
	{
		if (out->len)
			strbuf_addch(out, ' ');
		strbuf_addf(out, "%s=%s", k,
			    val ? json_object_get_string(val) : "null");
	}
}

/* One device of the stack: "loop0 (loop, 512 MiB, scheduler none, ...)". */
static void add_device(struct strbuf *out, struct json_object *d)
{
	double size = expjson_num(d, "size_bytes");
	struct json_object *rot =
	    expjson_get_type(d, "rotational", json_type_boolean);

	strbuf_addf(out, "%s (%s", expjson_str(d, "name"),
		    expjson_str(d, "kind"));
	if (*expjson_str(d, "via"))
		strbuf_addf(out, ", %s of the one above",
			    expjson_str(d, "via"));
	if (*expjson_str(d, "model"))
		strbuf_addf(out, ", %s", expjson_str(d, "model"));
	if (*expjson_str(d, "driver"))
		strbuf_addf(out, ", driver %s", expjson_str(d, "driver"));
	/* from a stored object: a cast beyond 2^64 would be undefined */
	if (size > 0 && size < 18446744073709551616.0) {
		strbuf_addstr(out, ", ");
		units_fmt_bytes(out, (uint64_t)size);
	}
	if (rot)
		strbuf_addstr(out, json_object_get_boolean(rot)
				       ? ", rotational"
				       : ", non-rotational");
	if (*expjson_str(d, "scheduler"))
		strbuf_addf(out, ", scheduler %s", expjson_str(d, "scheduler"));
	if (isfinite(expjson_num(d, "read_ahead_kb")))
		strbuf_addf(out, ", read_ahead_kb %.0f",
			    expjson_num(d, "read_ahead_kb"));
	if (isfinite(expjson_num(d, "nr_requests")))
		strbuf_addf(out, ", nr_requests %.0f",
			    expjson_num(d, "nr_requests"));
	strbuf_addch(out, ')');
}

void report_env_rows(struct json_object *exp,
		     void (*fn)(void *ctx, const char *key, const char *value),
		     void *ctx)
{
	struct json_object *env = expjson_env(exp), *vm, *stack, *mnt, *devs;
	struct json_object *cpu = expjson_get(env, "cpu");
	struct strbuf v = STRBUF_INIT;
	size_t i, n;

	strbuf_addf(&v, "%s, stored %s",
		    *expjson_str(exp, "id") ? expjson_str(exp, "id")
					    : "(not stored)",
		    expjson_str(exp, "created"));
	emit(fn, ctx, "experiment", &v);
	strbuf_addstr(&v, expjson_origin(exp));
	emit(fn, ctx, "origin", &v);
	strbuf_addstr(&v, expjson_str(exp, "workload"));
	emit(fn, ctx, "workload", &v);
	add_members(&v, expjson_get(exp, "params"));
	emit(fn, ctx, "parameters", &v);
	strbuf_addstr(&v, expjson_target(exp));
	emit(fn, ctx, "target", &v);
	strbuf_addf(&v, "%d blocks, seed %s, stopped: %s",
		    expjson_count(exp, "blocks"), expjson_str(exp, "seed"),
		    expjson_str(exp, "stopped"));
	if (isfinite(expjson_num(exp, "equivalence")))
		strbuf_addf(&v, ", equivalence ±%g%%",
			    100 * expjson_num(exp, "equivalence"));
	if (isfinite(expjson_num(exp, "alpha")))
		strbuf_addf(&v, ", alpha %g", expjson_num(exp, "alpha"));
	emit(fn, ctx, "design", &v);
	strbuf_addstr(&v, expjson_str(env, "hostname"));
	emit(fn, ctx, "host", &v);
	if (*expjson_str(env, "kernel_release"))
		strbuf_addf(&v, "%s %s", expjson_str(env, "kernel_release"),
			    expjson_str(env, "machine"));
	emit(fn, ctx, "kernel", &v);
	if (*expjson_str(cpu, "model"))
		strbuf_addf(&v, "%s, %d CPUs", expjson_str(cpu, "model"),
			    expjson_count(cpu, "count"));
	emit(fn, ctx, "CPU", &v);
	if (expjson_num(env, "mem_total_bytes") > 0 &&
	    expjson_num(env, "mem_total_bytes") < 18446744073709551616.0)
		units_fmt_bytes(&v,
				(uint64_t)expjson_num(env, "mem_total_bytes"));
	emit(fn, ctx, "memory", &v);
	vm = expjson_get(env, "vm");
	if (vm) {
		add_members(&v, vm);
		emit(fn, ctx, "vm.dirty_*", &v);
	}
	stack = expjson_get(env, "stack");
	mnt = expjson_get(stack, "mount");
	if (mnt)
		strbuf_addf(&v, "%s on %s, %s (%s)", expjson_str(mnt, "source"),
			    expjson_str(mnt, "target"),
			    expjson_str(mnt, "fstype"),
			    expjson_str(mnt, "vfs_options"));
	emit(fn, ctx, "mount", &v);
	devs = expjson_get_type(stack, "devices", json_type_array);
	n = devs ? json_object_array_length(devs) : 0;
	for (i = 0; i < n; i++) {
		if (i)
			strbuf_addstr(&v, "; ");
		add_device(&v, json_object_array_get_idx(devs, i));
	}
	emit(fn, ctx, "devices", &v);
	strbuf_addstr(&v, expjson_str(env, "iotrial_version"));
	if (*expjson_str(env, "fio_version"))
		strbuf_addf(&v, ", %s", expjson_str(env, "fio_version"));
	emit(fn, ctx, "iotrial", &v);
	strbuf_release(&v);
}
