/*
 * Environment snapshots and their comparison. Everything here is read
 * from uname(2), /proc and sysfs; a fact that cannot be read is left out
 * rather than failing the run, because a result without a CPU model is
 * still a result. The comparison walks the env's table
 * (model/model_diff.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
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

/* An owned copy of s, or NULL (null). */
static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

/* A number into *v and its presence byte: null when it is negative
 * (unknown). */
static void num(int64_t *v, uint8_t *has, long long n)
{
	*v = n >= 0 ? n : 0;
	*has = n >= 0 ? MODEL_SET : MODEL_NULL;
}

/* One device of a stack. */
static void dev_doc(const struct devstack *ds, const struct devstack_dev *d,
		    struct env_device *o)
{
	char devno[32];

	snprintf(devno, sizeof(devno), "%u:%u", major(d->devno),
		 minor(d->devno));
	o->name = dup_or_null(d->name);
	o->kind = dup_or_null(devstack_kind_name(d->kind));
	o->via = dup_or_null(devstack_via_name(d->via));
	o->parent =
	    dup_or_null(d->parent >= 0 ? ds->devs[d->parent].name : NULL);
	o->devno = xstrdup(devno);
	o->model = dup_or_null(d->model);
	o->driver = dup_or_null(d->driver);
	o->label = dup_or_null(d->label);
	o->backing_file = dup_or_null(d->backing_file);
	o->size_bytes = d->size_bytes;
	o->rotational = d->rotational > 0;
	o->has_rotational = d->rotational < 0 ? MODEL_NULL : MODEL_SET;
	num(&o->logical_block_bytes, &o->has_logical_block_bytes,
	    d->logical_block_bytes ? (long long)d->logical_block_bytes : -1);
	o->queue_dev = dup_or_null(d->queue_dev);
	o->scheduler = dup_or_null(d->scheduler);
	num(&o->read_ahead_kb, &o->has_read_ahead_kb, d->read_ahead_kb);
	num(&o->nr_requests, &o->has_nr_requests, d->nr_requests);
	o->note = dup_or_null(d->note);
}

/* A device stack: path, mount, devices[] and, when there are none,
 * no_device_reason. */
static struct env_stack *stack_doc(const struct devstack *ds)
{
	struct env_stack *o = xcalloc(1, sizeof(*o));
	struct env_mount *m;
	unsigned i;

	o->path = dup_or_null(ds->path);
	if (ds->have_mount) {
		m = o->mount = xcalloc(1, sizeof(*m));
		m->target = dup_or_null(ds->mnt.target);
		m->source = dup_or_null(ds->mnt.source);
		m->fstype = dup_or_null(ds->mnt.fstype);
		m->vfs_options = dup_or_null(ds->mnt.vfs_options);
		m->fs_options = dup_or_null(ds->mnt.fs_options);
		m->unlisted = true;
		m->has_unlisted = ds->mnt.unlisted ? MODEL_SET : MODEL_ABSENT;
	}
	o->devices = xcalloc(ds->nr_devs ?: 1, sizeof(*o->devices));
	o->nr_devices = ds->nr_devs;
	for (i = 0; i < ds->nr_devs; i++)
		dev_doc(ds, &ds->devs[i], &o->devices[i]);
	o->no_device_reason = dup_or_null(ds->no_device_reason);
	return o;
}

void env_to_doc(const struct env *e, struct env_doc *o)
{
	int64_t *vm[ENV_NR_VM];
	uint8_t *has[ENV_NR_VM];
	unsigned i;

	env_doc_init(o);
	o->iotrial_version = dup_or_null(e->iotrial_version);
	o->hostname = dup_or_null(e->hostname);
	o->kernel_release = dup_or_null(e->kernel_release);
	o->kernel_version = dup_or_null(e->kernel_version);
	o->machine = dup_or_null(e->machine);
	o->boot_id = dup_or_null(e->boot_id);
	o->cpu = xcalloc(1, sizeof(*o->cpu));
	o->cpu->model = dup_or_null(e->cpu_model);
	num(&o->cpu->count, &o->cpu->has_count,
	    e->nr_cpus ? (long long)e->nr_cpus : -1);
	o->mem_total_bytes = e->mem_total_bytes;
	o->has_mem_total_bytes = e->mem_total_bytes ? MODEL_SET : MODEL_NULL;
	o->vm = xcalloc(1, sizeof(*o->vm));
	/* in the order of vm_names[] */
	vm[0] = &o->vm->dirty_ratio, has[0] = &o->vm->has_dirty_ratio;
	vm[1] = &o->vm->dirty_background_ratio;
	has[1] = &o->vm->has_dirty_background_ratio;
	vm[2] = &o->vm->dirty_bytes, has[2] = &o->vm->has_dirty_bytes;
	vm[3] = &o->vm->dirty_background_bytes;
	has[3] = &o->vm->has_dirty_background_bytes;
	vm[4] = &o->vm->dirty_expire_centisecs;
	has[4] = &o->vm->has_dirty_expire_centisecs;
	vm[5] = &o->vm->dirty_writeback_centisecs;
	has[5] = &o->vm->has_dirty_writeback_centisecs;
	for (i = 0; i < ENV_NR_VM; i++)
		num(vm[i], has[i], e->vm[i].value);
	if (e->have_stack)
		o->stack = stack_doc(&e->stack);
}

/* ignore (NULL-terminated, NULL: none) and "boot_id": a reboot alone
 * does not make results incomparable. A new array the caller frees. */
static const char **skip_list(const char *const *ignore)
{
	const char **skip;
	size_t n = 0;

	while (ignore && ignore[n])
		n++;
	skip = xcalloc(n + 2, sizeof(*skip));
	if (n)
		memcpy(skip, ignore, n * sizeof(*skip));
	skip[n] = "boot_id";
	return skip;
}

int env_doc_diff(const struct env_doc *a, const struct env_doc *b,
		 const char *const *ignore, struct strbuf *out)
{
	const char **skip = skip_list(ignore);
	int ret = env_doc_members_diff(a, b, skip, out);

	free(skip);
	return ret;
}
