/*
 * Access-time updates of one mount: noatime, relatime, strictatime, and
 * the orthogonal lazytime. "Disabling atimes ... gave us another 15% or
 * so" is the field claim we want to measure instead of estimate.
 *
 * The trap: `mount -o remount,relatime` on a noatime mount leaves it
 * noatime with the mount(8) of this system, silently. So we never go
 * through mount(8): atime is a per-mount flag, set with
 * mount(2) MS_REMOUNT|MS_BIND and the other per-mount flags (ro, nosuid,
 * nodev, noexec, nodiratime, nosymfollow) carried over; lazytime is a
 * superblock flag and needs a plain MS_REMOUNT. Every change is verified
 * from /proc/self/mountinfo; if the atime flag did not take, we go
 * through strictatime (which clears both others) and check again.
 *
 * The value is "MODE" or "MODE,lazytime", e.g. "relatime,lazytime".
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mount.h>
#include "knob-int.h"
#include "../../util/error.h"
#include "../../util/units.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* A mount's atime state. */
struct atime_state {
	const char *mode; /* "noatime", "relatime", "strictatime" */
	int lazytime;
};

/* knob_ops.names: the knobs of this family that ctx can bind. */
static void atime_names(const struct knob_ctx *ctx, struct knob_list *out)
{
	if (ctx->mountpoint || ctx->anywhere)
		knob_list_add(out, "atime");
}

/* The identity of the mount at mnt: "mount ID MAJ:MIN". */
static int mount_ident(const char *mnt, struct strbuf *out,
		       struct knob_mount *m)
{
	struct knob_mount local;
	struct knob_mount *mp = m ? m : &local;

	if (knob_mount_at(mnt, mp))
		return -ESTALE;
	strbuf_addf(out, "mount %u %u:%u", mp->id, mp->major, mp->minor);
	if (!m)
		knob_mount_release(&local);
	return 0;
}

/* knob_ops.resolve: bind a name of this family to ctx, or -ENOENT. */
static int atime_resolve(const struct knob_ctx *ctx, const char *name,
			 struct knob *k, struct strbuf *note,
			 struct strbuf *err)
{
	struct strbuf id = STRBUF_INIT;

	(void)note;
	if (strcmp(name, "atime"))
		return KNOB_NOT_MINE;
	if (!ctx->mountpoint)
		return err_set(err, -ENODEV,
			       "'atime' is a mount knob and %s; give -t DIR "
			       "(a directory on the file system) or --device "
			       "of a mounted device",
			       ctx->why_no_mount ? ctx->why_no_mount
						 : "no target was given");
	if (mount_ident(ctx->mountpoint, &id, NULL))
		return err_set(err, -ESTALE, "nothing is mounted on '%s' now",
			       ctx->mountpoint);
	k->name = xstrdup("atime");
	k->group = xstrdup("atime");
	k->object = xstrdup(ctx->mountpoint);
	k->path = xstrdup(ctx->mountpoint);
	k->ident = strbuf_detach(&id, NULL);
	k->root = xstrdup(ctx->root ? ctx->root : "");
	k->scope = KNOB_SCOPE_MOUNT;
	k->prio = KNOB_PRIO_MOUNT;
	return 0;
}

/* The state of the mount m. */
static void state_of(const struct knob_mount *m, struct atime_state *st)
{
	if (knob_mount_has_opt(m->mnt_opts, "noatime"))
		st->mode = "noatime";
	else if (knob_mount_has_opt(m->mnt_opts, "relatime"))
		st->mode = "relatime";
	else
		st->mode = "strictatime";
	st->lazytime = knob_mount_has_opt(m->super_opts, "lazytime");
}

/* "relatime" or "relatime,lazytime". */
static void state_fmt(const struct atime_state *st, struct strbuf *out)
{
	strbuf_addstr(out, st->mode);
	if (st->lazytime)
		strbuf_addstr(out, ",lazytime");
}

/* knob_ops.read: the current value, canonical. */
static int atime_read(const struct knob *k, struct strbuf *value,
		      struct strbuf *err)
{
	struct knob_mount m;
	struct atime_state st;

	if (knob_mount_at(k->path, &m))
		return err_set(err, -ESTALE, "nothing is mounted on '%s' now",
			       k->path);
	state_of(&m, &st);
	strbuf_reset(value);
	state_fmt(&st, value);
	knob_mount_release(&m);
	return 0;
}

/* Parse "noatime,lazytime" etc. on top of the state st. */
static int parse_state(const struct knob *k, const char *in,
		       struct atime_state *st, struct strbuf *err)
{
	static const char *const words[] = {
	    "noatime", "relatime", "strictatime", "lazytime", "nolazytime"};
	char *copy = xstrdup(in), *tok, *save = NULL;
	int modes = 0, ret = 0;
	size_t i;

