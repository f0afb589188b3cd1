/*
 * Progress output for any command (progress.h): the state under one
 * lock, a thread that renders it every second and after each event,
 * and the three outputs. The thread blocks every signal, so a Ctrl-C
 * still reaches the command's thread, and never prints a message: a
 * failed output is said by cli_progress_finish(), from the command's
 * thread.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>
#include "cli.h"
#include "progress.h"
#include "../core/report/openmetrics_doc.h"
#include "../util/clock.h"
#include "../util/error.h"
#include "../util/fdio.h"
#include "../util/outfile.h"
#include "../util/xalloc.h"
#include "../util/banned.h"

#define TICK_NS		 1000000000ull /* an update every second */
#define METRICS_EVERY_NS 5000000000ull /* the file, besides events */
#define RATE_MIN_NS	 500000000ull  /* the shortest span of a rate */

void cli_progress_init(struct cli_progress *p)
{
	pthread_condattr_t ca;

	memset(p, 0, sizeof(*p));
	p->json_fd = -1;
	pthread_mutex_init(&p->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&p->cond, &ca);
	pthread_condattr_destroy(&ca);
	progress_snap_init(&p->snap, NULL);
	strbuf_init(&p->doc, 0);
	strbuf_init(&p->metrics_err, 0);
}

int cli_progress_check(struct cli_progress *p)
{
	struct strbuf err = STRBUF_INIT;
	const char *s = p->spec;
	int ret = 0;

	if (s && !strcmp(s, "json")) {
		p->json_fd = STDERR_FILENO;
	} else if (s && !strncmp(s, "json:", 5) && s[5] &&
		   strspn(s + 5, "0123456789") == strlen(s + 5) &&
		   strlen(s + 5) < 10) {
		p->json_fd = atoi(s + 5);
		if (p->json_fd == STDIN_FILENO) {
			error("--progress=%s: descriptor 0 is standard input; "
			      "give one open for writing",
			      s);
			ret = -1;
		} else if (fcntl(p->json_fd, F_GETFL) < 0) {
			error("--progress=%s: descriptor %d is not open "
			      "(open it for the command: 3>FILE)",
			      s, p->json_fd);
			ret = -1;
		}
	} else if (s) {
		error("--progress takes json or json:FD (a descriptor), not "
		      "'%s'",
		      s);
		ret = -1;
	}
	if (!ret && p->metrics_file) {
		if (!*p->metrics_file) {
			error("--metrics-file needs a file name");
			ret = -1;
		} else if (outfile_check(p->metrics_file, OUTFILE_REPLACE,
					 &err)) {
			error("--metrics-file: %s", err.buf);
			ret = -1;
		}
	}
	strbuf_release(&err);
	return ret;
}

/* The terminal's width, or 80. */
static unsigned columns(void)
{
	struct winsize ws;

	if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 1)
		return ws.ws_col;
	return 80;
}

/* Clear the terminal line, if one is drawn. Under lock. */
static void clear_line(struct cli_progress *p)
{
	if (p->drawn)
		fputs("\r\033[K", stderr);
	p->drawn = 0;
	fflush(stderr);
}

/* error_set_before(): a message goes on a clean line. */
static void before_message(void *ctx)
{
	struct cli_progress *p = ctx;

	pthread_mutex_lock(&p->lock);
	clear_line(p);
	pthread_mutex_unlock(&p->lock);
}

/* The snapshot now: the events' state with the clock's and the run's
 * numbers. Under lock. */
static void snapshot(struct cli_progress *p, uint64_t now,
		     struct progress_snap *s)
{
	uint64_t begin = atomic_load(&p->live.begin_ns);
	double since = (double)(now - p->event_ns) / 1e9;

