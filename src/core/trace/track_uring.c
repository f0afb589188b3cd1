/*
 * The uring tracker: io_uring submissions and completions in, trace
 * events out. See track_uring.h.
 *
 * A ring's kernel thread (IORING_SETUP_SQPOLL) submits for the process
 * that made the ring: the thread is one of that process's (the capture
 * program records it as the process's), and its submissions are
 * charged to the thread that made the ring (io_uring_create), or to
 * the process's first thread when the ring was made before the trace.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include "track.h"
#include "track-int.h"
#include "track_uring.h"
#include "trace.h"
#include "../../util/strbuf.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* A ring the capture met. */
struct uring_ring {
	uint64_t ctx;	   /* the kernel's struct io_ring_ctx */
	uint32_t no;	   /* its number in the trace, 0: none yet */
	uint32_t owner;	   /* the thread that made it, 0: not seen */
	uint32_t inflight; /* its requests submitted, not completed */
};

/* A request in flight. */
struct uring_req {
	uint64_t req;	      /* the kernel's struct io_kiocb, 0: free */
	struct iot_uring sub; /* its submission */
	size_t ring;	      /* in rings[] */
	uint32_t depth;	      /* in flight on its ring, itself included */
	uint32_t file;	      /* its file, 0: not known yet */
	int other;	      /* on no file of a file system */
};

/* A registered file seen: index idx of ring ctx was file (dev, ino). */
struct uring_fixed {
	uint64_t ctx;
	int32_t idx;
	uint64_t dev, ino; /* as stat() has them */
	uint32_t file;
};

unsigned uring_op_of(uint8_t opcode, uint32_t sync_flags)
{
	switch (opcode) {
	case UOP_READV:
	case UOP_READ_FIXED:
	case UOP_READ:
	case UOP_READV_FIXED:
		return TOP_URING_READ;
	case UOP_WRITEV:
	case UOP_WRITE_FIXED:
	case UOP_WRITE:
	case UOP_WRITEV_FIXED:
		return TOP_URING_WRITE;
	case UOP_FSYNC:
		return sync_flags & UR_FSYNC_DATASYNC ? TOP_URING_FDATASYNC
						      : TOP_URING_FSYNC;
	}
	return TOP_NONE;
}

void uring_ops_table(uint8_t ops[256])
{
	unsigned i;

	for (i = 0; i < 256; i++)
		ops[i] = uring_op_of((uint8_t)i, 0) != TOP_NONE;
}

/* Is opcode a vectored read or write (its size is what moved)? */
static int vectored(uint8_t opcode)
{
	return opcode == UOP_READV || opcode == UOP_WRITEV ||
	       opcode == UOP_READV_FIXED || opcode == UOP_WRITEV_FIXED;
}

void uring_tracker_init(struct uring_tracker *ut, struct tracker *tk)
{
	memset(ut, 0, sizeof(*ut));
	ut->tk = tk;
	ut->req_slots = 64;
	ut->reqs = xcalloc(ut->req_slots, sizeof(*ut->reqs));
}

void uring_tracker_release(struct uring_tracker *ut)
{
	if (!ut)
		return;
	free(ut->rings);
	free(ut->reqs);
	free(ut->fixed);
	memset(ut, 0, sizeof(*ut));
}

static size_t req_hash(const struct uring_tracker *ut, uint64_t req)
{
	return (size_t)((req >> 4) * 0x9e3779b97f4a7c15ull >> 20) &
	       (ut->req_slots - 1);
}

/* The request in flight at req, or NULL. */
static struct uring_req *req_find(struct uring_tracker *ut, uint64_t req)
{
	size_t i = req_hash(ut, req);

	while (ut->reqs[i].req) {
		if (ut->reqs[i].req == req)
			return &ut->reqs[i];
		i = (i + 1) & (ut->req_slots - 1);
	}
	return NULL;
}

/* A free slot for req (not in the table), the table grown as needed. */
static struct uring_req *req_add(struct uring_tracker *ut, uint64_t req)
{
	size_t i;

