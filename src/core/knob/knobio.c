/*
 * The plumbing under every knob family: sysfs and proc files are read and
 * written here, so that a refused write always says the same thing in
 * the user's words ("changing 'scheduler' needs root", "the kernel
 * refused '5000' for 'nr_requests'"), numbers with units get the knob's
 * name in their error, and the mount table is parsed once, in one way.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "knob-int.h"
#include "../targets/mountinfo.h"
#include "../../util/error.h"
#include "../../util/units.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

char *knob_path(const char *root, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	strbuf_addstr(&sb, root ? root : "");
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	return strbuf_detach(&sb, NULL);
}

int knob_read_file(const char *path, const char *what, struct strbuf *out,
		   struct strbuf *err)
{
	int ret = strbuf_read_file(out, path, 1 << 16);

	if (ret == -ENOENT)
		return err_set(err, ret,
			       "cannot read '%s': '%s' does not exist", what,
			       path);
	if (ret)
		return err_set(err, ret, "cannot read '%s' from '%s': %s", what,
			       path, strerror(-ret));
	strbuf_trim(out);
	return 0;
}

int knob_write_file(const char *path, const char *what, const char *value,
		    struct strbuf *err)
{
	size_t len = strlen(value);
	ssize_t n;
	int fd, e;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		e = errno;
		goto fail;
	}
	do {
		n = write(fd, value, len);
	} while (n < 0 && errno == EINTR);
	e = n < 0 ? errno : 0;
	if (n >= 0 && (size_t)n != len)
		e = EIO;
	if (close(fd) && !e)
		e = errno;
	if (!e)
		return 0;
fail:
	switch (e) {
	case EACCES:
	case EPERM:
	case EROFS:
		if (geteuid())
			return err_set(err, -EACCES,
				       "changing '%s' needs root (cannot write "
				       "'%s')",
				       what, path);
		return err_set(err, -e, "cannot write '%s': %s", path,
			       strerror(e));
	case ENOENT:
		return err_set(err, -ENOENT,
			       "cannot change '%s': '%s' does not exist", what,
			       path);
	case EINVAL:
	case ERANGE:
		return err_set(err, -EINVAL,
			       "the kernel refused '%s' for '%s' (%s)", value,
			       what, path);
	default:
		return err_set(err, -e, "cannot write '%s' to '%s': %s", value,
			       path, strerror(e));
	}
}

int knob_looks_numeric(const char *in)
{
	while (isspace((unsigned char)*in))
		in++;
	if (*in == '-' || *in == '+')
		in++;
	return isdigit((unsigned char)*in);
}

/* Is s all digits (after an optional '-'), nothing else? */
static int plain_integer(const char *s)
{
	if (*s == '-')
		s++;
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return 0;
	return 1;
}

int knob_parse_int(const struct knob *k, const char *in, int64_t min,
		   int64_t max, const char *takes, int64_t *out,
		   struct strbuf *err)
{
	long long v;
	char *end;

	if (!plain_integer(in)) {
		if (knob_looks_numeric(in))
			return err_set(err, -EINVAL,
				       "'%s' takes %s, not '%s' (no unit)",
				       k->name, takes, in);
		return err_set(err, -EINVAL, "'%s' takes %s, not '%s'", k->name,
			       takes, in);
	}
	errno = 0;
	v = strtoll(in, &end, 10);
	if (errno == ERANGE || v < min || v > max) {
		if (max >= INT32_MAX)
			return err_set(err, -ERANGE,
				       "'%s' is out of range for '%s'; it "
				       "takes %" PRId64 " or more",
				       in, k->name, min);
		return err_set(err, -ERANGE,
			       "'%s' is out of range for '%s'; it takes "
			       "%" PRId64 "..%" PRId64,
			       in, k->name, min, max);
	}
	*out = v;
	return 0;
}

int knob_parse_duration(const struct knob *k, const char *in, uint64_t unit_ns,
			const char *unit_word, int64_t min, int64_t max,
			int64_t *out, struct strbuf *err)
{
	struct strbuf why = STRBUF_INIT;
	uint64_t ns;
	int ret;

	if (plain_integer(in))
		return knob_parse_int(k, in, min, max, unit_word, out, err);
	if (!knob_looks_numeric(in))
		return err_set(err, -EINVAL,
			       "'%s' takes a duration (a number of %s, or "
			       "with a unit such as 30s or 500ms), not '%s'",
			       k->name, unit_word, in);
	ret = units_parse_duration(in, &ns, &why);
	if (ret) {
		err_set(err, ret,
			"'%s' takes a duration (a number of %s, or with a "
			"unit such as 30s or 500ms): %s",
			k->name, unit_word, why.buf);
		strbuf_release(&why);
		return ret;
	}
	strbuf_release(&why);
	if (ns % unit_ns)
		return err_set(err, -EINVAL,
			       "'%s' is not a whole number of %s, which is "
			       "what '%s' counts",
			       in, unit_word, k->name);
	if (ns / unit_ns > (uint64_t)max || (int64_t)(ns / unit_ns) < min)
		return err_set(err, -ERANGE,
			       "'%s' is out of range for '%s'; it takes "
			       "%" PRId64 "..%" PRId64 " %s",
			       in, k->name, min, max, unit_word);
	*out = (int64_t)(ns / unit_ns);
	return 0;
}

int knob_disk_ident(const char *root, const char *disk, struct strbuf *out,
		    struct strbuf *err)
{
	struct strbuf v = STRBUF_INIT;
	char *p = knob_path(root, "/sys/block/%s/dev", disk);
	int ret;

