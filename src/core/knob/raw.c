/*
 * Escape hatches: "sysfs:PATH" and "sysctl:NAME" reach any tunable we
 * have no family for, with the same journal, the same read-back check
 * and the same restore. We know nothing of their units, so the value is
 * written as given, once it has the shape of a kernel setting: numbers
 * separated by blanks ("4096 87380 6291456"), a size ("4k"), a CPU list
 * or mask ("0-3,8", "ff,00000000"), or words like those the kernel lists
 * (a scheduler's name, "madvise"). Nothing else is written as root: no
 * path, pipe or '%' pattern (kernel.core_pattern runs "|PROGRAM"), and
 * nothing a generated file would expand (tuned's "${f:exec:...}"). A
 * read-back that differs only in whitespace (sysctls print tabs between
 * fields) or that shows the written word selected in brackets ("[bfq]")
 * counts as a match.
 *
 * Paths are confined: a sysfs path must resolve to a regular file under
 * /sys, a sysctl name to one under /proc/sys, so a typo cannot write to
 * an arbitrary file as root. Only text settings are handled: a file
 * that reads back binary data (a PCI device's config space) is refused,
 * since its saved copy would be cut at the first NUL byte.
 *
 * A sysfs file of a block device (under /sys/block/DISK, whatever path
 * reached it) is bound to that disk with its identity, as the named
 * device knobs are: if the device is replaced before a restore (loop0
 * detached and attached to another image), the restore is dropped
 * instead of writing into the new device.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include "knob-int.h"
#include "../../util/error.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* The longest value we write through an escape hatch. */
#define RAW_MAX_VALUE 256
/* The longest word of one. */
#define RAW_MAX_WORD 64

/* Resolve path and check it is a regular file under root+base. */
static int confine(const char *root, const char *path, const char *base,
		   const char *name, char **out, struct strbuf *err)
{
	char *want = knob_path(root, "%s", base), *real;
	struct stat st;
	size_t n;
	int ret = 0;

	real = realpath(path, NULL);
	if (!real) {
		ret = err_set(err, -ENODEV,
			      "'%s' does not exist (there is no "
			      "'%s')",
			      name, path);
		goto out;
	}
	n = strlen(want);
	if (strncmp(real, want, n) || real[n] != '/') {
		ret = err_set(err, -EINVAL,
			      "'%s' resolves to '%s', which is outside '%s'; "
			      "only files under it can be changed this way",
			      name, real, want);
		goto out;
	}
	if (stat(real, &st) < 0 || !S_ISREG(st.st_mode)) {
		ret = err_set(err, -EINVAL,
			      "'%s' is not a file that holds a setting", name);
		goto out;
	}
	*out = real;
	real = NULL;
out:
	free(real);
	free(want);
	return ret;
}

/*
 * The disk whose directory holds the resolved file real: /sys/block/DISK
 * is a link to .../block/DISK under /sys/devices, so a component after
 * "/block/" is the disk when /sys/block/<it> leads to the same place.
 * NULL when real is not a block device's file. The caller frees.
 */
static char *disk_of(const char *root, const char *real)
{
	const char *p = real;

	while ((p = strstr(p, "/block/"))) {
		const char *name = p + 7, *end = strchrnul(name, '/');
		char *disk = xstrndup(name, (size_t)(end - name));
		char *link = knob_path(root, "/sys/block/%s", disk);
		char *dir = realpath(link, NULL);
		size_t n = dir ? strlen(dir) : 0;
		int match = *disk && dir && !strncmp(real, dir, n) &&
			    (real[n] == '/' || !real[n]);

		free(link);
		free(dir);
		if (match)
			return disk;
		free(disk);
		p = end;
	}
	return NULL;
}

/* Bind k, a sysfs file of disk, to that disk and its identity. */
static int bind_disk(const struct knob_ctx *ctx, struct knob *k,
		     const char *disk, struct strbuf *err)
{
	struct strbuf id = STRBUF_INIT;

	if (knob_disk_ident(ctx->root, disk, &id, NULL)) {
		strbuf_release(&id);
		return err_set(err, -ENODEV,
			       "cannot read the identity of block device '%s' "
			       "that '%s' belongs to",
			       disk, k->name);
	}
	free(k->object);
	free(k->ident);
	k->object = xstrdup(disk);
	k->ident = strbuf_detach(&id, NULL);
	k->scope = KNOB_SCOPE_DEVICE;
	return 0;
}

