/*
 * iotrial record: capture what a process tree (-p PID, or a command
 * after --) or a cgroup asks of the file systems, with the kernel's
 * tracepoints through BPF, into a trace file that `trace show|stats`
 * reads and the replay workload plays back. Needs root (or CAP_BPF and
 * CAP_PERFMON).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#include "cli.h"
#include "progress.h"
#include "../core/trace/blk.h"
#include "../core/trace/capture.h"
#include "../core/trace/trace.h"
#include "../util/clock.h"
#include "../util/error.h"
#include "../util/outfile.h"
#include "../util/units.h"
#include "../util/banned.h"

/* What record was asked. */
struct record_args {
	const char *cgroup, *out;
	const char *layer, *device; /* --layer file|block|both, --device */
	unsigned layers;	    /* enum capture_layer */
	uint32_t blk_kdev;	    /* the device as the tracepoints say */
	uint64_t blk_rdev;
	uint64_t pid;
	int pid_given;
	int force, anonymize;
	int nr_cmd;
	const char **cmd; /* after "--" */
	uint64_t duration_ns;
	uint64_t ring_bytes;
	pid_t target;
	struct cli_progress prog; /* --progress */
};

static const char *const record_usage[] = {
    "iotrial record (-p PID | --cgroup PATH | -- CMD [ARGS...])",
    "    [--duration DUR] [--ring SIZE] [--anonymize] [--force] -o TRACE",
    "    [--progress json[:FD]]",
    "iotrial record --layer block|both --device DEV",
    "    [-p PID | --cgroup PATH | -- CMD [ARGS...]] [--duration DUR] ...",
    NULL,
};

static const char record_epilogue[] =
    "Records the file-system calls (open, read, write, fsync, rename, "
    "stat, ...)\nof a process and its children, or of a cgroup, with "
    "timestamps in ns, into\nTRACE (docs/TRACE-FORMAT.md). It stops when "
    "the command or process ends,\nafter --duration, or at Ctrl-C. Calls "
    "the ring buffer (--ring, 8M by\ndefault) could not hold are counted "
    "as lost; replay refuses such a trace\nunless --allow-lost. With --layer "
    "block (or both), the requests of the\nwhole disk DEV as its driver "
    "sees them (block_rq_issue, block_rq_complete):\nsector, bytes, "
    "read/write/discard/flush with FUA and preflush, the queue\ndepth; the "
    "block layer knows no process, so every request of DEV is\nrecorded, "
    "while CMD runs or for --duration. Needs root.\n";

