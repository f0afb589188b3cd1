/*
 * Environment snapshots and their comparison. Everything here is read
 * from uname(2), /proc and sysfs; a fact that cannot be read is left out
 * rather than failing the run, because a result without a CPU model is
 * still a result. The JSON diff walks two objects member by member, so it
 * works on results loaded from files as well as on fresh ones.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <json-c/json.h>
#include "env.h"
#include "meminfo.h"
#include "../../util/xalloc.h"
#include "../../version.h"
#include "../../util/banned.h"

/* The writeback sysctls, in the order env.vm[] holds them. */
static const char *const vm_names[ENV_NR_VM] = {
    "dirty_ratio",
    "dirty_background_ratio",
    "dirty_bytes",
    "dirty_background_bytes",
    "dirty_expire_centisecs",
    "dirty_writeback_centisecs",
};

/* The first line of a small file, trimmed, or NULL. */
static char *read_line(const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	char *nl;

	if (strbuf_read_file(&sb, path, 64 * 1024) < 0) {
		strbuf_release(&sb);
		return NULL;
	}
	nl = strchr(sb.buf, '\n');
	if (nl)
		strbuf_setlen(&sb, (size_t)(nl - sb.buf));
	strbuf_trim(&sb);
	if (!sb.len) {
		strbuf_release(&sb);
		return NULL;
	}
	return strbuf_detach(&sb, NULL);
}

/* The CPU model from /proc/cpuinfo ("model name", or the ARM spellings). */
static char *cpu_model(void)
{
	static const char *const keys[] = {"model name", "Model", "Hardware",
					   "cpu model"};
	struct strbuf sb = STRBUF_INIT;
	char *ret = NULL;
	size_t k;

	if (strbuf_read_file(&sb, "/proc/cpuinfo", 4 << 20) < 0 && !sb.len)
		goto out;
	for (k = 0; k < ARRAY_SIZE(keys) && !ret; k++) {
		const char *line = sb.buf;

		while (line && *line) {
			const char *end = strchr(line, '\n');
			size_t n = end ? (size_t)(end - line) : strlen(line);
			size_t klen = strlen(keys[k]);

			if (n > klen && !strncmp(line, keys[k], klen) &&
			    (line[klen] == ' ' || line[klen] == '\t' ||
			     line[klen] == ':')) {
				const char *colon = memchr(line, ':', n);
				struct strbuf v = STRBUF_INIT;

				if (colon) {
					strbuf_add(
					    &v, colon + 1,
					    n - (size_t)(colon + 1 - line));
					strbuf_trim(&v);
				}
				if (v.len) {
					ret = strbuf_detach(&v, NULL);
					break;
				}
				strbuf_release(&v);
			}
			line = end ? end + 1 : NULL;
		}
	}
out:
	strbuf_release(&sb);
	return ret;
}

/* A vm sysctl's numeric value, or -1. */
static long long read_vm(const char *name)
{
	struct strbuf path = STRBUF_INIT;
	char *line, *end;
	long long v = -1;

	strbuf_addf(&path, "/proc/sys/vm/%s", name);
	line = read_line(path.buf);
	if (line) {
		errno = 0;
		v = strtoll(line, &end, 10);
		if (errno || *end || v < 0)
			v = -1;
	}
	free(line);
	strbuf_release(&path);
	return v;
}

int env_capture(struct env *e, const char *path, struct strbuf *err)
{
	struct utsname u;
	struct meminfo mi;
	long cpus;
	unsigned i;
	int ret = 0;

	memset(e, 0, sizeof(*e));
	e->iotrial_version = xstrdup(IOTRIAL_VERSION);
	if (!uname(&u)) {
		e->kernel_release = xstrdup(u.release);
		e->kernel_version = xstrdup(u.version);
		e->machine = xstrdup(u.machine);
		e->hostname = xstrdup(u.nodename);
	}
	e->boot_id = read_line("/proc/sys/kernel/random/boot_id");
	e->cpu_model = cpu_model();
	cpus = sysconf(_SC_NPROCESSORS_ONLN);
	e->nr_cpus = cpus > 0 ? (unsigned)cpus : 0;
	if (!meminfo_read(&mi))
		e->mem_total_bytes = mi.total_bytes;
	for (i = 0; i < ENV_NR_VM; i++) {
		e->vm[i].name = vm_names[i];
		e->vm[i].value = read_vm(vm_names[i]);
	}
	if (path) {
		ret = devstack_resolve_path(&e->stack, path, err);
		e->have_stack = 1;
	}
	return ret;
}

