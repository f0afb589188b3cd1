/*
 * iotrial: does this I/O setting make my workload faster on this machine?
 *
 * main() only dispatches: one table row per subcommand (git style), each
 * implemented in cli/<name>.c. Nothing here measures or changes anything.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "cli/manpage.h"
#include "cli/options.h"
#include "core/store/store.h"
#include "util/error.h"
#include "util/strbuf.h"
#include "util/xalloc.h"
#include "version.h"
#include "util/banned.h"

struct command {
	const char *name;
	int (*fn)(int argc, const char **argv);
	const char *help;
	unsigned flags; /* CHANGES_SYSTEM */
};

/*
 * A command that changes settings of the system (knobs, mounts) first
 * restores what a crashed iotrial left; the others only say so.
 */
#define CHANGES_SYSTEM 1u

static const struct command commands[] = {
    {"run", cmd_run, "run a workload once and report what it measured",
     CHANGES_SYSTEM},
    {"compare", cmd_compare,
     "is setting B faster than A? randomized runs, "
     "verdicts",
     CHANGES_SYSTEM},
    {"info", cmd_info, "show the environment and a target's devices"},
    {"watch", cmd_watch, "live iostat -x view with dirty memory"},
    {"log", cmd_log, "list stored experiments, newest first"},
    {"show", cmd_show, "print a stored experiment again"},
    {"report", cmd_report, "a stored experiment as text, CSV, Markdown, HTML"},
    {"diff", cmd_diff, "compare one workload in two stored experiments"},
    {"import", cmd_import, "store iotrial or fio JSON results"},
    {"knobs", cmd_knobs, "list the I/O tunables of a target (no root)"},
    {"set", cmd_set, "change tunables now and keep them (journaled)",
     CHANGES_SYSTEM},
    {"revert", cmd_revert, "restore every tunable the journal holds",
     CHANGES_SYSTEM},
    {"export", cmd_export,
     "write the winner as udev, sysctl, fstab, tuned, ansible, puppet, sh"},
    {"apply", cmd_apply, "set the winning settings now, install their files",
     CHANGES_SYSTEM},
    {"fleet", cmd_fleet, "the same compare on many hosts via Ansible, merged"},
    {"series", cmd_series,
     "a regression test across reboots: the boot as the unit"},
    {"observe", cmd_observe,
     "switchback A/B of knobs on the running load, window by window",
     CHANGES_SYSTEM},
    {"record", cmd_record, "capture a program's file-system calls (BPF)"},
    {"trace", cmd_trace, "show a recorded trace, or its summary"},
    {"tune", cmd_tune,
     "what should I set? races knob values, says the smallest change",
     CHANGES_SYSTEM},
    {"bisect", cmd_bisect,
     "which of the settings two sets differ in explain their difference",
     CHANGES_SYSTEM},
    /* ADD COMMAND ROWS ABOVE THIS LINE */
};

static void usage(FILE *out)
{
	size_t i;

	fprintf(out, "usage: iotrial <command> [options]\n\ncommands:\n");
	for (i = 0; i < ARRAY_SIZE(commands); i++)
		fprintf(out, "  %-9s %s\n", commands[i].name, commands[i].help);
	fprintf(out, "\n'iotrial help <command>' or 'iotrial <command> --help' "
		     "describes one command;\n'iotrial help compat' lists the "
		     "deprecations and how --compat=VERSION and\n"
		     "--behaviour=NAME keep an old behaviour; "
		     "'iotrial --version' prints the version;\n'man iotrial' "
		     "has the whole manual.\n");
}

/* The row of command name, or NULL after saying what was meant. */
static const struct command *find_command(const char *name)
{
	const char *names[ARRAY_SIZE(commands)];
	const char *near;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(commands); i++) {
		if (!strcmp(name, commands[i].name))
			return &commands[i];
		names[i] = commands[i].name;
	}
	near = suggest_nearest(name, names, ARRAY_SIZE(commands));
	if (near)
		error("unknown command '%s'; did you mean '%s'?", name, near);
	else
		error("unknown command '%s'; see 'iotrial --help'", name);
	return NULL;
}

/*
 * An option before the command that is none of the global ones: say
 * which was meant ("--vresion": --version), as a command's own options
 * do. --compat and --behaviour were taken out of argv already.
 */
static int unknown_global_option(const char *arg)
{
	static const char *const globals[] = {"--help", "--version", "--compat",
					      "--behaviour"};
	char name[64];
	const char *near;

	snprintf(name, sizeof(name), "%.*s", (int)strcspn(arg, "="), arg);
	near = suggest_nearest(name, globals, ARRAY_SIZE(globals));
	if (near)
		error("unknown option '%s'; did you mean '%s'?", name, near);
	else
		error("unknown option '%s'; the options before a command are "
		      "--help, --version, --compat=VERSION and "
		      "--behaviour=NAME; see 'iotrial --help'",
		      name);
	return EXIT_USAGE;
}