	for (tok = strtok_r(copy, ",", &save); tok && !ret;
	     tok = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < ARRAY_SIZE(words); i++)
			if (!strcmp(tok, words[i]))
				break;
		if (i == ARRAY_SIZE(words)) {
			const char *near =
			    suggest_nearest(tok, words, ARRAY_SIZE(words));

			ret = err_set(err, -EINVAL,
				      "'%s' is not an atime setting%s%s%s; "
				      "'atime' takes noatime, relatime, "
				      "strictatime, lazytime or nolazytime",
				      tok, near ? " (did you mean '" : "",
				      near ? near : "", near ? "'?)" : "");
		} else if (i < 3) {
			if (modes++)
				ret = err_set(err, -EINVAL,
					      "'%s' names two atime modes; "
					      "pick one of noatime, relatime, "
					      "strictatime",
					      in);
			st->mode = words[i];
		} else {
			st->lazytime = i == 3;
		}
	}
	if (!ret && !*in)
		ret = err_set(err, -EINVAL,
			      "'atime' takes noatime, relatime, strictatime, "
			      "lazytime or nolazytime, not an empty value");
	(void)k;
	free(copy);
	return ret;
}

/* knob_ops.parse: what a person typed -> the canonical value. */
static int atime_parse(const struct knob *k, const char *in,
		       struct strbuf *canon, struct strbuf *note,
		       struct strbuf *err)
{
	struct strbuf cur = STRBUF_INIT;
	struct atime_state st = {"relatime", 0};
	int ret;

	(void)note;
	ret = atime_read(k, &cur, err);
	if (!ret)
		ret = parse_state(k, cur.buf, &st, err);
	if (!ret)
		ret = parse_state(k, in, &st, err);
	if (!ret)
		state_fmt(&st, canon);
	strbuf_release(&cur);
	return ret;
}

/* The MS_ flag of an atime mode. */
static unsigned long mode_flag(const char *mode)
{
	if (!strcmp(mode, "noatime"))
		return MS_NOATIME;
	if (!strcmp(mode, "relatime"))
		return MS_RELATIME;
	return MS_STRICTATIME;
}

/* Per-mount flags of m other than atime, as MS_ flags. */
static unsigned long kept_mount_flags(const struct knob_mount *m)
{
	unsigned long f = 0;

	if (knob_mount_has_opt(m->mnt_opts, "ro"))
		f |= MS_RDONLY;
	if (knob_mount_has_opt(m->mnt_opts, "nosuid"))
		f |= MS_NOSUID;
	if (knob_mount_has_opt(m->mnt_opts, "nodev"))
		f |= MS_NODEV;
	if (knob_mount_has_opt(m->mnt_opts, "noexec"))
		f |= MS_NOEXEC;
	if (knob_mount_has_opt(m->mnt_opts, "nodiratime"))
		f |= MS_NODIRATIME;
	if (knob_mount_has_opt(m->mnt_opts, "nosymfollow"))
		f |= MS_NOSYMFOLLOW;
	return f;
}

/* Remount only the per-mount flags: atime mode plus what m has. */
static int bind_remount(const char *mnt, const struct knob_mount *m,
			const char *mode, struct strbuf *err)
{
	unsigned long f =
	    MS_REMOUNT | MS_BIND | mode_flag(mode) | kept_mount_flags(m);

	if (mount("none", mnt, NULL, f, NULL) < 0) {
		int e = errno;

		if (e == EPERM && geteuid())
			return err_set(err, -EACCES,
				       "changing 'atime' needs root");
		return err_set(err, -e, "cannot remount '%s' %s: %s", mnt, mode,
			       strerror(e));
	}
	return 0;
}

/* Remount the superblock to set or clear lazytime. */
static int sb_remount(const char *mnt, const struct knob_mount *m,
		      const struct atime_state *want, struct strbuf *err)
{
	unsigned long f = MS_REMOUNT | mode_flag(want->mode);

	if (knob_mount_has_opt(m->super_opts, "ro"))
		f |= MS_RDONLY;
	if (knob_mount_has_opt(m->super_opts, "sync"))
		f |= MS_SYNCHRONOUS;
	if (knob_mount_has_opt(m->super_opts, "dirsync"))
		f |= MS_DIRSYNC;
	if (want->lazytime)
		f |= MS_LAZYTIME;
	f |= kept_mount_flags(m) & ~MS_RDONLY;
	if (mount("none", mnt, NULL, f, NULL) < 0) {
		int e = errno;

		if (e == EPERM && geteuid())
			return err_set(err, -EACCES,
				       "changing 'atime' needs root");
		return err_set(err, -e, "cannot remount '%s' %slazytime: %s",
			       mnt, want->lazytime ? "" : "no", strerror(e));
	}
	return 0;
}