int knob_name_is_raw(const char *name)
{
	return !strncmp(name, "sysfs:", 6) || !strncmp(name, "sysctl:", 7);
}

/* knob_ops.resolve: bind a name of this family to ctx, or -ENOENT. */
static int raw_resolve(const struct knob_ctx *ctx, const char *name,
		       struct knob *k, struct strbuf *note, struct strbuf *err)
{
	struct strbuf p = STRBUF_INIT;
	char *real = NULL, *c;
	int ret;

	(void)note;
	if (!strncmp(name, "sysfs:", 6)) {
		if (name[6] != '/')
			return err_set(err, -EINVAL,
				       "'%s' needs an absolute path, e.g. "
				       "sysfs:/sys/block/loop0/queue/"
				       "add_random",
				       name);
		strbuf_addf(&p, "%s%s", ctx->root ? ctx->root : "", name + 6);
		ret = confine(ctx->root, p.buf, "/sys", name, &real, err);
		k->prio = KNOB_PRIO_QUEUE;
	} else if (!strncmp(name, "sysctl:", 7)) {
		if (!name[7] || strstr(name + 7, ".."))
			return err_set(err, -EINVAL,
				       "'%s' needs a sysctl name, e.g. "
				       "sysctl:vm.swappiness",
				       name);
		strbuf_addf(&p, "%s/proc/sys/", ctx->root ? ctx->root : "");
		for (c = (char *)name + 7; *c; c++)
			strbuf_addch(&p, *c == '.' ? '/' : *c);
		ret = confine(ctx->root, p.buf, "/proc/sys", name, &real, err);
		k->prio = KNOB_PRIO_RAW;
	} else {
		return KNOB_NOT_MINE;
	}
	strbuf_release(&p);
	if (ret)
		return ret;
	k->name = xstrdup(name);
	k->group = xstrdup(real); /* two spellings of one file: one group */
	k->object = xstrdup("system");
	k->path = real;
	k->ident = xstrdup("");
	k->root = xstrdup(ctx->root ? ctx->root : "");
	k->scope = KNOB_SCOPE_SYSTEM;
	if (!strncmp(name, "sysfs:", 6)) {
		char *disk = disk_of(k->root, real);

		ret = disk ? bind_disk(ctx, k, disk, err) : 0;
		free(disk);
	}
	return ret;
}

/* Collapse runs of blanks to one space: sysctls print tabs. */
static void squeeze(struct strbuf *sb)
{
	size_t r, w = 0;
	int blank = 0;

	for (r = 0; r < sb->len; r++) {
		char c = sb->buf[r];

		if (c == ' ' || c == '\t' || c == '\n') {
			blank = 1;
			continue;
		}
		if (blank && w)
			sb->buf[w++] = ' ';
		blank = 0;
		sb->buf[w++] = c;
	}
	strbuf_setlen(sb, w);
}

/* Refuse a value that is not one line of printable text. */
static int check_text(const struct knob *k, const struct strbuf *value,
		      struct strbuf *err)
{
	size_t i;

	for (i = 0; i < value->len; i++) {
		unsigned char c = (unsigned char)value->buf[i];

		if ((c >= 0x20 && c < 0x7f) || c == '\t' || c == '\n')
			continue;
		return err_set(err, -EINVAL,
			       "'%s' holds binary data (byte %zu is %s0x%02x), "
			       "not a text setting; '%s' changes only settings "
			       "that read and write as text",
			       k->name, i, c ? "" : "a NUL, ", c,
			       !strncmp(k->name, "sysfs:", 6) ? "sysfs:"
							      : "sysctl:");
	}
	return 0;
}

/* knob_ops.read: the current value, canonical. */
static int raw_read(const struct knob *k, struct strbuf *value,
		    struct strbuf *err)
{
	int ret = knob_read_file(k->path, k->name, value, err);

	if (!ret)
		ret = check_text(k, value, err);
	if (!ret)
		squeeze(value);
	return ret;
}

/* Is c in set? (c != 0) */
static int in(char c, const char *set)
{
	return c && strchr(set, c);
}

/*
 * Is the token w (n bytes) one a kernel setting holds: a number
 * ("-1", "0.5", "0x1f"), a size ("4k", "2MiB"), a CPU list or mask
 * ("0-3,8", "ff,00ff"), or a word ("mq-deadline", "madvise")?
 */