	*s = p->snap;
	s->elapsed_s = (double)(now - p->start_ns) / 1e9;
	s->run_length_s = p->run_length_s;
	s->ios_wanted = p->ios_wanted;
	if (begin && begin <= now) {
		s->in_run = 1;
		s->phase = "run";
		s->run_elapsed_s = (double)(now - begin) / 1e9;
		s->have_ios = atomic_load(&p->live.counts);
		s->ios = atomic_load(&p->live.ops);
		s->bytes = atomic_load(&p->live.bytes);
		if (begin != p->rate_ns && p->rate_ns < begin) {
			/* a new run: rates from its start */
			p->rate_ns = begin;
			p->rate_ops = p->rate_bytes = 0;
			p->snap.ios_per_s = p->snap.bytes_per_s = -1;
		}
		if (now - p->rate_ns >= RATE_MIN_NS && s->ios >= p->rate_ops) {
			double dt = (double)(now - p->rate_ns) / 1e9;

			p->snap.ios_per_s = (double)(s->ios - p->rate_ops) / dt;
			p->snap.bytes_per_s =
			    (double)(s->bytes - p->rate_bytes) / dt;
			p->rate_ns = now;
			p->rate_ops = s->ios;
			p->rate_bytes = s->bytes;
		}
		s->ios_per_s = p->snap.ios_per_s;
		s->bytes_per_s = p->snap.bytes_per_s;
	}
	if (s->in_run && s->planned <= 1 && p->ios_wanted && s->have_ios &&
	    s->ios_per_s > 0) {
		/* one run of a count: at the current rate */
		s->eta_s = s->ios < p->ios_wanted
			       ? (double)(p->ios_wanted - s->ios) / s->ios_per_s
			       : 0;
		s->eta_by = "ios";
	} else if (s->in_run && s->planned <= 1 && p->run_length_s > 0) {
		s->eta_s = p->run_length_s - s->run_elapsed_s;
		if (s->eta_s < 0)
			s->eta_s = 0;
		s->eta_by = "time";
	} else if (s->eta_s >= 0) {
		/* the last event's estimate, counted down */
		s->eta_s = s->eta_s > since ? s->eta_s - since : 0;
	}
}

/* Render s to the outputs; may drop the lock while writing. Under
 * lock. */
static void render(struct cli_progress *p, const struct progress_snap *s,
		   uint64_t now, int force_metrics)
{
	struct strbuf line = STRBUF_INIT, text = STRBUF_INIT;
	struct strbuf m = STRBUF_INIT, err = STRBUF_INIT;
	int end = !strcmp(s->event, "end");
	int json_fd = p->json_failed ? -1 : p->json_fd;
	struct om_writer w;
	struct timespec ts;

	if (json_fd >= 0)
		progress_json_line(s, &line);
	if (p->tty && !end) {
		unsigned width = columns() - 1;

		progress_text_line(s, &text);
		if (text.len > width)
			strbuf_setlen(&text, width);
	}
	if (p->metrics_file && !p->metrics_failed &&
	    (force_metrics || end || now - p->metrics_ns >= METRICS_EVERY_NS)) {
		clock_gettime(CLOCK_REALTIME, &ts);
		om_init(&w, &m, OM_PROMETHEUS, s->command);
		om_progress(&w, s, (double)ts.tv_sec + ts.tv_nsec / 1e9);
		strbuf_add(&m, p->doc.buf, p->doc.len);
		om_end(&w);
		p->metrics_ns = now;
	}
	if (p->tty) {
		if (end)
			clear_line(p);
		else if (text.len) {
			fprintf(stderr, "\r\033[K%s", text.buf);
			fflush(stderr);
			p->drawn = 1;
		}
	}
	pthread_mutex_unlock(&p->lock);
	if (line.len && fd_write_all(json_fd, line.buf, line.len)) {
		pthread_mutex_lock(&p->lock);
		p->json_failed = errno ? errno : EIO;
		pthread_mutex_unlock(&p->lock);
	} else if (line.len) {
		cli_log_json(line.buf, CLI_JSON_LINES);
	}
	if (m.len && outfile_write(p->metrics_file, m.buf, m.len,
				   OUTFILE_REPLACE, &err)) {
		pthread_mutex_lock(&p->lock);
		p->metrics_failed = 1;
		strbuf_addstr(&p->metrics_err, err.buf);
		pthread_mutex_unlock(&p->lock);
	}
	pthread_mutex_lock(&p->lock);
	strbuf_release(&line);
	strbuf_release(&text);
	strbuf_release(&m);
	strbuf_release(&err);
}