static const char *const help_usage[] = {
    "iotrial help [COMMAND [ARGS...]]",
    "iotrial help compat",
    NULL,
};

static const char help_epilogue[] =
    "Without a command, lists the commands. With one, prints the help of "
    "that\ncommand, the same text as 'iotrial COMMAND ARGS --help': ARGS "
    "matter for\nrun and compare, whose help lists the parameters of a "
    "workload\n('iotrial help run seqwrite'). 'iotrial help compat' lists "
    "the\ndeprecations and the switches that pin behaviour (--compat, "
    "--behaviour).\n";

/* A command as main() runs it, for the manual's generator. */
static int run_command(int argc, const char **argv)
{
	const struct command *c = find_command(argv[0]);

	return c ? c->fn(argc, argv) : EXIT_USAGE;
}

/*
 * iotrial help --man < docs/iotrial.1.in > docs/iotrial.1: the manual
 * with its option lists made from the rows (cli/manpage.h).
 */
static int man_page(void)
{
	struct strbuf err = STRBUF_INIT;
	int ret = cli_manpage(stdin, stdout, run_command, &err);

	if (ret)
		error("the manual's template: %s", err.buf);
	strbuf_release(&err);
	if (!ret && (fflush(stdout) || ferror(stdout))) {
		error("cannot write the manual: %s", strerror(errno));
		ret = -1;
	}
	return ret ? EXIT_RUNTIME : EXIT_OK;
}

/*
 * iotrial help [COMMAND [ARGS...]]: the same text as COMMAND ARGS --help,
 * printed by the command itself, so the two cannot differ. ARGS matter
 * for run and compare, whose help lists the parameters of a workload.
 */
static int help(int argc, const char **argv)
{
	int dump = 0, man = 0;
	const struct option opts[] = {
	    /* each option as data, for the tests (options_dump()) */
	    {.type = OPTION_BOOL,
	     .long_name = "options",
	     .value = &dump,
	     .flags = OPT_HIDDEN},
	    /* the manual from its template, for make (cli/manpage.h) */
	    {.type = OPTION_BOOL,
	     .long_name = "man",
	     .value = &man,
	     .flags = OPT_HIDDEN},
	    OPT_END(),
	};
	const struct command *c;
	const char **args;
	int i, n, ret;

	/* argv[0] is "iotrial": parse from "help" on */
	n = parse_options(argc - 1, argv + 1, "help", opts, help_usage,
			  help_epilogue, PARSE_OPT_STOP_AT_NON_OPTION);
	if (n == PARSE_OPT_HELP)
		return EXIT_OK;
	if (n < 0)
		return EXIT_USAGE;
	argv++;
	if (man && !n)
		return man_page();
	if (!n) {
		usage(stdout);
		return EXIT_OK;
	}
	if (!strcmp(argv[0], "help")) {
		options_usage(stdout, opts, help_usage, help_epilogue);
		return EXIT_OK;
	}
	if (!strcmp(argv[0], "compat")) {
		struct strbuf out = STRBUF_INIT;

		cli_compat_help(&out);
		fputs(out.buf, stdout);
		strbuf_release(&out);
		return EXIT_OK;
	}
	c = find_command(argv[0]);
	if (!c)
		return EXIT_USAGE;
	args = xcalloc((size_t)n + 2, sizeof(*args));
	for (i = 0; i < n; i++)
		args[i] = argv[i];
	args[n] = dump ? "--help-options" : "--help";
	ret = c->fn(n + 1, args);
	free(args);
	return ret;
}

/* Was --dry-run given (before any "--")? set and apply then change
 * nothing, recovery included. */
static int dry_run(int argc, const char **argv)
{
	int i;

	for (i = 2; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--dry-run"))
			return 1;
	return 0;
}

int main(int argc, const char **argv)
{
	const struct command *c;

	/* --compat and --behaviour pin behaviour for every command */
	if (cli_compat_setup(&argc, argv))
		return EXIT_USAGE;
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return EXIT_OK;
	}
	if (!strcmp(argv[1], "help"))
		return help(argc, argv);
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
		printf("iotrial %s (JSON schema %s, results store schema %d)\n",
		       IOTRIAL_VERSION, IOTRIAL_SCHEMA, STORE_SCHEMA_VERSION);
		return EXIT_OK;
	}
	if (argv[1][0] == '-')
		return unknown_global_option(argv[1]);
	c = find_command(argv[1]);
	if (!c)
		return EXIT_USAGE;
	/* settings a crashed or killed iotrial left changed come back now,
	 * before a command that changes settings; the others only say so */
	if ((c->flags & CHANGES_SYSTEM) && !dry_run(argc, argv))
		cli_recover_journal(argc, argv);
	else
		cli_report_journal();
	return c->fn(argc - 1, argv + 1);
}
