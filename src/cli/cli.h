/*
 * The command side: one file per subcommand, each defining
 * int cmd_<name>(int argc, const char **argv) that returns an exit code
 * (enum exit_code). argv[0] is the subcommand's name.
 */
#ifndef IOTRIAL_CLI_H
#define IOTRIAL_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "options.h"
#include "../core/targets/target.h"

struct strbuf;

int cmd_run(int argc, const char **argv);
int cmd_compare(int argc, const char **argv);
int cmd_info(int argc, const char **argv);
int cmd_watch(int argc, const char **argv);
int cmd_log(int argc, const char **argv);
int cmd_show(int argc, const char **argv);
int cmd_diff(int argc, const char **argv);
int cmd_import(int argc, const char **argv);
int cmd_knobs(int argc, const char **argv);
int cmd_set(int argc, const char **argv);
int cmd_revert(int argc, const char **argv);
int cmd_export(int argc, const char **argv);
int cmd_apply(int argc, const char **argv);
int cmd_fleet(int argc, const char **argv);
int cmd_report(int argc, const char **argv);
int cmd_observe(int argc, const char **argv);
int cmd_tune(int argc, const char **argv);
int cmd_bisect(int argc, const char **argv);
/* Was msg said before by tune or bisect (tune.c)? 1, else 0 and it is
 * kept: a race sets the same knobs again and again, and the knobs'
 * notes would repeat at every block. */
int cli_tune_said_before(const char *msg);
/* Restore what a crashed iotrial left (knobargs.c); silent when nothing
 * is to be done, never fails. main() calls it before every command but
 * revert: `revert --list` shows what a crash left and changes nothing,
 * `revert` repairs it itself and accounts for both. */
void cli_recover_journal(int argc, const char **argv);
/* For the commands that change nothing: only say what a crash left
 * (knob_report_stale()); never restores, never fails. */
void cli_report_journal(void);
int cmd_series(int argc, const char **argv);
/* cmd_run() that also hands back the id the run was stored as (""
 * when it was not), in out_id[STORE_ID_LEN + 1] (may be NULL). */
int cli_run_stored(int argc, const char **argv, char *out_id);
int cmd_record(int argc, const char **argv);
int cmd_trace(int argc, const char **argv);
/* ADD COMMAND DECLARATIONS ABOVE THIS LINE */

/*
 * The switches that pin behaviour (cli/compat.c). cli_compat_setup()
 * reads IOTRIAL_COMPAT and IOTRIAL_BEHAVIOUR, then takes --compat=V and
 * --behaviour=NAME[,NAME] out of argv[1..argc) (up to "--"), fixing
 * *argc; returns 0, or -1 after printing the error (exit 2).
 * cli_compat_old() says whether the old behaviour of a deprecation is
 * in effect, printing the deprecation's warning when the procedure
 * allows one. cli_compat_help() is `iotrial help compat`.
 */
enum compat_id;
struct compat;
int cli_compat_setup(int *argc, const char **argv);
const struct compat *cli_compat(void);
int cli_compat_old(enum compat_id id);
void cli_compat_help(struct strbuf *out);

/*
 * --schema=N on every command that prints JSON: 1 is accepted (it is
 * what is written anyway); any other value is refused, since iotrial/2
 * is never written unless a release that has it is asked for it.
 */
int cli_schema_option(const struct option *opt, const char *arg);
#define OPT_SCHEMA()                                                           \
	OPT_CALLBACK(0, "schema", NULL, "1",                                   \
		     "the JSON schema to write: 1 (iotrial/1, the only one)",  \
		     cli_schema_option)

/*
 * --json[=FILE], the same on every command that prints JSON: alone (or
 * "--json=-") to stdout, with FILE to that file; *v is NULL when not
 * given. Write the document with cli_write_doc(*v, text).
 */
#define OPT_JSON(v, h) OPT_STRING_OPTARG(0, "json", (v), "FILE", "-", (h))

