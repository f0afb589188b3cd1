/*
 * iotrial apply ID: roll out the arm that won experiment ID on this
 * machine. Its knobs are set now through the journal, exactly as `iotrial
 * set` sets them (all or nothing; `iotrial revert` restores them), and
 * each --persist format's file is installed under --root (default /) so
 * that the setting outlives a reboot, each replaced file kept as a
 * backup. --dry-run prints the change plan and the files, for a
 * change-approval ticket, and changes nothing.
 *
 * It writes as root, so it asks first: on a terminal the plan is shown
 * and a "y" applies it; elsewhere (a script) --yes is needed. An
 * experiment that came from elsewhere sets raw knobs only when
 * --allow-knob names them (exportjob.c), and a winner measured on
 * another device, or from other values than this system has now, is
 * applied only with --force after a warning that says both.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include "cli.h"
#include "exportjob.h"
#include "../core/export/export_formats.h"
#include "../core/knob/keep.h"
#include "../core/model/experiment_doc.h"
#include "../core/model/model_json.h"
#include "../core/report/plan_json.h"
#include "../core/report/knob_text.h"
#include "../util/atfile.h"
#include "../util/error.h"
#include "../util/xalloc.h"
#include "../util/banned.h"

/* The command line of `apply`. */
struct apply_args {
	struct export_job_args job;
	struct option_list persist;
	int dry_run;
	const char *json; /* --json[=FILE] with --dry-run, or NULL */
	int yes;	  /* apply without asking */
	int force; /* apply a winner measured elsewhere or from elsewhere */
};

/* The help after the options, with where each format that the system
 * reads at boot is installed (the table of formats). */
static void apply_epilogue(struct strbuf *out)
{
	size_t i;

	strbuf_addstr(out, "Sets the knobs of the arm that won experiment ID "
			   "(or the one --arm\nnames) now, journaled like "
			   "'iotrial set': 'iotrial revert' restores\nthem. "
			   "Each --persist FORMAT installs the file the system "
			   "reads at boot,\nunder --root DIR (default /), "
			   "keeping a backup of a file it replaces:\n");
	for (i = 0; export_formats[i]; i++) {
		const struct export_format *f = export_formats[i];

		if (f->install_path)
			strbuf_addf(out, "  %-7s %s\n", f->name,
				    f->install_help ? f->install_help
						    : f->install_path);
	}
	strbuf_addstr(
	    out,
	    "--dry-run prints what would change, from what to what, and the "
	    "files,\nand changes nothing. On a terminal, apply shows the same "
	    "and asks\nbefore it writes; elsewhere it needs --yes. A winner "
	    "measured on another\ndevice, or from other values than this "
	    "system has now, needs --force.\nAn experiment imported or merged "
	    "from a fleet sets a raw sysctl: or\nsysfs: knob only when "
	    "--allow-knob names it. 'iotrial export' writes the\nsame "
	    "settings for Ansible, Puppet or a shell script.\n");
}

/* The formats apply installs, joined: the text of names. */
static const char *persist_names(struct strbuf *names, const char *sep,
				 const char *last)
{
	strbuf_reset(names);
	export_format_names(1, sep, last, names);
	return names->buf;
}

/* --persist's help, in help. */
static const char *persist_help(struct strbuf *help, struct strbuf *names)
{
	strbuf_addf(help, "also install the file of FORMAT: %s (repeatable)",
		    persist_names(names, ", ", " or "));
	return help->buf;
}