	if ((ut->nr_reqs + 1) * 2 > ut->req_slots) {
		struct uring_req *old = ut->reqs;
		size_t n = ut->req_slots, j;

		ut->req_slots *= 2;
		ut->reqs = xcalloc(ut->req_slots, sizeof(*ut->reqs));
		for (j = 0; j < n; j++)
			if (old[j].req)
				*req_add(ut, old[j].req) = old[j];
		free(old);
	}
	i = req_hash(ut, req);
	while (ut->reqs[i].req)
		i = (i + 1) & (ut->req_slots - 1);
	memset(&ut->reqs[i], 0, sizeof(ut->reqs[i]));
	ut->reqs[i].req = req;
	return &ut->reqs[i];
}

/* Take r out of the table (the slots after it moved back so that every
 * request stays reachable from its hash). */
static void req_del(struct uring_tracker *ut, struct uring_req *r)
{
	size_t i = (size_t)(r - ut->reqs), j = i, h;

	ut->reqs[i].req = 0;
	ut->nr_reqs--;
	for (;;) {
		j = (j + 1) & (ut->req_slots - 1);
		if (!ut->reqs[j].req)
			return;
		h = req_hash(ut, ut->reqs[j].req);
		/* j's entry may move to i when i lies cyclically in
		 * [h, j) */
		if ((j > i && (h <= i || h > j)) ||
		    (j < i && h <= i && h > j)) {
			ut->reqs[i] = ut->reqs[j];
			ut->reqs[j].req = 0;
			i = j;
		}
	}
}

/* The ring at ctx, added on first sight. */
static size_t ring_of(struct uring_tracker *ut, uint64_t ctx)
{
	size_t i;

	for (i = ut->nr_rings; i-- > 0;)
		if (ut->rings[i].ctx == ctx)
			return i;
	ALLOC_GROW(ut->rings, ut->nr_rings + 1, ut->alloc_rings);
	memset(&ut->rings[ut->nr_rings], 0, sizeof(*ut->rings));
	ut->rings[ut->nr_rings].ctx = ctx;
	return ut->nr_rings++;
}

/* A file of process tgid at (dev, ino) (stat's), from the files the
 * tracker knows, else from its descriptors (a registered file is one
 * the process opened; most keep it open): its id in *id, 0 when none
 * is. Where no device matches (btrfs gives stat another device than
 * its inodes' super block has), the one file with the inode number,
 * if there is one only. */
static int by_identity(struct uring_tracker *ut, uint32_t tgid, uint64_t dev,
		       uint64_t ino, uint32_t *id, struct strbuf *err)
{
	const struct trace *t = &ut->tk->files;
	char path[PATH_MAX], link[PATH_MAX], *alone = NULL;
	uint32_t same_ino = 0, nr_ino = 0, nr_alone = 0;
	struct dirent *de;
	struct stat st;
	size_t i;
	DIR *d;
	int ret = 0;

	*id = 0;
	if (!ino)
		return 0;
	for (i = 0; i < t->nr_files; i++) {
		if (t->files[i].kind != TFK_REG || t->files[i].ino != ino)
			continue;
		if (t->files[i].dev == dev) {
			*id = t->files[i].id;
			return 0;
		}
		same_ino = t->files[i].id;
		nr_ino++;
	}
	snprintf(path, sizeof(path), "%s/proc/%u/fd",
		 ut->tk->root ? ut->tk->root : "", tgid);
	d = opendir(path);
	while (d && (de = readdir(d))) {
		ssize_t n;

		if (de->d_name[0] == '.' ||
		    fstatat(dirfd(d), de->d_name, &st, 0) || st.st_ino != ino)
			continue;
		n = readlinkat(dirfd(d), de->d_name, link, sizeof(link) - 1);
		if (n <= 0)
			continue;
		link[n] = 0;
		if (link[0] != '/' || strstr(link, " (deleted)"))
			continue;
		if (st.st_dev == dev) {
			ret = track_path_file(ut->tk, link, id, err);
			break;
		}
		if (!alone || strcmp(alone, link)) {
			nr_alone++;
			free(alone);
			alone = xstrdup(link);
		}
	}
	if (d)
		closedir(d);
	if (!ret && !*id && nr_ino == 1)
		*id = same_ino;
	else if (!ret && !*id && !nr_ino && nr_alone == 1)
		ret = track_path_file(ut->tk, alone, id, err);
	free(alone);
	/* 1: no file of a file system, not named */
	return ret > 0 ? 0 : ret;
}

