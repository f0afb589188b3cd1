/*
 * The `iotrial knobs` listing (knob_text.h). Text and JSON say the same:
 * a knob's value as people read it ("2048 KiB (2 MiB; ...)"), its place
 * (scope, object, path), what it accepts, and the notes that keep a
 * change from surprising anyone.
 */
#include <string.h>
#include "knob_text.h"
#include "../model/model_json.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

void report_knobs_head(const struct knob_ctx *ctx, struct strbuf *out)
{
	if (!ctx->disk && !ctx->mountpoint)
		return;
	strbuf_addstr(out, "knobs of");
	if (ctx->disk)
		strbuf_addf(out, " device '%s'", ctx->disk);
	if (ctx->mountpoint)
		strbuf_addf(out, "%s mount '%s'", ctx->disk ? " and" : "",
			    ctx->mountpoint);
	strbuf_addch(out, '\n');
	{
		struct strbuf note = STRBUF_INIT;

		knob_loop_note(ctx, NULL, &note);
		if (note.len)
			strbuf_addf(out, "note: %s\n", note.buf);
		strbuf_release(&note);
	}
	strbuf_addch(out, '\n');
}

void report_knob_text(const struct knob *k, const char *value,
		      const struct knob_desc *d, struct strbuf *out)
{
	const char *p, *nl;

	if (strcmp(d->shown.buf, value))
		strbuf_addf(out, "%-28s %s\n", k->name, d->shown.buf);
	else if (d->unit.len)
		strbuf_addf(out, "%-28s %s%s%s\n", k->name, value,
			    strcmp(d->unit.buf, "%") ? " " : "", d->unit.buf);
	else
		strbuf_addf(out, "%-28s %s\n", k->name, value);
	strbuf_addf(out, "    scope: %s", knob_scope_name(k->scope));
	if (k->scope != KNOB_SCOPE_SYSTEM)
		strbuf_addf(out, " '%s'", k->object);
	strbuf_addf(out, ", %s\n", k->path);
	if (d->allowed.len)
		strbuf_addf(out, "    allowed: %s\n", d->allowed.buf);
	if (d->legacy.len)
		strbuf_addf(out, "    legacy names: %s\n", d->legacy.buf);
	for (p = d->notes.buf; *p; p = *nl ? nl + 1 : nl) {
		nl = strchrnul(p, '\n');
		if (nl > p)
			strbuf_addf(out, "    note: %.*s\n", (int)(nl - p), p);
	}
}

void report_knobs_tail(const struct knob_ctx *ctx, struct strbuf *out)
{
	if (!ctx->disk)
		strbuf_addf(out,
			    "\ndevice knobs (scheduler, read_ahead_kb, "
			    "nr_requests, ...): %s; give --device DEV or "
			    "-t TARGET\n",
			    ctx->why_no_disk ? ctx->why_no_disk
					     : "no device was given");
	if (!ctx->mountpoint)
		strbuf_addf(out, "%satime: %s; give -t DIR\n",
			    ctx->disk ? "\n" : "", ctx->why_no_mount);
	strbuf_addstr(out, "\nany other tunable: sysfs:PATH or sysctl:NAME "
			   "(e.g. sysctl:vm.swappiness)\n");
}

/* Split text at sep into an array of its non-empty pieces. */
static char **split(const char *text, char sep, size_t *out_nr)
{
	char **a = xcalloc(strlen(text) + 1, sizeof(*a));
	const char *p = text, *e;

	*out_nr = 0;
	while (*p) {
		e = strchr(p, sep);
		if (!e)
			e = p + strlen(p);
		if (e > p)
			a[(*out_nr)++] = xstrndup(p, (size_t)(e - p));
		p = *e ? e + 1 : e;
	}
	return a;
}

void report_knob_doc(const struct knob *k, const char *value,
		     const struct knob_desc *d, struct knobs_doc *doc)
{
	struct knob_doc *o;

	doc->knobs =
	    xrealloc(doc->knobs, (doc->nr_knobs + 1) * sizeof(*doc->knobs));
	o = &doc->knobs[doc->nr_knobs++];
	memset(o, 0, sizeof(*o));
	o->name = xstrdup(k->name);
	o->value = xstrdup(value);
	o->shown = xstrdup(d->shown.buf);
	o->unit = xstrdup(d->unit.buf);
	o->allowed = xstrdup(d->allowed.buf);
	o->scope = xstrdup(knob_scope_name(k->scope));
	o->object = xstrdup(k->object);
	o->path = xstrdup(k->path);
	o->legacy_names = split(d->legacy.buf, ' ', &o->nr_legacy_names);
	o->notes = split(d->notes.buf, '\n', &o->nr_notes);
}

/* The names another target would offer that ctx's cannot (a disk's when
 * ctx has none): for the completion and for people, into doc. */
