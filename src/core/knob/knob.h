/*
 * Knobs: kernel I/O tunables, one family per file behind struct knob_ops.
 *
 * A knob is read, parsed from what people type (units, legacy names),
 * written, and verified by reading it back. Its original value is saved
 * by the journal (session.h) before any write, so that a crash never
 * loses it. Some knobs drag others along when written (switching the
 * scheduler resets nr_requests and replaces iosched/; writing
 * vm.dirty_bytes zeroes vm.dirty_ratio): for those, save() captures the
 * whole dependent state and restore() brings all of it back.
 *
 * Where a knob lives comes from a struct knob_ctx: the disk whose
 * queue/ directory holds the device knobs, and the mount point that the
 * atime knob remounts. System knobs (vm.*) need neither.
 */
#ifndef IOTRIAL_KNOB_H
#define IOTRIAL_KNOB_H

#include <stdint.h>
#include "../../util/strbuf.h"

struct target;

/* What knob_ops.resolve returns for a name of another family. */
#define KNOB_NOT_MINE 1

/* What a knob belongs to. */
enum knob_scope {
	KNOB_SCOPE_DEVICE, /* /sys/block/DISK/queue/... */
	KNOB_SCOPE_MOUNT,  /* one mounted filesystem */
	KNOB_SCOPE_SYSTEM, /* the whole machine (/proc/sys) */
};

/* Apply order: lower first. The scheduler must come before the rest. */
enum knob_prio {
	KNOB_PRIO_SCHED = 0,
	KNOB_PRIO_IOSCHED = 1,
	KNOB_PRIO_NR_REQUESTS = 2,
	KNOB_PRIO_MAX_SECTORS = 3, /* may move read-ahead: before it */
	KNOB_PRIO_READAHEAD = 4,
	KNOB_PRIO_QUEUE = 5,
	KNOB_PRIO_MOUNT = 6,
	KNOB_PRIO_SYSTEM = 7,
	KNOB_PRIO_RAW = 8,
};

/*
 * Where the knobs of one target live. All strings are owned and may be
 * NULL; why_no_disk / why_no_mount say in a sentence why a part is
 * missing ("'/tmp' is on 'tmpfs', which has no block device").
 */
struct knob_ctx {
	char *root;	  /* prefix for /sys and /proc ("" = the real
			     ones; unit tests point it at a fake tree) */
	char *disk;	  /* "loop3": /sys/block/<disk>/queue */
	char *mountpoint; /* the filesystem atime applies to */
	char *why_no_disk;
	char *why_no_mount;
	char *pending_sched; /* set while planning: the scheduler a plan
				switches to, so iosched.* is checked
				against it; NULL otherwise */
	int anywhere;	     /* names(): also the names a target with a
				disk and a mount would offer (for "did you
				mean" and the completion), not only the
				ones ctx can bind */
};

/* One resolved knob: a name bound to a place. Strings are owned. */
struct knob {
	const struct knob_ops *ops;
	char *name;   /* canonical: "scheduler", "vm.dirty_ratio" */
	char *group;  /* journal key: knobs restored together share it */
	char *object; /* "loop3", "/mnt/data" or "system" */
	char *path;   /* the file written; the mount point for atime */
	char *ident;  /* identity of object now ("7:3 diskseq 11"); "" when
			 there is nothing to check */
	char *root;   /* copy of ctx->root */
	enum knob_scope scope;
	int prio;	  /* enum knob_prio */
	int deferred;	  /* iosched.* of a scheduler not active yet */
	const void *spec; /* the family's static description, if any */
};

/* For `knobs`: how to show a knob and what it accepts. */
struct knob_desc {
	struct strbuf shown;   /* value for people: "2048 KiB (2 MiB; ...)" */
	struct strbuf unit;    /* "KiB", "ms", "" */
	struct strbuf allowed; /* "none mq-deadline kyber bfq", "0..100" */
	struct strbuf legacy;  /* legacy names, space separated */
	struct strbuf notes;   /* sentences, one per line */
};

/* A growable list of owned strings. */
struct knob_list {
	char **v;
	size_t nr, alloc;
};

/* One device of a run's stack, as knob_ops.regime sees it. */
struct knob_obs_dev {
	const char *name;	/* "loop1"; not owned */
	uint64_t reads;		/* read requests completed */
	uint64_t read_bytes;	/* bytes they delivered */
	double max_rareq_kib;	/* the largest mean read request of any
				   sampling interval, KiB */
	uint64_t max_in_flight; /* the most requests in flight at a
				   sample */
	double max_aqu_sz;	/* the largest mean queue of any interval */
	unsigned intervals;	/* sampling intervals these cover */
};

#define KNOB_OBS_MAX_DEVS 8

