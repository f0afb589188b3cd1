/*
 * Exports (export.h): the plain formats (sysctl.d, udev rules, the
 * fstab diff, a shell script), each a row of the table of formats
 * (export_formats.h). The arm to roll out is chosen in export_pick.c,
 * the configuration managers' formats are in export_cm.c, which build on
 * these; nothing here knows of them.
 *
 * A udev rule is matched by the disk's ID_WWN or ID_SERIAL, which stay
 * with the disk when kernel names move (sdb today, sdc after a disk is
 * added); only a disk udev knows no identity for (a loop device, some
 * virtual disks) is matched by kernel name, and the rule says so. The
 * scheduler is set first, since switching it resets nr_requests and the
 * scheduler's own parameters: the plan's order already is that order.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "export.h"
#include "../../util/error.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

void export_disk_id_read(const char *root, const char *disk,
			 struct export_disk_id *out)
{
	static const char *const keys[] = {"ID_WWN", "ID_SERIAL"};
	struct strbuf path = STRBUF_INIT, dev = STRBUF_INIT, db = STRBUF_INIT;
	size_t k;

	memset(out, 0, sizeof(*out));
	if (!disk || strchr(disk, '/'))
		goto out;
	strbuf_addf(&path, "%s/sys/block/%s/dev", root ? root : "", disk);
	if (strbuf_read_file(&dev, path.buf, 64) < 0)
		goto out;
	strbuf_trim(&dev);
	strbuf_setf(&path, "%s/run/udev/data/b%s", root ? root : "", dev.buf);
	if (strbuf_read_file(&db, path.buf, 1 << 20) < 0)
		goto out;
	for (k = 0; k < sizeof(keys) / sizeof(keys[0]) && !out->key; k++) {
		const char *p = db.buf;
		size_t kl = strlen(keys[k]);

		while (p && *p) {
			const char *nl = strchrnul(p, '\n');

			if (!strncmp(p, "E:", 2) &&
			    !strncmp(p + 2, keys[k], kl) && p[2 + kl] == '=' &&
			    nl > p + 3 + kl) {
				out->key = xstrdup(keys[k]);
				out->value = xstrndup(
				    p + 3 + kl, (size_t)(nl - p - 3 - kl));
				break;
			}
			p = *nl ? nl + 1 : NULL;
		}
	}
	/* a value udev would have to unquote is no use in a rule */
	if (out->value && strpbrk(out->value, "\"\\*?[")) {
		export_disk_id_release(out);
		memset(out, 0, sizeof(*out));
	}
out:
	strbuf_release(&path);
	strbuf_release(&dev);
	strbuf_release(&db);
}

void export_disk_id_release(struct export_disk_id *d)
{
	if (!d)
		return;
	free(d->key);
	free(d->value);
	d->key = d->value = NULL;
}

void export_header(const struct export_src *src, const char *prefix,
		   struct strbuf *out)
{
	if (src->id) {
		strbuf_addf(out, "%siotrial experiment %s (%s), arm '%s':\n",
			    prefix, src->id, src->date,
			    src->label ? src->label : "?");
		if (src->why)
			strbuf_addf(out, "%s  %s\n", prefix, src->why);
		strbuf_addf(out,
			    "%s'iotrial show %s' prints the whole "
			    "experiment\n",
			    prefix, src->id);
	} else {
		strbuf_addf(out,
			    "%ssettings given to 'iotrial export --set' on %s "
			    "(not from a stored experiment)\n",
			    prefix, src->date);
	}
}

int export_sysctl_name(const struct knob *k, struct strbuf *out)
{
	struct knob_persist p;
	int ret;

	knob_persist(k, &p);
	ret = p.sysctl.len > 0;
	strbuf_add(out, p.sysctl.buf, p.sysctl.len);
	knob_persist_release(&p);
	return ret;
}

