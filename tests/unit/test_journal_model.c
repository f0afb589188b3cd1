/*
 * The journal as a model: random sequences of iotrials that change two
 * knobs of a fake disk (a compare over one to four arm values, several
 * blocks; `iotrial set`; `iotrial revert`), each of which may be killed
 * before any write it makes to a knob or to a journal (a journal line
 * may be cut in half), with an admin writing any value in between (the
 * original, every arm value, iotrial's last write, a new one), in one
 * state directory or two, sometimes two iotrials at once. At the end
 * every state directory is repaired and reverted.
 *
 * The invariant: a value that differs from the one iotrial wrote last is
 * kept, whatever older records the journal holds; the value iotrial
 * wrote last is restored to the original (an admin who wrote that very
 * value cannot be told apart). While a write is announced in the journal
 * and not yet confirmed (a set record without its wrote record, a
 * restore record without its undo), the value before it and the value
 * after it both count as iotrial's last write: a kill in between cannot
 * be told apart from an admin writing one of them. So the expected value
 * P of each knob follows the admin: a write of a value iotrial may have
 * written last leaves P at the original of the live changes, any other
 * becomes P. Checked after every iotrial, whenever no journal holds a
 * change of the knob, and at the end; a second iotrial with another state
 * directory never changes a knob that another holds or whose changes
 * only the other's journal can undo.
 *
 * The iotrials run in this process: a kill is a longjmp out of write()
 * (interposed below), after which every file the iotrial opened is
 * closed (its locks go with them) and getpid() gives the next one a new,
 * unused pid, so that the records of the killed one are a gone owner's.
 * fsync is a no-op: a kill -9 loses nothing the page cache holds.
 *
 * IOTRIAL_MODEL_SEQS sets the number of sequences (default 10000),
 * IOTRIAL_MODEL_SEED the first seed (default 1), IOTRIAL_MODEL_JOBS the
 * processes that share them (default 2); a failure prints the seed and
 * the steps of its sequence, to be run alone with IOTRIAL_MODEL_SEQS=1.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <cmocka.h>
#include "core/journal/session.h"
#include "core/journal/setlock.h"
#include "core/knob/keep.h"
#include "core/knob/plan.h"
#include "util/rng.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include "journal_model_truth.h"

/* Write text to base/rel, making directories. */
static void put(const char *rel, const char *text)
{
	struct strbuf p = STRBUF_INIT;
	char *slash;
	FILE *f;

	strbuf_addf(&p, "%s%s", base, rel);
	for (slash = strchr(p.buf + strlen(base) + 1, '/'); slash;
	     slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(p.buf, 0755);
		*slash = '/';
	}
	f = fopen(p.buf, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	strbuf_release(&p);
}

/* The admin writes v to knob k by hand; P follows (see the top). */
static void admin(int k, const char *v)
{
	int fd = open(knob_path[k], O_WRONLY | O_TRUNC);
	struct truth *t = &truth[k];
	int ours;

	assert_true(fd >= 0);
	assert_int_equal(syscall(SYS_write, fd, v, strlen(v)), (long)strlen(v));
	close(fd);
	setv(t->cur, v);
	ours = maybe_ours(t, v);
	setv(t->p, t->live && ours ? t->base : v);
	say("\n  admin: %s=%s (%s; expect %s)", knob_name[k], v,
	    !t->live ? "nothing journaled"
	    : ours   ? "iotrial may have written it last"
		     : "not iotrial's last write",
	    t->p);
}

/* A context on the fake disk. */
static void ctx_on(struct knob_ctx *c)
{
	knob_ctx_init(c);
	free(c->root);
	c->root = xstrdup(base);
	c->disk = xstrdup("fake0");
}

/* One arm or one set: "read_ahead_kb=128" and maybe "nr_requests=64". */
struct assign {
	int nr;
	int knob[NKNOBS];
	const char *value[NKNOBS];
};

/* Build a plan of a on ctx; 0 or fails the test. */
static void plan_of(struct knob_plan *p, struct knob_ctx *ctx,
		    const struct assign *a)
{
	struct strbuf err = STRBUF_INIT, as = STRBUF_INIT;
	int i;

	knob_plan_init(p, ctx);
	for (i = 0; i < a->nr; i++) {
		strbuf_setf(&as, "%s=%s", knob_name[a->knob[i]], a->value[i]);
		assert_int_equal(knob_plan_add(p, as.buf, &err), 0);
	}
	if (knob_plan_build(p, &err))
		fail_msg("plan: %s", err.buf);
	strbuf_release(&err);
	strbuf_release(&as);
}

/* What one iotrial of the model does. */
enum kind { K_COMPARE, K_SET, K_REVERT };

struct proc {
	enum kind kind;
	int dir;
	struct assign arms[4];
	int nr_arms, blocks;
	int refused; /* set by the run: a change was refused (busy) */
};

static struct session *held; /* the session of a compare paused */

/* A compare: its arms, block after block, then its own rollback. With
 * pause, it stops after its first arm, holding its session in held. */
static void run_compare(struct proc *pr, int pause)
{
	struct strbuf err = STRBUF_INIT;
	struct knob_plan p[4];
	struct session *s = NULL;
	struct knob_ctx ctx;
	uint64_t mark;
	int b, a, ret = 0, paused = 0;

	ctx_on(&ctx);
	knob_recover_stale(NULL);
	if (session_open(&s, "compare", 0, NULL, &err)) {
		pr->refused = 1;
		goto out;
	}
	mark = session_mark(s);
	for (a = 0; a < pr->nr_arms; a++)
		plan_of(&p[a], &ctx, &pr->arms[a]);
	for (b = 0; b < pr->blocks && !ret && !paused; b++)
		for (a = 0; a < pr->nr_arms && !ret && !paused; a++) {
			ret = session_apply(s, &p[a], NULL, &err);
			if (ret == -EBUSY)
				pr->refused = 1;
			paused = pause && !ret;
		}
	for (a = 0; a < pr->nr_arms; a++)
		knob_plan_release(&p[a]);
	if (paused) {
		held = s;
	} else {
		session_rollback(s, mark, NULL, &err);
		session_close(s, NULL);
	}
out:
	knob_ctx_release(&ctx);
	strbuf_release(&err);
}

/* The rest of a paused compare: its rollback. */
static void finish_compare(void)
{
	struct strbuf err = STRBUF_INIT;

	session_rollback(held, 0, NULL, &err);
	session_close(held, NULL);
	held = NULL;
	strbuf_release(&err);
}

/* iotrial set, of the first arm. */
static void run_set(struct proc *pr)
{
	struct knob_keep_hooks hooks;
	struct strbuf err = STRBUF_INIT;
	enum knob_keep_stage stage;
	struct knob_ctx ctx;
	struct knob_plan p;

	memset(&hooks, 0, sizeof(hooks));
	ctx_on(&ctx);
	knob_recover_stale(NULL);
	plan_of(&p, &ctx, &pr->arms[0]);
	if (knob_apply_kept(&p, &hooks, &stage, &err) == -EBUSY)
		pr->refused = 1;
	knob_plan_release(&p);
	knob_ctx_release(&ctx);
	strbuf_release(&err);
}

/* iotrial revert: the repair, then every kept change. */
static void run_revert(void)
{
	struct strbuf err = STRBUF_INIT;
	size_t n;
	int none;

	knob_recover_stale(NULL);
	knob_revert_kept(NULL, NULL, 0, &n, &none, &err);
	strbuf_release(&err);
}

/* The descriptors open before any iotrial ran: a killed one closes all
 * others (none is killed while another is paused). */
static unsigned char at_start[MAXFD];

/* Which descriptors are open, to close what a killed iotrial left. */
static void open_fds(unsigned char *out, int n)
{
	int fd;

	for (fd = 0; fd < n; fd++)
		out[fd] = fcntl(fd, F_GETFD) >= 0;
}

/*
 * Run pr as a new process, killed before its write #kill (-1: never).
 * Returns whether it was killed. pause: see run_compare().
 */
static int run(struct proc *pr, long kill, int pause)
{
	static const char *const names[] = {"compare", "set", "revert"};
	static volatile int was_killed;
	unsigned char after[MAXFD];
	int fd, i;

	say("\n  %s in %s", names[pr->kind], pr->dir ? "s2" : "s1");
	for (i = 0; pr->kind != K_REVERT && i < pr->nr_arms; i++) {
		int k;

		say(i ? " |" : ":");
		for (k = 0; k < pr->arms[i].nr; k++)
			say(" %s=%s", knob_name[pr->arms[i].knob[k]],
			    pr->arms[i].value[k]);
		if (pr->kind == K_SET)
			break;
	}
	if (pr->kind == K_COMPARE)
		say(" x%d", pr->blocks);
	if (kill >= 0)
		say(", to be killed before write #%ld%s", kill,
		    tear ? " (a journal line cut short)" : "");
	setenv("IOTRIAL_STATE_DIR", dir_path[pr->dir], 1);
	fake_pid = (pid_t)(0x70000000 + (++nr_pids % 0x0fffffff));
	step = 0;
	crash_at = kill;
	was_killed = 0;
	pr->refused = 0;
	if (kill >= 0)
		KILLED_MAY_LEAK_BEGIN();
	armed = 1;
	if (!setjmp(killed_at)) {
		if (pr->kind == K_COMPARE)
			run_compare(pr, pause);
		else if (pr->kind == K_SET)
			run_set(pr);
		else
			run_revert();
	} else {
		was_killed = 1;
		held = NULL;
	}
	armed = 0;
	if (kill >= 0)
		KILLED_MAY_LEAK_END();
	if (was_killed) { /* what it had open closes with it */
		open_fds(after, MAXFD);
		for (fd = 0; fd < MAXFD; fd++)
			if (after[fd] && !at_start[fd])
				close(fd);
	}
	if (!was_killed && held)
		return 0; /* paused, with its files open */
	if (!was_killed && kill >= 0)
		say(" (ended first, after %ld writes)", step);
	if (pr->refused)
		say(" (refused)");
	return was_killed;
}

/* Fail with the sequence's account. */
static void broken(uint64_t seed, const char *what)
{
	failed = 1;
	fprintf(
	    stderr,
	    "journal model: seed %llu broke: %s\nsequence:%s\n"
	    "(run it alone: IOTRIAL_MODEL_SEED=%llu IOTRIAL_MODEL_SEQS=1)\n",
	    (unsigned long long)seed, what, steps.buf,
	    (unsigned long long)seed);
}

/* Whenever no journal holds a change of a knob, it holds P. */
static int check_settled(uint64_t seed)
{
	char now[VAL], msg[256];
	int k;

	for (k = 0; k < NKNOBS; k++) {
		if (truth[k].live)
			continue;
		knob_now(k, now);
		if (strcmp(now, truth[k].p)) {
			snprintf(msg, sizeof(msg),
				 "%s holds %s with nothing journaled; "
				 "expected %s",
				 knob_name[k], now, truth[k].p);
			broken(seed, msg);
			return -1;
		}
	}
	return 0;
}

/* A random assignment of one or both knobs. */
static void random_assign(struct rng *r, struct assign *a)
{
	int k0 = (int)rng_below(r, NKNOBS);

	a->nr = 0;
	a->knob[a->nr] = k0;
	a->value[a->nr++] = pool[k0][rng_below(r, 5)];
	if (rng_below(r, 4) == 0) {
		a->knob[a->nr] = 1 - k0;
		a->value[a->nr++] = pool[1 - k0][rng_below(r, 5)];
	}
}

/* A random iotrial of the model. */
static void random_proc(struct rng *r, int two_dirs, struct proc *pr)
{
	int i, n = (int)rng_below(r, 10);

	memset(pr, 0, sizeof(*pr));
	pr->kind = n < 6 ? K_COMPARE : n < 8 ? K_SET : K_REVERT;
	pr->dir = two_dirs ? (int)rng_below(r, 2) : 0;
	pr->nr_arms = 1 + (int)rng_below(r, pr->kind == K_COMPARE ? 4 : 1);
	pr->blocks = 1 + (int)rng_below(r, 2);
	for (i = 0; i < pr->nr_arms; i++)
		random_assign(r, &pr->arms[i]);
	/* the arms of one compare vary the same knobs */
	for (i = 1; i < pr->nr_arms; i++) {
		int k;

		pr->arms[i].nr = pr->arms[0].nr;
		for (k = 0; k < pr->arms[0].nr; k++) {
			pr->arms[i].knob[k] = pr->arms[0].knob[k];
			pr->arms[i].value[k] =
			    pool[pr->arms[0].knob[k]][rng_below(r, 5)];
		}
	}
}

/* The admin's choice: the original, an arm value, iotrial's last
 * write or the value before its write in flight, or the same again. */
static void random_admin(struct rng *r)
{
	int k = (int)rng_below(r, NKNOBS);
	char now[VAL];
	const char *v;

	switch (rng_below(r, 5)) {
	case 0:
		v = truth[k].has_last ? truth[k].last : pool[k][0];
		break;
	case 1:
		v = truth[k].inflight ? truth[k].from : pool[k][1];
		break;
	case 2:
		knob_now(k, now);
		v = now;
		break;
	default:
		v = pool[k][rng_below(r, 5)];
		break;
	}
	admin(k, v);
}

/* A second iotrial with the other state directory, while a compare that
 * changed the knobs is paused: it must change no knob. */
static int check_excluded(struct rng *r, uint64_t seed, const struct proc *a)
{
	struct proc b;
	unsigned long writes;

	random_proc(r, 0, &b);
	b.kind = rng_below(r, 2) ? K_SET : K_COMPARE;
	b.dir = 1 - a->dir;
	b.arms[0] = a->arms[0];
	b.arms[0].value[0] = pool[b.arms[0].knob[0]][rng_below(r, 5)];
	b.nr_arms = 1;
	say("\n  while it runs:");
	writes = knob_writes;
	run(&b, -1, 0);
	if (knob_writes != writes || !b.refused) {
		broken(seed, "an iotrial with another state directory changed "
			     "a knob another iotrial holds");
		return -1;
	}
	return 0;
}

/* One sequence; 0, or -1 when the invariant broke (said). */
static int one_sequence(uint64_t seed)
{
	struct rng r;
	int i, k, d, nr = 0, two_dirs;
	char now[VAL];
	struct proc pr;

	rng_seed(&r, seed);
	strbuf_reset(&steps);
	memset(truth, 0, sizeof(truth));
	memset(recs, 0, sizeof(recs));
	for (d = 0; d < NDIRS; d++)
		for (i = 0; i < MAXSEQ; i++)
			recs[d][i].knob = -1;
	for (k = 0; k < NKNOBS; k++) {
		put(knob_rel[k], pool[k][0]);
		setv(truth[k].p, pool[k][0]);
		setv(truth[k].cur, pool[k][0]);
	}
	two_dirs = rng_below(&r, 3) == 0;
	nr = 1 + (int)rng_below(&r, 3);
	for (i = 0; i < nr; i++) {
		long kill = rng_below(&r, 4) ? (long)rng_below(&r, 40) : -1;
		int pause = two_dirs && rng_below(&r, 4) == 0;

		random_proc(&r, two_dirs, &pr);
		if (pause)
			pr.kind = K_COMPARE;
		tear = rng_below(&r, 3) == 0;
		run(&pr, pause ? -1 : kill, pause);
		if (held) {
			if (check_excluded(&r, seed, &pr))
				return -1;
			setenv("IOTRIAL_STATE_DIR", dir_path[pr.dir], 1);
			say("\n  the compare goes on and ends");
			crash_at = -1;
			armed = 1;
			finish_compare();
			armed = 0;
		}
		if (check_settled(seed))
			return -1;
		while (rng_below(&r, 2))
			random_admin(&r);
	}
	/* the end: every state directory used repaired and reverted */
	d = two_dirs ? (int)rng_below(&r, 2) : 0;
	for (i = 0; i < (two_dirs ? NDIRS : 1); i++) {
		struct proc rv;

		memset(&rv, 0, sizeof(rv));
		rv.kind = K_REVERT;
		rv.dir = (d + i) % NDIRS;
		tear = 0;
		run(&rv, -1, 0);
	}
	for (k = 0; k < NKNOBS; k++) {
		char msg[256];

		knob_now(k, now);
		if (truth[k].live || strcmp(now, truth[k].p)) {
			snprintf(msg, sizeof(msg),
				 "after the last revert %s holds %s, expected "
				 "%s (%d live records)",
				 knob_name[k], now, truth[k].p, truth[k].live);
			broken(seed, msg);
			return -1;
		}
	}
	for (d = 0; d < NDIRS; d++)
		if (!access(journal_path[d], F_OK)) {
			broken(seed, "a journal is left after the last revert");
			return -1;
		}
	return 0;
}

/* An unsigned number from the environment, or def. */
static uint64_t env_num(const char *name, uint64_t def)
{
	const char *v = getenv(name);

	return v && *v ? strtoull(v, NULL, 10) : def;
}

/*
 * Worker w of jobs: its own fake machine and state directories, and the
 * sequences first + w, first + w + jobs, ... below first + n. Returns
 * how many it ran; failed is set when one broke (said).
 */
static uint64_t worker(uint64_t first, uint64_t n, unsigned w, unsigned jobs)
{
	struct strbuf p = STRBUF_INIT;
	uint64_t i, ran = 0;
	int d, k;

	if (!mkdtemp(base))
		fail_msg("cannot make %s", base);
	put("/sys/block/fake0/dev", "250:0\n");
	put("/sys/block/fake0/diskseq", "7\n");
	put("/sys/block/fake0/queue/scheduler", "none [mq-deadline] kyber\n");
	put("/sys/block/fake0/queue/max_sectors_kb", "1280\n");
	put("/sys/block/fake0/queue/max_hw_sectors_kb", "2048\n");
	for (k = 0; k < NKNOBS; k++) {
		put(knob_rel[k], pool[k][0]);
		snprintf(knob_path[k], sizeof(knob_path[k]), "%s%s", base,
			 knob_rel[k]);
	}
	for (d = 0; d < NDIRS; d++) {
		snprintf(dir_path[d], sizeof(dir_path[d]), "%s/s%d", base,
			 d + 1);
		snprintf(journal_path[d], sizeof(journal_path[d]), "%s/journal",
			 dir_path[d]);
	}
	setlock_set_root(base);
	setlock_set_grace(0);
	open_fds(at_start, MAXFD);
	for (i = w; i < n && !failed; i += jobs, ran++)
		one_sequence(first + i);
	fake_pid = 0;
	setlock_set_root(NULL);
	strbuf_addf(&p, "rm -rf '%s'", base);
	if (system(p.buf))
		fail_msg("cannot remove %s", base);
	strbuf_release(&p);
	strbuf_release(&steps);
	return ran;
}

/* The sequences, split over IOTRIAL_MODEL_JOBS processes (default 2:
 * the machines that run the suite have two cores). */
static void test_model(void **state)
{
	uint64_t first = env_num("IOTRIAL_MODEL_SEED", 1);
	uint64_t n = env_num("IOTRIAL_MODEL_SEQS", 10000), ran;
	unsigned jobs = (unsigned)env_num("IOTRIAL_MODEL_JOBS", 2), w;
	pid_t kids[16];
	int st, bad = 0;

	(void)state;
	if (jobs < 1 || jobs > 16)
		jobs = 1;
	for (w = 1; w < jobs; w++) {
		fflush(NULL);
		kids[w] = fork();
		assert_true(kids[w] >= 0);
		if (!kids[w]) {
			ran = worker(first, n, w, jobs);
			fflush(NULL);
			_exit(failed ? 1 : 0);
		}
	}
	ran = worker(first, n, 0, jobs);
	for (w = 1; w < jobs; w++)
		if (waitpid(kids[w], &st, 0) != kids[w] || !WIFEXITED(st) ||
		    WEXITSTATUS(st))
			bad = 1;
	print_message("journal model: %llu sequences from seed %llu in %u "
		      "process%s (%llu here, %lu iotrials)\n",
		      (unsigned long long)n, (unsigned long long)first, jobs,
		      jobs == 1 ? "" : "es", (unsigned long long)ran,
		      (unsigned long)nr_pids);
	assert_false(failed);
	assert_false(bad);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_model),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