/* Parse argv; 1 for --help, -1 after an error. */
static int parse(int argc, const char **argv, struct apply_args *a)
{
	struct strbuf line = STRBUF_INIT, names = STRBUF_INIT;
	struct strbuf help = STRBUF_INIT, epilogue = STRBUF_INIT;
	const char *usage[] = {
	    NULL,
	    "       [--root DIR] [--dry-run | --yes] [--force] [--allow-knob "
	    "KNOB ...]",
	    "       [-t TARGET | --device DEV] [--db PATH] [--json[=FILE]]",
	    NULL,
	};
	struct option opts[] = {
	    OPT_STRING(0, "arm", &a->job.arm, "ARM",
		       "the arm to apply (its label, or its number: 1 is "
		       "the first the tables list) instead of the winner"),
	    OPT_LIST(0, "persist", &a->persist, "FORMAT",
		     persist_help(&help, &names)),
	    OPT_STRING(0, "root", &a->job.root, "DIR",
		       "install the files under DIR instead of /"),
	    OPT_JSON(&a->json, "with --dry-run: the plan as JSON, or to FILE"),
	    OPT_SCHEMA(),
	    OPT_BOOL(0, "dry-run", &a->dry_run,
		     "print the change plan and change nothing"),
	    OPT_BOOL('y', "yes", &a->yes,
		     "apply without asking (needed when not on a terminal)"),
	    OPT_BOOL(0, "force", &a->force,
		     "apply a winner measured on another device or from "
		     "other values"),
	    OPT_LIST(0, "allow-knob", &a->job.allow, "KNOB",
		     "let an imported or fleet experiment set this raw "
		     "sysctl:/sysfs: knob (repeatable)"),
	    OPT_STRING('t', "target", &a->job.target, "TARGET",
		       "the directory or block device to set, instead of "
		       "the experiment's"),
	    OPT_STRING(0, "device", &a->job.device, "DEV",
		       "the block device to set, instead of the "
		       "experiment's"),
	    OPT_STRING(0, "db", &a->job.db, "PATH",
		       "the results store to read"),
	    OPT_END(),
	};
	size_t i;
	int n;

	strbuf_addf(&line, "iotrial apply ID [--arm ARM] [--persist %s ...]",
		    persist_names(&names, "|", "|"));
	usage[0] = line.buf;
	apply_epilogue(&epilogue);
	n = parse_options(argc, argv, "apply", opts, usage, epilogue.buf, 0);
	strbuf_release(&line);
	strbuf_release(&names);
	strbuf_release(&help);
	strbuf_release(&epilogue);

	if (n == PARSE_OPT_HELP)
		return 1;
	if (n < 0)
		return -1;
	if (n != 1) {
		error(n ? "unexpected argument '%s' for 'apply'; it takes one "
			  "experiment id"
			: "'apply' needs an experiment id%s; 'iotrial log' "
			  "lists them",
		      n ? argv[1] : "");
		return -1;
	}
	a->job.id = argv[0];
	if (a->json && !a->dry_run) {
		error("--json prints the plan of --dry-run; give both");
		return -1;
	}
	if (a->json && cli_check_output(a->json))
		return -1;
	if (a->dry_run && a->yes) {
		error("--dry-run changes nothing and --yes applies without "
		      "asking; give one of them");
		return -1;
	}
	for (i = 0; i < a->persist.nr; i++) {
		const struct export_format *f =
		    export_format_find(a->persist.v[i]);

		if (!f || !f->install_path) {
			error("--persist takes %s, not '%s'%s",
			      persist_names(&names, ", ", " or "),
			      a->persist.v[i],
			      !f ? ""
				 : " (for that, use 'iotrial export "
				   "--format')");
			strbuf_release(&names);
			return -1;
		}
	}
	return 0;
}

/* One file to install. */
struct apply_file {
	const struct export_format *f;
	const char *rel;     /* under the root */
	struct strbuf text;  /* the whole new file */
	struct strbuf about; /* what the plan says of it */
};

/* render_file()'s answer for a file a dry run leaves out, said why */
#define FILE_LEFT_OUT (-1)

/*
 * Render persist format f into file; an exit code after the error, or,
 * for a dry run, FILE_LEFT_OUT when fstab has no line to change (what to
 * do instead is said).
 */
static int render_file(struct export_job *j, const struct export_format *f,
		       struct apply_file *file, int dry_run)
{
	struct strbuf err = STRBUF_INIT, old = STRBUF_INIT, nw = STRBUF_INIT;
	const struct knob_change *c;
	unsigned no;
	int r, code = EXIT_OK;