/*
 * The persistence facts of k that outlive knob_persist_release(): its
 * udev attribute, whether its value is a mount option, whether it reads
 * back as every choice with the active one in brackets.
 */
static struct knob_persist persist_facts(const struct knob *k)
{
	struct knob_persist p;

	knob_persist(k, &p);
	knob_persist_release(&p);
	return p;
}

const char *export_udev_attr(const struct knob *k)
{
	return persist_facts(k).udev_attr;
}

const struct knob_change *export_mount_change(const struct export_src *src)
{
	size_t i;

	for (i = 0; i < src->plan->nr; i++)
		if (persist_facts(&src->plan->v[i].k).mount_option)
			return &src->plan->v[i];
	return NULL;
}

/* The settings of src as "name=value, ..." for messages. */
static void list_settings(const struct export_src *src, struct strbuf *out)
{
	size_t i;

	for (i = 0; i < src->plan->nr; i++)
		strbuf_addf(out, "%s%s=%s", i ? ", " : "",
			    src->plan->v[i].k.name, src->plan->v[i].canon.buf);
}

/* -ENOENT: nothing of src fits format what; hint names what does. */
static int nothing_for(const struct export_src *src, const char *what,
		       const char *hint, struct strbuf *err)
{
	struct strbuf l = STRBUF_INIT;
	int ret;

	list_settings(src, &l);
	ret = err_set(err, -ENOENT, "no setting of %s belongs in %s (%s); %s",
		      src->id ? src->id : "--set", what, l.buf, hint);
	strbuf_release(&l);
	return ret;
}

int export_render_sysctl(const struct export_src *src, struct strbuf *out,
			 struct strbuf *err)
{
	struct strbuf name = STRBUF_INIT, body = STRBUF_INIT;
	size_t i;
	int ret = 0;

	for (i = 0; i < src->plan->nr; i++) {
		const struct knob_change *c = &src->plan->v[i];

		strbuf_reset(&name);
		if (export_sysctl_name(&c->k, &name))
			strbuf_addf(&body, "%s = %s\n", name.buf, c->canon.buf);
	}
	if (!body.len) {
		ret = nothing_for(src, "a sysctl.d file",
				  "device knobs go in --format udev, atime in "
				  "--format fstab",
				  err);
		goto out;
	}
	export_header(src, "# ", out);
	strbuf_addstr(out, "# for /etc/sysctl.d/60-iotrial.conf; 'sysctl "
			   "--system' loads it now\n");
	strbuf_add(out, body.buf, body.len);
out:
	strbuf_release(&name);
	strbuf_release(&body);
	return ret;
}

/* Append the match of the udev rule for disk. */
static void udev_match(const struct export_src *src, const char *disk,
		       struct strbuf *out)
{
	const struct export_disk_id *id = src->disk_id;

	strbuf_addstr(out, "ACTION==\"add|change\", SUBSYSTEM==\"block\", "
			   "ENV{DEVTYPE}==\"disk\", ");
	if (id && id->key && src->disk && !strcmp(disk, src->disk))
		strbuf_addf(out, "ENV{%s}==\"%s\"", id->key, id->value);
	else
		strbuf_addf(out, "KERNEL==\"%s\"", disk);
}

int export_render_udev(const struct export_src *src, struct strbuf *out,
		       struct strbuf *err)
{
	const struct knob_plan *p = src->plan;
	struct strbuf body = STRBUF_INIT;
	size_t i, j;

