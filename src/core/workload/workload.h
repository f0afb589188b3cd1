/*
 * Workloads: parameterised I/O patterns behind struct workload_ops. The
 * parameters are data (struct param_spec tables), so the CLI, fio job
 * files and experiments all set them the same way and an unknown name
 * gets a suggestion from the same table. Each row fills a field of the
 * workload's typed struct (PARAM_AT), which the code reads instead of
 * looking a parameter up by its name.
 */
#ifndef IOTRIAL_WORKLOAD_H
#define IOTRIAL_WORKLOAD_H

#include <stddef.h>
#include <stdint.h>
#include "metric.h"
#include "../observe/measure.h"
#include "../result/result.h"
#include "../targets/target.h"
#include "../../util/strbuf.h"

struct truth_opts;   /* observe/truth.h */
struct layout_share; /* layout.h */

enum param_type {
	PARAM_SIZE,    /* bytes; "4k", "1M" */
	PARAM_UINT,    /* count; "32" */
	PARAM_BOOL,    /* 0/1, yes/no, true/false, on/off */
	PARAM_PERCENT, /* 0..100; "70" or "70%" */
	PARAM_CHOICE,  /* one of choices[] */
	PARAM_STRING,  /* free text (labels) */
};

/* The C type of a parameter's field: the row's type decides it. */
enum param_field {
	PARAM_F_NONE, /* not filled: a label */
	PARAM_F_U64,  /* uint64_t: SIZE, UINT, PERCENT */
	PARAM_F_INT,  /* int, 0 or 1: BOOL */
	PARAM_F_STR,  /* const char *, the text: CHOICE, STRING */
};

struct param_spec {
	const char *name;
	enum param_type type;
	const char *def;   /* default, as text */
	uint64_t min, max; /* range for SIZE/UINT/PERCENT; max 0 = none */
	const char *const *choices; /* PARAM_CHOICE: NULL-terminated */
	const char *help;
	/* Where the parsed value goes in w->params (PARAM_AT), and its C
	 * type there, the one the row's type says (test_workload checks). */
	size_t off;
	enum param_field field;
	/* The value's name in --help and the manual ("DIST"), when its
	 * type's name (SIZE, N, 0|1, the choices, TEXT) says less; NULL:
	 * that one. */
	const char *arg;
};

/* The end of a row: the member of struct st that its value fills. */
#define PARAM_AT(st, member)                                                   \
	offsetof(st, member), _Generic(((st *)0)->member,                     \
	    uint64_t: PARAM_F_U64, int: PARAM_F_INT, const char *: PARAM_F_STR)

/*
 * The parameters that mean the same wherever a workload has them: the
 * first member of every workload's parameter struct, so code that knows
 * no workload (the device truth, a group of fio sections) reads them
 * typed. A workload without one has 0 there, and settle NULL.
 */
struct workload_common {
	uint64_t size_bytes; /* "size": per job */
	uint64_t jobs;
	int direct, invalidate, shared, end_fsync;
	const char *settle; /* "sync" or "none" */
};

struct param_value {
	uint64_t u; /* SIZE, UINT, BOOL, PERCENT */
	char *s;    /* the text as given (canonical for CHOICE), owned */
	int is_set; /* set by the user, not the default */
};

/* How long and how: shared by every workload. */
struct run_opts {
	uint64_t time_ns; /* time-based: run this long (0: use ios) */
	uint64_t ios;	  /* count-based: stop after this many I/Os */
	uint64_t ramp_ns; /* warm-up before measuring, discarded */
	uint64_t seed;	  /* offsets and file contents */
	int keep_files;	  /* reuse laid-out files of the right size and
			     leave them for the next run (experiments);
			     target_release() removes them at the end */
	/* Optional: job 0's file is this one, shared with other workloads
	 * run before or beside (fio's filename= in several job sections;
	 * layout.h), and share_who the name notes give this user. */
	struct layout_share *share;
	const char *share_who;
};

struct workload;
struct workload_live;