/* Parse argv into a; 0, 1 for --help, -1 after an error. */
static int parse_args(int argc, const char **argv, struct record_args *a)
{
	static const char *const layers[] = {"file", "block", "both", NULL};
	struct option opts[] = {
	    OPT_CHOICE(0, "layer", &a->layer, layers, "file",
		       "what to record: system calls (file), a device's "
		       "requests (block), or both"),
	    OPT_STRING(0, "device", &a->device, "DEV",
		       "the block device of --layer block or both"),
	    OPT_COUNT('p', "pid", &a->pid, NULL, "1", "4194304",
		      "record this process and its children",
		      .given = &a->pid_given),
	    OPT_STRING(0, "cgroup", &a->cgroup, "PATH",
		       "record the tasks of this cgroup (v2) and below"),
	    OPT_DURATION(0, "duration", &a->duration_ns, NULL, "1ms", NULL,
			 "stop after this long (default: when it ends)"),
	    OPT_SIZE(0, "ring", &a->ring_bytes, "8M", "4K", "1G",
		     "the ring buffer between kernel and iotrial"),
	    OPT_STRING('o', "output", &a->out, "TRACE",
		       "the trace file to write"),
	    OPT_BOOL(0, "force", &a->force, "replace TRACE if it exists"),
	    OPT_BOOL(0, "anonymize", &a->anonymize,
		     "write paths as stable hashes, leave out the command"),
	    OPT_CLI_PROGRESS_JSON(&a->prog),
	    OPT_END(),
	};
	int n, given, i;

	for (i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--")) {
			a->cmd = argv + i + 1;
			a->nr_cmd = argc - i - 1;
			argc = i;
			break;
		}
	n = parse_options(argc, argv, "record", opts, record_usage,
			  record_epilogue, 0);
	if (n == PARSE_OPT_HELP)
		return 1;
	if (n < 0)
		return -1;
	if (n > 0) {
		error("unexpected argument '%s' for 'record'; a command goes "
		      "after '--'",
		      argv[0]);
		return -1;
	}
	given = !!a->pid_given + !!a->cgroup + (a->nr_cmd > 0);
	a->layers = CAPTURE_FILE;
	if (a->layer && !strcmp(a->layer, "block"))
		a->layers = CAPTURE_BLOCK;
	else if (a->layer && !strcmp(a->layer, "both"))
		a->layers = CAPTURE_FILE | CAPTURE_BLOCK;
	if ((a->layers & CAPTURE_BLOCK) && !a->device) {
		error("'--layer %s' needs --device DEV, the disk to record",
		      a->layer);
		return -1;
	}
	if (!(a->layers & CAPTURE_BLOCK) && a->device) {
		error("'--device' goes with '--layer block' or '--layer "
		      "both'");
		return -1;
	}
	if (a->layers == CAPTURE_BLOCK && given > 1) {
		error("'record' takes at most one of -p PID, --cgroup PATH "
		      "or -- CMD");
		return -1;
	}
	if (a->layers == CAPTURE_BLOCK && !given && !a->duration_ns) {
		error("'record --layer block' without a command or process "
		      "needs --duration (or stops at Ctrl-C only)");
		return -1;
	}
	if (a->layers == CAPTURE_BLOCK && !given) {
		/* the device alone, for --duration */
	} else if (given != 1) {
		error("'record' needs exactly one of -p PID, --cgroup PATH or "
		      "-- CMD");
		return -1;
	}
	if (!a->out) {
		error("'record' needs -o TRACE, the file to write");
		return -1;
	}
	if (a->pid_given)
		a->target = (pid_t)a->pid;
	return 0;
}

/*
 * Start CMD held at a pipe: it execs only when the capture is running,
 * so its first call is recorded. The pid, or -1 after an error; *go is
 * the pipe's end to close to let it go; *failed the end of a
 * close-on-exec pipe that holds the exec's errno when it failed (and
 * nothing when the command ran, whatever its exit code).
 */
static pid_t spawn_held(const struct record_args *a, int *go, int *failed)
{
	int p[2], f[2];
	pid_t pid;

	if (pipe(p)) {
		error("cannot make a pipe: %s", strerror(errno));
		return -1;
	}
	if (pipe2(f, O_CLOEXEC)) {
		error("cannot make a pipe: %s", strerror(errno));
		close(p[0]);
		close(p[1]);
		return -1;
	}
	pid = fork();
	if (pid < 0) {
		error("cannot fork: %s", strerror(errno));
		close(p[0]);
		close(p[1]);
		close(f[0]);
		close(f[1]);
		return -1;
	}
	if (!pid) {
		char c;
		int e;

		close(p[1]);
		close(f[0]);
		if (read(p[0], &c, 1) != 0)
			_exit(127); /* told not to go */
		close(p[0]);
		execvp(a->cmd[0], (char *const *)a->cmd);
		e = errno;
		fprintf(stderr, "error: cannot run '%s': %s\n", a->cmd[0],
			strerror(e));
		if (write(f[1], &e, sizeof(e)) != (ssize_t)sizeof(e))
			_exit(127);
		_exit(127);
	}
	close(p[0]);
	close(f[1]);
	*go = p[1];
	*failed = f[0];
	return pid;
}