/* The file of registered file idx of ring ctx, which the completion
 * says is (kdev, ino) (the kernel's numbers; ino 0: not read): the
 * one seen there before if it still is, else looked up and kept. */
static int fixed_file(struct uring_tracker *ut, uint32_t tgid, uint64_t ctx,
		      int32_t idx, uint64_t kdev, uint64_t ino, uint32_t *id,
		      struct strbuf *err)
{
	uint64_t dev =
	    makedev((unsigned)(kdev >> 20), (unsigned)(kdev & 0xfffff));
	struct uring_fixed *f = NULL;
	size_t i;
	int ret;

	*id = 0;
	for (i = 0; i < ut->nr_fixed; i++)
		if (ut->fixed[i].ctx == ctx && ut->fixed[i].idx == idx) {
			f = &ut->fixed[i];
			break;
		}
	if (f && (!ino || (f->dev == dev && f->ino == ino))) {
		*id = f->file;
		return 0;
	}
	if (!ino)
		return 0;
	ret = by_identity(ut, tgid, dev, ino, id, err);
	if (ret || !*id)
		return ret;
	if (!f) {
		ALLOC_GROW(ut->fixed, ut->nr_fixed + 1, ut->alloc_fixed);
		f = &ut->fixed[ut->nr_fixed++];
		f->ctx = ctx;
		f->idx = idx;
	}
	f->dev = dev;
	f->ino = ino;
	f->file = *id;
	return 0;
}

/* Write request r as an event, completed by c (NULL: not completed). */
static int write_req(struct uring_tracker *ut, struct uring_req *r,
		     const struct iot_uring *c, struct strbuf *err)
{
	const struct iot_uring *s = &r->sub;
	struct uring_ring *ring = &ut->rings[r->ring];
	struct tracker *tk = ut->tk;
	struct trace_event e = {0};
	int fixed = (s->flags & UR_REQ_FIXED_FILE) != 0, ret;
	uint64_t moved = c && c->res > 0 ? (uint64_t)c->res : 0;
	uint32_t file = r->file;

	if (r->other) {
		ut->dropped++;
		tk->dropped++;
		return 0;
	}
	/* a registered file, or a descriptor gone from /proc by the
	 * submission's handling: the file the request was issued on */
	if (!file && (fixed || c)) {
		ret = fixed ? fixed_file(ut, s->tgid, s->ctx, s->fd,
					 c ? c->dev : 0, c ? c->ino : 0, &file,
					 err)
			    : by_identity(ut, s->tgid,
					  makedev((unsigned)(c->dev >> 20),
						  (unsigned)(c->dev & 0xfffff)),
					  c->ino, &file, err);
		if (ret)
			return ret;
	}
	if (!file) {
		ut->unattributed++;
		return 0;
	}
	e.op = (uint16_t)uring_op_of(s->opcode, s->sync_flags);
	e.ts_ns = s->ts_ns > tk->start_ns ? s->ts_ns - tk->start_ns : 0;
	e.dur_ns = c && c->ts_ns > s->ts_ns ? c->ts_ns - s->ts_ns : 0;
	e.tid = s->tid;
	if (s->sq_thread) {
		e.tid = ring->owner ? ring->owner : s->tgid;
		e.flags |= TEV_SQPOLL;
	}
	if (fixed)
		e.flags |= TEV_FIXED;
	if (!c)
		e.flags |= TEV_UNDONE;
	e.file = file;
	e.fd = s->fd;
	if (!ring->no)
		ring->no = ++ut->nr_numbered;
	e.file2 = ring->no;
	e.arg = r->depth;
	e.ret = c ? c->res : 0;
	if (e.op == TOP_URING_FSYNC || e.op == TOP_URING_FDATASYNC) {
		e.offset = s->sync_off;
		e.size = s->sync_len;
	} else {
		/* an offset of -1: at the file's position, which the
		 * request moved to where it ended */
		if (s->pos != UINT64_MAX) {
			e.flags |= TEV_POSITIONAL;
			e.offset = s->pos;
		} else if (c && c->pos != UINT64_MAX && c->pos >= moved) {
			e.offset = c->pos - moved;
		}
		e.size = s->len;
		if (vectored(s->opcode)) {
			e.flags |= TEV_VEC;
			e.size = moved;
		} else if (!e.size) { /* a buffer the kernel picked */
			e.size = moved;
		}
	}
	ut->written++;
	ut->undone += !c;
	tk->events++;
	return trace_writer_event(tk->w, &e, err);
}