	for (i = 0; i < p->nr; i++) {
		const struct knob_change *c = &p->v[i];
		const struct export_disk_id *id = src->disk_id;

		if (!export_udev_attr(&c->k))
			continue;
		if (strpbrk(c->canon.buf, "\"\n\\")) {
			strbuf_release(&body);
			return err_set(err, -EINVAL,
				       "the value of '%s' has a quote, "
				       "backslash or line break, which a udev "
				       "rule cannot hold",
				       c->k.name);
		}
		for (j = 0; j < i; j++)
			if (export_udev_attr(&p->v[j].k) &&
			    !strcmp(p->v[j].k.object, c->k.object))
				break;
		if (j < i)
			continue; /* this disk's rule is written */
		if (id && id->key && src->disk &&
		    !strcmp(c->k.object, src->disk))
			strbuf_addf(&body,
				    "# '%s', matched by its %s: the rule "
				    "follows the disk when kernel names "
				    "change\n",
				    c->k.object, id->key);
		else
			strbuf_addf(&body,
				    "# '%s' has no ID_WWN or ID_SERIAL in the "
				    "udev database, so it is matched by kernel "
				    "name, which can change at boot or when "
				    "disks are added\n",
				    c->k.object);
		udev_match(src, c->k.object, &body);
		/* the plan's order: the scheduler before what it resets */
		for (j = i; j < p->nr; j++)
			if (export_udev_attr(&p->v[j].k) &&
			    !strcmp(p->v[j].k.object, c->k.object))
				strbuf_addf(&body, ", ATTR{%s}=\"%s\"",
					    export_udev_attr(&p->v[j].k),
					    p->v[j].canon.buf);
		strbuf_addch(&body, '\n');
	}
	if (!body.len) {
		strbuf_release(&body);
		return nothing_for(src, "a udev rule",
				   "system knobs go in --format sysctl, atime "
				   "in --format fstab",
				   err);
	}
	export_header(src, "# ", out);
	strbuf_addstr(out,
		      "# for /etc/udev/rules.d/60-iotrial.rules; 'udevadm "
		      "control --reload && udevadm trigger --action=change "
		      "--subsystem-match=block' applies it now\n");
	strbuf_add(out, body.buf, body.len);
	strbuf_release(&body);
	return 0;
}

/* Does fstab field f (escaped as fstab escapes: \040 for a blank) name
 * path? */
static int field_is(const char *f, size_t len, const char *path)
{
	struct strbuf d = STRBUF_INIT;
	size_t i;
	int ret;

	for (i = 0; i < len; i++) {
		if (f[i] == '\\' && i + 3 < len && f[i + 1] >= '0' &&
		    f[i + 1] <= '3' && f[i + 2] >= '0' && f[i + 2] <= '7' &&
		    f[i + 3] >= '0' && f[i + 3] <= '7') {
			strbuf_addch(&d, (f[i + 1] - '0') * 64 +
					     (f[i + 2] - '0') * 8 +
					     (f[i + 3] - '0'));
			i += 3;
		} else {
			strbuf_addch(&d, f[i]);
		}
	}
	ret = !strcmp(d.buf, path);
	strbuf_release(&d);
	return ret;
}

/* Is option o (len bytes) one that sets the atime mode? */
static int is_atime_opt(const char *o, size_t len)
{
	static const char *const opts[] = {
	    "atime",	   "noatime",	    "relatime", "norelatime",
	    "strictatime", "nostrictatime", "lazytime", "nolazytime",
	};
	size_t i;

	for (i = 0; i < sizeof(opts) / sizeof(opts[0]); i++)
		if (strlen(opts[i]) == len && !strncmp(o, opts[i], len))
			return 1;
	return 0;
}

/* Append options opts (len bytes) without the atime ones, then atime. */
static void new_options(const char *opts, size_t len, const char *atime,
			struct strbuf *out)
{
	const char *p = opts, *end = opts + len, *comma;
	size_t had = out->len;

	while (p < end) {
		comma = memchr(p, ',', (size_t)(end - p));
		if (!comma)
			comma = end;
		if (comma > p && !is_atime_opt(p, (size_t)(comma - p))) {
			if (out->len > had)
				strbuf_addch(out, ',');
			strbuf_add(out, p, (size_t)(comma - p));
		}
		p = comma + 1;
	}
	if (out->len > had)
		strbuf_addch(out, ',');
	strbuf_addstr(out, atime);
}