/* Write what the trace is of, as meta entries. */
static int write_meta(struct trace_writer *w, const struct record_args *a,
		      struct strbuf *err)
{
	int ret = capture_write_meta(w,
				     a->layers == CAPTURE_BLOCK	 ? "block"
				     : a->layers & CAPTURE_BLOCK ? "both"
								 : "file",
				     err);

	if (!ret && a->device)
		ret = blk_write_meta(w, a->device, a->blk_rdev, err);

	if (!ret && a->nr_cmd) {
		char *line = cli_command_line(a->nr_cmd, a->cmd);

		ret = trace_writer_meta(w, "command", line, err);
		free(line);
	}
	if (!ret && a->pid_given) {
		char pid[24];

		snprintf(pid, sizeof(pid), "%llu", (unsigned long long)a->pid);
		ret = trace_writer_meta(w, "pid", pid, err);
	}
	if (!ret && a->cgroup)
		ret = trace_writer_meta(w, "cgroup", a->cgroup, err);
	return ret;
}

/* Should the capture stop now? *status gets the command's exit. */
static int done(const struct record_args *a, pid_t child, int *status,
		uint64_t start_ns, volatile int *stop)
{
	if (*stop)
		return 1;
	if (a->duration_ns && clock_now_ns() - start_ns >= a->duration_ns)
		return 1;
	if (child > 0 && waitpid(child, status, WNOHANG) == child)
		return 2;
	if (a->target && kill(a->target, 0) && errno == ESRCH)
		return 1;
	return 0;
}

/* The capture's notes, one a line. */
static void say_notes(const char *notes)
{
	while (*notes) {
		const char *nl = strchr(notes, '\n');
		int n = nl ? (int)(nl - notes) : (int)strlen(notes);

		note("%.*s", n, notes);
		notes += n + !!nl;
	}
}

/* The io_uring requests, when the recorded processes made rings or
 * the capture met requests; what it could not record, plainly. */
static void say_uring(const struct capture_uring *u)
{
	if (!u->recorded) {
		if (u->rings_made)
			warning("the recorded processes made %llu io_uring "
				"ring%s, and record cannot see io_uring "
				"requests on this kernel (see the note above): "
				"their reads, writes and syncs are not in the "
				"trace, and a replay does not do them",
				(unsigned long long)u->rings_made,
				u->rings_made == 1 ? "" : "s");
		return;
	}
	if (!u->requests && !u->unattributed && !u->other && !u->rings_made)
		return;
	printf("io_uring: %llu ring%s made, %llu requests on %u ring%s "
	       "recorded (%llu not completed when the capture ended)\n",
	       (unsigned long long)u->rings_made, u->rings_made == 1 ? "" : "s",
	       (unsigned long long)u->requests, u->rings,
	       u->rings == 1 ? "" : "s", (unsigned long long)u->undone);
	if (u->other)
		warning("%llu io_uring requests of operations record does not "
			"take are not in the trace (%s): it records reads, "
			"writes and fsyncs",
			(unsigned long long)u->other, u->other_ops);
	if (u->unattributed)
		warning("%llu io_uring requests could not be attributed to a "
			"file (a registered file the process no longer held): "
			"they are not in the trace, and a replay does not do "
			"them",
			(unsigned long long)u->unattributed);
}

