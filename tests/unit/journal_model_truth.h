/*
 * What the journal model (test_journal_model.c, its only includer) knows
 * of the machine: the fake disk's two knobs, and the truth of each, kept
 * by watching every write the iotrials make (write() is interposed: to a
 * knob it is a kernel write, to a journal a record to read; before any of
 * them an iotrial may be killed, with a longjmp). getpid() gives each
 * iotrial a pid of its own that no process has, fsync() costs nothing.
 */
#ifndef JOURNAL_MODEL_TRUTH_H
#define JOURNAL_MODEL_TRUTH_H

#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <cmocka.h>
#include "util/strbuf.h"

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/lsan_interface.h>
/* What a killed iotrial had allocated is gone with it, not a leak. */
#define KILLED_MAY_LEAK_BEGIN() __lsan_disable()
#define KILLED_MAY_LEAK_END()	__lsan_enable()
#else
#define KILLED_MAY_LEAK_BEGIN() ((void)0)
#define KILLED_MAY_LEAK_END()	((void)0)
#endif

#define NKNOBS 2
#define NDIRS  2
#define MAXSEQ 1024
#define MAXFD  64
#define VAL    32

static const char *const knob_name[NKNOBS] = {"read_ahead_kb", "nr_requests"};
static const char *const knob_rel[NKNOBS] = {
    "/sys/block/fake0/queue/read_ahead_kb",
    "/sys/block/fake0/queue/nr_requests"};
/* The values each knob takes; the first is its original. */
static const char *const pool[NKNOBS][5] = {
    {"2560", "128", "512", "4096", "1024"}, {"256", "64", "128", "32", "1000"}};

static char base[] = "/dev/shm/iotrial-test-model.XXXXXX";
static char knob_path[NKNOBS][256];
static char journal_path[NDIRS][256];
static char dir_path[NDIRS][256];

/* What the model knows of one knob. */
struct truth {
	char last[VAL]; /* the value iotrial's last finished write left */
	int has_last;	/* ... since its live changes began */
	int inflight;	/* a write announced and not confirmed */
	char from[VAL]; /* ... the value before it */
	char to[VAL];	/* ... and the value it writes */
	int live;	/* live set records, in every journal */
	char base[VAL]; /* the value the live changes go back to */
	char p[VAL];	/* the value a full repair must leave */
	char cur[VAL];	/* the value the knob holds (every write to it
			   passes here) */
};

/* What the model knows of one set record of one journal. */
struct setrec {
	int knob; /* -1: no set record with this seq */
	int live;
	char orig[VAL];
};

static struct truth truth[NKNOBS];
static struct setrec recs[NDIRS][MAXSEQ];
static struct strbuf steps = STRBUF_INIT; /* the sequence, for a failure */
static int failed;

/* The iotrial now running, as write() and getpid() see it. */
static int armed;
static long step, crash_at;
static int tear;
static jmp_buf killed_at;
static pid_t fake_pid;
static unsigned long nr_pids;
static unsigned long knob_writes;

/* Durability is not what this models: a kill keeps the page cache. */
int fsync(int fd)
{
	(void)fd;
	return 0;
}

/* As fsync. */
int fdatasync(int fd)
{
	(void)fd;
	return 0;
}

/* Each iotrial of the model is a process of its own, and a gone one. */
pid_t getpid(void)
{
	return fake_pid ? fake_pid : (pid_t)syscall(SYS_getpid);
}

/* dst = src, a value of at most VAL - 1 bytes (they may overlap). */
static void setv(char *dst, const char *src)
{
	size_t n = strnlen(src, VAL - 1);

	memmove(dst, src, n);
	dst[n] = '\0';
}

/* Append to the sequence's account. */
static void say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&steps, fmt, ap);
	va_end(ap);
}

/* A knob's value now, from its fake file. */
static void knob_now(int k, char *out)
{
	char buf[VAL];
	int fd = open(knob_path[k], O_RDONLY);
	ssize_t n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;

	if (fd >= 0)
		close(fd);
	if (n < 0)
		n = 0;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	setv(out, buf);
}

/* The knob (0..) or journal (10 + dir) that fd is open on, or -1. */
static int classify(int fd)
{
	char link[64], path[512];
	ssize_t n;
	int i;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, path, sizeof(path) - 1);
	if (n <= 0)
		return -1;
	path[n] = '\0';
	for (i = 0; i < NKNOBS; i++)
		if (!strcmp(path, knob_path[i]))
			return i;
	for (i = 0; i < NDIRS; i++)
		if (!strcmp(path, journal_path[i]))
			return 10 + i;
	return -1;
}

/* Might iotrial have written v last to the knob of t, as far as its
 * journals can tell? */
static int maybe_ours(const struct truth *t, const char *v)
{
	return (t->has_last && !strcmp(t->last, v)) ||
	       (t->inflight && (!strcmp(t->from, v) || !strcmp(t->to, v)));
}

