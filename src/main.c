/*
 * iotrial: does this I/O setting make my workload faster on this machine?
 *
 * main() only dispatches: one table row per subcommand (git style), each
 * implemented in cli/<name>.c. Nothing here measures or changes anything.
 */
#include <stdio.h>
#include <string.h>
#include "cli/cli.h"
#include "util/error.h"
#include "util/xalloc.h"
#include "version.h"
#include "util/banned.h"

struct command {
	const char *name;
	int (*fn)(int argc, const char **argv);
	const char *help;
};

static const struct command commands[] = {
	{ "run", cmd_run, "run a workload once and report what it measured" },
	{ "compare", cmd_compare, "is setting B faster than A? randomized runs, "
				  "verdicts" },
	{ "info", cmd_info, "show the environment and a target's devices" },
	{ "watch", cmd_watch, "live iostat -x view with dirty memory" },
	{ "log", cmd_log, "list stored experiments, newest first" },
	{ "show", cmd_show, "print a stored experiment again" },
	{ "diff", cmd_diff, "compare one workload in two stored experiments" },
	{ "import", cmd_import, "store iotrial or fio JSON results" },
	{ "knobs", cmd_knobs, "list the I/O tunables of a target (no root)" },
	{ "set", cmd_set, "change tunables now and keep them (journaled)" },
	{ "revert", cmd_revert, "restore every tunable the journal holds" },
	/* ADD COMMAND ROWS ABOVE THIS LINE */
};

static void usage(FILE *out)
{
	size_t i;

	fprintf(out, "usage: iotrial <command> [options]\n\ncommands:\n");
	for (i = 0; i < ARRAY_SIZE(commands); i++)
		fprintf(out, "  %-9s %s\n", commands[i].name, commands[i].help);
	fprintf(out, "\n'iotrial <command> --help' describes one command.\n");
}

int main(int argc, const char **argv)
{
	const char *names[ARRAY_SIZE(commands)];
	const char *near;
	size_t i;

	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help")) {
		usage(stdout);
		return EXIT_OK;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
		printf("iotrial %s\n", IOTRIAL_VERSION);
		return EXIT_OK;
	}
	/* settings a crashed or killed iotrial left changed come back now */
	cli_recover_journal(argc, argv);
	for (i = 0; i < ARRAY_SIZE(commands); i++) {
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].fn(argc - 1, argv + 1);
		names[i] = commands[i].name;
	}
	near = suggest_nearest(argv[1], names, ARRAY_SIZE(commands));
	if (near)
		error("unknown command '%s'; did you mean '%s'?", argv[1], near);
	else
		error("unknown command '%s'; see 'iotrial --help'", argv[1]);
	return EXIT_USAGE;
}