	file->f = f;
	file->rel = f->install_path;
	strbuf_init(&file->text, 0);
	strbuf_init(&file->about, 0);
	if (f == &export_format_fstab) {
		c = export_mount_change(&j->src);
		if (!c) {
			error("--persist fstab: no setting of '%s' is a mount "
			      "option (only atime is)",
			      j->pick.id);
			code = EXIT_USAGE;
			goto out;
		}
		if (!j->fstab_ok) {
			error("--persist fstab: cannot read '%s'",
			      j->fstab_path.buf);
			code = EXIT_USAGE;
			goto out;
		}
		r = export_fstab_edit(j->fstab.buf, c->k.object, c->canon.buf,
				      &file->text, &old, &nw, &no, &err);
		if (r) {
			struct strbuf why = STRBUF_INIT, line = STRBUF_INIT;

			/* iotrial adds no line to fstab by itself: it says
			 * which, and the other ways to keep the option */
			export_no_fstab_line(&j->src, c, "  ", 0, &why);
			strbuf_rtrim(&why);
			if (export_fstab_new_line(&j->src, c, &line))
				strbuf_addf(&why, "\n  the line: %s", line.buf);
			if (dry_run) {
				note("--persist fstab: fstab would not be "
				     "changed:\n%s",
				     why.buf);
				code = FILE_LEFT_OUT;
			} else {
				error("--persist fstab: nothing is changed:\n%s"
				      "\nadd it and apply again, or apply "
				      "without --persist fstab",
				      why.buf);
				code = EXIT_USAGE;
			}
			strbuf_release(&why);
			strbuf_release(&line);
			goto out;
		}
		strbuf_addf(&file->about, "line %u: '%s' -> '%s'", no, old.buf,
			    nw.buf);
		code = export_job_verify_fstab(j, file->text.buf, no);
		goto out;
	}
	r = export_render(f, &j->src, &file->text, &err);
	if (r) {
		error("--persist %s: %s", f->name, err.buf);
		code = r == -ENOENT ? EXIT_USAGE : EXIT_RUNTIME;
	}
out:
	strbuf_release(&err);
	strbuf_release(&old);
	strbuf_release(&nw);
	return code;
}

/* The path of rel under root, for people. */
static void shown_path(const char *root, const char *rel, struct strbuf *out)
{
	strbuf_addf(out, "%s%s%s", root,
		    root[strlen(root) - 1] == '/' ? "" : "/", rel);
}

/* knob_keep_hooks.undoing: the reason first, then the undo's messages. */
static void say_undoing(void *data, const char *why)
{
	(void)data;
	error("%s; undoing what was changed", why);
}

/* Set the plan now, kept and journaled. An exit code. */
static int apply_now(struct export_job *j)
{
	struct knob_keep_hooks hooks = {.undoing = say_undoing};
	struct strbuf err = STRBUF_INIT;
	enum knob_keep_stage failed;
	int code = EXIT_OK, ret;

	knob_cli_log(&hooks.log, NULL);
	code = knob_cli_need_root(&j->plan);
	if (code)
		return code;
	hooks.stop = cli_catch_stop_signals();
	ret = knob_apply_kept(&j->plan, &hooks, &failed, &err);
	if (ret) {
		if (failed == KNOB_KEEP_FAILED_SESSION)
			error("%s", err.buf);
		if (failed == KNOB_KEEP_FAILED_APPLY && *hooks.stop)
			code = 128 + *hooks.stop;
		else if (failed == KNOB_KEEP_FAILED_APPLY)
			code = knob_cli_exit_code(ret);
		else
			code = EXIT_RUNTIME;
	}
	strbuf_release(&err);
	return code;
}

/* A value of c's knob as people read it, into out (replaced). */
static void shown(const struct knob_change *c, const char *v,
		  struct strbuf *out)
{
	strbuf_reset(out);
	knob_show_value(&c->k, v, out);
}

/*
 * Was the winner measured where, and from what, it is applied now? Its
 * device (the experiment's measured disk) against each device knob's,
 * and the baseline arm's values against what this system holds now.
 * Warns once per knob that differs, saying both; returns how many did.
 */
