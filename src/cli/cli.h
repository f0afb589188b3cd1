/*
 * The command side: one file per subcommand, each defining
 * int cmd_<name>(int argc, const char **argv) that returns an exit code
 * (enum exit_code). argv[0] is the subcommand's name.
 */
#ifndef IOTRIAL_CLI_H
#define IOTRIAL_CLI_H

#include <stddef.h>
#include <stdio.h>

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
/* Restore what a crashed iotrial left (knobargs.c); silent when nothing
 * is to be done, never fails. main() calls it before every command but
 * `revert --list`, which shows what a crash left and changes nothing. */
void cli_recover_journal(int argc, const char **argv);
/* ADD COMMAND DECLARATIONS ABOVE THIS LINE */

/*
 * Match argv[*i] against a long option: "--name=VALUE" or "--name VALUE"
 * (consuming the next argument). Returns 1 and sets *out_value on a
 * match, 0 if argv[*i] is not this option, -1 (after printing an error)
 * when the value is missing. short_name may be NULL ("-t").
 */
int cli_opt_value(int argc, const char **argv, int *i, const char *name,
		  const char *short_name, const char **out_value);
/*
 * Inside an argv loop: when argv[i] is the value option name (or
 * short_name), store its value in dest and `continue`; when its value is
 * missing, return -1 from the enclosing parser (cli_opt_value printed
 * the error). Needs argc, argv, `int i, r` and `const char *v` in scope.
 */
#define CLI_VALUE_OPT(name, short_name, dest)                                \
	r = cli_opt_value(argc, argv, &i, name, short_name, &v);             \
	if (r < 0)                                                           \
		return -1;                                                   \
	if (r) {                                                             \
		dest = v;                                                    \
		continue;                                                    \
	}

/*
 * Before any work: can --json=FILE be written ("-" is stdout)? Can the
 * store at db (NULL: the default) be opened? Each prints the error when
 * not, so a long run never ends in "cannot write". cli_check_output()
 * returns 0 or -1; cli_check_store() 0 or the exit code to end with:
 * EXIT_USAGE when db is not a results store, EXIT_RUNTIME when it cannot
 * be opened now (a full disk, an I/O error).
 */
int cli_check_output(const char *path);
int cli_check_store(const char *db);

/*
 * Print "unknown option 'ARG' for 'CMD'" with the nearest of options[nr]
 * as a suggestion, or a pointer to 'iotrial CMD --help'.
 */
void cli_unknown_option(const char *cmd, const char *arg,
			const char *const *options, size_t nr);

/*
 * Catch SIGINT, SIGTERM, SIGHUP and SIGQUIT. A signal only stores its
 * number in the returned flag (0 until then): the command notices, stops,
 * and its normal exit path restores knobs and removes work files.
 */
volatile int *cli_catch_stop_signals(void);

/*
 * The help text run and compare share: the list of workloads, then the
 * parameters of workload (nothing more when it names no workload), each
 * with the values a choice takes and its default (workload_help.c).
 */
void cli_print_workload_help(FILE *out, const char *workload);

/* Match a flag without a value: "--json". */
int cli_opt_flag(const char *arg, const char *name);

#endif