/*
 * Before any work: can --json=FILE be written ("-" is stdout; a regular
 * file is replaced, a link, a device or a FIFO refused: util/outfile.h;
 * nothing is created by the check)? Can the
 * store at db (NULL: the default) be opened? Each prints the error when
 * not, so a long run never ends in "cannot write"; for the store, with
 * what to do instead (cmd: "iotrial run", to suggest cmd --no-store; or
 * NULL). cli_check_output()
 * returns 0 or -1; cli_check_store() 0 or the exit code to end with:
 * EXIT_USAGE when db is not a results store, EXIT_RUNTIME when it cannot
 * be opened now (a full disk, an I/O error).
 */
int cli_check_output(const char *path);
/*
 * Every JSON document a command writes goes through these, which also
 * keep a copy of it when IOTRIAL_JSON_LOG_DIR is set (util/doclog.h).
 * cli_write_json_text() writes a document already rendered (text) to
 * file ("-": stdout); cli_write_doc() one the model's encode printed
 * into text (made safe to read first: util/text.h);
 * cli_put_json() to the open stream f. The first two return 0, or -1 after
 * printing the error; cli_put_json() -1 when the write failed, saying nothing.
 * cli_log_json() only keeps the copy, for a document written by other means
 * (report --format json -o FILE); a failure to keep it is a warning (once),
 * never the command's error. With CLI_JSON_LINES each line of text is a
 * document (watch --json); CLI_JSON_OLD marks a document in the shape of an old
 * behaviour
 * (--behaviour=...), which no schema describes.
 */
#define CLI_JSON_LINES (1u << 0)
#define CLI_JSON_OLD   (1u << 1)
int cli_write_json_text(const char *file, const char *text, unsigned flags);
int cli_write_doc(const char *file, struct strbuf *text);
int cli_put_json(FILE *f, const char *text, unsigned flags);
void cli_log_json(const char *text, unsigned flags);
/* Text (no JSON) to file ("-": stdout). 0, or -1 after the error. */
int cli_write_text(const char *file, const char *text);
int cli_check_store(const char *db, const char *cmd);

/*
 * A report file (report -o, compare --report, trace export -o):
 * cli_check_report_file() refuses, before any work, a path that exists
 * unless force (the error says what to do instead: how, or by default
 * "--force to replace it"), and a link, a device or a FIFO whatever
 * force says (util/outfile.h). cli_write_report_file() writes data to
 * path as outfile_write() does, replacing a regular file only with
 * force. Both return 0 or -1 after printing the error.
 */
int cli_check_report_file(const char *path, int force, const char *how);
int cli_write_report_file(const char *path, const char *data, size_t len,
			  int force);

/* --memory-limit, --cpus and --mems of run and compare. */
struct cli_limits {
	uint64_t memory_bytes; /* 0: no limit */
	const char *cpus, *mems;
};
#define OPT_CLI_LIMITS(l)                                                      \
	OPT_SIZE(0, "memory-limit", &(l)->memory_bytes, NULL, NULL, NULL,      \
		 "run in a cgroup with this memory limit (root)"),             \
	    OPT_STRING(0, "cpus", &(l)->cpus, "LIST",                          \
		       "run in a cgroup on these CPUs only, e.g. 0-1 (root)"), \
	    OPT_STRING(0, "mems", &(l)->mems, "LIST",                          \
		       "and with memory from these NUMA nodes only (root)")

/*
 * What run, compare and run --job share on their command line, parsed:
 * where, how long, how each run is seeded, judged and kept. The rows
 * are declared once (OPT_CLI_RUN, OPT_CLI_JOB), so the three say and
 * check them alike; only the default of --time differs (deftime).
 */