/*
 * Split the fstab line from p (at its first field) to end into at most
 * six blank-separated fields, field i from fs[i] to fe[i]; their count.
 */
static int fstab_fields(const char *p, const char *end, const char **fs,
			const char **fe)
{
	int nf;

	for (nf = 0; nf < 6 && p < end;) {
		fs[nf] = p;
		while (p < end && *p != ' ' && *p != '\t')
			p++;
		fe[nf++] = p;
		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
	}
	return nf;
}

int export_fstab_edit(const char *fstab, const char *mountpoint,
		      const char *atime, struct strbuf *new_text,
		      struct strbuf *old_line, struct strbuf *new_line,
		      unsigned *line_no, struct strbuf *err)
{
	const char *p, *line, *nl, *hit = NULL, *hit_end = NULL;
	const char *fs[6], *fe[6];
	unsigned no = 0, hit_no = 0;
	int nf;

	for (p = fstab; *p; p = *nl ? nl + 1 : nl) {
		const char *q;

		line = p;
		nl = strchrnul(p, '\n');
		no++;
		for (q = line; q < nl && (*q == ' ' || *q == '\t'); q++)
			;
		if (q == nl || *q == '#')
			continue;
		nf = fstab_fields(q, nl, fs, fe);
		if (nf >= 3 &&
		    field_is(fs[1], (size_t)(fe[1] - fs[1]), mountpoint)) {
			hit = line;
			hit_end = nl;
			hit_no = no;
		}
	}
	if (!hit)
		return err_set(err, -ENOENT,
			       "no line of fstab mounts '%s'; nothing is "
			       "written",
			       mountpoint);
	/* find the fields of the hit again */
	for (p = hit; p < hit_end && (*p == ' ' || *p == '\t'); p++)
		;
	nf = fstab_fields(p, hit_end, fs, fe);
	strbuf_reset(old_line);
	strbuf_reset(new_line);
	strbuf_add(old_line, hit, (size_t)(hit_end - hit));
	if (nf >= 4) {
		strbuf_add(new_line, hit, (size_t)(fs[3] - hit));
		new_options(fs[3], (size_t)(fe[3] - fs[3]), atime, new_line);
		strbuf_add(new_line, fe[3], (size_t)(hit_end - fe[3]));
	} else {
		strbuf_add(new_line, hit, (size_t)(fe[2] - hit));
		strbuf_addf(new_line, "\t%s", atime);
		strbuf_add(new_line, fe[2], (size_t)(hit_end - fe[2]));
	}
	strbuf_reset(new_text);
	strbuf_add(new_text, fstab, (size_t)(hit - fstab));
	strbuf_add(new_text, new_line->buf, new_line->len);
	strbuf_addstr(new_text, hit_end);
	*line_no = hit_no;
	return 0;
}

/* Append path to out as an fstab field: blanks and backslashes as
 * fstab escapes them (\040). */
static void fstab_field(struct strbuf *out, const char *path)
{
	for (; *path; path++)
		if (*path == ' ' || *path == '\t' || *path == '\\')
			strbuf_addf(out, "\\%03o", (unsigned char)*path);
		else
			strbuf_addch(out, *path);
}

int export_fstab_new_line(const struct export_src *src,
			  const struct knob_change *c, struct strbuf *out)
{
	if (!src->mount_source || !*src->mount_source || !src->mount_fstype ||
	    !*src->mount_fstype)
		return 0;
	fstab_field(out, src->mount_source);
	strbuf_addch(out, '\t');
	fstab_field(out, c->k.object);
	strbuf_addch(out, '\t');
	fstab_field(out, src->mount_fstype);
	strbuf_addf(out, "\tdefaults,%s\t0\t%d", c->canon.buf,
		    strcmp(c->k.object, "/") ? 2 : 1);
	return 1;
}