static void unavailable_names(const struct knob_ctx *ctx, struct knobs_doc *doc)
{
	struct knob_list all = {0}, here = {0};
	size_t i;

	knob_names_anywhere(&all);
	knob_names(ctx, &here);
	doc->unavailable_knobs =
	    xcalloc(all.nr + 1, sizeof(*doc->unavailable_knobs));
	for (i = 0; i < all.nr; i++)
		if (!knob_list_has(&here, all.v[i]))
			doc->unavailable_knobs[doc->nr_unavailable_knobs++] =
			    xstrdup(all.v[i]);
	knob_list_release(&all);
	knob_list_release(&here);
}

void report_knobs_json(const struct knob_ctx *ctx, struct knobs_doc *doc,
		       struct strbuf *out)
{
	struct knobs_unavailable *un = xcalloc(1, sizeof(*un));

	doc->schema = xstrdup("iotrial/1");
	doc->device = ctx->disk ? xstrdup(ctx->disk) : NULL;
	doc->mount = ctx->mountpoint ? xstrdup(ctx->mountpoint) : NULL;
	if (!ctx->disk)
		un->device = xstrdup(ctx->why_no_disk ? ctx->why_no_disk
						      : "no device was given");
	if (!ctx->mountpoint)
		un->mount = xstrdup(ctx->why_no_mount);
	doc->unavailable = un;
	unavailable_names(ctx, doc);
	knobs_doc_encode(doc, MODEL_ENCODE_TIGHT, out);
}

void report_knob_plan(const struct knob_plan *p, const char *journal,
		      struct strbuf *out)
{
	size_t i, same = 0;

	for (i = 0; i < p->nr; i++)
		same += knob_change_unchanged(&p->v[i]);
	if (p->nr == same)
		strbuf_addstr(out, "plan: no changes");
	else
		strbuf_addf(out, "plan: %zu change%s", p->nr - same,
			    p->nr - same == 1 ? "" : "s");
	if (same)
		strbuf_addf(out, "%s%zu value%s already in force",
			    p->nr == same ? ", " : " and ", same,
			    same == 1 ? "" : "s");
	strbuf_addstr(out, ", in apply order (--dry-run: nothing is "
			   "changed)\n");
	report_knob_plan_steps(p, out);
	report_knob_plan_journal(journal, out);
}

void report_knob_plan_journal(const char *journal, struct strbuf *out)
{
	strbuf_addf(out,
		    "before each write the original value is saved to '%s' "
		    "and fsync'd; each write is read back to verify; 'iotrial "
		    "revert' restores the originals\n",
		    journal);
}

/*
 * "     note: NOTE" under a step, unless out says it already: a note of
 * every arm's plan (a loop device's queue) is said once, under the
 * first.
 */
static void step_note(const struct knob_change *c, struct strbuf *out)
{
	if (c->note.len && !strstr(out->buf, c->note.buf))
		strbuf_addf(out, "     note: %s\n", c->note.buf);
}

void report_knob_plan_steps(const struct knob_plan *p, struct strbuf *out)
{
	struct strbuf v = STRBUF_INIT;
	size_t i;

	for (i = 0; i < p->nr; i++) {
		const struct knob_change *c = &p->v[i];

		strbuf_addf(out, "  %zu. ", i + 1);
		knob_subject(out, c->k.name, c->k.object);
		strbuf_addstr(out, ": ");
		strbuf_reset(&v);
		if (knob_change_unchanged(c)) {
			knob_show_value(&c->k, c->canon.buf, &v);
			strbuf_addf(out, "%s, unchanged (already in force)\n",
				    v.buf);
			step_note(c, out);
			continue;
		}
		if (c->k.deferred) {
			strbuf_addstr(out, "(the new scheduler's default)");
		} else {
			knob_show_value(&c->k, c->before.buf, &v);
			strbuf_addstr(out, v.buf);
		}
		strbuf_reset(&v);
		knob_show_value(&c->k, c->canon.buf, &v);
		strbuf_addf(out, " -> %s\n     %s\n", v.buf, c->how.buf);
		step_note(c, out);
	}
	strbuf_release(&v);
}

/* The sysfs attribute of a device knob's file, as udev names it
 * ("queue/read_ahead_kb"), or NULL. */
static const char *udev_attr(const char *path)
{
	const char *q = path ? strstr(path, "/queue/") : NULL;

	return q ? q + 1 : NULL;
}

/*
 * How to keep c past a reboot: the line of the file the system reads at
 * boot, appended to out; nothing for a knob we cannot say it of.
 */
