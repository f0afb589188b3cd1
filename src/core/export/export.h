/*
 * Exports: the settings an experiment found best, written the way the
 * tools that keep a machine's configuration expect them (a sysctl.d
 * file, a udev rule, an fstab line, a tuned profile, an Ansible
 * playbook, a Puppet manifest, a shell script). `iotrial export` prints
 * them, `iotrial apply` installs the ones the system reads at boot.
 *
 * Two steps. export_pick() reads a stored experiment and chooses
 * the arm to roll out (the one that won, or the one named) and its knob
 * assignments. The command resolves those into a knob plan (plan.h) for
 * the disk and mount they are meant for, fills a struct export_src, and
 * export_render() turns it into text. Rendering reads nothing from the
 * system: what it needs (the disk's udev identity, the fstab text, the
 * active tuned profile) is in export_src, so a renderer is a pure
 * function of its input and its tests need no machine.
 */
#ifndef IOTRIAL_EXPORT_H
#define IOTRIAL_EXPORT_H

#include "../experiment/arm_name.h"
#include "../knob/plan.h"
#include "../model/experiment_doc.h"
#include "../../util/strbuf.h"

/* The arm export_pick() chose. Strings owned. */
struct export_pick {
	int arm;       /* index in the experiment's arms */
	char *id;      /* the experiment's id */
	char *label;   /* the arm's label */
	char *created; /* the experiment's date, "2026-11-29" */
	char *why;     /* "faster than 'scheduler=none': 1.32x [1.20,
			  1.41], p 0.004" or "chosen with --arm" */
	char *target;  /* the experiment's target, as stored */
	char *disk;    /* the measured disk (env stack), or NULL */
	char **assign; /* "KNOB=VALUE" of the arm's knob factors */
	size_t nr_assign;
	char *others;	    /* other winning arms, "; " separated, or NULL */
	char *not_knobs;    /* the workload parameters of the arm ("bs=4k"),
			       which no file sets, or NULL */
	const char *origin; /* EXP_ORIGIN_* (model/experiment_doc.h), static */
	char *base_label;   /* the baseline arm's label */
	char **base_assign; /* "KNOB=VALUE" of the baseline arm's knob
			       factors, what the winner was measured from */
	size_t nr_base_assign;
};

void export_pick_release(struct export_pick *p);

/*
 * Choose the arm of experiment exp to roll out: the arm named by arm
 * (any name experiment/arm_name.h reads: its label, its settings as
 * asked or as set, its number; same, which may be NULL, tells values
 * that mean the same) when arm is not NULL, else the arm whose verdict
 * is "faster" with the best ratio. Fills out. Returns 0, or -ENOENT
 * with err saying why nothing can be exported and what to run instead
 * (no knob factor, no verdicts, nothing won, no such arm), or -EINVAL
 * when arm could name two arms.
 */
int export_pick(const struct experiment_doc *exp, const char *arm,
		arm_same_fn same, void *same_ctx, struct export_pick *out,
		struct strbuf *err);

/*
 * May plan p, built from pick's arm, be written as root? An experiment
 * measured here may set any knob. One that came from elsewhere (pick's
 * origin is not local: imported, or merged from a fleet) chooses only
 * among the registry's own knobs, whose values are checked: each raw
 * sysctl:/sysfs: knob of p (which can write any value to any file under
 * /proc/sys or /sys) must be named in allow[nr_allow], as the factor
 * names it or as resolved ("sysctl:kernel.core_pattern"). Returns 0, or
 * -EPERM with err naming the knobs refused and how to allow them.
 */
int export_pick_check_knobs(const struct export_pick *pick,
			    const struct knob_plan *p, const char *const *allow,
			    size_t nr_allow, struct strbuf *err);

/* How a udev rule finds the disk across reboots. */
struct export_disk_id {
	char *key;   /* "ID_WWN" or "ID_SERIAL"; NULL: by kernel name */
	char *value; /* its value */
};

/*
 * The udev identity of disk ("sda") from the udev database
 * (root/run/udev/data/b<MAJ>:<MIN>, the device number read from
 * root/sys/block/<disk>/dev): ID_WWN, else ID_SERIAL, else nothing
 * (key NULL). root "" is the real system. Never fails.
 */
void export_disk_id_read(const char *root, const char *disk,
			 struct export_disk_id *out);
void export_disk_id_release(struct export_disk_id *d);

