/*
 * The command side of knobs, shared by `set`, `run --set` (and later
 * `compare`): where the knobs are (-t / --device), how a session's
 * messages are printed, and the --set list that a run applies after its
 * target is open and restores when it ends, however it ends.
 */
#ifndef IOTRIAL_CLI_KNOBARGS_H
#define IOTRIAL_CLI_KNOBARGS_H

#include <stdio.h>
#include "options.h"
#include "../core/knob/plan.h"
#include "../core/knob/session.h"
#include "../core/result_json.h"
#include "../core/target.h"

/* The --set assignments of one run, and what applying them left. */
struct knob_cli {
	const char **assign; /* "KNOB=VALUE" as given */
	size_t nr, alloc;
	struct knob_ctx ctx;
	struct knob_plan plan;
	struct knob_session *s;
	uint64_t mark;		       /* rollback point */
	int applied;		       /* restore pending */
	struct knob_setting *settings; /* for the run's JSON */
	unsigned nr_settings;
};

void knob_cli_init(struct knob_cli *kc);
/*
 * The --set row of a command's option table: appends KNOB=VALUE to the
 * struct knob_cli given as data. 0, or -1 after printing an error (no
 * '=' in it).
 */
#define OPT_KNOB_SET(kc, h)                                                    \
	OPT_CALLBACK(0, "set", (kc), "KNOB=VALUE", (h), knob_cli_set_option)
int knob_cli_set_option(const struct option *opt, const char *arg);
/*
 * Apply the --set list to target t (no-op without one): plan, lock,
 * journal, write, read back; prints each change to stderr. Returns an
 * exit code: EXIT_OK, EXIT_USAGE (bad knob or value), EXIT_RUNTIME.
 * On failure nothing stays changed. With changes or a scratch target to
 * undo, SIGPIPE is ignored from here on, so that a closed pipe ends the
 * run through its restoring exit path instead of killing it.
 */
int knob_cli_apply(struct knob_cli *kc, struct target *t);
/*
 * Restore what knob_cli_apply changed, newest first, and free kc.
 * Returns EXIT_OK or EXIT_RUNTIME (a restore failed; the journal keeps
 * it for the next iotrial). Safe to call whether or not apply ran.
 */
int knob_cli_restore(struct knob_cli *kc);

/*
 * Fill ctx for `-t TARGET` or `--device DEV` (at most one given; neither
 * is fine: system knobs only). t receives the opened target (inspect
 * only, nothing created) and must be released by the caller. Prints and
 * returns an exit code.
 */
int knob_cli_context(const char *target, const char *device,
		     struct knob_ctx *ctx, struct target *t);
/* A knob_log that prints INFO to info_out (stdout or stderr as a note),
 * NOTE as note: and WARN as warning: on stderr. */
void knob_cli_log(struct knob_log *log, FILE **info_out);
/* "changing 'X' needs root" when not root; returns EXIT_OK if root. */
int knob_cli_need_root(const struct knob_plan *p);
/* Print the plan as --dry-run shows it. */
void knob_cli_print_plan(FILE *out, const struct knob_plan *p,
			 const char *journal);
/* Map a core error code for bad input to an exit code. */
int knob_cli_exit_code(int ret);

#endif