static int check_measured(struct export_job *j)
{
	struct strbuf err = STRBUF_INIT, was = STRBUF_INIT, now = STRBUF_INIT;
	struct knob_plan base;
	size_t i, k;
	int n = 0, built;

	knob_plan_init(&base, &j->ctx);
	for (i = 0; i < j->pick.nr_base_assign; i++)
		knob_plan_add(&base, j->pick.base_assign[i], &err);
	built = !knob_plan_build(&base, &err);
	if (!built && j->pick.nr_base_assign)
		warning("cannot tell whether this system starts where the "
			"baseline '%s' of experiment '%s' did: %s",
			j->pick.base_label, j->pick.id, err.buf);
	for (i = 0; i < j->plan.nr; i++) {
		const struct knob_change *c = &j->plan.v[i], *b = NULL;
		int other_dev = j->pick.disk &&
				c->k.scope == KNOB_SCOPE_DEVICE &&
				strcmp(c->k.object, j->pick.disk);
		int other_base;

		for (k = 0; built && k < base.nr && !b; k++)
			if (!strcmp(base.v[k].k.name, c->k.name))
				b = &base.v[k];
		other_base = b && !c->k.deferred && !b->k.deferred &&
			     strcmp(b->canon.buf, c->before.buf);
		if (!other_dev && !other_base)
			continue;
		n++;
		strbuf_reset(&err);
		knob_subject(&err, c->k.name, c->k.object);
		if (b)
			shown(b, b->canon.buf, &was);
		shown(c, c->before.buf, &now);
		if (c->k.scope == KNOB_SCOPE_DEVICE && j->pick.disk && b)
			warning("%s: experiment '%s' measured its winner on "
				"'%s', from its baseline '%s' (%s); here it is "
				"set on '%s', which holds %s now",
				err.buf, j->pick.id, j->pick.disk,
				j->pick.base_label, was.buf, c->k.object,
				now.buf);
		else if (c->k.scope == KNOB_SCOPE_DEVICE && j->pick.disk)
			warning("%s: experiment '%s' measured its winner on "
				"'%s'; here it is set on '%s', which holds %s "
				"now",
				err.buf, j->pick.id, j->pick.disk, c->k.object,
				now.buf);
		else
			warning("%s: experiment '%s' measured its winner from "
				"its baseline '%s' (%s); here it holds %s now",
				err.buf, j->pick.id, j->pick.base_label,
				was.buf, now.buf);
	}
	knob_plan_release(&base);
	strbuf_release(&err);
	strbuf_release(&was);
	strbuf_release(&now);
	return n;
}

/* The plan and the files, as --dry-run and the question show them. */
static void print_plan(struct export_job *j, struct apply_file *files,
		       size_t nr, const char *jpath, int dry_run)
{
	struct strbuf out = STRBUF_INIT, path = STRBUF_INIT;
	size_t i;

	printf("experiment %s", j->pick.id);
	if (strcmp(j->pick.origin, EXP_ORIGIN_LOCAL))
		printf(" (%s)", j->pick.origin);
	printf(", arm '%s': %s\n", j->pick.label, j->pick.why);
	if (dry_run)
		report_knob_plan(&j->plan, jpath, &out);
	else
		export_job_plan_text(j, jpath, &out);
	fputs(out.buf, stdout);
	for (i = 0; i < nr; i++) {
		const char *p, *nl;

		strbuf_reset(&path);
		shown_path(j->root, files[i].rel, &path);
		if (files[i].f == &export_format_fstab)
			printf("%s %s, %s (the old file kept as a backup)\n",
			       dry_run ? "would change" : "changes", path.buf,
			       files[i].about.buf);
		else
			printf("%s %s%s:\n", dry_run ? "would write" : "writes",
			       path.buf,
			       atfile_exists(j->root, files[i].rel)
				   ? " (the old file kept as a backup)"
				   : " (a new file)");
		if (files[i].f == &export_format_fstab)
			continue;
		for (p = files[i].text.buf; *p; p = *nl ? nl + 1 : nl) {
			nl = strchrnul(p, '\n');
			printf("    %.*s\n", (int)(nl - p), p);
		}
	}
	strbuf_release(&out);
	strbuf_release(&path);
}

