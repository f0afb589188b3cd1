/*
 * Knob plumbing for commands: printing session messages, finding the
 * knobs of -t/--device, the stale-journal repair that main() runs before
 * every command, and the --set list of a run (which
 * core/experiment/trial.c applies and restores).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "knobargs.h"
#include "../util/error.h"
#include "../util/xalloc.h"
#include "../util/banned.h"

/* Where INFO goes; NULL means "as a note on stderr". */
static void print_say(void *data, enum session_say_level level, const char *msg)
{
	FILE *info = data;

	switch (level) {
	case SESSION_SAY_INFO:
		if (info) {
			fprintf(info, "%s\n", msg);
			fflush(info);
			break;
		}
		/* fall through */
	case SESSION_SAY_NOTE:
		note("%s", msg);
		break;
	case SESSION_SAY_WARN:
		warning("%s", msg);
		break;
	}
}

void knob_cli_log(struct session_log *log, FILE **info_out)
{
	log->say = print_say;
	log->data = info_out ? *info_out : NULL;
}

static void quiet_say(void *data, enum session_say_level level, const char *msg)
{
	(void)data;
	if (level == SESSION_SAY_WARN)
		warning("%s", msg);
}

void knob_cli_log_quiet(struct session_log *log)
{
	log->say = quiet_say;
	log->data = NULL;
}

void cli_recover_journal(int argc, const char **argv)
{
	struct session_log log;
	void (*old)(int);

	/* revert repairs first itself and gives one account of both (and
	 * revert --list, read-only, shows what a crash left unrepaired) */
	if (argc > 1 && !strcmp(argv[1], "revert"))
		return;
	knob_cli_log(&log, NULL);
	/* its notes must not end it halfway when stderr's reader is gone */
	old = signal(SIGPIPE, SIG_IGN);
	knob_recover_stale(&log);
	signal(SIGPIPE, old);
}

void cli_report_journal(void)
{
	struct session_log log;

	knob_cli_log(&log, NULL);
	knob_report_stale(&log);
}

int knob_cli_exit_code(int ret)
{
	switch (ret) {
	case 0:
		return EXIT_OK;
	case -ENOENT:
	case -EINVAL:
	case -ERANGE:
	case -ENODEV:
		return EXIT_USAGE;
	default:
		return EXIT_RUNTIME;
	}
}

int knob_cli_context(const char *target, const char *device,
		     struct knob_ctx *ctx, struct target *t)
{
	struct strbuf err = STRBUF_INIT;
	int ret = 0;

	memset(t, 0, sizeof(*t));
	if (target && device) {
		error("give -t TARGET or --device DEV, not both");
		return EXIT_USAGE;
	}
	if (target) {
		ret = target_open(t, target, TARGET_NO_WORKDIR, NULL, &err);
		if (!ret)
			ret = knob_ctx_from_target(ctx, t, &err);
	} else if (device) {
		ret = knob_ctx_from_device(ctx, device, &err);
	} else {
		/* why_no_disk stays NULL: the message then asks for
		 * --device or -t (knob_bind_device) */
		ctx->why_no_mount = xstrdup("no target was given");
	}
	if (ret) {
		error("%s", err.buf);
		strbuf_release(&err);
		return ret == -EACCES || ret == -EIO || ret == -EBUSY
			   ? EXIT_RUNTIME
			   : EXIT_USAGE;
	}
	strbuf_release(&err);
	return EXIT_OK;
}

int knob_cli_need_root(const struct knob_plan *p)
{
	struct strbuf err = STRBUF_INIT;
	int code = EXIT_OK;

	if (knob_plan_need_root(p, &err)) {
		error("%s", err.buf);
		code = EXIT_RUNTIME;
	}
	strbuf_release(&err);
	return code;
}

void knob_cli_init(struct knob_cli *kc)
{
	memset(kc, 0, sizeof(*kc));
}

int knob_cli_set_option(const struct option *opt, const char *arg)
{
	struct knob_cli *kc = opt->data;

	if (!strchr(arg, '=')) {
		error("--set takes KNOB=VALUE (e.g. --set scheduler=bfq), not "
		      "'%s'",
		      arg);
		return -1;
	}
	ALLOC_GROW(kc->assign, kc->nr + 1, kc->alloc);
	kc->assign[kc->nr++] = arg;
	return 0;
}

void knob_cli_release(struct knob_cli *kc)
{
	free(kc->assign);
	knob_cli_init(kc);
}
