/*
 * From an experiment id or --set assignments to what the export
 * renderers read (exportjob.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "exportjob.h"
#include "../core/model/model_json.h"
#include "../core/report/knob_text.h"
#include "../core/store/store.h"
#include "../util/atfile.h"
#include "../util/error.h"
#include "../util/xalloc.h"
#include "../util/banned.h"

int export_job_check_root(const char *root)
{
	struct stat st;

	if (stat(root, &st) || !S_ISDIR(st.st_mode)) {
		error("--root '%s' is not an existing directory", root);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

/* The active tuned profile: root's /etc/tuned/active_profile, else what
 * `tuned-adm active` says on this system; "" when neither knows. */
static void active_tuned(const char *root, struct strbuf *out)
{
	struct strbuf err = STRBUF_INIT;
	char line[256];
	FILE *p;

	if (!atfile_read(root, "etc/tuned/active_profile", out, 4096, &err)) {
		char *nl = strchr(out->buf, '\n');

		if (nl)
			strbuf_setlen(out, (size_t)(nl - out->buf));
		strbuf_trim(out);
		if (out->len || strcmp(root, "/"))
			goto out;
	}
	strbuf_reset(out);
	if (strcmp(root, "/"))
		goto out;
	p = popen("tuned-adm active 2>/dev/null", "r");
	if (!p)
		goto out;
	while (fgets(line, sizeof(line), p)) {
		const char *k = "Current active profile: ";

		if (!strncmp(line, k, strlen(k))) {
			strbuf_addstr(out, line + strlen(k));
			strbuf_trim(out);
		}
	}
	pclose(p);
out:
	strbuf_release(&err);
}

/* What mounts the plan's mount now, into j->mnt: when fstab has no line
 * for it, the exports offer the line to add. Left empty when unknown. */
static void mount_now(struct export_job *j)
{
	struct strbuf err = STRBUF_INIT;
	const struct mountinfo_entry *e;
	struct mountinfo mi;
	size_t i;

	for (i = 0; i < j->plan.nr; i++)
		if (j->plan.v[i].k.scope == KNOB_SCOPE_MOUNT)
			break;
	if (!j->ctx.mountpoint || i == j->plan.nr)
		return;
	if (!mountinfo_read(&mi, &err)) {
		e = mountinfo_find_mountpoint(&mi, j->ctx.mountpoint);
		if (e)
			mountinfo_entry_copy(&j->mnt, e);
	}
	mountinfo_release(&mi);
	strbuf_release(&err);
}