/* The thread: a render every tick and after each event, then the end. */
static void *ticker(void *arg)
{
	struct cli_progress *p = arg;
	struct progress_snap s;
	uint64_t next = clock_now_ns();

	pthread_mutex_lock(&p->lock);
	for (;;) {
		uint64_t now = clock_now_ns();
		int event = p->wake;

		if (!p->stop && !event && now < next) {
			struct timespec ts = {(time_t)(next / 1000000000ull),
					      (long)(next % 1000000000ull)};

			pthread_cond_timedwait(&p->cond, &p->lock, &ts);
			continue;
		}
		p->wake = 0;
		snapshot(p, now, &s);
		render(p, &s, now, event);
		if (!strcmp(p->snap.event, "start"))
			p->snap.event = "update";
		if (!strcmp(s.event, "end"))
			break;
		if (now >= next)
			next = now + TICK_NS;
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

void cli_progress_start(struct cli_progress *p, const char *command, int quiet,
			int no_line)
{
	sigset_t all, old;

	p->snap.command = command;
	p->snap.event = "start";
	p->tty = !quiet && !no_line && isatty(STDERR_FILENO) &&
		 p->json_fd != STDERR_FILENO;
	p->start_ns = p->event_ns = clock_now_ns();
	if (!p->tty && p->json_fd < 0 && !p->metrics_file)
		return; /* nothing to show */
	p->wake = 1;
	/* the thread takes no signal: they stay the command's */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	if (!pthread_create(&p->thread, NULL, ticker, p))
		p->started = 1;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (p->started && p->tty)
		error_set_before(before_message, p);
}

/* An event changed the state: render it now. Under lock. */
static void wake(struct cli_progress *p)
{
	p->event_ns = clock_now_ns();
	p->wake = 1;
	pthread_cond_signal(&p->cond);
}

/* Keep a copy of arm as snap.arm. Under lock. */
static void set_arm(struct cli_progress *p, const char *arm)
{
	free(p->arm);
	p->arm = arm && *arm ? xstrdup(arm) : NULL;
	p->snap.arm = p->arm;
}

void cli_progress_experiment(struct cli_progress *p,
			     const struct experiment_progress *e)
{
	pthread_mutex_lock(&p->lock);
	p->experiment = 1;
	p->snap.done = e->run;
	p->snap.planned = e->planned;
	p->snap.unit = "runs";
	p->snap.block = e->block == -1u ? -1 : (long)e->block;
	p->snap.halfwidth = e->halfwidth;
	p->snap.eta_s = e->eta_s;
	p->snap.eta_by = e->eta_by;
	p->snap.phase = "prepare";
	set_arm(p, e->arm);
	wake(p);
	pthread_mutex_unlock(&p->lock);
}

void cli_progress_step(struct cli_progress *p, const struct progress_snap *s)
{
	pthread_mutex_lock(&p->lock);
	p->snap.done = s->done;
	p->snap.planned = s->planned;
	p->snap.unit = s->unit;
	p->snap.block = s->block;
	p->snap.halfwidth = s->halfwidth;
	p->snap.eta_s = s->eta_s;
	p->snap.eta_by = s->eta_by;
	p->snap.phase = s->phase;
	p->snap.have_events = s->have_events;
	p->snap.events = s->events;
	p->snap.lost = s->lost;
	set_arm(p, s->arm);
	wake(p);
	pthread_mutex_unlock(&p->lock);
}

void cli_progress_run(struct cli_progress *p, double length_s,
		      uint64_t ios_wanted)
{
	pthread_mutex_lock(&p->lock);
	p->run_length_s = length_s;
	p->ios_wanted = ios_wanted;
	pthread_mutex_unlock(&p->lock);
}

void cli_progress_doc(struct cli_progress *p, const struct experiment_doc *doc)
{
	struct strbuf m = STRBUF_INIT, old;
	struct om_writer w;

	if (!p->metrics_file || !doc || !p->snap.command)
		return;
	om_init(&w, &m, OM_PROMETHEUS, p->snap.command);
	om_experiment(&w, doc);
	pthread_mutex_lock(&p->lock);
	old = p->doc;
	p->doc = m;
	wake(p);
	pthread_mutex_unlock(&p->lock);
	strbuf_release(&old);
}

void cli_progress_finish(struct cli_progress *p, const char *outcome)
{
	if (!p->started)
		return;
	pthread_mutex_lock(&p->lock);
	p->snap.event = "end";
	p->snap.outcome = outcome;
	if (p->experiment && !strcmp(outcome, "done") &&
	    p->snap.done < p->snap.planned)
		p->snap.done = p->snap.planned;
	p->snap.eta_s = 0;
	p->snap.eta_by = NULL;
	p->snap.phase = NULL;
	p->stop = 1;
	wake(p);
	pthread_mutex_unlock(&p->lock);
	pthread_join(p->thread, NULL);
	p->started = 0;
	error_set_before(NULL, NULL);
	if (p->json_failed)
		warning("--progress: cannot write to descriptor %d: %s",
			p->json_fd, strerror(p->json_failed));
	if (p->metrics_failed)
		warning("--metrics-file: %s", p->metrics_err.buf);
}

void cli_progress_release(struct cli_progress *p)
{
	if (p->started)
		cli_progress_finish(p, "failed");
	free(p->arm);
	strbuf_release(&p->doc);
	strbuf_release(&p->metrics_err);
	pthread_mutex_destroy(&p->lock);
	pthread_cond_destroy(&p->cond);
}