/* The closing lines: what was recorded and what it cost. */
static void say_end(const struct record_args *a, const struct trace_end *end,
		    uint64_t dropped, uint64_t blk_requests,
		    uint64_t blk_missed)
{
	double secs = (double)end->duration_ns / 1e9;

	if (a->layers == CAPTURE_BLOCK)
		printf("recorded %llu requests of '%s' in %.3f s to '%s'",
		       (unsigned long long)end->nr_events, a->device, secs,
		       a->out);
	else
		printf("recorded %llu %s in %.3f s to '%s'",
		       (unsigned long long)end->nr_events,
		       a->layers & CAPTURE_BLOCK ? "events" : "calls", secs,
		       a->out);
	if (dropped)
		printf(" (%llu more on pipes, sockets, /proc, /sys, /dev "
		       "left out)",
		       (unsigned long long)dropped);
	printf("\n");
	if (a->layers == (CAPTURE_FILE | CAPTURE_BLOCK))
		printf("of them %llu requests of '%s'\n",
		       (unsigned long long)blk_requests, a->device);
	if (secs > 0)
		printf("capture cost: %.2f%% of a core in BPF (%llu program "
		       "runs), %.2f%% in iotrial\n",
		       100.0 * (double)end->bpf_ns / (double)end->duration_ns,
		       (unsigned long long)end->bpf_calls,
		       100.0 * (double)end->user_ns / (double)end->duration_ns);
	if (blk_missed)
		warning("the kernel skipped %llu block completions or inserts "
			"(another BPF program was running on that CPU): "
			"those requests are kept, marked as not completed, "
			"and the queue depth after them may be high",
			(unsigned long long)blk_missed);
	if (end->lost)
		warning("%llu calls were lost (the ring buffer was full): "
			"replay refuses this trace unless --allow-lost; a "
			"larger --ring loses fewer",
			(unsigned long long)end->lost);
}

/* --progress: events written so far, every second (*last_ns: the last
 * time; NULL: now); those lost once the capture ended (else
 * UINT64_MAX). */
static void say_progress(struct record_args *a, const struct trace_writer *w,
			 const struct capture *c, uint64_t *last_ns,
			 uint64_t lost)
{
	struct progress_snap s;
	uint64_t now = clock_now_ns();
	double elapsed_s = (double)(now - capture_start_ns(c)) / 1e9;

	if (last_ns && now - *last_ns < 1000000000ull)
		return;
	if (last_ns)
		*last_ns = now;
	progress_snap_init(&s, "record");
	s.phase = "capture";
	s.have_events = 1;
	s.events = w->nr_events;
	s.lost = lost;
	if (a->duration_ns) {
		s.eta_s = (double)a->duration_ns / 1e9 - elapsed_s;
		if (s.eta_s < 0)
			s.eta_s = 0;
		s.eta_by = "duration";
	}
	cli_progress_step(&a->prog, &s);
}