/* Keep a note for export_job_say_notes(). */
static void keep_note(struct export_job *j, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void keep_note(struct export_job *j, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	ALLOC_GROW(j->notes, j->nr_notes + 1, j->alloc_notes);
	j->notes[j->nr_notes++] = strbuf_detach(&sb, NULL);
}

void export_job_say_notes(const struct export_job *j, int plan_notes)
{
	size_t i;

	for (i = 0; i < j->nr_notes; i++)
		if (plan_notes || i < j->nr_pick_notes)
			note("%s", j->notes[i]);
}

/* The stored experiment a->id into j->exp. Returns an exit code. */
static int load_exp(struct export_job *j, const struct export_job_args *a)
{
	struct strbuf err = STRBUF_INIT;
	struct store s;
	int r, code = EXIT_OK;

	r = store_open_flags(&s, a->db, STORE_NO_CREATE, &err);
	if (!r)
		r = store_load_doc(&s, a->id, &j->exp, &err);
	store_close(&s);
	if (r) {
		error("%s", err.buf);
		code = r == -EINVAL || r == -ENOENT ? EXIT_USAGE : EXIT_RUNTIME;
	}
	strbuf_release(&err);
	return code;
}

/*
 * arm_same_fn for --arm: do values a and b of factor mean the same on
 * the job's disk and mount (deadline and mq-deadline where the disk
 * offers it, 4096s and 2048 of read-ahead)? Each is planned as it
 * would be applied; a value that does not plan here means nothing.
 */
static int same_value(void *ctx, const char *factor, const char *a,
		      const char *b)
{
	struct export_job *j = ctx;
	struct strbuf as = STRBUF_INIT, err = STRBUF_INIT;
	struct knob_plan p[2];
	const char *v[2] = {a, b};
	int ok[2], same = 0, i;
	size_t c;

	for (i = 0; i < 2; i++) {
		knob_plan_init(&p[i], &j->ctx);
		strbuf_setf(&as, "%s=%s", factor, v[i]);
		ok[i] = !knob_plan_add(&p[i], as.buf, &err) &&
			!knob_plan_build(&p[i], &err) && p[i].nr;
	}
	if (ok[0] && ok[1] && p[0].nr == p[1].nr) {
		for (c = 0; c < p[0].nr; c++)
			if (strcmp(p[0].v[c].k.name, p[1].v[c].k.name) ||
			    strcmp(p[0].v[c].canon.buf, p[1].v[c].canon.buf))
				break;
		same = c == p[0].nr;
	}
	for (i = 0; i < 2; i++)
		knob_plan_release(&p[i]);
	strbuf_release(&as);
	strbuf_release(&err);
	return same;
}

/* The experiment's arm and its assignments into j->plan. Returns an
 * exit code. */
static int pick(struct export_job *j, const struct export_job_args *a)
{
	struct strbuf err = STRBUF_INIT;
	int r, code = EXIT_OK;
	size_t i;

	r = export_pick(&j->exp, a->arm, same_value, j, &j->pick, &err);
	if (r) {
		error("%s", err.buf);
		code = r == -EINVAL || r == -ENOENT ? EXIT_USAGE : EXIT_RUNTIME;
		goto out;
	}
	if (j->pick.others)
		keep_note(j,
			  "other arms were faster too: %s; --arm LABEL "
			  "exports one of them",
			  j->pick.others);
	if (j->pick.not_knobs)
		keep_note(j,
			  "the arm also sets workload parameters (%s), which "
			  "are not system settings and are not exported",
			  j->pick.not_knobs);
	j->nr_pick_notes = j->nr_notes;
	for (i = 0; i < j->pick.nr_assign && !r; i++)
		r = knob_plan_add(&j->plan, j->pick.assign[i], &err);
	if (r) {
		error("%s", err.buf);
		code = EXIT_USAGE;
	}
out:
	strbuf_release(&err);
	return code;
}

void export_job_plan_text(const struct export_job *j, const char *journal,
			  struct strbuf *out)
{
	strbuf_addf(out, "plan: %zu change%s, in apply order\n", j->plan.nr,
		    j->plan.nr == 1 ? "" : "s");
	report_knob_plan_steps(&j->plan, out);
	report_knob_plan_journal(journal, out);
}

/*
 * An experiment from elsewhere chooses only knobs whose values iotrial
 * checks, unless --allow-knob names the raw ones: when it does not, the
 * plan is printed (so that the admin sees what was asked), then the
 * refusal. An exit code.
 */
static int check_origin(struct export_job *j, const struct export_job_args *a)
{
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
	struct strbuf jpath = STRBUF_INIT;
	int code = EXIT_OK;

	if (!export_pick_check_knobs(&j->pick, &j->plan, a->allow.v,
				     a->allow.nr, &err))
		goto out;
	knob_journal_path(&jpath);
	strbuf_addf(&out, "experiment %s (%s), arm '%s': %s\n", j->pick.id,
		    j->pick.origin, j->pick.label, j->pick.why);
	export_job_plan_text(j, jpath.buf, &out);
	fflush(stdout);
	fputs(out.buf, a->plan_on_stdout ? stdout : stderr);
	fflush(a->plan_on_stdout ? stdout : stderr);
	error("%s", err.buf);
	code = EXIT_USAGE;
out:
	strbuf_release(&err);
	strbuf_release(&out);
	strbuf_release(&jpath);
	return code;
}

int export_job_prepare(struct export_job *j, const struct export_job_args *a)
{
	struct strbuf err = STRBUF_INIT;
	const char *target = a->target;
	time_t now = time(NULL);
	struct tm tm;
	char day[16];
	size_t i;
	int code = EXIT_OK, r = 0, gone = 0;

	memset(j, 0, sizeof(*j));
	knob_ctx_init(&j->ctx);
	knob_plan_init(&j->plan, &j->ctx);
	strbuf_init(&j->fstab, 0);
	strbuf_init(&j->fstab_path, 0);
	strbuf_init(&j->tuned, 0);
	strbuf_init(&j->date, 0);
	j->root = a->root ? a->root : "/";
	code = export_job_check_root(j->root);
	if (code)
		return code;
	if (a->id) {
		code = load_exp(j, a);
		if (code)
			return code;
		if (!target && !a->device) {
			target = j->exp.target ? j->exp.target : "";
			/* a scratch target is gone with its run, and a
			 * run's directory may be: the plan may still need
			 * no place (vm.*) */
			gone = !strncmp(target, "scratch:", 8) || !*target ||
			       (access(target, F_OK) && errno == ENOENT);
		}
	} else {
		gmtime_r(&now, &tm);
		strftime(day, sizeof(day), "%Y-%m-%d", &tm);
		strbuf_addstr(&j->date, day);
	}
	code =
	    knob_cli_context(gone ? NULL : target, a->device, &j->ctx, &j->t);
	if (code)
		goto out;
	if (a->id) {
		/* after the context: --arm may name a value as it means
		 * on this disk */
		code = pick(j, a);
		if (code)
			goto out;
		strbuf_addstr(&j->date, j->pick.created);
	}
	for (i = 0; i < a->set.nr && !r; i++)
		r = knob_plan_add(&j->plan, a->set.assign[i], &err);
	if (r) {
		error("%s", err.buf);
		code = EXIT_USAGE;
		goto out;
	}
	r = knob_plan_build(&j->plan, &err);
	if (r == -ENODEV && gone) {
		/* a device or mount knob, and nowhere to put it */
		error("experiment '%s' ran on '%s', which is gone; give "
		      "--device DEV or -t TARGET for the disk and mount the "
		      "settings are meant for",
		      j->pick.id, target);
		code = EXIT_USAGE;
		goto out;
	}
	if (r) {
		error("%s", err.buf);
		code = knob_cli_exit_code(r);
		goto out;
	}
	for (i = 0; i < j->plan.nr; i++)
		if (j->plan.v[i].note.len)
			keep_note(j, "%s: %s", j->plan.v[i].input_name,
				  j->plan.v[i].note.buf);
	if (a->id) {
		code = check_origin(j, a);
		if (code)
			goto out;
	}
	/* the disk udev matches: the context's, else a sysfs: knob's */
	j->src.disk = j->ctx.disk;
	for (i = 0; i < j->plan.nr && !j->src.disk; i++)
		if (j->plan.v[i].k.scope == KNOB_SCOPE_DEVICE)
			j->src.disk = j->plan.v[i].k.object;
	if (j->src.disk)
		export_disk_id_read("", j->src.disk, &j->disk_id);
	strbuf_addf(&j->fstab_path, "%s%setc/fstab", j->root,
		    j->root[strlen(j->root) - 1] == '/' ? "" : "/");
	strbuf_reset(&err);
	j->fstab_ok =
	    !atfile_read(j->root, "etc/fstab", &j->fstab, 1 << 20, &err);
	active_tuned(j->root, &j->tuned);
	mount_now(j);
	j->src.plan = &j->plan;
	j->src.id = a->id ? j->pick.id : NULL;
	j->src.label = a->id ? j->pick.label : NULL;
	j->src.why = a->id ? j->pick.why : NULL;
	j->src.date = j->date.buf;
	j->src.disk_id = &j->disk_id;
	j->src.fstab = j->fstab_ok ? j->fstab.buf : NULL;
	j->src.fstab_path = j->fstab_path.buf;
	j->src.tuned_include = j->tuned.len ? j->tuned.buf : NULL;
	j->src.mount_source = j->mnt.source;
	j->src.mount_fstype = j->mnt.fstype;
out:
	strbuf_release(&err);
	return code;
}

/*
 * Does `findmnt --verify --tab-file path` accept path? 1 yes, 0 no, -1
 * when findmnt cannot be run. What it prints (its report, also "0 parse
 * errors, 0 errors, 1 warning" when it accepts) goes to report, up to
 * 64 KiB, to be shown only when it matters.
 */
static int findmnt_verify(const char *path, struct strbuf *report)
{
	char buf[4096];
	int fds[2], st;
	ssize_t n;
	pid_t pid;

	if (pipe2(fds, O_CLOEXEC))
		return -1;
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (!pid) {
		dup2(fds[1], 1);
		dup2(fds[1], 2);
		execlp("findmnt", "findmnt", "--verify", "--tab-file", path,
		       (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	while ((n = read(fds[0], buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			break;
		if (report->len < 65536)
			strbuf_add(report, buf, (size_t)n);
	}
	close(fds[0]);
	if (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) ||
	    WEXITSTATUS(st) == 127)
		return -1;
	return WEXITSTATUS(st) == 0;
}

/* Run findmnt --verify on text, in a private temporary file. */
static int verify_text(const char *text, struct strbuf *report)
{
	char tmp[] = "/tmp/iotrial-fstab.XXXXXX";
	size_t len = strlen(text);
	int fd = mkstemp(tmp), ret;

	if (fd < 0)
		return -1;
	ret = write(fd, text, len) == (ssize_t)len ? 0 : -1;
	close(fd);
	if (!ret)
		ret = findmnt_verify(tmp, report);
	unlink(tmp);
	return ret;
}

/* findmnt's report, indented, on stderr after a message about it. */
static void show_report(const struct strbuf *report)
{
	const char *p, *nl;

	for (p = report->buf; *p; p = *nl ? nl + 1 : nl) {
		nl = strchrnul(p, '\n');
		fprintf(stderr, "    %.*s\n", (int)(nl - p), p);
	}
}

int export_job_verify_fstab(const struct export_job *j, const char *text,
			    unsigned line_no)
{
	struct strbuf rep = STRBUF_INIT, old = STRBUF_INIT;
	int v = verify_text(text, &rep), code = EXIT_OK;

	if (v == 0 && verify_text(j->fstab.buf, &old) == 1) {
		error("'findmnt --verify' rejects '%s' with the changed line; "
		      "nothing is written; its report:",
		      j->fstab_path.buf);
		show_report(&rep);
		code = EXIT_RUNTIME;
	} else if (v < 0) {
		warning("cannot run 'findmnt --verify': the changed '%s' is "
			"not checked",
			j->fstab_path.buf);
	} else if (v == 0) {
		warning("'findmnt --verify' already rejected '%s' before the "
			"change; only line %u is changed; its report:",
			j->fstab_path.buf, line_no);
		show_report(&rep);
	}
	strbuf_release(&rep);
	strbuf_release(&old);
	return code;
}

void export_job_release(struct export_job *j)
{
	size_t i;

	for (i = 0; i < j->nr_notes; i++)
		free(j->notes[i]);
	free(j->notes);
	experiment_doc_release(&j->exp);
	export_pick_release(&j->pick);
	knob_plan_release(&j->plan);
	knob_ctx_release(&j->ctx);
	target_release(&j->t);
	export_disk_id_release(&j->disk_id);
	strbuf_release(&j->fstab);
	strbuf_release(&j->fstab_path);
	strbuf_release(&j->tuned);
	strbuf_release(&j->date);
	mountinfo_entry_release(&j->mnt);
}