static int raw_token_ok(const char *w, size_t n)
{
	static const char *const units[] = {"",	   "b",	 "k",	"kb", "kib",
					    "m",   "mb", "mib", "g",  "gb",
					    "gib", "t",	 "tb",	"tib"};
	size_t i = 0, d, u;

	if (!n || n > RAW_MAX_WORD)
		return 0;
	/* a word: a letter or '_' first, then letters, digits, _ . - */
	if (isalpha((unsigned char)w[0]) || w[0] == '_') {
		for (i = 1; i < n; i++)
			if (!isalnum((unsigned char)w[i]) && !in(w[i], "_.-"))
				return 0;
		return 1;
	}
	/* a CPU list or mask: digits and hex digits, ',' '-' */
	for (i = 0; i < n && (isxdigit((unsigned char)w[i]) || in(w[i], ",-"));
	     i++)
		;
	if (i == n && isdigit((unsigned char)w[0]))
		return 1;
	/* a number, then maybe a unit */
	i = in(w[0], "+-") ? 1 : 0;
	for (d = i; i < n && isdigit((unsigned char)w[i]); i++)
		;
	if (i == d)
		return 0;
	if (i < n && w[i] == '.') {
		for (d = ++i; i < n && isdigit((unsigned char)w[i]); i++)
			;
		if (i == d)
			return 0;
	}
	for (u = 0; u < sizeof(units) / sizeof(units[0]); u++)
		if (strlen(units[u]) == n - i &&
		    !strncasecmp(w + i, units[u], n - i))
			return 1;
	return 0;
}

/* knob_ops.parse: what a person typed -> the canonical value. */
static int raw_parse(const struct knob *k, const char *in_value,
		     struct strbuf *canon, struct strbuf *note,
		     struct strbuf *err)
{
	const char *p, *sp;

	(void)note;
	if (strlen(in_value) > RAW_MAX_VALUE || strchr(in_value, '\n'))
		return err_set(err, -EINVAL,
			       "the value for '%s' must be one line of at most "
			       "%d bytes",
			       k->name, RAW_MAX_VALUE);
	strbuf_addstr(canon, in_value);
	squeeze(canon);
	if (!canon->len)
		return err_set(err, -EINVAL, "'%s' needs a value", k->name);
	for (p = canon->buf; *p; p = *sp ? sp + 1 : sp) {
		sp = strchrnul(p, ' ');
		if (raw_token_ok(p, (size_t)(sp - p)))
			continue;
		return err_set(err, -EINVAL,
			       "'%s' is not a value iotrial writes to '%s': "
			       "sysfs: and sysctl: take numbers separated by "
			       "blanks ('4096 87380'), a size ('4k'), a CPU "
			       "list or mask ('0-3,8') or a word such as a "
			       "scheduler's name (letters, digits, '_', '.', "
			       "'-'; at most %d bytes each), and '%.*s' is "
			       "none of these",
			       canon->buf, k->name, RAW_MAX_WORD, (int)(sp - p),
			       p);
	}
	return 0;
}

/* knob_ops.write: write the canonical value (verified by the caller). */
static int raw_write(const struct knob *k, const char *canon,
		     struct strbuf *err)
{
	return knob_write_file(k->path, k->name, canon, err);
}

/* A match: equal, or the written word is the bracketed (selected) one. */
static int raw_verify(const struct knob *k, const char *canon, const char *now,
		      struct strbuf *note)
{
	struct strbuf sel = STRBUF_INIT;
	int ok;

	(void)k;
	(void)note;
	if (!strcmp(canon, now))
		return 1;
	strbuf_addf(&sel, "[%s]", canon);
	ok = strstr(now, sel.buf) != NULL;
	strbuf_release(&sel);
	return ok;
}

/* Restore a bracketed list ("none [mq-deadline]") as its selected word. */
static int raw_restore(const struct knob *k, const char *orig,
		       struct strbuf *err)
{
	struct strbuf now = STRBUF_INIT, word = STRBUF_INIT;
	const char *open = strchr(orig, '['), *close;
	int ret;

	if (open && (close = strchr(open, ']')) && close > open + 1)
		strbuf_add(&word, open + 1, (size_t)(close - open - 1));
	else
		strbuf_addstr(&word, orig);
	ret = knob_apply(k, word.buf, &now, NULL, err);
	strbuf_release(&now);
	strbuf_release(&word);
	return ret;
}