void export_no_fstab_line(const struct export_src *src,
			  const struct knob_change *c, const char *prefix,
			  int adds, struct strbuf *out)
{
	const char *path = src->fstab_path ? src->fstab_path : "/etc/fstab";

	strbuf_addf(out,
		    "%s'%s' has no line that mounts '%s',\n%sso nothing keeps "
		    "%s there after a reboot; %s\n%s(check its source: a "
		    "UUID= or LABEL= survives a change of device names)",
		    prefix, path, c->k.object, prefix, c->canon.buf,
		    adds ? "what follows adds the line to fstab"
			 : "to keep it, add the line below to fstab",
		    prefix);
	if (!strcmp(c->k.object, "/"))
		strbuf_addf(out,
			    ";\n%sor add rootflags=%s to the kernel "
			    "command line",
			    prefix, c->canon.buf);
	else
		strbuf_addf(out,
			    ";\n%sor give the mount a systemd unit with "
			    "Options=%s, named by\n%s'systemd-escape --path "
			    "--suffix=mount %s'",
			    prefix, c->canon.buf, prefix, c->k.object);
	strbuf_addch(out, '\n');
}

/* The fstab diff of src. */
int export_render_fstab(const struct export_src *src, struct strbuf *out,
			struct strbuf *err)
{
	const struct knob_change *c = export_mount_change(src);
	struct strbuf text = STRBUF_INIT, old = STRBUF_INIT, nw = STRBUF_INIT;
	const char *path = src->fstab_path ? src->fstab_path : "/etc/fstab";
	const char *p;
	unsigned no;
	int ret;

	if (!c)
		return nothing_for(src, "fstab",
				   "only atime is a mount option; device knobs "
				   "go in --format udev, system knobs in "
				   "--format sysctl",
				   err);
	if (!src->fstab)
		return err_set(err, -ENOENT, "cannot read '%s'", path);
	ret = export_fstab_edit(src->fstab, c->k.object, c->canon.buf, &text,
				&old, &nw, &no, err);
	if (ret && export_fstab_new_line(src, c, &nw)) {
		/* no line to change: the diff adds one at the end */
		strbuf_reset(err);
		export_no_fstab_line(src, c, "# ", 0, out);
		for (no = 0, p = src->fstab; *p; p++)
			no += *p == '\n';
		if (*src->fstab && p[-1] != '\n')
			no++;
		strbuf_addf(out, "--- %s\n+++ %s\n@@ -%u,0 +%u @@\n+%s\n", path,
			    path, no, no + 1, nw.buf);
		ret = 0;
		goto out;
	}
	if (ret) {
		strbuf_reset(err);
		ret = err_set(err, ret,
			      "'%s' has no line that mounts '%s', and what "
			      "mounts it is not known; add a line for it to "
			      "fstab, or keep the setting with --format shell",
			      path, c->k.object);
		goto out;
	}
	if (!strcmp(old.buf, nw.buf)) {
		strbuf_addf(out,
			    "# '%s' already mounts '%s' with '%s': nothing to "
			    "change\n",
			    path, c->k.object, c->canon.buf);
		goto out;
	}
	strbuf_addf(out, "--- %s\n+++ %s\n@@ -%u +%u @@\n-%s\n+%s\n", path,
		    path, no, no, old.buf, nw.buf);
out:
	strbuf_release(&text);
	strbuf_release(&old);
	strbuf_release(&nw);
	return ret;
}

/* Append s single-quoted for sh. */
static void sh_quote(struct strbuf *out, const char *s)
{
	strbuf_addch(out, '\'');
	for (; *s; s++) {
		if (*s == '\'')
			strbuf_addstr(out, "'\\''");
		else
			strbuf_addch(out, *s);
	}
	strbuf_addch(out, '\'');
}

/* The shell line that writes c's value to its file when it reads
 * otherwise. */
