/*
 * iotrial export: the settings an experiment found best (or given with
 * --set), written the way configuration tools expect them: a sysctl.d
 * file, a udev rule, the fstab line as a diff, a tuned profile, an
 * Ansible playbook, a Puppet manifest or a shell script. It reads and
 * changes nothing on the system but, with --write, the fstab line.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cli.h"
#include "exportjob.h"
#include "../core/export/export_formats.h"
#include "../util/atfile.h"
#include "../util/error.h"
#include "../util/outfile.h"
#include "../util/banned.h"

/* The command line of `export`. */
struct export_args {
	struct export_job_args job;
	const char *format, *output;
	int force, write;
};

/* The first usage line, with every format's name. */
static void export_usage_line(struct strbuf *out)
{
	strbuf_addstr(out, "iotrial export ID [--arm ARM] --format ");
	export_format_names(0, "|", "|", out);
}

/* Every format's name, joined: the text of names. */
static const char *format_names(struct strbuf *names, const char *sep,
				const char *last)
{
	strbuf_reset(names);
	export_format_names(0, sep, last, names);
	return names->buf;
}

/* The help after the options: each format's summary from the table. */
static void export_epilogue(struct strbuf *out)
{
	size_t i;

	strbuf_addstr(out, "Writes the knob settings of the arm that won "
			   "experiment ID (or the\none --arm names), or of "
			   "--set, for the tools that keep a machine's\n"
			   "configuration. FORMAT is one of:\n");
	for (i = 0; export_formats[i]; i++) {
		const char *p = export_formats[i]->summary, *nl;

		strbuf_addf(out, "  %-8s ", export_formats[i]->name);
		for (; *p; p = *nl ? nl + 1 : nl) {
			nl = strchrnul(p, '\n');
			strbuf_addf(out, "%s%.*s\n",
				    p == export_formats[i]->summary
					? ""
					: "           ",
				    (int)(nl - p), p);
		}
	}
	strbuf_addstr(
	    out,
	    "The disk and mount are the experiment's target unless -t or "
	    "--device\nnames others. --root DIR reads (and --write edits) "
	    "DIR/etc/fstab.\nAn experiment imported or merged from a fleet "
	    "exports a raw sysctl:\nor sysfs: knob only when --allow-knob "
	    "names it.\n'iotrial apply' sets the values now and installs the "
	    "files.\n");
}

/* Parse argv; 1 for --help, -1 after an error. */
static int parse(int argc, const char **argv, struct export_args *a)
{
	struct strbuf line = STRBUF_INIT, names = STRBUF_INIT;
	struct strbuf epilogue = STRBUF_INIT;
	const char *usage[] = {
	    NULL,
	    "       [-o FILE [--force]] [--root DIR] [--write] [--db PATH]",
	    "       [--allow-knob KNOB ...]",
	    "iotrial export --set KNOB=VALUE ... --format FORMAT [-o FILE]",
	    "       [-t TARGET | --device DEV] [--root DIR] [--write]",
	    NULL,
	};
	struct option opts[] = {
	    OPT_STRING(0, "arm", &a->job.arm, "ARM",
		       "the arm to export (its label, or its number: 1 is "
		       "the first the tables list) instead of the winner"),
	    OPT_KNOB_SET(&a->job.set, "a setting to export (repeatable)"),
	    OPT_CHOICE('f', "format", &a->format, export_format_choices, NULL,
		       "the format to write (required)"),
	    OPT_STRING('o', "output", &a->output, "FILE",
		       "write to FILE (a directory for tuned), not stdout"),
	    OPT_BOOL(0, "force", &a->force, "replace an existing -o FILE"),
	    OPT_BOOL(0, "write", &a->write,
		     "fstab: edit the line in fstab itself (a backup is kept)"),
	    OPT_STRING(0, "root", &a->job.root, "DIR",
		       "read and edit DIR/etc/fstab instead of /etc/fstab"),
	    OPT_STRING('t', "target", &a->job.target, "TARGET",
		       "the directory or block device the settings are for"),
	    OPT_STRING(0, "device", &a->job.device, "DEV",
		       "the block device the settings are for"),
	    OPT_STRING(0, "db", &a->job.db, "PATH",
		       "the results store to read"),
	    OPT_LIST(0, "allow-knob", &a->job.allow, "KNOB",
		     "let an imported or fleet experiment set this raw "
		     "sysctl:/sysfs: knob (repeatable)"),
	    OPT_END(),
	};
	int n;

	export_usage_line(&line);
	usage[0] = line.buf;
	export_epilogue(&epilogue);
	n = parse_options(argc, argv, "export", opts, usage, epilogue.buf, 0);
	strbuf_release(&line);
	strbuf_release(&epilogue);
	strbuf_release(&names);
	if (n == PARSE_OPT_HELP)
		return 1;
	if (n < 0)
		return -1;
	if (n > 1) {
		error("unexpected argument '%s' for 'export'; it takes one "
		      "experiment id",
		      argv[1]);
		return -1;
	}
	a->job.id = n ? argv[0] : NULL;
	if (!a->job.id && !a->job.set.nr) {
		error("'export' needs an experiment id ('iotrial log' lists "
		      "them) or --set KNOB=VALUE");
		return -1;
	}
	if (a->job.id && a->job.set.nr) {
		error("give an experiment id or --set, not both");
		return -1;
	}
	if (a->job.arm && !a->job.id) {
		error("--arm names an arm of an experiment; give its id");
		return -1;
	}
	if (!a->format) {
		error("'export' needs --format: %s",
		      format_names(&names, ", ", " or "));
		strbuf_release(&names);
		return -1;
	}
	if (a->write && strcmp(a->format, "fstab")) {
		error("--write edits fstab; it goes with --format fstab");
		return -1;
	}
	if (a->write && a->output) {
		error("--write edits fstab in place; it takes no -o");
		return -1;
	}
	return 0;
}

