/*
 * From system calls to trace events. The capture program sends each
 * finished call of the recorded processes with its raw arguments and
 * return value; the tracker knows what each call means (by syscall
 * number, from <sys/syscall.h>), keeps every process's descriptor table
 * (which file each fd is, and its position, so a read() gets the offset
 * it read at), names files by absolute path, and learns their identity
 * and starting state from user space: /proc/PID/fd and fdinfo for a
 * descriptor it did not see opened, statx() for a path. For an open
 * that returned a descriptor, the capture program says what the kernel
 * had at the exit (struct iot_call's f_mode, i_mode, i_size): whether
 * the call created the file, its type and size then, which win over
 * user space's later look.
 *
 * What is not file-system I/O (pipes, sockets, terminals, /proc, /sys,
 * /dev) is dropped and counted.
 */
#ifndef IOTRIAL_TRACE_TRACK_H
#define IOTRIAL_TRACE_TRACK_H

#include <stdint.h>
#include "trace.h"
#include "../../bpf/iotrace.h"

struct strbuf;
struct trace_writer;
struct track_fd;
struct track_proc;

/* The tracker's state. */
struct tracker {
	struct trace_writer *w; /* where events and files go */
	uint64_t start_ns;	/* CLOCK_MONOTONIC of the trace's start */
	int64_t start_real_ns;	/* CLOCK_REALTIME then, for birth times */
	struct trace files;	/* files met so far (events stay empty) */
	struct track_fd *fds;	/* (tgid, fd) -> file, position */
	size_t nr_fds, alloc_fds;
	uint32_t *path_index; /* open addressing on files.files' paths */
	size_t path_slots;
	struct track_proc *procs; /* tgid -> cwd */
	size_t nr_procs, alloc_procs;
	uint64_t calls;	    /* records handed in */
	uint64_t events;    /* events written */
	uint64_t dropped;   /* calls on what is not a file of a file system */
	uint64_t overtaken; /* opens of a number whose close came later */
	uint64_t rings;	    /* io_uring rings made (io_uring_setup) */
	const char *root;   /* non-NULL: prefix of /proc (tests) */
};

/* Start tracking into w (may be set later, before the first call);
 * start_ns is when the capture began. */
void tracker_init(struct tracker *tk, struct trace_writer *w,
		  uint64_t start_ns);
void tracker_release(struct tracker *tk);

/*
 * One finished call (c, with paths when c->kind is IOT_REC_PATH: path0,
 * path1, NUL-terminated within IOT_PATH_MAX). Writes what it means to
 * the writer; 0 or -errno from the writer with err set.
 */
int tracker_call(struct tracker *tk, const struct iot_call *c,
		 const char *path0, const char *path1, struct strbuf *err);

/* Process tgid works in cwd (known when it is added, so that a process
 * gone before its calls are handled still has one). */
void tracker_set_cwd(struct tracker *tk, uint32_t tgid, const char *cwd);

/* Fill the sysinfo rows (indexed by syscall number, IOT_MAX_SYSCALL of
 * them) that the capture program needs: which calls, which path args,
 * which return a descriptor; each marked raw with 6 arguments, for the
 * loader to change where the call's own tracepoint is there. tp (NULL,
 * or IOT_MAX_SYSCALL of them) gets each call's tracepoint NAME
 * (syscalls/sys_enter_NAME), NULL for the calls not recorded. */
void tracker_sysinfo(struct iot_sysinfo *rows, const char **tp);

#endif