/* knob_ops.write: write the canonical value (verified by the caller). */
static int atime_write(const struct knob *k, const char *canon,
		       struct strbuf *err)
{
	struct atime_state want = {"relatime", 0}, now;
	struct knob_mount m;
	int ret;

	ret = parse_state(k, canon, &want, err);
	if (ret)
		return ret;
	if (knob_mount_at(k->path, &m))
		return err_set(err, -ESTALE, "nothing is mounted on '%s' now",
			       k->path);
	state_of(&m, &now);
	if (now.lazytime != want.lazytime)
		ret = sb_remount(k->path, &m, &want, err);
	if (!ret)
		ret = bind_remount(k->path, &m, want.mode, err);
	knob_mount_release(&m);
	if (ret || knob_mount_at(k->path, &m))
		return ret;
	state_of(&m, &now);
	if (strcmp(now.mode, want.mode)) {
		/* the trap: clear both flags through strictatime, retry */
		ret = bind_remount(k->path, &m, "strictatime", err);
		if (!ret)
			ret = bind_remount(k->path, &m, want.mode, err);
	}
	knob_mount_release(&m);
	return ret;
}

/* knob_ops.describe: unit, allowed values and notes for listing. */
static void atime_describe(const struct knob *k, const char *value,
			   struct knob_desc *d)
{
	(void)k;
	(void)value;
	strbuf_addstr(&d->allowed, "noatime relatime strictatime lazytime "
				   "nolazytime (combine: noatime,lazytime)");
	strbuf_addstr(&d->notes,
		      "applied by remounting with mount(2) and verified in "
		      "/proc/self/mountinfo ('mount -o remount,relatime' can "
		      "leave a noatime mount noatime)\n"
		      "lazytime is a file-system flag: every mount of this "
		      "file system gets it\n"
		      "a remount does not outlive a reboot; /etc/fstab "
		      "keeps it\n");
}

/* knob_ops.how: what a write does, for --dry-run. */
static void atime_how(const struct knob *k, const char *canon,
		      struct strbuf *out)
{
	struct atime_state want = {"relatime", 0}, now;
	struct knob_mount m;
	const char *flag;

	parse_state(k, canon, &want, NULL);
	flag = want.mode[0] == 'n'   ? "MS_NOATIME"
	       : want.mode[0] == 'r' ? "MS_RELATIME"
				     : "MS_STRICTATIME";
	if (!knob_mount_at(k->path, &m)) {
		state_of(&m, &now);
		if (now.lazytime != want.lazytime)
			strbuf_addf(out,
				    "remount '%s' with mount(2) "
				    "MS_REMOUNT|%s%s, then ",
				    k->path, flag,
				    want.lazytime ? "|MS_LAZYTIME" : "");
		knob_mount_release(&m);
	}
	strbuf_addf(out,
		    "remount '%s' with mount(2) MS_REMOUNT|MS_BIND|%s "
		    "(other per-mount flags kept; checked in "
		    "/proc/self/mountinfo)",
		    k->path, flag);
}

/* knob_ops.regime: atime is stamped when a file is read, so a workload
 * that never read never met the atime mode; lazytime (in the value, or
 * in force on the mount) also keeps the mtime and ctime a write stamps
 * in memory, so a workload that wrote met that. */
static enum knob_regime atime_regime(const struct knob *k, const char *canon,
				     const struct knob_obs *o,
				     struct strbuf *why)
{
	int lazy = (canon && strstr(canon, "lazytime")) ||
		   (o->have_mount && o->lazytime);

	(void)k;
	if (!o->have_io)
		return KNOB_REGIME_UNKNOWN;
	if (o->read_bytes) {
		strbuf_addstr(why, "the workload read ");
		units_fmt_bytes(why, o->read_bytes);
		return KNOB_REGIME_REACHED;
	}
	if (lazy && o->write_bytes) {
		strbuf_addstr(why, "the workload wrote ");
		units_fmt_bytes(why, o->write_bytes);
		strbuf_addstr(why, ", and lazytime also keeps the modification "
				   "times of writes in memory");
		return KNOB_REGIME_REACHED;
	}
	if (lazy) {
		strbuf_addstr(why, "the workload neither read nor wrote, and "
				   "the times change only then");
		return KNOB_REGIME_NOT_REACHED;
	}
	strbuf_addstr(why, "the workload read nothing, and the access time "
			   "changes only when a file is read");
	return KNOB_REGIME_NOT_REACHED;
}

const struct knob_ops knob_atime_ops = {
    .family = "atime",
    .names = atime_names,
    .resolve = atime_resolve,
    .read = atime_read,
    .parse = atime_parse,
    .write = atime_write,
    .describe = atime_describe,
    .how = atime_how,
    .regime = atime_regime,
};