/*
 * Write text to path (mode: 0755 makes a script executable; else the
 * default, or the mode of the file replaced), refusing an existing one without
 * force: a new file renamed onto the name, so a reader sees the old file or the
 * new one whole; a link, a device or a FIFO at path is refused
 * (util/outfile.h). An exit code, after the error.
 */
static int write_output(const char *path, const char *text, mode_t mode,
			int force)
{
	struct strbuf err = STRBUF_INIT;
	struct outfile o;
	size_t len = strlen(text);
	int ret;

	ret = outfile_open(&o, path, force ? OUTFILE_REPLACE : 0, &err);
	if (!ret && (mode & 0111)) { /* a script: executable, as umask lets */
		mode_t mask = umask(0);

		umask(mask);
		if (fchmod(o.fd, mode & ~mask))
			ret = err_set(&err, -errno, "cannot write '%s': %s",
				      path, strerror(errno));
	}
	while (!ret && len) {
		ssize_t n = write(o.fd, text, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			ret = err_set(&err, -errno, "cannot write '%s': %s",
				      path, strerror(errno));
		else {
			text += n;
			len -= (size_t)n;
		}
	}
	if (!ret)
		ret = outfile_commit(&o, &err);
	outfile_release(&o);
	if (ret)
		error("%s", err.buf);
	strbuf_release(&err);
	if (!ret)
		return EXIT_OK;
	return ret == -EEXIST || ret == -ELOOP || ret == -EINVAL ? EXIT_USAGE
								 : EXIT_RUNTIME;
}

/* tuned: -o DIR holds the profile's tuned.conf; DIR itself must not be
 * a link (it is not followed). An exit code. */
static int write_tuned(const char *dir, const char *text, int force)
{
	struct strbuf p = STRBUF_INIT;
	int ret, dfd;

	if (mkdir(dir, 0755) && !(errno == EEXIST && force)) {
		if (errno == EEXIST) {
			error("'%s' exists; give --force to replace its "
			      "tuned.conf",
			      dir);
			return EXIT_USAGE;
		}
		error("cannot make directory '%s': %s", dir, strerror(errno));
		return EXIT_RUNTIME;
	}
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dfd < 0) {
		struct stat st;

		if (!lstat(dir, &st) && S_ISLNK(st.st_mode))
			error("'%s' is a symbolic link; give the directory "
			      "itself (links are not followed)",
			      dir);
		else
			error("cannot open directory '%s': %s", dir,
			      strerror(errno));
		return EXIT_RUNTIME;
	}
	close(dfd);
	strbuf_addf(&p, "%s/tuned.conf", dir);
	ret = write_output(p.buf, text, 0644, 1);
	strbuf_release(&p);
	return ret;
}

/* --write: edit the fstab line, checked by findmnt first. */
static int write_fstab(struct export_job *j)
{
	const struct knob_change *c = export_mount_change(&j->src);
	struct strbuf text = STRBUF_INIT, old = STRBUF_INIT, nw = STRBUF_INIT;
	struct strbuf err = STRBUF_INIT, bak = STRBUF_INIT;
	unsigned no;
	int code = EXIT_OK;

	if (export_fstab_edit(j->fstab.buf, c->k.object, c->canon.buf, &text,
			      &old, &nw, &no, &err)) {
		/* the output offers the line to add: a person checks it */
		error("'%s' has no line that mounts '%s'; --write changes "
		      "a line and adds none, so nothing is written",
		      j->fstab_path.buf, c->k.object);
		code = EXIT_USAGE;
		goto out;
	}
	if (!strcmp(old.buf, nw.buf))
		goto out; /* said by the diff */
	code = export_job_verify_fstab(j, text.buf, no);
	if (code)
		goto out;
	if (atfile_replace(j->root, "etc/fstab", text.buf, text.len, 0644, &bak,
			   &err)) {
		error("%s", err.buf);
		code = EXIT_RUNTIME;
		goto out;
	}
	printf("changed line %u of '%s'; the old file is '%s'\n", no,
	       j->fstab_path.buf, bak.buf);
out:
	strbuf_release(&text);
	strbuf_release(&old);
	strbuf_release(&nw);
	strbuf_release(&err);
	strbuf_release(&bak);
	return code;
}

int cmd_export(int argc, const char **argv)
{
	struct export_args a = {0};
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	struct export_job j;
	const struct export_format *f;
	int code, r;

	knob_cli_init(&a.job.set);
	r = parse(argc, argv, &a);
	if (r) {
		knob_cli_release(&a.job.set);
		option_list_release(&a.job.allow);
		return r > 0 ? EXIT_OK : EXIT_USAGE;
	}
	f = export_format_find(a.format);
	code = export_job_prepare(&j, &a.job);
	if (code)
		goto out;
	r = export_render(f, &j.src, &out, &err);
	if (r) {
		error("%s", err.buf);
		code = r == -ENOENT ? EXIT_USAGE : EXIT_RUNTIME;
		goto out;
	}
	if (a.output && f == &export_format_tuned)
		code = write_tuned(a.output, out.buf, a.force);
	else if (a.output)
		code = write_output(a.output, out.buf, f->mode, a.force);
	else
		fputs(out.buf, stdout);
	if (!code && a.write)
		code = write_fstab(&j);
	if (!code) /* after every refusal: a usage error is one line */
		export_job_say_notes(&j, 1);
out:
	export_job_release(&j);
	knob_cli_release(&a.job.set);
	option_list_release(&a.job.allow);
	strbuf_release(&out);
	strbuf_release(&err);
	return code;
}
