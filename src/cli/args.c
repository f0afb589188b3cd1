/*
 * Argument matching shared by every subcommand. Each command walks its own
 * argv (git style); these two helpers keep the "--x=V" and "--x V"
 * spellings consistent everywhere.
 */
#include <string.h>
#include "cli.h"
#include "../util/error.h"
#include "../util/banned.h"

int cli_opt_value(int argc, const char **argv, int *i, const char *name,
		  const char *short_name, const char **out_value)
{
	const char *arg = argv[*i];
	size_t n = strlen(name);

	if (!strncmp(arg, name, n) && arg[n] == '=') {
		*out_value = arg + n + 1;
		return 1;
	}
	if (strcmp(arg, name) && (!short_name || strcmp(arg, short_name)))
		return 0;
	if (*i + 1 >= argc) {
		error("option '%s' needs a value", arg);
		return -1;
	}
	*out_value = argv[++*i];
	return 1;
}

int cli_opt_flag(const char *arg, const char *name)
{
	return !strcmp(arg, name);
}