/* knob_ops.describe: unit, allowed values and notes for listing. */
static void raw_describe(const struct knob *k, const char *value,
			 struct knob_desc *d)
{
	(void)k;
	(void)value;
	strbuf_addstr(&d->allowed, "numbers, a size, a CPU list or mask, or "
				   "words (no paths, pipes or '%')");
	strbuf_addstr(&d->notes, "an escape hatch: written as given, read "
				 "back, journaled and restored like any "
				 "knob\n");
}

/* Is the file at path (under the tree's root) the file real? */
static int same_file(const char *path, const char *real)
{
	char *p = path ? realpath(path, NULL) : NULL;
	int same = p && !strcmp(p, real);

	free(p);
	return same;
}

int knob_raw_twin(const struct knob *k, const char *canon, struct knob *twin,
		  struct strbuf *twin_canon)
{
	struct strbuf err = STRBUF_INIT;
	struct knob_list names = {0};
	struct knob_ctx ctx;
	size_t i;
	int ret = -ENOENT;

	memset(twin, 0, sizeof(*twin));
	if (!k || k->ops != &knob_raw_ops || !k->path)
		return -ENOENT;
	knob_ctx_init(&ctx);
	free(ctx.root);
	ctx.root = xstrdup(k->root ? k->root : "");
	if (k->scope == KNOB_SCOPE_DEVICE)
		ctx.disk = xstrdup(k->object);
	knob_names(&ctx, &names);
	for (i = 0; i < names.nr && ret; i++) {
		strbuf_reset(&err);
		if (knob_resolve(&ctx, names.v[i], twin, NULL, &err))
			continue;
		if (twin->ops != &knob_raw_ops && !twin->deferred &&
		    same_file(twin->path, k->path)) {
			strbuf_reset(twin_canon);
			strbuf_reset(&err);
			/* the value as the named knob reads it: a raw value
			 * it would refuse leaves the knob raw */
			if (!twin->ops->parse(twin, canon, twin_canon, NULL,
					      &err))
				ret = 0;
		}
		if (ret)
			knob_release(twin);
	}
	knob_list_release(&names);
	knob_ctx_release(&ctx);
	strbuf_release(&err);
	return ret;
}

/*
 * knob_ops.regime: a raw knob that spells the file of a named one
 * (sysctl:vm.dirty_ratio) is judged as that knob; of any other,
 * iotrial knows nothing of what it controls, so whether a run reached
 * it is unknown, and the sentence says so rather than stay silent (a
 * verdict of "no difference" on it is then read for what it is).
 */
static enum knob_regime raw_regime(const struct knob *k, const char *canon,
				   const struct knob_obs *o, struct strbuf *why)
{
	struct strbuf twin_canon = STRBUF_INIT;
	enum knob_regime g;
	struct knob twin;

	if (!knob_raw_twin(k, canon, &twin, &twin_canon)) {
		g = knob_regime(&twin, twin_canon.buf, o, why);
		knob_release(&twin);
		strbuf_release(&twin_canon);
		return g;
	}
	strbuf_release(&twin_canon);
	strbuf_addstr(why, "iotrial does not know what a raw knob controls, "
			   "so it cannot tell whether a run reached where "
			   "it acts");
	return KNOB_REGIME_UNKNOWN;
}

const struct knob_ops knob_raw_ops = {
    .family = "raw",
    .resolve = raw_resolve,
    .read = raw_read,
    .parse = raw_parse,
    .write = raw_write,
    .verify = raw_verify,
    .restore = raw_restore,
    .describe = raw_describe,
    .regime = raw_regime,
};

/* As knob.h says: judged under the raw twin's name, when there is one,
 * so a legacy or raw spelling gets the judgement the modern name gets. */
enum knob_regime knob_judge(const struct knob *k, const char *canon,
			    const struct knob_obs *o, struct strbuf *judged_as,
			    struct strbuf *why)
{
	struct strbuf twin_canon = STRBUF_INIT;
	struct knob twin;

	strbuf_reset(judged_as);
	if (!knob_raw_twin(k, canon, &twin, &twin_canon))
		strbuf_addstr(judged_as, twin.name);
	else if (k && k->name)
		strbuf_addstr(judged_as, k->name);
	knob_release(&twin);
	strbuf_release(&twin_canon);
	return knob_regime(k, canon, o, why);
}