int env_capture_target(struct env *e, const struct target *t,
		       struct strbuf *err)
{
	/* the user's directory, not our random work directory: two runs
	 * on the same target must have equal environments */
	return env_capture(e, t ? t->path : NULL, err);
}

void env_release(struct env *e)
{
	if (!e)
		return;
	free(e->iotrial_version);
	free(e->kernel_release);
	free(e->kernel_version);
	free(e->machine);
	free(e->hostname);
	free(e->boot_id);
	free(e->cpu_model);
	devstack_release(&e->stack);
	memset(e, 0, sizeof(*e));
}

/* Add key: a string, or null when s is NULL. */
static void add_str(struct json_object *o, const char *key, const char *s)
{
	json_object_object_add(o, key, s ? json_object_new_string(s) : NULL);
}

/* Add key: a number, or null when v is negative (unknown). */
static void add_num(struct json_object *o, const char *key, long long v)
{
	json_object_object_add(o, key,
			       v >= 0 ? json_object_new_int64(v) : NULL);
}

/* The JSON for one device of a stack. */
static struct json_object *dev_json(const struct devstack *ds,
				    const struct devstack_dev *d)
{
	struct json_object *o = json_object_new_object();
	char devno[32];

	snprintf(devno, sizeof(devno), "%u:%u", major(d->devno),
		 minor(d->devno));
	add_str(o, "name", d->name);
	add_str(o, "kind", devstack_kind_name(d->kind));
	add_str(o, "via", devstack_via_name(d->via));
	add_str(o, "parent", d->parent >= 0 ? ds->devs[d->parent].name : NULL);
	add_str(o, "devno", devno);
	add_str(o, "model", d->model);
	add_str(o, "driver", d->driver);
	if (d->label)
		add_str(o, "label", d->label);
	if (d->backing_file)
		add_str(o, "backing_file", d->backing_file);
	json_object_object_add(o, "size_bytes",
			       json_object_new_uint64(d->size_bytes));
	json_object_object_add(
	    o, "rotational",
	    d->rotational < 0 ? NULL : json_object_new_boolean(d->rotational));
	add_num(o, "logical_block_bytes",
		d->logical_block_bytes ? (long long)d->logical_block_bytes
				       : -1);
	add_str(o, "queue_dev", d->queue_dev);
	add_str(o, "scheduler", d->scheduler);
	add_num(o, "read_ahead_kb", d->read_ahead_kb);
	add_num(o, "nr_requests", d->nr_requests);
	if (d->note)
		add_str(o, "note", d->note);
	return o;
}

struct json_object *devstack_to_json(const struct devstack *ds)
{
	struct json_object *o = json_object_new_object(), *arr, *m;
	unsigned i;

	add_str(o, "path", ds->path);
	if (ds->have_mount) {
		m = json_object_new_object();
		add_str(m, "target", ds->mnt.target);
		add_str(m, "source", ds->mnt.source);
		add_str(m, "fstype", ds->mnt.fstype);
		add_str(m, "vfs_options", ds->mnt.vfs_options);
		add_str(m, "fs_options", ds->mnt.fs_options);
		if (ds->mnt.unlisted)
			json_object_object_add(m, "unlisted",
					       json_object_new_boolean(1));
		json_object_object_add(o, "mount", m);
	}
	arr = json_object_new_array();
	for (i = 0; i < ds->nr_devs; i++)
		json_object_array_add(arr, dev_json(ds, &ds->devs[i]));
	json_object_object_add(o, "devices", arr);
	if (ds->no_device_reason)
		add_str(o, "no_device_reason", ds->no_device_reason);
	return o;
}

struct json_object *env_to_json_object(const struct env *e)
{
	struct json_object *o = json_object_new_object(), *vm, *cpu;
	unsigned i;

	add_str(o, "iotrial_version", e->iotrial_version);
	add_str(o, "hostname", e->hostname);
	add_str(o, "kernel_release", e->kernel_release);
	add_str(o, "kernel_version", e->kernel_version);
	add_str(o, "machine", e->machine);
	add_str(o, "boot_id", e->boot_id);
	cpu = json_object_new_object();
	add_str(cpu, "model", e->cpu_model);
	add_num(cpu, "count", e->nr_cpus ? (long long)e->nr_cpus : -1);
	json_object_object_add(o, "cpu", cpu);
	json_object_object_add(o, "mem_total_bytes",
			       e->mem_total_bytes
				   ? json_object_new_uint64(e->mem_total_bytes)
				   : NULL);
	vm = json_object_new_object();
	for (i = 0; i < ENV_NR_VM; i++)
		add_num(vm, e->vm[i].name, e->vm[i].value);
	json_object_object_add(o, "vm", vm);
	if (e->have_stack)
		json_object_object_add(o, "stack", devstack_to_json(&e->stack));
	return o;
}

