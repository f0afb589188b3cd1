/*
 * Argument matching shared by every subcommand. Each command walks its own
 * argv (git style); these two helpers keep the "--x=V" and "--x V"
 * spellings consistent everywhere.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "../core/store.h"
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

int cli_check_output(const char *path)
{
	int fd;

	if (!strcmp(path, "-"))
		return 0;
	if (!*path) {
		error("--json= needs a file name, or plain --json for stdout");
		return -1;
	}
	fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0) {
		error("cannot write '%s': %s; give a writable file for --json",
		      path, strerror(errno));
		return -1;
	}
	close(fd);
	return 0;
}

int cli_check_store(const char *db)
{
	struct strbuf err = STRBUF_INIT;
	struct store s;
	int ret = store_open(&s, db, &err);

	if (ret)
		error("%s", err.buf);
	else
		store_close(&s);
	strbuf_release(&err);
	if (!ret)
		return 0;
	return ret == -EINVAL ? EXIT_USAGE : EXIT_RUNTIME;
}

void cli_unknown_option(const char *cmd, const char *arg,
			const char *const *options, size_t nr)
{
	const char *near = suggest_nearest(arg, options, nr);

	if (near)
		error("unknown option '%s' for '%s'; did you mean '%s'?", arg,
		      cmd, near);
	else
		error("unknown option '%s' for '%s'; see 'iotrial %s --help'",
		      arg, cmd, cmd);
}

/* The one signal flag of the process (one command per process). */
static volatile int stop_signal;

static void on_stop_signal(int sig)
{
	stop_signal = sig;
}

volatile int *cli_catch_stop_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGQUIT, &sa, NULL);
	return &stop_signal;
}