/*
 * What a run observed, for knob_ops.regime: plain numbers, so that the
 * knob families (below the observers) can judge them. Filled by
 * observe/regime_obs.c from a run's device truth; each group has a have_
 * flag and is zero when unknown. Dirty thresholds are the lowest value
 * sampled during the run, peaks the highest, so that "never reached"
 * errs towards "reached".
 */
struct knob_obs {
	double seconds;	      /* the timed region */
	int have_io;	      /* read_bytes and write_bytes are known */
	uint64_t read_bytes;  /* what the workload read */
	uint64_t write_bytes; /* ... and wrote */
	int direct;	      /* the workload's I/O bypassed the page cache */
	int have_mount;	      /* the target's mount options were read
				 (not for a device target) */
	int lazytime;	      /* ... and had lazytime in force */

	int have_dirty;		      /* from /proc/meminfo */
	uint64_t dirty_peak_bytes;    /* Dirty */
	uint64_t dirty_wb_peak_bytes; /* Dirty + Writeback */
	int have_thresh;	      /* from /proc/vmstat */
	uint64_t dirtyable_bytes;     /* free + file LRU pages (the kernel
					 also subtracts its reserves) */
	uint64_t bg_thresh_bytes;     /* nr_dirty_background_threshold */
	uint64_t thresh_bytes;	      /* nr_dirty_threshold */

	int cg_version;			 /* the workload's memory cgroup: 0
					    none, 1 or 2 */
	uint64_t cg_memory_max;		 /* its limit, bytes */
	int have_cg_dirty;		 /* its memory.stat was sampled */
	uint64_t cg_dirty_peak_bytes;	 /* its dirty pages */
	uint64_t cg_dirty_wb_peak_bytes; /* dirty + writeback */
	uint64_t cg_dirtyable_bytes;	 /* v2: its file LRU pages plus its
					    headroom below memory.max */

	struct knob_obs_dev devs[KNOB_OBS_MAX_DEVS]; /* the stack, top
							first */
	unsigned nr_devs;
};

/* The device named name in o (NULL: the top one); NULL when o has no
 * such device. */
const struct knob_obs_dev *knob_obs_dev(const struct knob_obs *o,
					const char *name);

/*
 * How a setting of one knob is kept across reboots, for the exports
 * (export/export*.c), which read this and never a knob's name. Filled
 * by knob_persist(): from the knob's place (a file under /proc/sys is a
 * sysctl, one under a disk's queue/ a udev attribute, a mount knob a
 * mount option), then by the family's persist hook.
 */
struct knob_persist {
	struct strbuf sysctl;	/* "vm.dirty_ratio": a sysctl.d line; ""
				   when it is no sysctl */
	const char *udev_attr;	/* "queue/read_ahead_kb": the disk's
				   ATTR{} in a udev rule (in k->path or
				   static), or NULL */
	int mount_option;	/* the canonical value is the mount's
				   options (fstab's fourth field) */
	const char *tuned_disk; /* the option of tuned's disk plugin that
				   sets it ("elevator", "readahead"), or
				   NULL: tuned's sysfs or sysctl plugin */
	int selected_word;	/* reading it back lists every choice with
				   the active one in brackets ("[none]
				   mq-deadline"), so a script compares
				   by grep, not equality */
};

/* What knob_ops.regime found. */
enum knob_regime {
	KNOB_REGIME_UNKNOWN = 0, /* cannot tell (no numbers, no hook) */
	KNOB_REGIME_REACHED,	 /* the run was where the knob acts */
	KNOB_REGIME_NOT_REACHED, /* it never was: the knob could not
				    matter to this run */
};

/*
 * One family of tunables. Every hook returns 0 or a negative errno and
 * fills err with one sentence; none sets errno for the caller.
 */
