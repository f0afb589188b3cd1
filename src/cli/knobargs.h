/*
 * The command side of knobs, shared by `set`, `knobs`, `revert` and
 * `run --set`: where the knobs are (-t / --device), how a session's
 * messages are printed, and the --set list of a run.
 */
#ifndef IOTRIAL_CLI_KNOBARGS_H
#define IOTRIAL_CLI_KNOBARGS_H

#include <stdio.h>
#include <stdlib.h>
#include "options.h"
#include "../core/knob/plan.h"
#include "../core/journal/session.h"
#include "../core/targets/target.h"

/* The --set assignments of one run; core/experiment/trial.c applies them. */
struct knob_cli {
	const char **assign; /* "KNOB=VALUE" as given */
	size_t nr, alloc;
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
/* Free the list; kc is left empty. */
void knob_cli_release(struct knob_cli *kc);

/*
 * Fill ctx for `-t TARGET` or `--device DEV` (at most one given; neither
 * is fine: system knobs only). t receives the opened target (inspect
 * only, nothing created) and must be released by the caller. Prints and
 * returns an exit code.
 */
int knob_cli_context(const char *target, const char *device,
		     struct knob_ctx *ctx, struct target *t);
/* A session_log that prints INFO to info_out (stdout or stderr as a note),
 * NOTE as note: and WARN as warning: on stderr. */
void knob_cli_log(struct session_log *log, FILE **info_out);
/* The same for --quiet: WARN only, as warning: on stderr. */
void knob_cli_log_quiet(struct session_log *log);
/* "changing 'X' needs root" when not root; returns EXIT_OK if root. */
int knob_cli_need_root(const struct knob_plan *p);
/* Map a core error code for bad input to an exit code. */
int knob_cli_exit_code(int ret);

#endif