struct cli_run_opts {
	const char *target;    /* -t, or NULL: $TMPDIR or /tmp */
	unsigned target_flags; /* TARGET_ALLOW_DESTROY */
	uint64_t time_ns;      /* --time, or its default */
	int time_given;	       /* --time was given */
	uint64_t ios;	       /* --ios, 0: not given */
	uint64_t ramp_ns;      /* --ramp, 0 by default */
	int ramp_given;	       /* --ramp was given */
	uint64_t seed;	       /* --seed when seed_given */
	int seed_given;
	const char *metric;    /* --metric, NULL: the workload's */
	const char *json_file; /* --json: "-" for stdout, or NULL */
	const char *db;	       /* --db, NULL for the default */
	int no_store;	       /* --no-store */
	struct cli_limits limits;
	const char *job, *section; /* --job FILE.fio, --section NAME */
	int job_lenient, job_include_any;
};
#define OPT_CLI_RUN(r, deftime, what)                                          \
	OPT_STRING('t', "target", &(r)->target, "TARGET",                      \
		   "where to run: a directory, a block device or "             \
		   "scratch:SIZE (see TARGET below)"),                         \
	    OPT_DURATION(0, "time", &(r)->time_ns, (deftime), "1ms", NULL,     \
			 "length of each run", .given = &(r)->time_given),     \
	    OPT_COUNT(0, "ios", &(r)->ios, NULL, "1", NULL,                    \
		      "end each run after N I/Os (all jobs together) "         \
		      "instead of after a time"),                              \
	    OPT_DURATION(0, "ramp", &(r)->ramp_ns, "0s", NULL, NULL,           \
			 "run this long before the measured part of each run", \
			 .given = &(r)->ramp_given),                           \
	    OPT_COUNT(0, "seed", &(r)->seed, NULL, NULL, NULL,                 \
		      "seed of the random offsets and file contents "          \
		      "(default: from the clock)",                             \
		      .given = &(r)->seed_given),                              \
	    OPT_STRING(0, "metric", &(r)->metric, "NAME",                      \
		       "judge by this metric (default: the workload's; see "   \
		       "below)"),                                              \
	    OPT_STRING_OPTARG(0, "json", &(r)->json_file, "FILE", "-",         \
			      "print the " what " as JSON, or write it to "    \
			      "FILE"),                                         \
	    OPT_BIT(0, "allow-destroy", &(r)->target_flags,                    \
		    TARGET_ALLOW_DESTROY,                                      \
		    "allow a block device that holds data; it is "             \
		    "overwritten"),                                            \
	    OPT_STRING(0, "db", &(r)->db, "PATH",                              \
		       "the results store (see 'iotrial log')"),               \
	    OPT_BOOL(0, "no-store", &(r)->no_store, "do not store the " what), \
	    OPT_CLI_LIMITS(&(r)->limits)
#define OPT_CLI_JOB(r)                                                         \
	OPT_STRING(0, "job", &(r)->job, "FILE",                                \
		   "run the job sections of a fio job file instead of a "      \
		   "workload (see JOB FILES in the manual)"),                  \
	    OPT_STRING(0, "section", &(r)->section, "NAME",                    \
		       "with --job: only this job section"),                   \
	    OPT_BOOL(0, "job-lenient", &(r)->job_lenient,                      \
		     "with --job: warn about options iotrial does not "        \
		     "support and ignore them"),                               \
	    OPT_BOOL(0, "job-include-any", &(r)->job_include_any,              \
		     "with --job: let include name files outside the job "     \
		     "file's directory (absolute, '..', links)")

/*
 * After parsing: what the options of r say together that each alone
 * cannot: --time and --ios exclude each other (with --ios, time_ns is
 * 0), --section and the like need --job, a workload and --job exclude
 * each other (workload: the one named, or NULL), and a workload that
 * runs to its own end ignores --time and --ramp (a note). Without seed
 * one comes from the environment. 0, or -1 after the error.
 */
struct workload_ops;
int cli_run_opts_check(struct cli_run_opts *r, const struct workload_ops *ops,
		       const char *workload);

/* The JOB_ flags of job_cli_load() that r's options ask for. */
int cli_run_opts_job_flags(const struct cli_run_opts *r);

/*
 * argv[0..n) (a command after "--") as one line /bin/sh -c runs as the
 * same argv: each word quoted unless plain. Owned by the caller.
 */
char *cli_command_line(int n, const char **argv);