void env_to_json(const struct env *e, struct json_object *run)
{
	if (e && run)
		json_object_object_add(run, "env", env_to_json_object(e));
}

/* Is key one the caller (or we) always skip? */
static int ignored(const char *key, const char *const *ignore)
{
	if (!strcmp(key, "boot_id"))
		return 1;
	for (; ignore && *ignore; ignore++)
		if (!strcmp(key, *ignore))
			return 1;
	return 0;
}

/* A value as short text for a difference line. */
static const char *show(struct json_object *v)
{
	if (!v)
		return "null";
	if (json_object_is_type(v, json_type_string))
		return json_object_get_string(v);
	return json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN);
}

static int diff_value(struct json_object *a, struct json_object *b,
		      const char *path, const char *const *ignore,
		      struct strbuf *out);

/* An array element's label: its "name" member if it has one, else i. */
static void elem_path(struct strbuf *sb, const char *path,
		      struct json_object *a, size_t i)
{
	struct json_object *name;

	if (json_object_is_type(a, json_type_object) &&
	    json_object_object_get_ex(a, "name", &name) &&
	    json_object_is_type(name, json_type_string))
		strbuf_addf(sb, "%s[%s]", path, json_object_get_string(name));
	else
		strbuf_addf(sb, "%s[%zu]", path, i);
}

/* Compare two objects member by member, a's members first. */
static int diff_object(struct json_object *a, struct json_object *b,
		       const char *path, const char *const *ignore,
		       struct strbuf *out)
{
	struct strbuf sub = STRBUF_INIT;
	int n = 0;

	json_object_object_foreach(a, key, va)
	{
		struct json_object *vb = NULL;

		if (ignored(key, ignore))
			continue;
		json_object_object_get_ex(b, key, &vb);
		strbuf_setf(&sub, "%s%s%s", path, *path ? "." : "", key);
		n += diff_value(va, vb, sub.buf, ignore, out);
	}
	json_object_object_foreach(b, bkey, vb2)
	{
		if (ignored(bkey, ignore) ||
		    json_object_object_get_ex(a, bkey, NULL))
			continue;
		strbuf_setf(&sub, "%s%s%s", path, *path ? "." : "", bkey);
		n += diff_value(NULL, vb2, sub.buf, ignore, out);
	}
	strbuf_release(&sub);
	return n;
}

/* Compare two values; append a line per difference; return the count. */
static int diff_value(struct json_object *a, struct json_object *b,
		      const char *path, const char *const *ignore,
		      struct strbuf *out)
{
	struct strbuf sub = STRBUF_INIT;
	size_t i, na, nb;
	int n = 0;

	if (a && b && json_object_get_type(a) == json_object_get_type(b)) {
		if (json_object_is_type(a, json_type_object))
			return diff_object(a, b, path, ignore, out);
		if (json_object_is_type(a, json_type_array)) {
			na = json_object_array_length(a);
			nb = json_object_array_length(b);
			if (na != nb) {
				strbuf_addf(out, "%s: %zu entries vs %zu\n",
					    path, na, nb);
				return 1;
			}
			for (i = 0; i < na; i++) {
				struct json_object *ea, *eb;

				ea = json_object_array_get_idx(a, i);
				eb = json_object_array_get_idx(b, i);
				strbuf_reset(&sub);
				elem_path(&sub, path, ea, i);
				n += diff_value(ea, eb, sub.buf, ignore, out);
			}
			strbuf_release(&sub);
			return n;
		}
	}
	if (!a && !b)
		return 0;
	if (a && b && json_object_equal(a, b))
		return 0;
	strbuf_addf(out, "%s: '%s'", path, show(a));
	strbuf_addf(out, " vs '%s'\n", show(b));
	return 1;
}

int env_json_diff(struct json_object *a, struct json_object *b,
		  const char *const *ignore, struct strbuf *out)
{
	return diff_value(a, b, "", ignore, out);
}