static void shell_write_file(const struct knob_change *c, struct strbuf *out)
{
	strbuf_addstr(out, "[ \"$(cat ");
	sh_quote(out, c->k.path);
	strbuf_addstr(out, ")\" = ");
	sh_quote(out, c->canon.buf);
	strbuf_addstr(out, " ] || echo ");
	sh_quote(out, c->canon.buf);
	strbuf_addstr(out, " > ");
	sh_quote(out, c->k.path);
	strbuf_addch(out, '\n');
}

/* The shell lines that set mount change c, when not set already. */
static void shell_mount(const struct knob_change *c, struct strbuf *out)
{
	const char *p = c->canon.buf, *comma;
	struct strbuf word = STRBUF_INIT;

	strbuf_addf(out, "\n# atime of the mount '%s'\nm=", c->k.object);
	sh_quote(out, c->k.object);
	strbuf_addstr(out, "\no=");
	sh_quote(out, c->canon.buf);
	strbuf_addstr(out, "\nopts=,$(findmnt -rno OPTIONS --mountpoint "
			   "\"$m\"),\nwant=1\n");
	for (; *p; p = *comma ? comma + 1 : comma) {
		comma = strchrnul(p, ',');
		strbuf_reset(&word);
		strbuf_add(&word, p, (size_t)(comma - p));
		if (!strcmp(word.buf, "strictatime")) {
			strbuf_addstr(out, "case $opts in *,noatime,* | "
					   "*,relatime,*) want=0 ;; esac\n");
			continue;
		}
		strbuf_addstr(out, "case $opts in *,");
		sh_quote(out, word.buf);
		strbuf_addstr(out, ",*) ;; *) want=0 ;; esac\n");
	}
	strbuf_addstr(out, "[ $want = 1 ] || mount -o \"remount,$o\" \"$m\"\n");
	strbuf_release(&word);
}

/* The shell lines that set device knob c of disk d (path: its file). */
static void shell_device(const struct knob_change *c, struct strbuf *disks,
			 struct strbuf *out)
{
	struct strbuf word = STRBUF_INIT;

	strbuf_addf(&word, " %s ", c->k.object);
	if (!strstr(disks->buf, word.buf)) {
		strbuf_addstr(out, "\nd=");
		sh_quote(out, c->k.object);
		strbuf_addstr(out, "\n[ -d \"/sys/block/$d\" ] || { echo \"no "
				   "disk '$d' here\" >&2; exit 1; }\n");
		strbuf_add(disks, word.buf, word.len);
	}
	strbuf_release(&word);
	if (persist_facts(&c->k).selected_word) {
		/* the file lists them all, the active one in brackets */
		strbuf_addf(&word, "[%s]", c->canon.buf);
		strbuf_addstr(out, "grep -qF ");
		sh_quote(out, word.buf);
		strbuf_addch(out, ' ');
		sh_quote(out, c->k.path);
		strbuf_addstr(out, " || echo ");
		sh_quote(out, c->canon.buf);
		strbuf_addstr(out, " > ");
		sh_quote(out, c->k.path);
		strbuf_addch(out, '\n');
		strbuf_release(&word);
		return;
	}
	strbuf_release(&word);
	/* read_ahead_kb too: sysfs, since blockdev needs the device node */
	shell_write_file(c, out);
}

/*
 * The shell script of src. Every value, name and path is single-quoted,
 * also the ones a knob's parser has checked already: the script must be
 * safe whatever the plan holds.
 */
int export_render_shell(const struct export_src *src, struct strbuf *out,
			struct strbuf *err)
{
	const struct knob_plan *p = src->plan;
	struct strbuf name = STRBUF_INIT, disks = STRBUF_INIT;
	size_t i;

