/*
 * tune's bisection: two sets of settings, A and B, differ in n settings
 * and in performance; which of the settings carry the difference?
 *
 * A configuration is A with a subset S of the differing settings set
 * to B's values. Delta debugging over the settings: a set known to
 * carry some of the difference is split in two and the first half
 * tested (then the second when the first does not settle it). Each test
 * is a step: blocks of A, B and A+S, each once in a shuffled order,
 * until S's share of the difference can be told (at least min_blocks,
 * at most max_blocks). The share is the log of A+S's ratio to A over
 * the log of B's; its interval comes from A+S against A. The step's
 * finding is
 *   none  A+S equivalent to A, or its share's interval within
 *         +-share_margin: S carries none of the difference;
 *   all   A+S equivalent to B, or its share within 1 +-share_margin:
 *         S carries all of it (so the rest none);
 *   part  the share's interval between the two margins, or above the
 *         lower one when max_blocks are spent: S carries some;
 *   cannot tell  none of these within max_blocks: neither good nor bad,
 *         the set is kept as undecided, never taken as either.
 * A half found to carry none lets the other carry what the whole did
 * without a test of its own; a half that carries all clears the rest.
 * The answer: the minimal set (the single settings found to carry),
 * its share of the effect (the log of its ratio to A over the log of
 * B's) with an interval, the settings shown to carry none, and those
 * left undecided.
 *
 * A step machine like the race (race.h): tune_bisect_next() hands out
 * a block of candidates (their levels: 0 A's value, 1 B's), record
 * takes the metrics.
 */
#ifndef IOTRIAL_TUNE_BISECT_H
#define IOTRIAL_TUNE_BISECT_H

#include <stdint.h>
#include "cand.h"
#include "../../util/rng.h"
#include "../../util/strbuf.h"

/* A step's finding. */
enum tune_carry {
	TUNE_CARRY_CANNOT_TELL,
	TUNE_CARRY_NONE,
	TUNE_CARRY_ALL,
	TUNE_CARRY_PART,
};

/* One step: the subset tested and what it showed. */
struct tune_step {
	unsigned cand; /* the candidate of A+S */
	enum tune_carry carry;
	struct tune_judgement vs_a, vs_b; /* A+S against A, against B */
	unsigned blocks;
};

/* Per setting, what the bisection found. */
enum tune_role {
	TUNE_ROLE_UNKNOWN,   /* not reached (stopped) */
	TUNE_ROLE_CARRIES,   /* in the minimal set */
	TUNE_ROLE_NONE,	     /* shown to carry none */
	TUNE_ROLE_UNDECIDED, /* its step could not tell */
};

struct tune_bisect_opts {
	struct tune_judge_opts j;
	unsigned min_blocks; /* a step at least: 6 */
	unsigned max_blocks; /* a step at most: 20 */
	unsigned max_runs;   /* all steps at most; 0: no limit */
	double share_margin; /* a set carries none of the difference when
				its share's interval lies within +-this,
				all of it within 1 +-this: 0.2 */
	uint64_t seed;
};

void tune_bisect_opts_init(struct tune_bisect_opts *o);

struct tune_bisect {
	struct tune_bisect_opts o;
	unsigned n;	      /* settings that differ */
	struct tune_cands cs; /* [0] A, [1] B */
	struct tune_step *steps;
	unsigned nr_steps, alloc_steps;
	enum tune_role *role; /* per setting */
	/* sets still to split: each a list of setting indices */
	unsigned **queue, *queue_len;
	unsigned nr_queue, alloc_queue, alloc_qlen;
	unsigned *sub; /* the set being tested now */
	unsigned nr_sub;
	unsigned *half1, *half2; /* the two halves of the set split */
	unsigned nr_half1, nr_half2;
	int phase; /* 0: half1 under test, 1: half2, 2: the minimal set's
		      own step */
	enum tune_carry first; /* the first half's finding */
	int in_step;	       /* a step is under way */
	unsigned step_start;
	unsigned pending[3];
	unsigned nr_pending;
	unsigned runs;
	struct rng rng;
	char *stopped;
	int set_failed;		      /* it ended as a run of A or B failed */
	int confirmed;		      /* the minimal set's own step was run */
	struct tune_judgement a_vs_b; /* B against A, all blocks */
};

/*
 * Start a bisection of n differing settings (n >= 1): candidates A and
 * B. -EINVAL when n is 0.
 */
int tune_bisect_init(struct tune_bisect *b, unsigned n,
		     const struct tune_bisect_opts *o, struct strbuf *err);

/* As tune_race_next(): the next block, 0 when over. New candidates
 * (a step's A+S) are at the end of b->cs. */
unsigned tune_bisect_next(struct tune_bisect *b, const unsigned **out);

/* As tune_race_record(). A failed run of A or B ends the bisection; a
 * failed A+S makes its step "cannot tell". */
int tune_bisect_record(struct tune_bisect *b, const double *metric,
		       const char *const *why);

/* End now (budget, stop request) and say why. */
void tune_bisect_stop(struct tune_bisect *b, const char *why);

/* The answer. */
struct tune_bisect_result {
	struct tune_judgement a_vs_b;	     /* B against A */
	int minimal;			     /* the candidate of A+minimal set,
						or -1 when it never ran */
	struct tune_judgement min_vs_a;	     /* it against A */
	double share, share_low, share_high; /* of the effect; NaN when
						unknown */
	unsigned nr_carries, nr_none, nr_undecided;
	unsigned runs;
};

void tune_bisect_result(struct tune_bisect *b, struct tune_bisect_result *r);

void tune_bisect_release(struct tune_bisect *b);

/* "none", "all", "part", "cannot tell". */
const char *tune_carry_name(enum tune_carry c);
/* "carries", "none", "undecided", "not reached". */
const char *tune_role_name(enum tune_role r);

#endif
