/*
 * What capture.c takes from capture_tp.c: the tracing file system's
 * events, attaching to a tracepoint by its id, and the kernel structures'
 * offsets from BTF. Nothing here needs the skeleton.
 */
#ifndef IOTRIAL_TRACE_CAPTURE_INT_H
#define IOTRIAL_TRACE_CAPTURE_INT_H

#include <stddef.h>
#include <stdint.h>
#include "../../bpf/iotrace.h"

struct bpf_link;
struct bpf_program;
struct strbuf;

/*
 * A descriptor of the tracing file system's events directory: where it
 * is mounted (/sys/kernel/tracing, or under debugfs), else a tracefs of
 * its own attached to no directory (*own set; it goes with the
 * descriptor, the machine's mounts are left as they are). -errno.
 */
int tp_events_open(int *own);
/* The text of CAT/NAME/FILE (format, id) under events directory dir. */
int tp_read(int dir, const char *cat, const char *name, const char *file,
	    struct strbuf *out);
/* prog attached to tracepoint CAT:NAME; NULL with errno set. */
struct bpf_link *tp_attach(int dir, struct bpf_program *prog, const char *cat,
			   const char *name);
/*
 * From the format text of syscalls/sys_enter_NAME (exit 0) or
 * sys_exit_NAME (exit 1): the number of arguments (0 for an exit), or
 * -ENOTSUP when the layout is not the one iotrace.bpf.c declares
 * (__syscall_nr an int at 8; the arguments, or ret, 8 bytes each from
 * 16).
 */
int tp_syscall_nargs(const char *text, int exit);
/* The level of cgroup v2 directory dir in its hierarchy (its root is
 * 0), from its parents that are of the same cgroup2 file system, where
 * it is mounted (/sys/fs/cgroup, /sys/fs/cgroup/unified); -EINVAL when
 * dir is not of a cgroup2. */
int tp_cgroup_level(const char *dir, unsigned *level);
/* Where sched_process_fork keeps child_pid, from its format file under
 * events directory dir; 0 when not known. */
unsigned tp_fork_child_offset(int dir);
/* Destroy the n links, in a child of this process when there are many
 * (the kernel takes an RCU grace period for each tracepoint). */
void tp_detach(struct bpf_link **links, size_t n);
/* The offsets of the kernel's fields an open's exit reads (enum
 * iot_kernel_off), from /sys/kernel/btf/vmlinux; -errno (all 0) when
 * there is no BTF or a field is not as expected. */
int tp_kernel_offsets(uint32_t off[IOT_KO__NR]);
/* The offsets of the io_uring request's fields the capture reads (enum
 * iot_uring_off), from /sys/kernel/btf/vmlinux; -errno (all 0) when
 * there is no BTF or a field is not as expected. */
int tp_uring_offsets(uint32_t off[IOT_UO__NR]);
/* Where io_uring tracepoint tp (enum iot_uring_tp) keeps the fields the
 * capture reads (enum iot_uring_field), from its format text; -ENOTSUP
 * when one is missing or of another size. */
int tp_uring_format(const char *text, unsigned tp, uint32_t off[IOT_UF__NR]);
/* The io_uring operations of opcode counts n (those not 0) into out,
 * by their names in the kernel's BTF, "nop 1, statx 2" ("opcode 9 1"
 * for one it does not name), in opcode order. */
void tp_uring_ops_text(const uint64_t n[256], struct strbuf *out);

#endif