struct workload_ops {
	const char *name;
	const char *summary;		 /* one line for help */
	const struct param_spec *params; /* terminated by a NULL name */
	/* The size of the struct the rows fill (w->params), which begins
	 * with a struct workload_common; 0: that struct alone. */
	size_t params_size;
	/* Cross-parameter checks before prepare; may be NULL. */
	int (*validate)(struct workload *w, struct strbuf *err);
	/* Lay out files; check space first. 0 or -errno with err set. */
	int (*prepare)(struct workload *w, struct target *t,
		       struct strbuf *err);
	/* The timed part. Fills r. 0 or -errno with err set. */
	int (*run)(struct workload *w, struct run_result *r,
		   struct strbuf *err);
	/* Remove what prepare made, free priv. */
	void (*cleanup)(struct workload *w);
	/*
	 * The metric a run of w is judged by unless --metric says
	 * otherwise, given the parameters w holds (exec's metric-from
	 * makes it "printed"): a name from metrics or a built-in one
	 * (experiment/metrics.h). The one place a default metric comes
	 * from; metric_default() calls it. NULL: iops.
	 */
	const char *(*default_metric)(const struct workload *w);
	/* Optional. Metrics only this workload measures, ended by a NULL
	 * name; their names must differ from the built-in ones. */
	const struct metric_def *metrics;
	/* The first line of its text summary; NULL: its parameters. */
	void (*describe)(const struct workload *w, const struct target *t,
			 struct strbuf *out);
	/*
	 * Optional. What to try when its workers were CPU-bound, and when
	 * a run was too short to trust, as the end of a warning's sentence
	 * ("try ..."); NULL: the block-I/O advice (an async engine, larger
	 * blocks or more jobs; a longer --time or more --ios).
	 */
	const char *cpu_bound_advice;
	const char *short_run_advice;
	/* Optional. What writes its working set once, when a synced run
	 * rewrote it and the page cache absorbed the rewrites; NULL:
	 * "use --direct=1, a larger --size, or --ios to write it once". */
	const char *rewrite_advice;
	/* It runs to its own end (a command, a pass over a file): --time,
	 * --ios and --ramp do not apply, and are not offered. */
	int untimed;
	/*
	 * Its seed draws what it makes (file sizes, names, the mix of
	 * operations), not offsets into data laid out before: compare gives
	 * every run of a block the same seed, so the arms do the same work
	 * and differ only in the setting (the seed still changes from block
	 * to block). Not for workloads that read laid-out data at random
	 * offsets: the second run of a block would find the first's blocks
	 * in the caches below the page cache (a disk's, a VM host's).
	 */
	int seed_per_block;
	/*
	 * Optional. After prepare: open what job 0 reads (its laid-out
	 * file, or its region of a device) read-only with O_DIRECT, and put
	 * the bytes it may read from offset 0 into *bytes (OUT). The fd, or
	 * -errno: -EINVAL when the file system refuses O_DIRECT, -ENOENT
	 * when nothing is laid out. Used to measure the device's speed
	 * before the first timed run (experiment/wrap.c) without filling
	 * the page cache.
	 */
	int (*open_laid_out)(const struct workload *w, uint64_t *bytes);
	/* Optional. The string parameter that receives the command line
	 * after "--" (exec's "cmd": `iotrial run exec -- make -j8`); NULL:
	 * the workload takes no command and "--" is refused. */
	const char *command_param;
	/*
	 * Optional. Adjust what the device-truth observer is told of a run
	 * of w, after workload_truth_opts() has read the parameters every
	 * workload names alike (size, jobs, shared, direct, invalidate,
	 * settle, end_fsync). NULL: those say it all.
	 */
	void (*truth_opts)(const struct workload *w, struct truth_opts *o);
	/*
	 * Optional. Why the knob named knob cannot act on what w does, or
	 * NULL when it can: a block-layer replay issues recorded requests
	 * itself, so read-ahead or the dirty thresholds, which shape the
	 * requests above the block layer, do nothing to it. Callers refuse
	 * such a factor, or with --force mark the verdict suspect.
	 */
	const char *(*knob_above)(const struct workload *w, const char *knob);
	/*
	 * Optional. 1 when a run of w, with the parameters it holds, on a
	 * block device only reads it: no layout, no write I/O, no verify
	 * pass that writes. Such a run may read a device that holds data
	 * (TARGET_READS_ONLY). NULL: it may write.
	 */
	int (*reads_only)(const struct workload *w);
	/*
	 * Optional. 1 when a run of w, with the parameters it holds, works
	 * on files in a directory and so cannot run on a raw device: a raw
	 * scratch target (scratch:SIZE) is then given a file system of its
	 * own (TARGET_FILES), and prepare refuses a block device with
	 * workload_need_files(). NULL: it runs on a device too.
	 */
	int (*needs_files)(const struct workload *w);
};