struct knob_ops {
	const char *family;
	/* Append the names this family offers for ctx, in listing order. */
	void (*names)(const struct knob_ctx *ctx, struct knob_list *out);
	/*
	 * Bind name to a place in ctx, filling k (already zeroed, ops set).
	 * KNOB_NOT_MINE, err untouched: another family's name. Otherwise 0
	 * or -errno with err set. A legacy name is translated with a
	 * sentence appended to note.
	 */
	int (*resolve)(const struct knob_ctx *ctx, const char *name,
		       struct knob *k, struct strbuf *note, struct strbuf *err);
	/* The current value, canonical (what parse() would produce). */
	int (*read)(const struct knob *k, struct strbuf *value,
		    struct strbuf *err);
	/* Turn what a person typed into the canonical text to write. */
	int (*parse)(const struct knob *k, const char *in, struct strbuf *canon,
		     struct strbuf *note, struct strbuf *err);
	/* Write canon. Does not verify: knob_apply() does. */
	int (*write)(const struct knob *k, const char *canon,
		     struct strbuf *err);
	/*
	 * Optional. Does the value read back (now) satisfy canon? Returns 1
	 * or 0; may explain an accepted difference in note. NULL: equality.
	 */
	int (*verify)(const struct knob *k, const char *canon, const char *now,
		      struct strbuf *note);
	/*
	 * Optional. Everything restore() needs to undo a write of this knob,
	 * side effects included (the twin, the scheduler's parameters).
	 * NULL: read().
	 */
	int (*save)(const struct knob *k, struct strbuf *orig,
		    struct strbuf *err);
	/* Optional. Bring back what save() captured, verified. NULL: write()
	 * then verify against orig. */
	int (*restore)(const struct knob *k, const char *orig,
		       struct strbuf *err);
	/* Optional. Fill d for listing, given the current value. */
	void (*describe)(const struct knob *k, const char *value,
			 struct knob_desc *d);
	/* Optional. What a write of canon does, for --dry-run: "write
	 * '/sys/...'" or a remount, and its side effects. NULL: the path. */
	void (*how)(const struct knob *k, const char *canon,
		    struct strbuf *out);
	/*
	 * Optional. Did the run o observed, with canon in force, reach the
	 * regime this knob controls (dirty memory up to the threshold
	 * canon implies, read requests that read-ahead sized, a queue with
	 * requests to order, a read to stamp)? Appends to why one clause
	 * with the numbers, whatever the answer ("dirty memory peaked at
	 * 90 MiB, below the 2.2 GiB background threshold ..."). NULL:
	 * KNOB_REGIME_UNKNOWN.
	 */
	enum knob_regime (*regime)(const struct knob *k, const char *canon,
				   const struct knob_obs *o,
				   struct strbuf *why);
	/*
	 * Optional. Add to p (already filled from k's place) how this
	 * knob persists beyond that: the tuned option that sets it, a
	 * value read back with the choices around it. NULL: the place
	 * says it all.
	 */
	void (*persist)(const struct knob *k, struct knob_persist *p);
};

/*
 * Every family, one line each, in the order `knobs` lists them and names
 * are resolved. FAMILY(f) names `const struct knob_ops knob_<f>_ops`,
 * defined in knob/<f>.c; this list declares them and fills the registry
 * (registry.c). Adding a family is its file and a line here.
 */
#define KNOB_FAMILY_TABLE(FAMILY)                                              \
	FAMILY(sched)                                                          \
	FAMILY(readahead)                                                      \
	FAMILY(queue)                                                          \
	FAMILY(atime)                                                          \
	FAMILY(vmdirty)                                                        \
	FAMILY(raw)

#define KNOB_FAMILY_DECLARE_(f) extern const struct knob_ops knob_##f##_ops;
KNOB_FAMILY_TABLE(KNOB_FAMILY_DECLARE_)
#undef KNOB_FAMILY_DECLARE_

/* ---- contexts ---- */

void knob_ctx_init(struct knob_ctx *c);
void knob_ctx_release(struct knob_ctx *c);
/*
 * Fill c for an opened target: its disk (a partition maps to its parent)
 * and the mount it lives on. Parts that do not exist are left NULL with a
 * why_ sentence; only a failure to read the system is an error.
 */
int knob_ctx_from_target(struct knob_ctx *c, const struct target *t,
			 struct strbuf *err);
/* Fill c for --device DEV ("/dev/loop3", "loop3", "/dev/vda1").
 * -ENODEV with err when there is no such block device. */
int knob_ctx_from_device(struct knob_ctx *c, const char *dev,
			 struct strbuf *err);

/* ---- knobs ---- */

/* The knob a name from other tools or folklore means ("readahead",
 * "elevator"), too far from ours for an edit-distance guess; or NULL. */
const char *knob_folklore_name(const char *name);

/*
 * Resolve name in ctx into k. -ENOENT for an unknown name (err suggests
 * the nearest), -ENODEV when the knob needs a device or mount that ctx
 * lacks (err says to give --device or -t). Translations go to note.
 */
int knob_resolve(const struct knob_ctx *ctx, const char *name, struct knob *k,
		 struct strbuf *note, struct strbuf *err);
/* Is name "bdflush", Linux 2.4's line of nine fields (bdflush.c)? */
int knob_is_bdflush_line(const char *name);
/* Is name one of the bdflush.* knobs such a line sets ("bdflush.nfract",
 * "bdflush.interval", "bdflush.age_buffer", "bdflush.nfract_sync")? */
int knob_is_bdflush_field(const char *name);
/*
 * Split a bdflush line ("80 0 0 0 500 3000 90 0 0", one to nine
 * numbers) into the bdflush.NAME=VALUE assignments of the fields that
 * have a modern knob, appended to assign; note gets what was translated
 * and each field that was not, with its value. 0, or -EINVAL with err.
 */