/* Word n (0-based) of line, into out. */
static void word(const char *line, int n, char *out, size_t size)
{
	const char *p = line;
	size_t len;

	while (n-- > 0 && p) {
		p = strchr(p, ' ');
		if (p)
			p++;
	}
	len = p ? strcspn(p, " \n") : 0;
	if (len >= size)
		len = size - 1;
	memcpy(out, p ? p : "", len);
	out[len] = '\0';
}

/* What one journal line of state directory d tells the model. */
static void track_line(int d, const char *line)
{
	char kw[16], a[VAL], b[VAL], orig[VAL], wrote[VAL], name[64];
	unsigned long seq, target;
	struct setrec *r;
	unsigned long q;
	int k;

	word(line, 0, kw, sizeof(kw));
	word(line, 1, a, sizeof(a));
	word(line, 2, b, sizeof(b));
	seq = strtoul(a, NULL, 10);
	target = strtoul(b, NULL, 10);
	if (!strcmp(kw, "own") || !strcmp(kw, "keep") || !strcmp(kw, "scr"))
		return;
	if (seq >= MAXSEQ || target >= MAXSEQ)
		fail_msg("journal seq %lu beyond the model's %d", seq, MAXSEQ);
	if (!strcmp(kw, "set")) {
		word(line, 3, name, sizeof(name));
		word(line, 8, orig, sizeof(orig));
		word(line, 9, wrote, sizeof(wrote));
		for (k = 0; k < NKNOBS && strcmp(name, knob_name[k]); k++)
			;
		if (k == NKNOBS)
			return;
		setv(a, truth[k].cur);
		/* on nothing, or on a value someone set since iotrial's last
		 * write, a new chain starts: it goes back to that value */
		if (!truth[k].live || !maybe_ours(&truth[k], a)) {
			setv(truth[k].base, a);
			truth[k].has_last = 0;
		}
		truth[k].live++;
		r = &recs[d][seq];
		r->knob = k;
		r->live = 1;
		setv(r->orig, orig);
		truth[k].inflight = 1;
		setv(truth[k].from, a);
		setv(truth[k].to, wrote);
		return;
	}
	if (strcmp(kw, "wrote") && strcmp(kw, "restore") &&
	    strcmp(kw, "undo") && strcmp(kw, "drop") && strcmp(kw, "retire"))
		return;
	r = &recs[d][target];
	if (r->knob < 0)
		return; /* a scratch record, or not a knob of ours */
	k = r->knob;
	if (!strcmp(kw, "restore")) {
		truth[k].inflight = 1;
		setv(truth[k].from, truth[k].cur);
		setv(truth[k].to, r->orig);
		return;
	}
	truth[k].inflight = 0;
	/* an undo settles a write in flight: made (it holds the value
	 * after), or taken as not made (the value before); either way the
	 * value the knob holds counts as iotrial's last from now on */
	if (!strcmp(kw, "undo")) {
		setv(truth[k].last, truth[k].cur);
		truth[k].has_last = 1;
	}
	if (!strcmp(kw, "retire")) /* and every older one of the knob */
		for (q = 0; q < target; q++)
			if (recs[d][q].knob == k && recs[d][q].live) {
				recs[d][q].live = 0;
				truth[k].live--;
			}
	if (strcmp(kw, "wrote") && r->live) {
		r->live = 0;
		truth[k].live--;
	}
}

/* A kill before this write, or the write and what it tells the model. */
ssize_t write(int fd, const void *buf, size_t n)
{
	int what = armed ? classify(fd) : -1;
	ssize_t ret;

	if (what >= 0 && crash_at >= 0 && step++ == crash_at) {
		if (what >= 10 && tear && n > 1)
			(void)syscall(SYS_write, fd, buf, n / 2);
		say(" killed before its write #%ld (%s)", step - 1,
		    what >= 10 ? "journal" : knob_name[what]);
		longjmp(killed_at, 1);
	}
	ret = (ssize_t)syscall(SYS_write, fd, buf, n);
	if (ret != (ssize_t)n || what < 0)
		return ret;
	if (what < NKNOBS) {
		/* a sysfs file takes each write whole */
		(void)syscall(SYS_ftruncate, fd, (off_t)n);
		snprintf(truth[what].last, VAL, "%.*s", (int)n,
			 (const char *)buf);
		truth[what].last[strcspn(truth[what].last, "\n")] = '\0';
		truth[what].has_last = 1;
		setv(truth[what].cur, truth[what].last);
		knob_writes++;
	} else {
		const char *p = buf, *end = p + n;

		while (p < end) {
			const char *nl = memchr(p, '\n', (size_t)(end - p));
			char line[1024];
			size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);

			snprintf(line, sizeof(line), "%.*s", (int)len, p);
			track_line(what - 10, line);
			p += len + 1;
		}
	}
	return ret;
}

#endif
