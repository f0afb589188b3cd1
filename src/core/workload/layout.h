/*
 * Laying out work files: a read job needs its file written in full (a
 * hole or an unwritten extent reads as zeros without touching the
 * device), a write job only needs the space. Files of an earlier run can
 * be reused when an experiment asks for it.
 */
#ifndef IOTRIAL_LAYOUT_H
#define IOTRIAL_LAYOUT_H

#include <stddef.h>
#include <stdint.h>
#include "../targets/target.h"
#include "../../util/rng.h"
#include "../../util/strbuf.h"

/* Fill buf with bytes from rng: writes must not be trivially compressible. */
void layout_fill_random(void *buf, size_t bytes, struct rng *rng);
/*
 * Work file name in t's work directory (target_open_file: never through a
 * link). Write it in full (bytes, content from seed), flush it and drop
 * it from the page cache. A file of that name is replaced by a new one.
 * 0 or -errno with err set.
 */
int layout_write(const struct target *t, const char *name, uint64_t bytes,
		 uint64_t seed, struct strbuf *err);
/* Create work file name at full size without writing it (fallocate, or a
 * sparse file where the filesystem has no fallocate), replacing a file of
 * that name. */
int layout_preallocate(const struct target *t, const char *name, uint64_t bytes,
		       struct strbuf *err);
/* Can an earlier run's work file serve again? A regular file of the same
 * size, fully allocated; its cache is dropped so the next run starts
 * cold. 1 or 0. */
int layout_reusable(const struct target *t, const char *name, uint64_t bytes);

/*
 * Write bytes [from, to) of the open file fd (path names it for
 * messages) with content from seed, flush it and drop it from the page
 * cache. 0 or -errno with err set.
 */
int layout_fill_range(int fd, uint64_t from, uint64_t to, uint64_t seed,
		      const char *path, struct strbuf *err);

/*
 * One work file that workloads use in turn, as fio's job sections that
 * name the same filename= use one file: it lives in the work directory
 * of dir (a target the caller holds for all of them, so the file is
 * still iotrial's own and goes when dir is released or its journal
 * record is recovered), and each user gets a link to it under its own
 * work file name. The first user lays it out as it would its own file;
 * later ones take it as it is then (what an earlier one wrote stays
 * written), grown when they need more, and written in full first when
 * they read a file that was only allocated (reads must reach the
 * device).
 */
struct layout_share {
	const struct target *dir; /* holds the file, in its work directory */
	char name[16];		  /* the file's name there */
	char *label;		  /* for notes: filename= as given, owned */
	uint64_t bytes;		  /* its size now; 0: not laid out yet */
	int written;		  /* written in full, not only allocated */
	char *laid_out_by;	  /* the user that laid it out, owned */
	uint64_t ino;		  /* its inode, once laid out */
	unsigned uses;		  /* layout_share_use() calls that worked */
};

/* Free what s owns (not the file: dir's release removes it). */
void layout_share_release(struct layout_share *s);
/* The bytes a user needing bytes of it adds to the target: none while
 * the file is that large already. */
uint64_t layout_share_need(const struct layout_share *s, uint64_t bytes);
/*
 * For user who (a name for notes): make s's file at least bytes long,
 * written in full when read is set, and link it as work file name in
 * t's work directory (replacing a file of that name), its cache dropped
 * so the user starts cold. A sentence for the user's run goes to note
 * when an earlier user's file is reused. 0 or -errno with err set.
 */
int layout_share_use(struct layout_share *s, const char *who,
		     const struct target *t, const char *name, uint64_t bytes,
		     int read, uint64_t seed, struct strbuf *note,
		     struct strbuf *err);

#endif
