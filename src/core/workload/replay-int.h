/*
 * What the replay workload's files share (replay.c: parameters, names,
 * layout; replay_run.c: the threads that replay, the fidelity).
 */
#ifndef IOTRIAL_REPLAY_INT_H
#define IOTRIAL_REPLAY_INT_H

#include <pthread.h>
#include <stdint.h>
#include <sys/types.h>
#include "workload.h"
#include "../trace/trace.h"
#include "../../util/strbuf.h"

#define RP_IO_MAX (64u << 20) /* bytes of one read or write replayed */

/* A recorded descriptor's replay descriptor. */
struct rp_fd {
	int32_t rfd;   /* as recorded */
	uint32_t file; /* its file */
	int fd;	       /* ours */
	unsigned refs; /* opens not closed yet (two processes may have) */
};

/* A wait before an event: until thread th has done count events. */
struct rp_dep {
	uint32_t th;
	uint32_t count;
};

/* A directory a thread keeps open (replay_dirs.c). */
struct rp_dir {
	uint32_t key; /* its key + 1 (rp_state.parent), 0: free */
	int fd;	      /* O_PATH, beneath the work directory */
};

struct rp_state;

/* replay's parameters (w->params), as replay.c's rows fill them. */
struct replay_params {
	struct workload_common common; /* none of them: zeros */
	const char *trace, *speed;     /* speed: "max" or a factor, as given */
	const char *mode, *layer, *end;
	int fold, allow_lost;
};
struct rpb_state;
struct rp_uring;
struct target;

/* A setting of the capture's that is otherwise here (replay_set.c). */
struct rp_setdiff {
	char *key;	/* the meta key: "knob.read_ahead_kb" */
	char *capture;	/* as recorded; NULL: the trace has none */
	char *replay;	/* as here; NULL: it cannot be read here */
	unsigned moves; /* what it moves (trace/fidelity.h FMOVE_*) */
};

/* Where the replay's start in the page cache comes from. */
enum rp_cache_from {
	RP_CACHE_NONE,	 /* nothing recorded: a cold start */
	RP_CACHE_DEVICE, /* the capture's device counters, for every file */
	RP_CACHE_FILES,	 /* each file's cached bytes at its first open */
};

/* One recorded thread. */
struct rp_thread {
	uint32_t tid;
	size_t *idx; /* its events, in order */
	size_t nr, alloc;
	struct trace_event *done; /* what the replay did, one per event */
	size_t nr_done;
	uint64_t mismatches; /* calls that failed here but not there, or
				the other way */
	uint64_t max_lag_ns; /* open loop: latest start behind its time */
	/* event k waits for deps[dep_off[k]] .. deps[dep_off[k + 1] - 1]
	 * (replay_deps.c) */
	size_t *dep_off;
	struct rp_dep *deps;
	size_t nr_deps, alloc_deps;
	uint32_t completed;  /* events done (a futex word) */
	uint32_t waiters;    /* threads waiting on it */
	uint32_t wanted;     /* the least count one of them waits for */
	uint64_t waits;	     /* events that had to wait for another thread */
	struct rp_dir *dirs; /* kept open, by key modulo nr_dirs */
	size_t nr_dirs;
	unsigned dir_gen; /* rp_state.dir_gen when they were opened */
	void *buf;
	size_t buf_bytes;
	struct rp_uring *ur; /* its io_uring requests (replay_uring.c) */
	struct rp_state *st;
	pthread_t th;
	int started;
};

struct rp_state {
	struct trace t;
	char **rel;	  /* per file id - 1: the path below the work
			     directory, NULL: not replayable */
	uint32_t *parent; /* per file id - 1: its directory's key */
	unsigned dir_gen; /* bumped when a directory moves or goes */
	struct rp_thread *th;
	size_t nr_th;
	pthread_mutex_t lock; /* fds */
	struct rp_fd *fds;
	size_t nr_fds, alloc_fds;
	double speed; /* 0: max */
	int open_loop;
	uint64_t start_ns;
	volatile int *stop;
	int work_fd;
	uint64_t extra_opens;	     /* descriptors opened before the trace */
	uint64_t skipped;	     /* calls not replayed (mmap, msync) */
	struct rpb_state *blk;	     /* --layer block (replay_blk.c), or NULL */
	struct rp_setdiff *setdiffs; /* settings otherwise than captured */
	size_t nr_setdiffs;
	unsigned moves;	     /* what they move, FMOVE_* together */
	uint64_t *warm;	     /* per file id - 1: bytes to start cached */
	unsigned char *data; /* per file id - 1: its bytes are used (the others
			      are laid out as holes) */
	enum rp_cache_from cache_from;
	uint64_t drops;	    /* the system's cache drops after the settle */
	uint64_t run_drops; /* of them, in the run: another process's */
	int have_drops;
	int end_capture; /* --end capture: watch to the capture's end */
};

/*
 * Where the trace's paths land beneath the work directory: st->rel[i]
 * (allocated here, one per file) is file i + 1's path below the
 * deepest directory every replayed file shares (at most the first
 * one's own directory), "." for that directory itself, NULL for a file
 * that is not replayed (TFK_OTHER). -EINVAL with err set when a path
 * is not plain and absolute (an empty, "." or ".." component): then
 * nothing can land outside the work directory.
 */
int rp_map_names(struct rp_state *st, struct strbuf *err);
/* openat2 beneath dirfd, no symbolic link followed: the fd or -errno. */
int rp_open_beneath(int dirfd, const char *rel, int flags, mode_t mode);
/* The parent of rel beneath work_fd opened O_PATH, *base its last
 * component: the fd or -errno. */