struct workload {
	const struct workload_ops *ops;
	struct param_value *values; /* one per ops->params entry */
	unsigned nr_values;
	/* The values typed, filled by the rows (ops->params_size bytes,
	 * a struct workload_common first); set through
	 * workload_set_param(), never written directly. */
	void *params;
	struct run_opts ro;
	struct target *target; /* set by prepare */
	volatile int *stop;    /* set non-zero to end early (signals) */
	const struct measure_hook *hook; /* observer of the timed region */
	struct workload_live *live; /* progress counters (live.h), or NULL */
	void *priv;
};

/*
 * Every workload, one line each, in the order help lists them.
 * WORKLOAD(n) names `const struct workload_ops workload_<n>` whose .name
 * is "<n>", each defined in its own file (the five block-I/O ones in
 * rw_setup.c, see rw.h); this list declares them and fills the registry
 * (workload.c). Adding a workload is its file and a line here.
 */
#define WORKLOAD_TABLE(WORKLOAD)                                               \
	WORKLOAD(seqread)                                                      \
	WORKLOAD(seqwrite)                                                     \
	WORKLOAD(randread)                                                     \
	WORKLOAD(randwrite)                                                    \
	WORKLOAD(randrw)                                                       \
	WORKLOAD(smallfiles)                                                   \
	WORKLOAD(mmapdirty)                                                    \
	WORKLOAD(exec)                                                         \
	WORKLOAD(crashdump)                                                    \
	WORKLOAD(replay)

#define WORKLOAD_DECLARE_(n) extern const struct workload_ops workload_##n;
WORKLOAD_TABLE(WORKLOAD_DECLARE_)
#undef WORKLOAD_DECLARE_

const struct workload_ops *workload_find(const char *name);
const char *const *workload_names(void);

/* Set every parameter to its default. */
void workload_init(struct workload *w, const struct workload_ops *ops);
void workload_release(struct workload *w);

/*
 * dst (uninitialised) becomes a workload of src's ops with src's
 * parameter values, already parsed, and its run options; nothing of a
 * run (target, hook, stop, priv). Release it with workload_release().
 */
void workload_copy(struct workload *dst, const struct workload *src);

/* One workload parameter as given: name "bs", value "4k" (what
 * workload_set_param() reads). Strings not owned. */
struct param_setting {
	const char *name;
	const char *value;
};

/*
 * Set parameter name to text. -ENOENT for an unknown name (err suggests
 * the nearest), -EINVAL/-ERANGE for a bad value (err says what is
 * allowed). note receives unit explanations (may be NULL).
 */
int workload_set_param(struct workload *w, const char *name, const char *text,
		       struct strbuf *note, struct strbuf *err);
/* Does a run of w only read a block device target (its reads_only
 * hook)? 0 when the workload has no such hook. */
int workload_reads_only(const struct workload *w);
/* workload_ops.needs_files of a workload that always works on files. */
int workload_files_always(const struct workload *w);
/* Does a run of w work on files (its needs_files hook)? 0 when the
 * workload has no such hook. */
int workload_needs_files(const struct workload *w);
/*
 * For a workload that works on files, in its prepare: 0 when t has a
 * work directory, else -EINVAL with err saying why it cannot run on t
 * and what to give instead, which is never t's own kind (a block device
 * gets "a directory or scratch:SIZE", a raw scratch target
 * "scratch:SIZE:ext4"). what says what the workload does with files
 * ("maps a file").
 */
int workload_need_files(const struct workload *w, const struct target *t,
			const char *what, struct strbuf *err);
/* Check cross-parameter rules (direct I/O alignment, rwmixread on a
 * pure read). Call after all set_param, before prepare. */
int workload_validate(struct workload *w, struct strbuf *err);
/*
 * Fill o's working set, direct, invalidate, settle and advice for a run
 * of w: from the parameters every workload names alike, then from the
 * workload's truth_opts hook. interval_ns and the cgroup are left alone.
 */
void workload_truth_opts(const struct workload *w, struct truth_opts *o);

/* The row of ops named name (input: a factor, an option), or -1. */
int workload_param_index(const struct workload_ops *ops, const char *name);
/* The value as given of field, a member of *w->params: its text, and
 * whether it was set; w->values[] holds it. */
const struct param_value *workload_given(const struct workload *w,
					 const void *field);
/* Do writes settle inside the timed region (settle=sync, end_fsync)? */
int workload_syncs(const struct workload_common *c);

#endif
