/*
 * Capture control: loads the BPF program (src/bpf/iotrace.bpf.c, built
 * into this binary as a skeleton), picks the processes to record, and
 * streams what they do into a trace writer through the tracker, with
 * bounded memory: a ring buffer of a fixed size between the kernel and
 * here, and blocks of events written as they fill. What did not fit the
 * ring buffer is counted as lost. The capture's own cost is measured:
 * the CPU time its BPF programs ran (the kernel's BPF run-time
 * statistics) and the CPU time of this process.
 */
#ifndef IOTRIAL_TRACE_CAPTURE_H
#define IOTRIAL_TRACE_CAPTURE_H

#include <stdint.h>
#include <sys/types.h>

struct strbuf;
struct trace_writer;
struct trace_event;
struct trace;
struct trace_end;
struct capture;

/* The layers a capture records (capture_opts.layers). */
enum capture_layer {
	CAPTURE_FILE = 1 << 0,	/* system calls of the processes */
	CAPTURE_BLOCK = 1 << 1, /* requests of one block device */
};

/* What to record. */
struct capture_opts {
	unsigned layers;     /* enum capture_layer; 0: the file layer */
	uint32_t blk_kdev;   /* CAPTURE_BLOCK: the device (blk.h's kdev) */
	const char *cgroup;  /* a cgroup v2 directory, or NULL: pids */
	uint64_t ring_bytes; /* the ring buffer (0: 8 MiB); a power of 2 */
};

/*
 * Load the program (not attached yet). 0, or -errno with err set:
 * -EPERM/-ENOSYS/-ENOTSUP and the like when BPF cannot load here (not
 * root, a container, a kernel without it): callers say so and stop.
 */
int capture_open(struct capture **out, const struct capture_opts *o,
		 struct strbuf *err);
/* Record pid and every process it has now and forks from now on. */
int capture_add_pid(struct capture *c, pid_t pid, struct strbuf *err);
/* Attach and start: events go to w from here on. */
int capture_start(struct capture *c, struct trace_writer *w,
		  struct strbuf *err);
/* Handle what the ring buffer holds, waiting up to timeout_ms for it. */
int capture_poll(struct capture *c, int timeout_ms, struct strbuf *err);
/* Detach, drain, and fill end (lost, duration, the capture's CPU). */
int capture_stop(struct capture *c, struct trace_end *end, struct strbuf *err);
/* Calls the tracker dropped (not a file system's file). */
uint64_t capture_dropped(const struct capture *c);
/* Block requests recorded, and of them completions whose issue came
 * before the capture (not recorded). */
uint64_t capture_blk_requests(const struct capture *c);
uint64_t capture_blk_unpaired(const struct capture *c);
/* Completions and inserts the kernel did not run the program for
 * (another BPF program was running on that CPU): their requests are
 * kept, flagged as not completed. After capture_stop(). */
uint64_t capture_blk_missed(const struct capture *c);
/* The io_uring requests of the capture (after capture_stop()). */
struct capture_uring {
	int recorded;	       /* the io_uring programs ran (else a note) */
	uint64_t rings_made;   /* io_uring_setup calls of the processes */
	uint64_t requests;     /* written as events */
	uint32_t rings;	       /* the rings they were on */
	uint64_t unattributed; /* whose file could not be known: left out */
	uint64_t other;	       /* of other operations: left out */
	const char *other_ops; /* which: "nop 1, statx 2" ("": none) */
	uint64_t undone;       /* not completed when the capture ended */
};
void capture_uring_counts(const struct capture *c, struct capture_uring *u);
/* What the caller may tell of how the capture works here (lines, each
 * ending in a newline; "" for nothing): calls recorded through
 * raw_syscalls, a tracefs of its own, no kernel BTF. */
const char *capture_notes(const struct capture *c);
/* CLOCK_MONOTONIC when capture_start() began. */
uint64_t capture_start_ns(const struct capture *c);
void capture_free(struct capture *c);

/* The meta entries of the starting state: when, kernel, host, the
 * layer ("file", "block", "both"), the vm.dirty_* knobs in force
 * ("knob.vm.dirty_ratio"). */
int capture_write_meta(struct trace_writer *w, const char *layer,
		       struct strbuf *err);

/* The files the capture met so far (their dev, ino, path); the trace's
 * events stay empty. */
const struct trace *capture_files(const struct capture *c);

/*
 * What reached the devices during a capture: readings of every block
 * device's stat file (/sys/class/block/NAME/stat), the first at the
 * start and the last taken at each capture_disks_sample(), so that a
 * device gone before the end (a scratch target torn down) keeps its
 * last reading. A device that appears later counts from zero (its
 * counters start there).
 */
struct capture_disk;
struct capture_disks {
	struct capture_disk *v;
	size_t nr, alloc;
	const struct trace *files; /* capture_files(): by file id */
	struct capture_io {
		uint64_t dev; /* by_dev: the device */
		uint64_t rd, wr;
	} * file_bytes; /* moved, by file id - 1 */
	size_t nr_file, alloc_file;
	struct capture_io *by_dev; /* per st_dev, at the end */
	size_t nr_dev, alloc_dev;
	uint64_t start_ns;	 /* the first sample */
	const char *sysfs;	 /* "/sys" (tests: a fake tree) */
	uint64_t drops0, drops1; /* the machine's cache drops at the
				    first sample and the last */
};
/* Take a reading of every device (the first one starts the interval). */
void capture_disks_sample(struct capture_disks *d);
/* A trace_writer.on_event (ctx: d, whose files is set): the bytes
 * reads and writes moved, tallied by the device of their file. */
void capture_disks_on_event(void *ctx, const struct trace_event *e);
/*
 * The meta entries device.* (docs/TRACE-FORMAT.md) of the block device
 * the traced reads and writes moved the most bytes on (their files'
 * st_dev), or, when none moved any, the first holding a file of
 * d->files. Nothing when no file is on a block device.
 */
int capture_disks_write_meta(struct capture_disks *d, struct trace_writer *w,
			     struct strbuf *err);
void capture_disks_release(struct capture_disks *d);

#endif