int cmd_record(int argc, const char **argv)
{
	struct record_args a = {0};
	struct capture_opts co = {0};
	struct strbuf err = STRBUF_INIT;
	struct trace_writer w = {.fd = -1};
	struct trace_end end = {0};
	struct capture *c = NULL;
	struct capture_disks disks = {0};
	uint64_t sampled_ns = 0, progress_ns = 0;
	volatile int *stop;
	pid_t child = -1;
	int go = -1, status = 0, ret = EXIT_RUNTIME, r, why = 0;
	int exec_failed = -1, exec_errno = 0;

	cli_progress_init(&a.prog);
	r = parse_args(argc, argv, &a);
	if (r || cli_progress_check(&a.prog)) {
		cli_progress_release(&a.prog);
		return r > 0 ? EXIT_OK : EXIT_USAGE;
	}
	co.cgroup = a.cgroup;
	co.ring_bytes = a.ring_bytes;
	co.layers = a.layers;
	if (a.device) {
		if (blk_device_resolve(a.device, &a.blk_kdev, &a.blk_rdev,
				       &err)) {
			error("%s", err.buf);
			ret = EXIT_USAGE;
			goto out;
		}
		co.blk_kdev = a.blk_kdev;
	}
	/* a bad output is said before the capture loads (seconds) */
	r = outfile_check(a.out, a.force ? OUTFILE_REPLACE : 0, &err);
	if (r) {
		error("%s", err.buf);
		ret = EXIT_USAGE; /* as an unwritable --json is */
		goto out;
	}
	if (capture_open(&c, &co, &err)) {
		error("%s%s", err.buf, geteuid() ? " (record needs root)" : "");
		goto out;
	}
	r = trace_writer_open(&w, a.out, a.force, &err);
	if (r) {
		error("%s", err.buf);
		ret = r == -EEXIST || r == -ELOOP ? EXIT_USAGE : EXIT_RUNTIME;
		goto out;
	}
	w.anonymize = a.anonymize;
	stop = cli_catch_stop_signals();
	if (a.nr_cmd) {
		child = spawn_held(&a, &go, &exec_failed);
		if (child < 0)
			goto out;
		a.target = 0;
		r = capture_add_pid(c, child, &err);
	} else if (a.target) {
		r = capture_add_pid(c, a.target, &err);
	} else {
		r = 0;
	}
	/* the meta after the start: a trace with meta is being recorded
	 * (attaching takes a while; the ring buffer is read only later) */
	if (!r)
		r = capture_start(c, &w, &err);
	if (!r && (a.layers & CAPTURE_FILE)) {
		/* what reaches the devices, and what the traced calls
		 * moved on each */
		disks.files = capture_files(c);
		w.on_event = capture_disks_on_event;
		w.on_event_ctx = &disks;
		capture_disks_sample(&disks);
	}
	if (!r)
		r = write_meta(&w, &a, &err);
	if (r) {
		error("%s", err.buf);
		goto out;
	}
	say_notes(capture_notes(c));
	if (go >= 0) {
		close(go); /* the command goes */
		go = -1;
	}
	cli_progress_start(&a.prog, "record", 0, 0);
	while (!(why = done(&a, child, &status, capture_start_ns(c), stop))) {
		if (capture_poll(c, 100, &err)) {
			error("%s", err.buf);
			goto out;
		}
		say_progress(&a, &w, c, &progress_ns, UINT64_MAX);
		/* a device may go before the end (a scratch target) */
		if (disks.start_ns && clock_now_ns() - sampled_ns > 500000000) {
			capture_disks_sample(&disks);
			sampled_ns = clock_now_ns();
		}
	}
	if (why == 2)
		child = -1;
	if (disks.start_ns)
		capture_disks_sample(&disks);
	if (capture_stop(c, &end, &err) ||
	    (disks.start_ns && capture_disks_write_meta(&disks, &w, &err)) ||
	    trace_writer_finish(&w, &end, &err)) {
		error("%s", err.buf);
		goto out;
	}
	if (exec_failed >= 0 && why == 2 &&
	    read(exec_failed, &exec_errno, sizeof(exec_errno)) ==
		(ssize_t)sizeof(exec_errno)) {
		/* the command never ran: a trace of nothing answers nothing */
		error("'%s' did not run, so '%s' holds none of its calls",
		      a.cmd[0], a.out);
		cli_progress_finish(&a.prog, "failed");
		goto out;
	}
	say_progress(&a, &w, c, NULL, end.lost);
	cli_progress_finish(&a.prog, *stop ? "interrupted" : "done");
	say_end(&a, &end, capture_dropped(c), capture_blk_requests(c),
		capture_blk_missed(c));
	{
		struct capture_uring u;

		capture_uring_counts(c, &u);
		say_uring(&u);
	}
	if (a.nr_cmd && why == 2 && WIFEXITED(status) && WEXITSTATUS(status))
		note("'%s' exited with %d", a.cmd[0], WEXITSTATUS(status));
	ret = EXIT_OK;
out:
	if (go >= 0) { /* never let go: told to end instead */
		if (write(go, "x", 1) != 1)
			kill(child, SIGKILL);
		close(go);
		waitpid(child, &status, 0);
	} else if (child > 0) {
		/* stopped before the command ended (--duration, Ctrl-C): it
		 * goes on, no longer recorded */
		note("'%s' goes on, no longer recorded (pid %d)", a.cmd[0],
		     (int)child);
	}
	if (exec_failed >= 0)
		close(exec_failed);
	cli_progress_release(&a.prog);
	trace_writer_release(&w);
	capture_disks_release(&disks);
	capture_free(c);
	strbuf_release(&err);
	return ret;
}