int knob_bdflush_split(const char *line, struct knob_list *assign,
		       struct strbuf *note, struct strbuf *err);
/*
 * -EINVAL with err saying what to give instead for "bdflush" alone, a
 * bdflush field that has no modern knob ("bdflush.ndirty") and a
 * bdflush.* name that is no field; 0 for any other name.
 */
int knob_bdflush_refuse(const char *name, struct strbuf *err);
/* Free the contents of k. NULL is fine. */
void knob_release(struct knob *k);
/* Every knob name for ctx, in listing order (escape hatches excluded). */
void knob_names(const struct knob_ctx *ctx, struct knob_list *out);
/* Every name any target may offer (a disk's, a mount's, the system's),
 * in listing order, each once: for suggestions and the completion. */
void knob_names_anywhere(struct knob_list *out);
/* How k persists (struct knob_persist): init p, fill it, and release it
 * with knob_persist_release(). */
void knob_persist(const struct knob *k, struct knob_persist *p);
void knob_persist_release(struct knob_persist *p);
/*
 * Write canon and read it back. 0 when the kernel holds what was asked
 * (now receives the value read back, note any accepted difference);
 * -EIO with err when it holds something else.
 */
int knob_apply(const struct knob *k, const char *canon, struct strbuf *now,
	       struct strbuf *note, struct strbuf *err);
/* ops->save or read. */
int knob_save(const struct knob *k, struct strbuf *orig, struct strbuf *err);
/* ops->restore, or write+verify of orig. */
int knob_restore(const struct knob *k, const char *orig, struct strbuf *err);
/* Describe k for listing: reads it and calls ops->describe. */
int knob_describe(const struct knob *k, struct strbuf *value,
		  struct knob_desc *d, struct strbuf *err);
/* Append the subject of a message: "'scheduler' on 'loop3'", or just
 * "'vm.dirty_ratio'" for a system knob (object "system"). */
void knob_subject(struct strbuf *out, const char *name, const char *object);
/*
 * Is name a raw knob's (sysfs:PATH, sysctl:NAME), one that writes
 * whatever file it names? Such a name from a file iotrial did not write
 * would be written as root, so readers of other machines' sets refuse
 * it.
 */
int knob_name_is_raw(const char *name);

/*
 * The named knob whose file a raw knob k spells ("sysctl:vm.dirty_ratio"
 * is vm.dirty_ratio, "sysfs:/sys/block/loop0/queue/read_ahead_kb" is
 * read_ahead_kb on loop0): resolved into twin (release it), and canon,
 * k's value, parsed as that knob reads it into twin_canon. 0, or
 * -ENOENT (twin zeroed) when k is not raw, no named knob has its file,
 * or canon is no value of that knob. Such a raw knob is judged as its
 * twin (knob_ops.regime), so each spelling of one setting reaches the
 * same judgement.
 */
int knob_raw_twin(const struct knob *k, const char *canon, struct knob *twin,
		  struct strbuf *twin_canon);
/* ops->regime, or KNOB_REGIME_UNKNOWN without one (why untouched). */
enum knob_regime knob_regime(const struct knob *k, const char *canon,
			     const struct knob_obs *o, struct strbuf *why);
/*
 * knob_regime(), and into judged_as (reset first) the name of the knob
 * k=canon is judged as: k's own, or for a raw knob that spells a named
 * knob's file (knob_raw_twin()), that knob's. What a run's regime entry
 * holds.
 */
enum knob_regime knob_judge(const struct knob *k, const char *canon,
			    const struct knob_obs *o, struct strbuf *judged_as,
			    struct strbuf *why);
/* "reached", "not_reached", "unknown": as the run object spells it. */
const char *knob_regime_name(enum knob_regime r);
/* The scope as a word: "device", "mount", "system". */
const char *knob_scope_name(enum knob_scope s);

/*
 * When ctx's disk is a loop device, append to note ("; " after what it
 * holds) that knob k (NULL: its scheduler and queue limits) acts on the
 * loop device's own queue, not on the disk holding its backing file,
 * naming the file and that disk (loop_note.c). Nothing for a knob of
 * another place, and for read-ahead. A plan adds it to each change's
 * note.
 */
void knob_loop_note(const struct knob_ctx *ctx, const struct knob *k,
		    struct strbuf *note);

void knob_desc_init(struct knob_desc *d);
void knob_desc_release(struct knob_desc *d);
void knob_list_add(struct knob_list *l, const char *s);
int knob_list_has(const struct knob_list *l, const char *s);
void knob_list_release(struct knob_list *l);

#endif
