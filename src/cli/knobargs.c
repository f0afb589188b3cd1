/*
 * Knob plumbing for commands: printing session messages, finding the
 * knobs of -t/--device, the --dry-run plan text, the stale-journal repair
 * that main() runs before every command, and the --set list of a run.
 *
 * A run's changes are temporary: knob_cli_apply() takes a rollback mark,
 * applies, and knob_cli_restore() rolls back to it. Signals only set the
 * run's stop flag (run.c installs that handler), so the normal exit path
 * does the restoring; kill -9 is covered by the journal and the next
 * invocation.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "knobargs.h"
#include "../core/scratch.h"
#include "../util/error.h"
#include "../util/xalloc.h"
#include "../util/banned.h"

/* Where INFO goes; NULL means "as a note on stderr". */
static void print_say(void *data, enum knob_say_level level, const char *msg)
{
	FILE *info = data;

	switch (level) {
	case KNOB_SAY_INFO:
		if (info) {
			fprintf(info, "%s\n", msg);
			fflush(info);
			break;
		}
		/* fall through */
	case KNOB_SAY_NOTE:
		note("%s", msg);
		break;
	case KNOB_SAY_WARN:
		warning("%s", msg);
		break;
	}
}

void knob_cli_log(struct knob_log *log, FILE **info_out)
{
	log->say = print_say;
	log->data = info_out ? *info_out : NULL;
}

void cli_recover_journal(int argc, const char **argv)
{
	struct knob_log log;
	int i;

	/* revert --list is read-only: it must show what a crash left
	 * before anything is restored */
	if (argc > 1 && !strcmp(argv[1], "revert"))
		for (i = 2; i < argc; i++)
			if (!strcmp(argv[i], "--list"))
				return;
	knob_cli_log(&log, NULL);
	knob_recover_stale(&log);
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

void knob_cli_print_plan(FILE *out, const struct knob_plan *p,
			 const char *journal)
{
	struct strbuf v = STRBUF_INIT;
	size_t i;

	fprintf(out,
		"plan: %zu change%s, in apply order (--dry-run: "
		"nothing is changed)\n",
		p->nr, p->nr == 1 ? "" : "s");
	for (i = 0; i < p->nr; i++) {
		const struct knob_change *c = &p->v[i];

		strbuf_reset(&v);
		knob_subject(&v, c->k.name, c->k.object);
		fprintf(out, "  %zu. %s: ", i + 1, v.buf);
		strbuf_reset(&v);
		if (c->k.deferred) {
			fprintf(out, "(the new scheduler's default) -> ");
		} else {
			knob_show_value(&c->k, c->before.buf, &v);
			fprintf(out, "%s -> ", v.buf);
		}
		strbuf_reset(&v);
		knob_show_value(&c->k, c->canon.buf, &v);
		fprintf(out, "%s\n     %s\n", v.buf, c->how.buf);
		if (c->note.len)
			fprintf(out, "     note: %s\n", c->note.buf);
	}
	fprintf(out,
		"before each write the original value is saved to '%s' "
		"and fsync'd; each write is read back to verify; 'iotrial "
		"revert' restores the originals\n",
		journal);
	strbuf_release(&v);
}

void knob_cli_init(struct knob_cli *kc)
{
	memset(kc, 0, sizeof(*kc));
	knob_ctx_init(&kc->ctx);
	knob_plan_init(&kc->plan, &kc->ctx);
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

/* Print one applied change to stderr. */
static void print_change(const struct knob_change *c)
{
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT, subj = STRBUF_INIT;

	knob_subject(&subj, c->k.name, c->k.object);
	knob_show_value(&c->k, c->before.buf, &b);
	knob_show_value(&c->k, c->after.buf, &a);
	note("%s: %s -> %s (for this run)", subj.buf, b.buf, a.buf);
	if (c->side.len)
		note("%s: %s", c->k.name, c->side.buf);
	strbuf_release(&a);
	strbuf_release(&b);
	strbuf_release(&subj);
}

/* Keep name=value pairs for the run's JSON "knobs" object. */
static void remember_settings(struct knob_cli *kc)
{
	size_t i;

	kc->settings =
	    xcalloc(kc->plan.nr ? kc->plan.nr : 1, sizeof(*kc->settings));
	for (i = 0; i < kc->plan.nr; i++) {
		kc->settings[i].name = kc->plan.v[i].k.name;
		kc->settings[i].value = kc->plan.v[i].after.buf;
	}
	kc->nr_settings = (unsigned)kc->plan.nr;
}

int knob_cli_apply(struct knob_cli *kc, struct target *t)
{
	struct strbuf err = STRBUF_INIT;
	struct knob_log log;
	size_t i;
	int ret, code = EXIT_OK;

	/* a closed pipe must not kill us before the restore: EPIPE instead */
	if (kc->nr || scratch_session(t))
		signal(SIGPIPE, SIG_IGN);
	if (!kc->nr)
		return EXIT_OK;
	knob_cli_log(&log, NULL);
	ret = knob_ctx_from_target(&kc->ctx, t, &err);
	for (i = 0; !ret && i < kc->nr; i++)
		ret = knob_plan_add(&kc->plan, kc->assign[i], &err);
	if (!ret)
		ret = knob_plan_build(&kc->plan, &err);
	if (ret) {
		error("%s", err.buf);
		code = knob_cli_exit_code(ret);
		goto out;
	}
	for (i = 0; i < kc->plan.nr; i++)
		if (kc->plan.v[i].note.len)
			note("%s: %s", kc->plan.v[i].input_name,
			     kc->plan.v[i].note.buf);
	code = knob_cli_need_root(&kc->plan);
	if (code)
		goto out;
	kc->s = knob_session_ref(scratch_session(t));
	if (!kc->s) {
		ret = knob_session_open(&kc->s, "run", 0, &log, &err);
		if (ret) {
			error("%s", err.buf);
			code = EXIT_RUNTIME;
			goto out;
		}
	}
	kc->mark = knob_session_mark(kc->s);
	kc->applied = 1;
	ret = knob_session_apply(kc->s, &kc->plan, &log, &err);
	if (ret) {
		error("%s", err.buf);
		code = knob_cli_exit_code(ret);
		knob_cli_restore(kc);
		goto out;
	}
	for (i = 0; i < kc->plan.nr; i++)
		print_change(&kc->plan.v[i]);
	remember_settings(kc);
out:
	strbuf_release(&err);
	return code;
}

int knob_cli_restore(struct knob_cli *kc)
{
	struct strbuf err = STRBUF_INIT;
	struct knob_log log;
	int code = EXIT_OK;

	knob_cli_log(&log, NULL);
	if (kc->applied && kc->s &&
	    knob_session_rollback(kc->s, kc->mark, &log, &err)) {
		error("%s", err.buf);
		code = EXIT_RUNTIME;
	}
	kc->applied = 0;
	knob_session_close(kc->s, &log);
	kc->s = NULL;
	knob_plan_release(&kc->plan);
	knob_ctx_release(&kc->ctx);
	free(kc->assign);
	free(kc->settings);
	kc->assign = NULL;
	kc->settings = NULL;
	kc->nr = kc->alloc = 0;
	kc->nr_settings = 0;
	strbuf_release(&err);
	return code;
}
