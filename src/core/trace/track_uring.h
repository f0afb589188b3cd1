/*
 * From io_uring requests to trace events. io_uring requests make no
 * system call of their own, so the capture program sends, for the
 * recorded processes, each submission of a read, write or fsync request
 * (io_uring_submit_req, with what the request holds after the kernel
 * prepared it from its sqe: descriptor, offset, length) and its
 * completion (io_uring_complete: the result, and the device and inode
 * of the file it was issued on). The uring tracker pairs them by the
 * request, counts what is in flight on each ring (the depth at each
 * submission), names the file as a call on the same descriptor would
 * be named (the tracker's descriptor tables), or, for a registered file
 * (whose sqe descriptor is an index in the ring's table), by the device
 * and inode the completion read; and writes one event per request when
 * it completes. What it cannot name is counted, not written.
 */
#ifndef IOTRIAL_TRACE_TRACK_URING_H
#define IOTRIAL_TRACE_TRACK_URING_H

#include <stddef.h>
#include <stdint.h>
#include "../../bpf/iotrace.h"

struct strbuf;
struct tracker;

/* The opcodes recorded: the kernel's IORING_OP_* numbers (its ABI,
 * include/uapi/linux/io_uring.h). */
enum uring_opcode {
	UOP_READV = 1,
	UOP_WRITEV = 2,
	UOP_FSYNC = 3,
	UOP_READ_FIXED = 4, /* into a registered buffer */
	UOP_WRITE_FIXED = 5,
	UOP_READ = 22,
	UOP_WRITE = 23,
	UOP_READV_FIXED = 60, /* 6.15 on */
	UOP_WRITEV_FIXED = 61,
};

#define UR_FSYNC_DATASYNC 1u /* io_sync.flags: IORING_FSYNC_DATASYNC */
/* A request's flags (REQ_F_*): REQ_F_FIXED_FILE, the sqe's
 * IOSQE_FIXED_FILE, which the kernel keeps at the same bit (0). */
#define UR_REQ_FIXED_FILE 1ull

/* The trace operation of a request of opcode with io_sync flags
 * sync_flags (TOP_URING_*), or TOP_NONE for an opcode not recorded. */
unsigned uring_op_of(uint8_t opcode, uint32_t sync_flags);
/* ops[opcode] = 1 for each opcode recorded, 0 for the others. */
void uring_ops_table(uint8_t ops[256]);

struct uring_ring;
struct uring_req;
struct uring_fixed;

/* The uring tracker's state. */
struct uring_tracker {
	struct tracker *tk; /* the descriptor tables, files, the writer */
	struct uring_ring *rings;
	size_t nr_rings, alloc_rings;
	uint32_t nr_numbered;	/* rings with a number (an event written) */
	struct uring_req *reqs; /* in flight: open addressing by req */
	size_t req_slots, nr_reqs;
	struct uring_fixed *fixed; /* registered files seen: (ring, index) */
	size_t nr_fixed, alloc_fixed;
	uint64_t written;      /* events written */
	uint64_t unattributed; /* requests whose file is not known */
	uint64_t dropped;      /* on no file of a file system (a socket) */
	uint64_t undone;       /* not completed when the trace ended */
	uint64_t unpaired;     /* submitted again before a completion */
};

void uring_tracker_init(struct uring_tracker *ut, struct tracker *tk);
void uring_tracker_release(struct uring_tracker *ut);
/* One record of the capture program (u->kind IOT_REC_URING): 0, or
 * -errno from the writer with err set. */
int uring_tracker_event(struct uring_tracker *ut, const struct iot_uring *u,
			struct strbuf *err);
/*
 * The end of the capture: the requests still in flight written, as not
 * completed (TEV_UNDONE), and, when the trace met io_uring at all, the
 * meta entries uring.unattributed, uring.other (other: the requests
 * of other operations the program counted) and uring.other_ops (which
 * they were, other_ops: "nop 1, statx 2"; not written when empty).
 * 0 or -errno.
 */
int uring_tracker_finish(struct uring_tracker *ut, uint64_t other,
			 const char *other_ops, struct strbuf *err);

#endif