/*
 * The plan of --dry-run as JSON (report_plan_doc() with the experiment,
 * the arm and the files) written to json; 0 or -1 after the error.
 */
static int plan_json(struct export_job *j, struct apply_file *files, size_t nr,
		     const char *jpath, int mismatch, const char *json)
{
	struct strbuf path = STRBUF_INIT, out = STRBUF_INIT;
	struct plan_doc doc;
	size_t i;
	int ret;

	report_plan_doc(&j->plan, "apply-plan", jpath, &doc);
	doc.experiment = xstrdup(j->pick.id);
	doc.origin = xstrdup(j->pick.origin);
	doc.arm = xstrdup(j->pick.label);
	doc.why = xstrdup(j->pick.why);
	doc.needs_force = mismatch != 0;
	doc.has_needs_force = MODEL_SET;
	doc.files = xcalloc(nr + 1, sizeof(*doc.files));
	doc.nr_files = nr;
	doc.has_files = MODEL_SET;
	for (i = 0; i < nr; i++) {
		struct plan_file_doc *f = &doc.files[i];
		bool fstab = files[i].f == &export_format_fstab;

		strbuf_reset(&path);
		shown_path(j->root, files[i].rel, &path);
		f->path = xstrdup(path.buf);
		f->format = xstrdup(files[i].f->name);
		f->exists = atfile_exists(j->root, files[i].rel);
		if (fstab)
			f->change = xstrdup(files[i].about.buf);
		else
			f->text = xstrdup(files[i].text.buf);
	}
	plan_doc_encode(&doc, 0, &out);
	ret = cli_write_doc(json, &out);
	plan_doc_release(&doc);
	strbuf_release(&path);
	strbuf_release(&out);
	return ret;
}

/*
 * Ask on the terminal whether to apply the plan printed above: 1 for
 * "y" or "yes", 0 for anything else (end of input included).
 */
static int ask(const struct export_job *j, size_t nr_files)
{
	char line[64];
	size_t n;

	printf("apply %zu change%s", j->plan.nr, j->plan.nr == 1 ? "" : "s");
	if (nr_files)
		printf(" and write %zu file%s", nr_files,
		       nr_files == 1 ? "" : "s");
	printf(" now? [y/N] ");
	fflush(stdout);
	if (!fgets(line, sizeof(line), stdin)) {
		putchar('\n');
		return 0;
	}
	n = strcspn(line, " \t\r\n");
	line[n] = '\0';
	return !strcasecmp(line, "y") || !strcasecmp(line, "yes");
}