static void persist_line(const struct knob_change *c, struct strbuf *out)
{
	const char *attr;

	switch (c->k.scope) {
	case KNOB_SCOPE_SYSTEM:
		if (!strncmp(c->k.path, "/proc/sys/", 10)) {
			const char *q;

			strbuf_addstr(out, "  /etc/sysctl.d/60-iotrial.conf: ");
			for (q = c->k.path + 10; *q; q++)
				strbuf_addch(out, *q == '/' ? '.' : *q);
			strbuf_addf(out, " = %s\n", c->canon.buf);
		}
		break;
	case KNOB_SCOPE_DEVICE:
		/* report_knob_done() made the rule's head */
		attr = udev_attr(c->k.path);
		if (attr)
			strbuf_addf(out, ", ATTR{%s}=\"%s\"", attr,
				    c->canon.buf);
		break;
	case KNOB_SCOPE_MOUNT:
		strbuf_addf(out,
			    "  /etc/fstab: '%s' in the options of the line "
			    "that mounts '%s'\n",
			    c->canon.buf, c->k.object);
		break;
	}
}

/* The `iotrial export` line that writes the kept settings whole. */
static void export_hint(const struct knob_plan *p, struct strbuf *out)
{
	const char *disk = NULL, *mnt = NULL;
	size_t i;

	strbuf_addstr(out, "or let 'iotrial export");
	for (i = 0; i < p->nr; i++) {
		const struct knob_change *c = &p->v[i];

		if (!c->applied)
			continue;
		if (c->k.scope == KNOB_SCOPE_DEVICE)
			disk = c->k.object;
		if (c->k.scope == KNOB_SCOPE_MOUNT)
			mnt = c->k.object;
		strbuf_addf(out, " --set %s=%s", c->k.name, c->canon.buf);
	}
	if (mnt)
		strbuf_addf(out, " -t %s", mnt);
	else if (disk)
		strbuf_addf(out, " --device %s", disk);
	strbuf_addstr(out, " --format udev|sysctl|fstab|tuned|ansible|puppet|"
			   "shell' write them\n");
}

void report_knob_done(const struct knob_plan *p, const char *journal,
		      struct strbuf *out)
{
	struct strbuf keep = STRBUF_INIT;
	struct strbuf before = STRBUF_INIT, after = STRBUF_INIT;
	size_t i;

	for (i = 0; i < p->nr; i++) {
		const struct knob_change *c = &p->v[i];

		strbuf_reset(&before);
		strbuf_reset(&after);
		knob_show_value(&c->k, c->before.buf, &before);
		knob_show_value(&c->k, c->after.buf, &after);
		knob_subject(out, c->k.name, c->k.object);
		if (!strcmp(c->before.buf, c->after.buf))
			strbuf_addf(out, ": %s, unchanged (already in force)\n",
				    after.buf);
		else
			strbuf_addf(out, ": %s -> %s\n", before.buf, after.buf);
	}
	strbuf_addf(out,
		    "the originals are in '%s'; 'iotrial revert' restores "
		    "them\n",
		    journal);
	/* one udev rule per disk, its attributes in apply order (the
	 * scheduler first: switching it resets its tunables) */
	for (i = 0; i < p->nr; i++) {
		const struct knob_change *c = &p->v[i];
		size_t j, had;

		if (!c->applied || c->k.scope != KNOB_SCOPE_DEVICE ||
		    !udev_attr(c->k.path))
			continue;
		for (j = 0; j < i; j++)
			if (p->v[j].applied &&
			    p->v[j].k.scope == KNOB_SCOPE_DEVICE &&
			    udev_attr(p->v[j].k.path) &&
			    !strcmp(p->v[j].k.object, c->k.object))
				break;
		if (j < i)
			continue; /* its disk's rule is written */
		strbuf_addf(&keep,
			    "  /etc/udev/rules.d/60-iotrial.rules: "
			    "ACTION==\"add|change\", SUBSYSTEM==\"block\", "
			    "KERNEL==\"%s\"",
			    c->k.object);
		had = keep.len;
		for (j = i; j < p->nr; j++)
			if (p->v[j].applied &&
			    p->v[j].k.scope == KNOB_SCOPE_DEVICE &&
			    !strcmp(p->v[j].k.object, c->k.object))
				persist_line(&p->v[j], &keep);
		if (keep.len > had)
			strbuf_addch(&keep, '\n');
	}
	for (i = 0; i < p->nr; i++)
		if (p->v[i].applied && p->v[i].k.scope != KNOB_SCOPE_DEVICE)
			persist_line(&p->v[i], &keep);
	if (keep.len)
		strbuf_addf(out,
			    "these settings last until reboot (a device's "
			    "until it goes away); to keep them, add to the "
			    "files the system reads at boot:\n%s",
			    keep.buf);
	if (keep.len)
		export_hint(p, out);
	strbuf_release(&keep);
	strbuf_release(&before);
	strbuf_release(&after);
}