/* A submission: in flight on its ring, its file named now (its
 * descriptor is the one at this point of the process's calls). */
static int submitted(struct uring_tracker *ut, const struct iot_uring *u,
		     struct strbuf *err)
{
	struct uring_req *r = req_find(ut, u->req);
	size_t ring;
	int ret;

	if (r) { /* its completion never came: another request now */
		ut->unpaired++;
		if (ut->rings[r->ring].inflight)
			ut->rings[r->ring].inflight--;
		ret = write_req(ut, r, NULL, err);
		req_del(ut, r);
		if (ret)
			return ret;
	}
	if (uring_op_of(u->opcode, u->sync_flags) == TOP_NONE)
		return 0;
	ring = ring_of(ut, u->ctx);
	r = req_add(ut, u->req);
	ut->nr_reqs++;
	r->sub = *u;
	r->ring = ring;
	r->depth = ++ut->rings[ring].inflight;
	if (u->flags & UR_REQ_FIXED_FILE)
		return 0;
	ret = track_fd_file(ut->tk, u->tgid, u->fd, &r->file, err);
	if (ret > 0)
		r->other = 1;
	return ret < 0 ? ret : 0;
}

int uring_tracker_event(struct uring_tracker *ut, const struct iot_uring *u,
			struct strbuf *err)
{
	struct uring_req *r;
	size_t ring;
	int ret;

	switch (u->which) {
	case IOT_URING_CREATE:
		/* a new ring at an address an old one had is another */
		ring = ring_of(ut, u->ctx);
		if (!ut->rings[ring].inflight)
			ut->rings[ring].no = 0;
		ut->rings[ring].owner = u->tid;
		return 0;
	case IOT_URING_SUBMIT:
		return submitted(ut, u, err);
	case IOT_URING_COMPLETE:
		r = req_find(ut, u->req);
		if (!r)
			return 0;
		if (ut->rings[r->ring].inflight)
			ut->rings[r->ring].inflight--;
		ret = write_req(ut, r, u, err);
		req_del(ut, r);
		return ret;
	}
	return 0;
}

static int by_submission(const void *a, const void *b)
{
	const struct uring_req *x = *(struct uring_req *const *)a;
	const struct uring_req *y = *(struct uring_req *const *)b;

	if (x->sub.ts_ns != y->sub.ts_ns)
		return x->sub.ts_ns < y->sub.ts_ns ? -1 : 1;
	return x->req < y->req ? -1 : x->req > y->req;
}

int uring_tracker_finish(struct uring_tracker *ut, uint64_t other,
			 const char *other_ops, struct strbuf *err)
{
	struct uring_req **left = xcalloc(ut->nr_reqs + 1, sizeof(*left));
	char buf[24];
	size_t i, n = 0;
	int ret = 0;

	for (i = 0; i < ut->req_slots; i++)
		if (ut->reqs[i].req)
			left[n++] = &ut->reqs[i];
	qsort(left, n, sizeof(*left), by_submission);
	for (i = 0; i < n && !ret; i++)
		ret = write_req(ut, left[i], NULL, err);
	free(left);
	memset(ut->reqs, 0, ut->req_slots * sizeof(*ut->reqs));
	ut->nr_reqs = 0;
	if (ret || !(ut->nr_rings || other))
		return ret;
	snprintf(buf, sizeof(buf), "%llu",
		 (unsigned long long)ut->unattributed);
	ret = trace_writer_meta(ut->tk->w, "uring.unattributed", buf, err);
	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)other);
	if (!ret)
		ret = trace_writer_meta(ut->tk->w, "uring.other", buf, err);
	if (!ret && other_ops && *other_ops)
		ret = trace_writer_meta(ut->tk->w, "uring.other_ops", other_ops,
					err);
	return ret;
}