/*
 * fio's --rw (--readwrite) among the options before "--": say that the
 * workload is the first argument, and return -1; else 0.
 */
int cli_refuse_fio_rw(const char *cmd, int argc, const char **argv);

struct trial;
/*
 * Before the first timed run, once its files are laid out: warn about
 * every arm whose time-based buffered read will wrap its file
 * (trial_wrap_check()). With quiet, says nothing and measures nothing.
 * When the speed cannot be measured, a note says so if say_fallback
 * (compare: its first runs tell instead; a single run's own truth needs
 * no note).
 */
void cli_warn_wrap(struct trial *tr, int quiet, int say_fallback);

/*
 * The plan's line when the target is a directory and knobs of the device
 * under it will be changed (trial_dir_knob_disk()): "compare: target
 * /tmp on vda: knobs will be changed on vda" on stderr, so that a
 * forgotten -t does not tune a disk silently. And when a device that
 * holds data was opened for reads only (target_refuse_writes()): "run:
 * target /dev/loop0 holds a 'ext4' filesystem: reads only".
 */
void cli_say_dir_disk(const struct trial *tr, const char *cmd);

/*
 * run --dry-run, compare --dry-run (dryrun.c): after trial_plan(), print
 * the arms, each arm's knob plan (from what to what), the blocks planned
 * and the estimated time, as text on stdout or as JSON to json (NULL:
 * text). Changes nothing. Returns the exit code.
 */
int cli_dry_run(struct trial *tr, const char *cmd, const char *json);

struct cgroup_limits;
/* Parse l into out (strings borrowed). 0, or -1 after the error. */
int cli_limits(const struct cli_limits *l, struct cgroup_limits *out);
/*
 * The gate of --fail-on-regression on doc's verdicts, by the policy of
 * core/experiment/regression.h: true when an arm counts as a regression
 * (the command exits 3). A note says which suspect arms were (not)
 * counted.
 */
struct experiment_doc;
int cli_doc_has_regression(const struct experiment_doc *doc, int strict);

/*
 * Catch SIGINT, SIGTERM, SIGHUP and SIGQUIT. A signal only stores its
 * number in the returned flag (0 until then): the command notices, stops,
 * and its normal exit path restores knobs and removes work files.
 * SIGPIPE is ignored from then on, so that a closed stdout or stderr
 * makes writes fail instead of ending the process halfway through that.
 */
volatile int *cli_catch_stop_signals(void);

struct workload_ops;
struct strbuf;

/*
 * The options of a workload's parameters (workload_help.c): a heading
 * that names the workload, then one row per parameter in its param_spec
 * order, "--NAME VALUE" with the values it takes and its default in the
 * help. Each calls cb with data; opt->long_name is the parameter's name.
 * run and compare join them in front of their own options, so a
 * misspelled parameter is suggested before an option.
 */
struct workload_options {
	struct option *opts; /* the rows, ending in OPT_END */
	char **text;	     /* what their help and argh point to */
	size_t nr_text, alloc_text;
};
void cli_workload_options(struct workload_options *wo,
			  const struct workload_ops *ops, option_cb cb,
			  void *data);
void cli_workload_options_release(struct workload_options *wo);
/* "\nworkloads:\n" and a line per workload, for a help epilogue. */
void cli_workloads_list(struct strbuf *out);
/* "\nmetrics of WORKLOAD (--metric):\n" and a line per metric of ops,
 * its default marked, for a help epilogue. */
void cli_metrics_help(struct strbuf *out, const struct workload_ops *ops);
/* The workload called name, or NULL after an error that suggests the
 * nearest name or points to 'iotrial CMD --help'. */
const struct workload_ops *cli_find_workload(const char *name, const char *cmd);
/*
 * A workload that runs to its own end (ops->untimed: exec, mmapdirty):
 * hide the --time, --ios and --ramp rows of opts from its --help. After
 * parsing, cli_run_opts_check() says that a --time or --ramp given is
 * ignored (its validate() refuses --ios).
 */
void cli_untimed_options(struct option *opts, const struct workload_ops *ops);

#endif