int cmd_apply(int argc, const char **argv)
{
	struct apply_args a = {0};
	struct strbuf out = STRBUF_INIT, jpath = STRBUF_INIT;
	struct strbuf err = STRBUF_INIT, path = STRBUF_INIT;
	struct strbuf bak = STRBUF_INIT;
	struct apply_file *files = NULL;
	struct export_job j;
	size_t i, nr = 0;
	int code, r, mismatch;

	knob_cli_init(&a.job.set);
	a.job.plan_on_stdout = 1;
	r = parse(argc, argv, &a);
	if (r) {
		option_list_release(&a.persist);
		option_list_release(&a.job.allow);
		return r > 0 ? EXIT_OK : EXIT_USAGE;
	}
	code = export_job_prepare(&j, &a.job);
	if (code)
		goto out;
	files = xcalloc(a.persist.nr + 1, sizeof(*files));
	for (i = 0; i < a.persist.nr && !code; i++) {
		code = render_file(&j, export_format_find(a.persist.v[i]),
				   &files[nr], a.dry_run);
		if (code == FILE_LEFT_OUT) {
			strbuf_release(&files[nr].text);
			strbuf_release(&files[nr].about);
			code = EXIT_OK;
			continue;
		}
		nr++;
	}
	if (code)
		goto out;
	knob_journal_path(&jpath);
	mismatch = check_measured(&j);
	if (a.dry_run && a.json) {
		/* the plan's notes are in it */
		export_job_say_notes(&j, 0);
		if (plan_json(&j, files, nr, jpath.buf, mismatch, a.json))
			code = EXIT_RUNTIME;
		goto out;
	}
	if (a.dry_run) {
		export_job_say_notes(&j, 0);
		print_plan(&j, files, nr, jpath.buf, 1);
		if (mismatch && !a.force)
			note("applying it needs --force: the winner was "
			     "measured %s (said above)",
			     mismatch == 1 ? "elsewhere or from another value"
					   : "elsewhere or from other values");
		goto out;
	}
	if (mismatch && !a.force) {
		error("the winner of experiment '%s' was not measured on this "
		      "device or from the values this system holds now (said "
		      "above), so its effect here is not known; nothing is "
		      "changed: measure it here ('iotrial compare'), or give "
		      "--force to apply it anyway",
		      j.pick.id);
		code = EXIT_USAGE;
		goto out;
	}
	/* the notes after the last refusal; the plan, when it is shown,
	 * has the settings' own */
	if (!a.yes) {
		print_plan(&j, files, nr, jpath.buf, 0);
		if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
			error("'apply' changes this system as root and asks "
			      "first, but it is not on a terminal: give --yes "
			      "to apply the plan above without asking, or "
			      "--dry-run to only print it; nothing is changed");
			code = EXIT_USAGE;
			goto out;
		}
		export_job_say_notes(&j, 0);
		if (!ask(&j, nr)) {
			printf("nothing is changed\n");
			code = EXIT_RUNTIME;
			goto out;
		}
	} else if (strcmp(j.pick.origin, EXP_ORIGIN_LOCAL)) {
		/* what came from elsewhere is shown before it is applied */
		export_job_say_notes(&j, 0);
		print_plan(&j, files, nr, jpath.buf, 0);
	} else {
		export_job_say_notes(&j, 1);
	}
	code = apply_now(&j);
	if (code)
		goto out;
	for (i = 0; i < j.plan.nr; i++) {
		const struct knob_change *c = &j.plan.v[i];
		struct strbuf b = STRBUF_INIT, n = STRBUF_INIT;

		knob_show_value(&c->k, c->before.buf, &b);
		knob_show_value(&c->k, c->after.buf, &n);
		strbuf_reset(&out);
		knob_subject(&out, c->k.name, c->k.object);
		printf("%s: %s -> %s\n", out.buf, b.buf, n.buf);
		strbuf_release(&b);
		strbuf_release(&n);
	}
	printf("the originals are in '%s'; 'iotrial revert' restores them\n",
	       jpath.buf);
	for (i = 0; i < nr; i++) {
		strbuf_reset(&path);
		shown_path(j.root, files[i].rel, &path);
		strbuf_reset(&err);
		if (atfile_replace(j.root, files[i].rel, files[i].text.buf,
				   files[i].text.len, 0644, &bak, &err)) {
			error("%s (the settings are applied; 'iotrial revert' "
			      "undoes them)",
			      err.buf);
			code = EXIT_RUNTIME;
			continue;
		}
		if (bak.len)
			printf("wrote '%s'; the old file is '%s'\n", path.buf,
			       bak.buf);
		else
			printf("wrote '%s'\n", path.buf);
	}
	if (nr)
		printf("'iotrial revert' restores the settings, not these "
		       "files: restore the backups (or remove the new files) "
		       "to go back for good\n");
	else
		printf("these settings last until reboot; --persist %s keeps "
		       "them\n",
		       persist_names(&path, ", ", " or "));
out:
	for (i = 0; i < nr; i++) {
		strbuf_release(&files[i].text);
		strbuf_release(&files[i].about);
	}
	free(files);
	export_job_release(&j);
	option_list_release(&a.persist);
	option_list_release(&a.job.allow);
	strbuf_release(&out);
	strbuf_release(&jpath);
	strbuf_release(&err);
	strbuf_release(&path);
	strbuf_release(&bak);
	return code;
}
