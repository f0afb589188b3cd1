/*
 * The environment section of the Markdown and HTML pages: what a reader
 * of a change request needs to judge whether the result applies to
 * their machine: what ran where, on which kernel, with which
 * dirty-memory limits and device queues. (Text ends with one line of
 * it instead, the origin section.)
 */
#include <inttypes.h>
#include <math.h>
#include <string.h>
#include "sections.h"
#include "report_doc.h"
#include "../../util/units.h"
#include "../../util/banned.h"

/* A row of the table when v is not empty; resets v. */
static void row(struct emit *e, const char *key, struct strbuf *v)
{
	if (v->len) {
		emit_cell(e, "%s", key);
		emit_cell(e, "%s", v->buf);
		emit_row(e);
	}
	strbuf_reset(v);
}

/* " name=value" of one vm.dirty_* member that is there (null too). */
static void add_vm(struct strbuf *out, const char *name, uint8_t has, int64_t v)
{
	if (has == MODEL_ABSENT)
		return;
	if (out->len)
		strbuf_addch(out, ' ');
	if (has == MODEL_NULL)
		strbuf_addf(out, "%s=null", name);
	else
		strbuf_addf(out, "%s=%" PRId64, name, v);
}

#define ADD_VM(out, vm, f) add_vm(out, #f, (vm)->has_##f, (vm)->f)

/* One device of the stack: "loop0 (loop, 512 MiB, scheduler none, ...)". */
static void add_device(struct strbuf *out, const struct env_device *d)
{
	strbuf_addf(out, "%s (%s", rd_s(d->name), rd_s(d->kind));
	if (d->via && *d->via)
		strbuf_addf(out, ", %s of the one above", d->via);
	if (d->model && *d->model)
		strbuf_addf(out, ", %s", d->model);
	if (d->driver && *d->driver)
		strbuf_addf(out, ", driver %s", d->driver);
	if (d->size_bytes) {
		strbuf_addstr(out, ", ");
		units_fmt_bytes(out, d->size_bytes);
	}
	if (d->has_rotational == MODEL_SET)
		strbuf_addstr(out, d->rotational ? ", rotational"
						 : ", non-rotational");
	if (d->scheduler && *d->scheduler)
		strbuf_addf(out, ", scheduler %s", d->scheduler);
	if (d->has_read_ahead_kb == MODEL_SET)
		strbuf_addf(out, ", read_ahead_kb %" PRId64, d->read_ahead_kb);
	if (d->has_nr_requests == MODEL_SET)
		strbuf_addf(out, ", nr_requests %" PRId64, d->nr_requests);
	strbuf_addch(out, ')');
}

bool report_env_present(const struct experiment_doc *doc)
{
	(void)doc;
	return true;
}

/*
 * The rows in a fixed order: the experiment, workload and parameters,
 * target, host, kernel, CPU, memory, vm.dirty_*, the mount, each device
 * of the stack with its queue settings, and the versions; each only
 * when it has a value.
 */
void report_env_section(const struct experiment_doc *doc, struct emit *e)
{
	static const struct emit_col cols[] = {{NULL, EMIT_LABEL, 0, 2, 12},
					       {NULL, EMIT_TEXT, 0, 1, 0}};
	static const struct emit_table t = {"env", cols, 2, true};
	const struct env_doc *env = report_env(doc);
	const struct env_stack *stack = env ? env->stack : NULL;
	struct strbuf v = STRBUF_INIT;
	size_t i;

	emit_heading(e, 2, "Environment", NULL);
	emit_table(e, &t);
	strbuf_addf(&v, "%s, stored %s",
		    doc->id && *doc->id ? doc->id : "(not stored)",
		    rd_s(doc->created));
	row(e, "experiment", &v);
	strbuf_addstr(&v, report_origin(doc));
	row(e, "origin", &v);
	strbuf_addstr(&v, rd_s(doc->workload));
	row(e, "workload", &v);
	for (i = 0; i < doc->nr_params; i++) {
		strbuf_addf(&v, "%s%s=", i ? " " : "", doc->params[i].name);
		report_value(&v, &doc->params[i].value);
	}
	row(e, "parameters", &v);
	strbuf_addstr(&v, rd_s(doc->target));
	row(e, "target", &v);
	strbuf_addf(&v, "%d blocks, seed %s, stopped: %s",
		    rd_count(doc->blocks), rd_s(doc->seed), rd_s(doc->stopped));
	if (doc->has_equivalence == MODEL_SET)
		strbuf_addf(&v, ", equivalence ±%g%%", 100 * doc->equivalence);
	if (doc->has_alpha == MODEL_SET)
		strbuf_addf(&v, ", alpha %g", doc->alpha);
	row(e, "design", &v);
	if (env) {
		strbuf_addstr(&v, rd_s(env->hostname));
		row(e, "host", &v);
		if (env->kernel_release && *env->kernel_release)
			strbuf_addf(&v, "%s %s", env->kernel_release,
				    rd_s(env->machine));
		row(e, "kernel", &v);
		if (env->cpu && env->cpu->model && *env->cpu->model)
			strbuf_addf(&v, "%s, %d CPUs", env->cpu->model,
				    env->cpu->has_count == MODEL_SET
					? rd_count(env->cpu->count)
					: 0);
		row(e, "CPU", &v);
		if (env->has_mem_total_bytes == MODEL_SET &&
		    env->mem_total_bytes)
			units_fmt_bytes(&v, env->mem_total_bytes);
		row(e, "memory", &v);
		if (env->vm) {
			ADD_VM(&v, env->vm, dirty_ratio);
			ADD_VM(&v, env->vm, dirty_background_ratio);
			ADD_VM(&v, env->vm, dirty_bytes);
			ADD_VM(&v, env->vm, dirty_background_bytes);
			ADD_VM(&v, env->vm, dirty_expire_centisecs);
			ADD_VM(&v, env->vm, dirty_writeback_centisecs);
			row(e, "vm.dirty_*", &v);
		}
		if (stack && stack->mount)
			strbuf_addf(&v, "%s on %s, %s (%s)",
				    rd_s(stack->mount->source),
				    rd_s(stack->mount->target),
				    rd_s(stack->mount->fstype),
				    rd_s(stack->mount->vfs_options));
		row(e, "mount", &v);
		for (i = 0; stack && i < stack->nr_devices; i++) {
			if (i)
				strbuf_addstr(&v, "; ");
			add_device(&v, &stack->devices[i]);
		}
		row(e, "devices", &v);
		strbuf_addstr(&v, rd_s(env->iotrial_version));
		if (env->fio_version && *env->fio_version)
			strbuf_addf(&v, ", %s", env->fio_version);
		row(e, "iotrial", &v);
	}
	emit_table_end(e);
	strbuf_release(&v);
}