	ret = knob_read_file(p, "dev", &v, err);
	free(p);
	if (ret) {
		strbuf_release(&v);
		return ret;
	}
	strbuf_reset(out);
	strbuf_addstr(out, v.buf);
	p = knob_path(root, "/sys/block/%s/diskseq", disk);
	if (!strbuf_read_file(&v, p, 256)) {
		strbuf_trim(&v);
		strbuf_addf(out, " diskseq %s", v.buf);
	}
	free(p);
	strbuf_release(&v);
	return 0;
}

int knob_bind_device(const struct knob_ctx *ctx, struct knob *k,
		     const char *name, const char *rel_path, struct strbuf *err)
{
	struct strbuf id = STRBUF_INIT;
	int ret;

	if (!ctx->disk && ctx->why_no_disk)
		/* a target was given, but nothing under it is a disk */
		return err_set(err, -ENODEV,
			       "'%s' is a device knob and %s; use a target on "
			       "a block device (a directory on a disk, a "
			       "device, or scratch:SIZE)",
			       name, ctx->why_no_disk);
	if (!ctx->disk)
		return err_set(err, -ENODEV,
			       "'%s' is a device knob and no device was given; "
			       "give --device DEV or -t TARGET",
			       name);
	ret = knob_disk_ident(ctx->root, ctx->disk, &id, err);
	if (ret) {
		strbuf_release(&id);
		return err_set(err, -ENODEV,
			       "there is no block device '%s' (no "
			       "/sys/block/%s)",
			       ctx->disk, ctx->disk);
	}
	k->name = xstrdup(name);
	k->group = xstrdup(name);
	k->object = xstrdup(ctx->disk);
	k->path =
	    knob_path(ctx->root, "/sys/block/%s/queue/%s", ctx->disk, rel_path);
	k->ident = strbuf_detach(&id, NULL);
	k->root = xstrdup(ctx->root ? ctx->root : "");
	k->scope = KNOB_SCOPE_DEVICE;
	return 0;
}

void knob_bind_system(const struct knob_ctx *ctx, struct knob *k,
		      const char *name, const char *path)
{
	k->name = xstrdup(name);
	k->group = xstrdup(name);
	k->object = xstrdup("system");
	k->path = knob_path(ctx->root, "%s", path);
	k->ident = xstrdup("");
	k->root = xstrdup(ctx->root ? ctx->root : "");
	k->scope = KNOB_SCOPE_SYSTEM;
	k->prio = KNOB_PRIO_SYSTEM;
}

unsigned knob_page_kib(void)
{
	long p = sysconf(_SC_PAGESIZE);

	return p >= 1024 ? (unsigned)(p / 1024) : 4;
}

int knob_each_pair(const char *snapshot,
		   int (*fn)(const char *key, const char *value, void *data),
		   void *data)
{
	char *copy = xstrdup(snapshot), *tok, *save = NULL;
	int ret = 0;

	for (tok = strtok_r(copy, " ", &save); tok && !ret;
	     tok = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(tok, '=');

		if (!eq) {
			ret = -EINVAL;
			break;
		}
		*eq = '\0';
		ret = fn(tok, eq + 1, data);
	}
	free(copy);
	return ret;
}

/* ---- the mount table (read by core/targets/mountinfo.c) ---- */

/* Copy e into out. */
static void mount_from_entry(struct knob_mount *out,
			     const struct mountinfo_entry *e)
{
	memset(out, 0, sizeof(*out));
	out->id = e->id;
	out->major = e->major;
	out->minor = e->minor;
	out->mnt = xstrdup(e->mnt);
	out->mnt_opts = xstrdup(e->mnt_opts);
	out->fstype = xstrdup(e->fstype);
	out->source = xstrdup(e->source);
	out->super_opts = xstrdup(e->super_opts);
}

/* How a mount is chosen from the table. */
enum mount_match {
	MATCH_AT,   /* the mount visible at exactly key */
	MATCH_PATH, /* the mount key lives on */
	MATCH_DEV,  /* first mount of major:minor */
};

/* Read the mount table and copy the match to out; 0, -EIO or -ENOENT. */
static int mount_search(enum mount_match how, const char *key, unsigned maj,
			unsigned min, struct knob_mount *out)
{
	const struct mountinfo_entry *e = NULL;
	struct mountinfo mi;
	int ret = 0;

	if (mountinfo_read(&mi, NULL))
		return -EIO;
	switch (how) {
	case MATCH_AT:
		e = mountinfo_find_mountpoint(&mi, key);
		break;
	case MATCH_PATH:
		e = mountinfo_find_path(&mi, key);
		break;
	case MATCH_DEV:
		e = mountinfo_find_dev(&mi, maj, min, MOUNTINFO_FIRST);
		break;
	}
	if (e)
		mount_from_entry(out, e);
	else
		ret = -ENOENT;
	mountinfo_release(&mi);
	return ret;
}

int knob_mount_at(const char *mountpoint, struct knob_mount *out)
{
	return mount_search(MATCH_AT, mountpoint, 0, 0, out);
}

int knob_mount_of_path(const char *path, struct knob_mount *out)
{
	return mount_search(MATCH_PATH, path, 0, 0, out);
}

int knob_mount_of_dev(unsigned major, unsigned minor, struct knob_mount *out)
{
	return mount_search(MATCH_DEV, NULL, major, minor, out);
}

void knob_mount_release(struct knob_mount *m)
{
	if (!m)
		return;
	free(m->mnt);
	free(m->mnt_opts);
	free(m->fstype);
	free(m->source);
	free(m->super_opts);
	memset(m, 0, sizeof(*m));
}

int knob_mount_has_opt(const char *opts, const char *opt)
{
	return mountinfo_has_opt(opts, opt);
}