/* Everything a renderer needs. Nothing is owned. */
struct export_src {
	const struct knob_plan *plan; /* built: canonical values, places */
	const char *id;		      /* the experiment, or NULL (--set) */
	const char *label;	      /* the arm, or NULL */
	const char *why;	      /* the verdict sentence, or NULL */
	const char *date;	      /* "2026-11-29": the experiment's, or
					 today for --set */
	const char *disk;	      /* the plan's disk, or NULL */
	const struct export_disk_id *disk_id; /* may be NULL */
	const char *fstab;		      /* the text of fstab, or NULL */
	const char *fstab_path;	   /* its path, for messages and diffs */
	const char *tuned_include; /* the active tuned profile, or NULL */
	const char *mount_source;  /* what the mount of the plan's mount
				      knob mounts now ("/dev/vda1"), or
				      NULL: for the fstab line to add when
				      fstab has none */
	const char *mount_fstype;  /* its file system type, or NULL */
};

/*
 * One export format: a row of the table in export_formats.h, defined
 * beside its renderer as `const struct export_format export_format_<name>`.
 */
struct export_format {
	const char *name;    /* --format NAME, --persist NAME */
	const char *summary; /* export --help: what it writes; lines after
				the first start with no indentation */
	/* The text of src in this format. 0, or -errno with err set:
	 * -ENOENT when src has nothing it can hold (no sysctl for sysctl),
	 * with what to use instead. export_render() has checked src. */
	int (*render)(const struct export_src *src, struct strbuf *out,
		      struct strbuf *err);
	const char *install_path; /* where `apply --persist` installs it
				     under a root ("etc/sysctl.d/60-iotrial
				     .conf"); NULL: the system does not
				     read it at boot */
	const char *install_help; /* apply --help's words for that place;
				     NULL: install_path */
	const char *checker;	  /* the tool that checks what it writes
				     ("sh -n"), for tests and people; NULL:
				     none */
	unsigned mode;		  /* of the file -o writes */
};

/*
 * Is one of the strings src puts into a generated file (its id, label,
 * verdict, disk, each change's name, object, path and value) one that
 * bad() refuses? Then 1, with what set to "the arm label 'x'", else 0.
 */
int export_find_string(const struct export_src *src, int (*bad)(const char *s),
		       struct strbuf *what);

/*
 * The fstab text with the options of the line that mounts mountpoint
 * changed to atime (the atime knob's canonical value: "noatime",
 * "relatime,lazytime"). Fills new_text (the whole file, every other byte
 * as it was), old_line and new_line (without newline) and *line_no
 * (1-based). -ENOENT with err when no line mounts mountpoint.
 */
int export_fstab_edit(const char *fstab, const char *mountpoint,
		      const char *atime, struct strbuf *new_text,
		      struct strbuf *old_line, struct strbuf *new_line,
		      unsigned *line_no, struct strbuf *err);

/*
 * The fstab line that would mount c's mount point with c's atime, from
 * what mounts it now (src->mount_source, src->mount_fstype), appended to
 * out without a newline: 1, or 0 when what mounts it is not known.
 */
int export_fstab_new_line(const struct export_src *src,
			  const struct knob_change *c, struct strbuf *out);
/* The comment lines (prefix before each) saying fstab has no line for
 * c's mount and what to do: add the line (adds: what follows adds it),
 * or the kernel command line's rootflags for '/', or a systemd mount
 * unit. */
void export_no_fstab_line(const struct export_src *src,
			  const struct knob_change *c, const char *prefix,
			  int adds, struct strbuf *out);

/* The sysctl name of a system knob ("vm.dirty_ratio"), appended to out;
 * 0 when k is not under /proc/sys. */
int export_sysctl_name(const struct knob *k, struct strbuf *out);
/* The attribute of a device knob relative to its disk, as udev names it
 * ("queue/read_ahead_kb"), or NULL. */
const char *export_udev_attr(const struct knob *k);

/* --- the renderers of the configuration managers (export_cm.c) --- */
int export_render_tuned(const struct export_src *src, struct strbuf *out,
			struct strbuf *err);
int export_render_ansible(const struct export_src *src, struct strbuf *out,
			  struct strbuf *err);
int export_render_puppet(const struct export_src *src, struct strbuf *out,
			 struct strbuf *err);
/* The udev rules text (also what ansible and puppet install). */
int export_render_udev(const struct export_src *src, struct strbuf *out,
		       struct strbuf *err);
/* The sysctl.d text. */
int export_render_sysctl(const struct export_src *src, struct strbuf *out,
			 struct strbuf *err);
/* The fstab diff text. */
int export_render_fstab(const struct export_src *src, struct strbuf *out,
			struct strbuf *err);
/* The shell script. */
int export_render_shell(const struct export_src *src, struct strbuf *out,
			struct strbuf *err);
/* The first mount knob of the plan, or NULL. */
const struct knob_change *export_mount_change(const struct export_src *src);
/* The header comment lines ("# ..."), with prefix before each. */
void export_header(const struct export_src *src, const char *prefix,
		   struct strbuf *out);

#endif