int rp_open_parent(int work_fd, const char *rel, const char **base);
/* The cross-thread dependencies of every thread's events (th[i].idx
 * into t's events), into th[i].dep_off and deps (replay_deps.c). */
void rp_deps_compute(const struct trace *t, struct rp_thread *th, size_t nr_th);
/* Per file of t, the key of the directory its name is in (a key per
 * distinct directory, those the trace lists numbered as their file id
 * - 1), *nr_keys how many; free() it. */
uint32_t *rp_parent_keys(const struct trace *t, uint32_t *nr_keys);
/* The directories kept open (replay_dirs.c): each thread's share, after
 * split_threads; before each call, dropped if a directory moved or went
 * since (rp_dirs_changed); the directory of file id's name and *base its
 * last component (*owned: the caller closes the fd), or -errno; whether
 * the directories of files a and b take the same place (the second
 * lookup closes the first's fd); a directory moved or removed; a
 * thread's closed. */
void rp_dirs_init(struct rp_state *st);
void rp_dirs_sync(struct rp_thread *th);
int rp_dirs_collide(const struct rp_thread *th, uint32_t a, uint32_t b);
int rp_dir_of(struct rp_thread *th, uint32_t id, const char **base, int *owned);
void rp_dirs_changed(struct rp_state *st);
void rp_dirs_release(struct rp_thread *th);
/* Wait until th has done count events (or *stop); 1 if it had to. */
int rp_wait_done(struct rp_thread *th, uint32_t count, volatile int *stop);
/* Say th has done count events; all of them when it ends (count is
 * UINT32_MAX: no waiter is left waiting). */
void rp_set_done(struct rp_thread *th, uint32_t count);
struct workload;
struct run_result;
/* The timed part and the cleanup (replay_run.c). */
int rp_run(struct workload *w, struct run_result *r, struct strbuf *err);
void rp_cleanup(struct workload *w);
/* Compare what the threads did (done, the run's events) with the
 * capture (replay_judge.c): the score, its note, the settings and the
 * distributions on r; a poor replay warned. */
void rp_judge(struct rp_state *st, struct run_result *r, struct trace *done);
/* rp_run, then the device terms of a file-layer replay's fidelity from
 * the run's device truth and t's meta device.* (replay_dev.c). */
int rp_run_judged(struct workload *w, struct run_result *r, struct strbuf *err);
void rp_judge_device(const struct trace *t, unsigned moves, uint64_t drops,
		     struct run_result *r);
/* --layer block (replay_blk.c): the requests of st->t on target t
 * (a block device), done by workers keeping the recorded depth; 0 or
 * -errno with err set. */
int rpb_prepare(struct rp_state *st, struct workload *w, struct target *t,
		struct strbuf *err);
int rpb_run(struct rp_state *st, struct workload *w, struct run_result *r,
	    struct strbuf *err);
void rpb_free(struct rpb_state *b);
/* The settings of the capture against the target's (replay_set.c):
 * st->setdiffs and st->moves; their note on r. */
void rp_settings_compare(struct rp_state *st, const struct target *t);
void rp_settings_note(const struct rp_state *st, struct run_result *r);
/* After the layout: what of each laid-out file the capture found
 * cached (st->warm); before the timed part, each file brought to it,
 * and a note on r saying so. */
void rp_cache_plan(struct rp_state *st);
void rp_cache_settle(struct rp_state *st, struct run_result *r);
/* A warning on r (kind other_io: another process's doing, as its I/O
 * on the device is) if another process dropped the page cache since
 * the settle (settings_cache_drops()): what reached the device is then
 * not the capture's start's doing; their count, 0 for none. */
uint64_t rp_cache_check(const struct rp_state *st, struct run_result *r);
void rp_settings_release(struct rp_state *st);
/* Do call e (not an io_uring request) of th; its result (-errno on
 * failure). Our descriptor for e's recorded one, opened now for one
 * the trace found open; -1 when its file cannot be replayed
 * (replay_run.c). */
int64_t rp_do_op(struct rp_thread *th, const struct trace_event *e);
int rp_fd_of(struct rp_state *st, const struct trace_event *e);
/*
 * io_uring requests (replay_uring.c). prepare: each thread that has
 * some gets its events in the order of their starts and its ring's
 * plan (th->ur); -errno with err set when io_uring is not available
 * here. thread: such a thread's replay (its calls too); free: its
 * ring and plan. order: idx[0..nr) of t's events by start time, in
 * their order among equals; depth: the requests of those in flight
 * at each one's submission in the capture, itself included, into
 * depth[i] (0 for a call; depth may be NULL), and the most of them
 * (its ring's size; a depth over 4096 counts the 4096 latest).
 */
int rp_uring_prepare(struct rp_state *st, struct strbuf *err);
void *rp_uring_thread(struct rp_thread *th);
void rp_uring_free(struct rp_thread *th);
void rp_uring_order(const struct trace *t, size_t *idx, size_t nr);
unsigned rp_uring_depth(const struct trace *t, const size_t *idx, size_t nr,
			uint32_t *depth);
/* Must request or call e wait for request r (earlier in its thread,
 * completed before e started in the capture)? A call waits for every
 * such request; a request for one on its file when either writes (the
 * ranges meeting) or flushes; reads after reads never wait. */
int rp_uring_ordered(const struct trace_event *r, const struct trace_event *e);
/* "max" (0) or a factor; 0 or -EINVAL with err set. */
int rp_parse_speed(const char *s, double *out, struct strbuf *err);
/* The fidelity warnings of a replay run, either layer: a poor score
 * (why says which parts), and a trace that lost what of its capture. */
void rp_warn_fidelity(struct run_result *r, int poor, const char *why,
		      uint64_t lost, const char *what);

#endif