	(void)err; /* a plan always makes a script */
	strbuf_addstr(out, "#!/bin/sh\n");
	export_header(src, "# ", out);
	strbuf_addstr(out, "# sets each value only when it differs, so running "
			   "it twice changes nothing;\n# until reboot: "
			   "'iotrial export --format udev|sysctl|fstab' keeps "
			   "them\nset -eu\n");
	for (i = 0; i < p->nr; i++) {
		const struct knob_change *c = &p->v[i];

		strbuf_reset(&name);
		if (persist_facts(&c->k).mount_option) {
			shell_mount(c, out);
		} else if (c->k.scope == KNOB_SCOPE_DEVICE) {
			shell_device(c, &disks, out);
		} else if (export_sysctl_name(&c->k, &name)) {
			strbuf_addstr(out, "\n[ \"$(sysctl -n ");
			sh_quote(out, name.buf);
			strbuf_addstr(out, ")\" = ");
			sh_quote(out, c->canon.buf);
			strbuf_addstr(out, " ] || sysctl -qw ");
			strbuf_addf(&name, "=%s", c->canon.buf);
			sh_quote(out, name.buf);
			strbuf_addch(out, '\n');
		} else {
			strbuf_addch(out, '\n');
			shell_write_file(c, out);
		}
	}
	strbuf_release(&name);
	strbuf_release(&disks);
	return 0;
}

int export_find_string(const struct export_src *src, int (*bad)(const char *s),
		       struct strbuf *what)
{
	const struct {
		const char *name, *s;
	} top[] = {
	    {"the experiment id", src->id},
	    {"the arm label", src->label},
	    {"the verdict", src->why},
	    {"the date", src->date},
	    {"the disk", src->disk},
	    {"the disk's udev identity",
	     src->disk_id ? src->disk_id->value : NULL},
	    {"the mount's source", src->mount_source},
	    {"the mount's file system type", src->mount_fstype},
	    {"the active tuned profile", src->tuned_include},
	};
	size_t i;

	for (i = 0; i < sizeof(top) / sizeof(top[0]); i++)
		if (top[i].s && bad(top[i].s)) {
			strbuf_addf(what, "%s '%s'", top[i].name, top[i].s);
			return 1;
		}
	for (i = 0; i < src->plan->nr; i++) {
		const struct knob_change *c = &src->plan->v[i];
		const char *const f[] = {c->k.name, c->k.object, c->k.path,
					 c->canon.buf};
		size_t j;

		for (j = 0; j < sizeof(f) / sizeof(f[0]); j++)
			if (f[j] && bad(f[j])) {
				strbuf_addf(what, "%s of '%s' ('%s')",
					    j == 3 ? "the value" : "the name",
					    c->k.name ? c->k.name : "?", f[j]);
				return 1;
			}
	}
	return 0;
}

const struct export_format export_format_sysctl = {
    .name = "sysctl",
    .summary = "a file for /etc/sysctl.d (vm.* and other sysctls)",
    .render = export_render_sysctl,
    .install_path = "etc/sysctl.d/60-iotrial.conf",
    .mode = 0644,
};

const struct export_format export_format_udev = {
    .name = "udev",
    .summary = "a rule for /etc/udev/rules.d: scheduler, read_ahead_kb and\n"
	       "queue limits of the disk, matched by ID_WWN or ID_SERIAL",
    .render = export_render_udev,
    .install_path = "etc/udev/rules.d/60-iotrial.rules",
    .mode = 0644,
};

const struct export_format export_format_fstab = {
    .name = "fstab",
    .summary = "the changed fstab line (atime) as a unified diff; --write\n"
	       "edits fstab in place (a backup is kept)",
    .render = export_render_fstab,
    .install_path = "etc/fstab",
    .install_help = "the line of etc/fstab that mounts the target (atime)",
    .checker = "findmnt --verify --tab-file",
    .mode = 0644,
};

const struct export_format export_format_shell = {
    .name = "shell",
    .summary = "the commands, idempotent, with set -eu",
    .render = export_render_shell,
    .checker = "sh -n; shellcheck -s sh",
    .mode = 0755,
};
