/*
 * The text of `iotrial info` (env_text.h): the snapshot's lines, then
 * the device stack from the target down, each device indented by its
 * depth, with the queue values admins tune on a line of its own.
 */
#include <string.h>
#include "env_text.h"
#include "report.h"
#include "../../version.h"
#include "../model/model_json.h"
#include "../../util/text.h"
#include "../../util/units.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* One device line (and a second with its queue values), indented by
 * its depth in the stack. */
static void dev_text(struct strbuf *sb, const struct devstack *ds,
		     const struct devstack_dev *d)
{
	unsigned indent = 2 + 2 * d->depth;
	const char *via = devstack_via_name(d->via);

	strbuf_addf(sb, "%*s%s (%s", (int)indent, "", d->name,
		    devstack_kind_name(d->kind));
	if (d->label)
		strbuf_addf(sb, " '%s'", d->label);
	if (via && d->parent >= 0) {
		const char *p = ds->devs[d->parent].name;

		if (d->via == DEVSTACK_VIA_DISK)
			strbuf_addf(sb, ", the disk of %s", p);
		else if (d->via == DEVSTACK_VIA_BACKING)
			strbuf_addf(sb, ", holds the backing file of %s", p);
		else
			strbuf_addf(sb, ", a slave of %s", p);
	}
	strbuf_addstr(sb, "): ");
	units_fmt_bytes(sb, d->size_bytes);
	if (d->model)
		strbuf_addf(sb, ", model '%s'", d->model);
	if (d->driver)
		strbuf_addf(sb, ", driver %s", d->driver);
	if (d->rotational >= 0)
		strbuf_addstr(sb, d->rotational ? ", rotational"
						: ", non-rotational");
	if (d->logical_block_bytes)
		strbuf_addf(sb, ", logical block %u B", d->logical_block_bytes);
	strbuf_addch(sb, '\n');
	strbuf_addf(sb, "%*s  scheduler %s, read_ahead_kb ", (int)indent, "",
		    d->scheduler ? d->scheduler : "?");
	if (d->read_ahead_kb >= 0)
		strbuf_addf(sb, "%ld", d->read_ahead_kb);
	else
		strbuf_addch(sb, '?');
	strbuf_addstr(sb, ", nr_requests ");
	if (d->nr_requests >= 0)
		strbuf_addf(sb, "%ld", d->nr_requests);
	else
		strbuf_addch(sb, '?');
	if (d->queue_dev && strcmp(d->queue_dev, d->name))
		strbuf_addf(sb, " (the queue of %s)", d->queue_dev);
	strbuf_addch(sb, '\n');
	if (d->backing_file)
		strbuf_addf(sb, "%*s  backing file %s\n", (int)indent, "",
			    d->backing_file);
	if (d->note)
		strbuf_addf(sb, "%*s  note: %s\n", (int)indent, "", d->note);
}

void report_env_text(const struct env *e, struct strbuf *sb)
{
	const struct devstack *ds = &e->stack;
	unsigned i;

	strbuf_addf(sb, "iotrial %s on %s: Linux %s %s\n", e->iotrial_version,
		    e->hostname ? e->hostname : "?",
		    e->kernel_release ? e->kernel_release : "?",
		    e->machine ? e->machine : "");
	strbuf_addf(sb, "cpu      %u x %s\n", e->nr_cpus,
		    e->cpu_model ? e->cpu_model : "unknown model");
	strbuf_addstr(sb, "memory   ");
	units_fmt_bytes(sb, e->mem_total_bytes);
	strbuf_addf(sb, "\nboot id  %s\nvm      ",
		    e->boot_id ? e->boot_id : "?");
	for (i = 0; i < ENV_NR_VM; i++) {
		if (e->vm[i].value >= 0)
			strbuf_addf(sb, "%s%s %lld", i ? ", " : "",
				    e->vm[i].name, e->vm[i].value);
		else
			strbuf_addf(sb, "%s%s ?", i ? ", " : "", e->vm[i].name);
	}
	strbuf_addch(sb, '\n');
	if (!e->have_stack)
		return;
	strbuf_addf(sb, "target   %s\n", ds->path ? ds->path : "?");
	if (ds->have_mount && ds->mnt.unlisted)
		strbuf_addf(sb,
			    "mount    %s reached at %s (not a mount point "
			    "here: the mount is outside this root, as in a "
			    "chroot), type %s, options %s\n",
			    *ds->mnt.source ? ds->mnt.source : "no device",
			    ds->mnt.target ? ds->mnt.target : "?",
			    ds->mnt.fstype ? ds->mnt.fstype : "?",
			    ds->mnt.vfs_options ? ds->mnt.vfs_options : "-");
	else if (ds->have_mount)
		strbuf_addf(sb, "mount    %s on %s, type %s, options %s; %s\n",
			    ds->mnt.source ? ds->mnt.source : "?",
			    ds->mnt.target ? ds->mnt.target : "?",
			    ds->mnt.fstype ? ds->mnt.fstype : "?",
			    ds->mnt.vfs_options ? ds->mnt.vfs_options : "-",
			    ds->mnt.fs_options ? ds->mnt.fs_options : "-");
	if (!ds->nr_devs) {
		strbuf_addf(sb, "devices  none: %s\n",
			    ds->no_device_reason ? ds->no_device_reason
						 : "not known");
		return;
	}
	strbuf_addstr(sb, "devices\n");
	for (i = 0; i < ds->nr_devs; i++)
		dev_text(sb, ds, &ds->devs[i]);
}

void report_env_json(const struct env *e, struct strbuf *out)
{
	struct info_doc doc;
	size_t from = out->len;

	/* "schema" first, then the environment's members in their order */
	info_doc_init(&doc);
	doc.schema = xstrdup(IOTRIAL_SCHEMA);
	doc.env = xcalloc(1, sizeof(*doc.env));
	env_to_doc(e, doc.env);
	info_doc_encode(&doc, 0, out);
	/* json-c writes a string's bytes as they are, UTF-8 or not */
	text_json_safe(out, from);
	info_doc_release(&doc);
}
