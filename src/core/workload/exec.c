/*
 * exec: any command as the workload. The command runs under /bin/sh -c
 * in the target's work directory, with "{dir}" replaced by that
 * directory and IOTRIAL_DIR set to it, in a process group of its own.
 * The timed region is the command's life: its wall time is the default
 * metric (lower is better), the CPU of the whole tree it waited for is
 * the run's user and sys, and device truth watches the target's disk
 * meanwhile. When the user's own figure matters, metric-from (a POSIX
 * extended regular expression matched against what it printed, stdout
 * first; its first group if it has one) or metric-cmd (a command run
 * after it that prints the number) gives the "printed" metric.
 *
 * A command that exits non-zero or is killed fails the run, with its
 * status and the last lines of its stderr; it is not counted.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <regex.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "workload.h"
#include "../../util/clock.h"
#include "../../util/error.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

#define KEEP_BYTES    (256u << 10) /* of each stream, the end is kept */
#define TAIL_LINES    10
#define KILL_GRACE_NS 2000000000ull

/* exec's parameters (w->params), as the rows fill them. */
struct exec_params {
	struct workload_common common; /* none of them: zeros */
	const char *cmd, *metric_from, *metric_cmd;
};

#define EX(member) PARAM_AT(struct exec_params, member)

static const struct param_spec exec_rows[] = {
    {"cmd", PARAM_STRING, "", 0, 0, NULL,
     "the command (what follows '--'), run by /bin/sh -c in the work "
     "directory; {dir} is replaced by it",
     EX(cmd)},
    {"metric-from", PARAM_STRING, "", 0, 0, NULL,
     "a regular expression (POSIX extended) for a number the command "
     "prints: its first group, else the whole match; the 'printed' metric",
     EX(metric_from)},
    {"metric-cmd", PARAM_STRING, "", 0, 0, NULL,
     "a command run after each run that prints the number of the "
     "'printed' metric (IOTRIAL_DIR is set)",
     EX(metric_cmd)},
    {"label", PARAM_STRING, "", 0, 0, NULL,
     "free text carried into results (A/A experiments)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

static double printed_value(const struct workload *w,
			    const struct run_result *r)
{
	(void)w;
	return r->exec && r->exec->have_printed ? r->exec->printed : NAN;
}

static const struct metric_def exec_metrics[] = {
    {"printed", "", true,
     "the number the command printed (metric-from, metric-cmd), higher "
     "is better",
     printed_value},
    {"printed_lower", "", false,
     "the same number, lower is better (a time, a latency)", printed_value},
    {NULL, NULL, false, NULL, NULL},
};

/*
 * The first word of cmd as the shell will read it, when it is plain text
 * and single-quoted parts ('my prog', or what "--" made of one argument
 * with spaces): else NULL, and the shell decides (variables, double
 * quotes, an assignment, a glob).
 */
static char *first_word(const char *cmd)
{
	static const char syntax[] = "=$`\"\\(){}<>|;&*?[~#";
	struct strbuf word = STRBUF_INIT;
	const char *p = cmd;

	while (*p && !strchr(" \t\n", *p)) {
		if (*p == '\'') {
			const char *end = strchr(p + 1, '\'');

			if (!end)
				goto shell;
			strbuf_add(&word, p + 1, (size_t)(end - p - 1));
			p = end + 1;
		} else if (strchr(syntax, *p)) {
			goto shell;
		} else {
			strbuf_addch(&word, *p++);
		}
	}
	if (word.len)
		return strbuf_detach(&word, NULL);
shell:
	strbuf_release(&word);
	return NULL;
}

/* Is prog runnable: a path that is executable, or a name on PATH? */
static int runnable(const char *prog)
{
	const char *path = getenv("PATH"), *p;
	struct strbuf sb = STRBUF_INIT;
	int ok = 0;

	if (strchr(prog, '/'))
		return !access(prog, X_OK);
	if (!path || !*path)
		path = "/usr/local/bin:/usr/bin:/bin:/usr/local/sbin:/usr/sbin:"
		       "/sbin";
	for (p = path; !ok; p += strcspn(p, ":") + (p[strcspn(p, ":")] != 0)) {
		size_t n = strcspn(p, ":");

		strbuf_reset(&sb);
		strbuf_add(&sb, n ? p : ".", n ? n : 1);
		strbuf_addf(&sb, "/%s", prog);
		ok = !access(sb.buf, X_OK);
		if (!p[n])
			break;
	}
	strbuf_release(&sb);
	/* a shell builtin (cd, echo, true) is not on PATH, and is fine */
	return ok || !strcmp(prog, "echo") || !strcmp(prog, "true") ||
	       !strcmp(prog, "false") || !strcmp(prog, "cd") ||
	       !strcmp(prog, "exec") || !strcmp(prog, "test");
}

static int exec_validate(struct workload *w, struct strbuf *err)
{
	const struct exec_params *p = w->params;
	const char *cmd = p->cmd, *re = p->metric_from;
	char *prog;
	regex_t rx;
	int rc;

	if (!*cmd)
		return err_set(err, -EINVAL,
			       "exec needs a command: iotrial run exec -t DIR "
			       "-- CMD ARGS...");
	prog = first_word(cmd);
	if (prog && !runnable(prog) && strpbrk(prog, " \t\n;|&<>()$`")) {
		/* "-- 'grep ...; grep ...'": one argument, one word */
		err_set(
		    err, -EINVAL,
		    "the command is one word to the shell, '%s', so it would "
		    "look for a program of that name; give a shell line "
		    "(a pipeline, several commands) with --cmd '%s' or as "
		    "-- sh -c '...', and a program's arguments as "
		    "arguments of their own: -- grep -c x FILE",
		    prog, prog);
		free(prog);
		return -EINVAL;
	}
	if (prog && !runnable(prog)) {
		err_set(err, -ENOENT,
			"the command '%s' is not found (not on PATH, or not "
			"executable); give its path",
			prog);
		free(prog);
		return -ENOENT;
	}
	free(prog);
	if (*re && *p->metric_cmd)
		return err_set(err, -EINVAL,
			       "give --metric-from or --metric-cmd, not both");
	if (*re && (rc = regcomp(&rx, re, REG_EXTENDED)) != 0) {
		char msg[128];

		regerror(rc, &rx, msg, sizeof(msg));
		return err_set(err, -EINVAL,
			       "--metric-from '%s' is not a regular "
			       "expression: %s",
			       re, msg);
	}
	if (*re)
		regfree(&rx);
	if (w->ro.ios)
		return err_set(err, -EINVAL,
			       "exec runs until the command ends: leave out "
			       "--ios");
	return 0;
}

/* workload_ops.needs_files: a command that names {dir} works in it */
static int exec_needs_files(const struct workload *w)
{
	const struct exec_params *p = w->params;

	return strstr(p->cmd, "{dir}") != NULL;
}

/* The work directory, or the device for a device target. */
static const char *where(const struct workload *w)
{
	return w->target->workdir ? w->target->workdir : w->target->path;
}

static int exec_prepare(struct workload *w, struct target *t,
			struct strbuf *err)
{
	w->target = t;
	if (exec_needs_files(w))
		return workload_need_files(w, t,
					   "runs a command that names {dir} "
					   "(without it, the command gets the "
					   "device as IOTRIAL_DEV)",
					   err);
	return 0;
}

/* cmd with every "{dir}" replaced by dir, into out. */
static void expand(const char *cmd, const char *dir, struct strbuf *out)
{
	const char *p;

	while ((p = strstr(cmd, "{dir}"))) {
		strbuf_add(out, cmd, (size_t)(p - cmd));
		strbuf_addstr(out, dir);
		cmd = p + 5;
	}
	strbuf_addstr(out, cmd);
}

/* Keep the last KEEP_BYTES of a stream in sb. */
static void keep_end(struct strbuf *sb, const char *buf, size_t n)
{
	strbuf_add(sb, buf, n);
	if (sb->len > KEEP_BYTES) {
		size_t cut = sb->len - KEEP_BYTES / 2;

		memmove(sb->buf, sb->buf + cut, sb->len - cut);
		strbuf_setlen(sb, sb->len - cut);
	}
}

/* The last TAIL_LINES lines of text, owned. */
static char *tail_of(const char *text, size_t len)
{
	size_t i = len, lines = 0;

	while (i > 0 && (text[i - 1] == '\n' || text[i - 1] == ' '))
		i--;
	len = i;
	while (i > 0 && lines < TAIL_LINES)
		if (text[--i] == '\n' && ++lines == TAIL_LINES)
			i++;
	return xstrndup(text + i, len - i);
}

/*
 * Run cmd (sh -c) in dir with IOTRIAL_DIR/IOTRIAL_DEV set, collecting
 * its stdout and stderr; a stop request kills its process group.
 * *status gets its wait status. 0, or -errno when it cannot be started.
 */
static int run_command(const struct workload *w, const char *cmd,
		       struct strbuf *out, struct strbuf *errout, int *status,
		       struct strbuf *err)
{
	int po[2] = {-1, -1}, pe[2] = {-1, -1}, open_fds = 2;
	uint64_t kill_at = 0;
	pid_t pid;
	char buf[65536];

	if (pipe2(po, O_CLOEXEC) || pipe2(pe, O_CLOEXEC)) {
		int e = errno;

		if (po[0] >= 0) {
			close(po[0]);
			close(po[1]);
		}
		return err_set(err, -e, "cannot make a pipe: %s", strerror(e));
	}
	pid = fork();
	if (pid < 0) {
		int e = errno;

		close(po[0]);
		close(po[1]);
		close(pe[0]);
		close(pe[1]);
		return err_set(err, -e, "cannot fork: %s", strerror(e));
	}
	if (pid == 0) {
		int null = open("/dev/null", O_RDONLY);

		setpgid(0, 0);
		signal(SIGPIPE, SIG_DFL);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		if (null >= 0)
			dup2(null, 0);
		dup2(po[1], 1);
		dup2(pe[1], 2);
		if (w->target->workdir) {
			setenv("IOTRIAL_DIR", w->target->workdir, 1);
			if (chdir(w->target->workdir))
				_exit(126);
		} else {
			setenv("IOTRIAL_DEV", w->target->path, 1);
		}
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	setpgid(pid, pid); /* both sides: whichever runs first */
	close(po[1]);
	close(pe[1]);
	while (open_fds) {
		struct pollfd pf[2] = {{po[0], POLLIN, 0}, {pe[0], POLLIN, 0}};
		int i, n;

		if (*w->stop && !kill_at) {
			kill(-pid, SIGTERM);
			kill_at = clock_now_ns() + KILL_GRACE_NS;
		} else if (kill_at && clock_now_ns() > kill_at) {
			kill(-pid, SIGKILL);
		}
		n = poll(pf, 2, 100);
		if (n < 0 && errno != EINTR)
			break;
		for (i = 0; i < 2 && n > 0; i++) {
			ssize_t got;

			if (pf[i].fd < 0 ||
			    !(pf[i].revents & (POLLIN | POLLHUP)))
				continue;
			got = read(pf[i].fd, buf, sizeof(buf));
			if (got > 0) {
				keep_end(i ? errout : out, buf, (size_t)got);
				continue;
			}
			if (got < 0 && errno == EINTR)
				continue;
			close(pf[i].fd);
			if (i)
				pe[0] = -1;
			else
				po[0] = -1;
			open_fds--;
		}
	}
	if (po[0] >= 0)
		close(po[0]);
	if (pe[0] >= 0)
		close(pe[0]);
	while (waitpid(pid, status, 0) < 0 && errno == EINTR)
		if (*w->stop)
			kill(-pid, SIGKILL);
	kill(-pid, SIGKILL); /* what it left in its group goes too */
	return 0;
}

/* The number in text per the regex re into *v: 0 or -ENOENT. */
static int match_number(const char *text, const char *re, double *v)
{
	regmatch_t m[2];
	regex_t rx;
	int ret = -ENOENT;

	if (regcomp(&rx, re, REG_EXTENDED))
		return -EINVAL;
	if (!regexec(&rx, text, 2, m, 0)) {
		regmatch_t g = m[1].rm_so >= 0 ? m[1] : m[0];
		char *num =
		    xstrndup(text + g.rm_so, (size_t)(g.rm_eo - g.rm_so));
		char *end;

		*v = strtod(num, &end);
		if (end != num && isfinite(*v))
			ret = 0;
		free(num);
	}
	regfree(&rx);
	return ret;
}

/* The exit status as people say it: "exit 3", "killed by signal 9". */
static void say_status(int status, struct strbuf *out)
{
	if (WIFEXITED(status))
		strbuf_addf(out, "exited with status %d", WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		strbuf_addf(out, "was killed by signal %d", WTERMSIG(status));
	else
		strbuf_addf(out, "ended with wait status %d", status);
}

/* Read the printed metric after the run into ex (metric-from, -cmd). */
static int read_printed(const struct workload *w, struct run_exec *ex,
			const struct strbuf *out, const struct strbuf *errout,
			struct strbuf *err)
{
	const struct exec_params *p = w->params;
	const char *re = p->metric_from, *mc = p->metric_cmd;
	struct strbuf o = STRBUF_INIT, e = STRBUF_INIT, c = STRBUF_INIT;
	int status = 0, ret = 0;

	if (*re) {
		if (!match_number(out->buf, re, &ex->printed) ||
		    !match_number(errout->buf, re, &ex->printed))
			ex->have_printed = 1;
		else
			ret = err_set(err, -ENOENT,
				      "nothing the command printed matches "
				      "--metric-from '%s' with a number; its "
				      "last lines:\n%s",
				      re, ex->stdout_tail);
		return ret;
	}
	if (!*mc)
		return 0;
	expand(mc, where(w), &c);
	ret = run_command(w, c.buf, &o, &e, &status, err);
	if (!ret && (!WIFEXITED(status) || WEXITSTATUS(status))) {
		strbuf_reset(&c);
		say_status(status, &c);
		ret = err_set(err, -EIO, "--metric-cmd %s: %s", c.buf,
			      e.len ? e.buf : "(no stderr)");
	} else if (!ret) {
		char *end;

		ex->printed = strtod(o.buf, &end);
		if (end == o.buf || !isfinite(ex->printed))
			ret = err_set(err, -EINVAL,
				      "--metric-cmd printed no number "
				      "first: '%.80s'",
				      o.buf);
		else
			ex->have_printed = 1;
	}
	strbuf_release(&o);
	strbuf_release(&e);
	strbuf_release(&c);
	return ret;
}

static int exec_run(struct workload *w, struct run_result *r,
		    struct strbuf *err)
{
	struct strbuf cmd = STRBUF_INIT, out = STRBUF_INIT,
		      errout = STRBUF_INIT, st = STRBUF_INIT;
	struct run_exec *ex = xcalloc(1, sizeof(*ex));
	struct measure m;
	int status = 0, ret;

	r->exec = ex;
	r->io_uncounted = 1;
	expand(((const struct exec_params *)w->params)->cmd, where(w), &cmd);
	ex->cmd = xstrdup(cmd.buf);
	measure_init(&m, w->hook);
	m.children = 1;
	measure_begin(&m);
	ret = run_command(w, cmd.buf, &out, &errout, &status, err);
	r->interrupted = *w->stop != 0;
	if (!ret) {
		ex->status = WIFEXITED(status)	   ? WEXITSTATUS(status)
			     : WIFSIGNALED(status) ? 128 + WTERMSIG(status)
						   : status;
		ex->stdout_tail = tail_of(out.buf, out.len);
		ex->stderr_tail = tail_of(errout.buf, errout.len);
	}
	measure_end(&m, r);
	if (!ret && !r->interrupted &&
	    (!WIFEXITED(status) || WEXITSTATUS(status))) {
		say_status(status, &st);
		ret = err_set(err, -EIO,
			      "the command %s; the run is not counted. The "
			      "last lines of its stderr:\n%s",
			      st.buf,
			      *ex->stderr_tail ? ex->stderr_tail : "(none)");
	}
	if (!ret && !r->interrupted)
		ret = read_printed(w, ex, &out, &errout, err);
	strbuf_release(&cmd);
	strbuf_release(&out);
	strbuf_release(&errout);
	strbuf_release(&st);
	return ret;
}

static void exec_cleanup(struct workload *w)
{
	w->priv = NULL;
}

/* workload_ops.default_metric: the number the command printed when
 * metric-from or metric-cmd says how to read it, else its wall time. */
static const char *exec_metric(const struct workload *w)
{
	const struct exec_params *p = w->params;

	if (workload_given(w, &p->metric_from)->is_set ||
	    workload_given(w, &p->metric_cmd)->is_set)
		return "printed";
	return "wall";
}

const struct workload_ops workload_exec = {
    .name = "exec",
    .summary = "any command: iotrial run exec -t DIR -- CMD ARGS...",
    .params = exec_rows,
    .params_size = sizeof(struct exec_params),
    .validate = exec_validate,
    .cpu_bound_advice = "that is the command's own work; iotrial cannot "
			"change it",
    .untimed = 1,
    .prepare = exec_prepare,
    .run = exec_run,
    .cleanup = exec_cleanup,
    .default_metric = exec_metric,
    .command_param = "cmd",
    .metrics = exec_metrics,
    .needs_files = exec_needs_files,
};
