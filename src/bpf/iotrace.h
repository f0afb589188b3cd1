/*
 * What the BPF capture program (iotrace.bpf.c) and its loader
 * (core/trace/capture.c) agree on: the ring buffer's records and the
 * maps' values. Fixed-width types only, so the BPF target and the host
 * lay them out alike.
 *
 * The program knows no syscall by number: the loader fills the sysinfo
 * map (indexed by syscall number) with which calls to record and which
 * of their arguments are user-space path strings, from <sys/syscall.h>
 * of the architecture it runs on. The program copies the arguments at
 * entry, and sends one record per call at exit, with the return value.
 *
 * The loader attaches the per-syscall programs (iot_sc_enter, iot_sc_exit)
 * to syscalls/sys_enter_NAME and sys_exit_NAME of each call recorded, so
 * other calls never run them; a call whose tracepoint this kernel lacks
 * is marked raw in sysinfo and recorded by the raw_syscalls programs
 * (iot_enter, iot_exit), attached only when there is such a call.
 */
#ifndef IOTRIAL_BPF_IOTRACE_H
#define IOTRIAL_BPF_IOTRACE_H

#include <linux/types.h>

#define IOT_PATH_MAX	256 /* bytes of each path copied, NUL included */
#define IOT_MAX_SYSCALL 512 /* entries of the sysinfo map */
#define IOT_NR_FORK	0xffffffffu /* iot_call.nr of a fork: ret is the child */
#define IOT_NO_ARG	0xff	    /* iot_sysinfo.path_arg: none */

/* How the program picks the processes it records (iot_cfg.mode). */
enum iot_mode {
	IOT_MODE_PIDS = 1,   /* tgids in the tracked map (and their children) */
	IOT_MODE_CGROUP = 2, /* tasks in the cgroup (v2) or below it */
};

/* One row of the sysinfo map: a syscall to record. */
struct iot_sysinfo {
	__u8 record;	  /* 1: record it; 2: a fork (track its child) */
	__u8 path_arg[2]; /* argument indexes of path strings, IOT_NO_ARG */
	__u8 nargs;	  /* arguments its tracepoint has (6 for raw) */
	__u8 raw;   /* 1: through raw_syscalls (no tracepoint of its own) */
	__u8 open;  /* 1: returns a new descriptor (open, creat, openat) */
	__u8 close; /* 1: closes its first argument (close) */
	__u8 pad;
};

/*
 * Where the fields the exit of an open reads are in the kernel's
 * structures (koff[], bytes), from the running kernel's BTF by the
 * loader: current->files->fdt->fd[ret] is the new struct file, whose
 * f_mode says whether the call created it (FMODE_CREATED) and whose
 * inode gives its type and size then, and its page cache the pages it
 * holds. 0 in IOT_KO_FILES: not known (no BTF), nothing is read.
 */
enum iot_kernel_off {
	IOT_KO_FILES,	  /* task_struct.files (a pointer) */
	IOT_KO_FDT,	  /* files_struct.fdt (a pointer) */
	IOT_KO_MAX_FDS,	  /* fdtable.max_fds (unsigned int) */
	IOT_KO_FD,	  /* fdtable.fd (struct file **) */
	IOT_KO_F_MODE,	  /* file.f_mode (fmode_t, 4 bytes) */
	IOT_KO_F_INODE,	  /* file.f_inode (a pointer) */
	IOT_KO_I_MODE,	  /* inode.i_mode (umode_t, 2 bytes) */
	IOT_KO_I_SIZE,	  /* inode.i_size (loff_t, 8 bytes) */
	IOT_KO_I_MAPPING, /* inode.i_mapping (a pointer) */
	IOT_KO_NRPAGES,	  /* address_space.nrpages (unsigned long) */
	IOT_KO__NR
};

/* The kinds of ring buffer records. */
enum iot_rec_kind {
	IOT_REC_CALL = 1,  /* struct iot_call */
	IOT_REC_PATH = 2,  /* struct iot_call_path */
	IOT_REC_BLK = 3,   /* struct iot_blk */
	IOT_REC_URING = 4, /* struct iot_uring */
};

/* The block tracepoints (iot_blk.which, and the index of blk_off). */
enum iot_blk_tp {
	IOT_BLK_ISSUE = 0,    /* block_rq_issue */
	IOT_BLK_COMPLETE = 1, /* block_rq_complete */
	IOT_BLK_INSERT = 2,   /* block_rq_insert */
	IOT_BLK__NR
};

/* Where a block tracepoint keeps its fields (blk_off[tp]): byte offsets
 * in its context, read by the loader from the format file, as the
 * layout changed across kernels (ioprio, rwbs[8] to rwbs[10]). 0: the
 * field is not there (dev never is at 0: the common fields are). */
enum iot_blk_field {
	IOT_BF_DEV,	  /* dev_t, 4 bytes: major << 20 | minor */
	IOT_BF_SECTOR,	  /* sector_t, 8 bytes */
	IOT_BF_NR_SECTOR, /* unsigned int */
	IOT_BF_BYTES,	  /* unsigned int (issue, insert) */
	IOT_BF_ERROR,	  /* int (complete) */
	IOT_BF_RWBS,	  /* char[rwbs size] */
	IOT_BF_RWBS_SIZE, /* its size, at most IOT_RWBS_MAX */
	IOT_BF__NR
};

#define IOT_RWBS_MAX 16

/* One block request event of the device being recorded. */
struct iot_blk {
	__u32 kind;  /* IOT_REC_BLK */
	__u32 which; /* enum iot_blk_tp */
	__u32 dev;   /* as the tracepoint gives it (major << 20 | minor) */
	__u32 pid;   /* the task the tracepoint fired in */
	__u64 ts_ns; /* bpf_ktime_get_ns() (CLOCK_MONOTONIC) */
	__u64 sector;
	__u32 nr_sector;
	__u32 bytes;		 /* 0 where the tracepoint has none */
	__s32 error;		 /* complete: 0 or -errno */
	char rwbs[IOT_RWBS_MAX]; /* NUL-terminated */
	__u32 pad;
};

/* The io_uring tracepoints (iot_uring.which, and the index of
 * uring_tp_off). */
enum iot_uring_tp {
	IOT_URING_SUBMIT = 0,	/* io_uring_submit_req */
	IOT_URING_COMPLETE = 1, /* io_uring_complete */
	IOT_URING_CREATE = 2,	/* io_uring_create */
	IOT_URING__NR
};

/* Where an io_uring tracepoint keeps its fields (uring_tp_off[tp]):
 * byte offsets in its context from the format file, as for the block
 * tracepoints; 0: not there. */
enum iot_uring_field {
	IOT_UF_CTX,	   /* void *: the ring (all three) */
	IOT_UF_REQ,	   /* void *: the request (submit, complete) */
	IOT_UF_OPCODE,	   /* u8 (submit) */
	IOT_UF_FLAGS,	   /* the request's flags (submit) */
	IOT_UF_FLAGS_SIZE, /* their size: 4 or 8 */
	IOT_UF_SQ_THREAD,  /* bool (submit) */
	IOT_UF_RES,	   /* int (complete) */
	IOT_UF_CFLAGS,	   /* unsigned int (complete) */
	IOT_UF_FD,	   /* int: the ring's descriptor (create) */
	IOT_UF__NR
};

/*
 * Where the fields of a request (struct io_kiocb) and of its file are
 * (uring_off[], bytes), from the running kernel's BTF by the loader:
 * the sqe's descriptor (cqe.fd), the command area as struct io_rw
 * (kiocb.ki_pos, len) or struct io_sync (off, len, flags), the file it
 * was issued on, and that file's inode number and device.
 */
enum iot_uring_off {
	IOT_UO_FD,	   /* io_kiocb.cqe.fd (int) */
	IOT_UO_POS,	   /* io_kiocb.cmd as io_rw: kiocb.ki_pos (loff_t) */
	IOT_UO_LEN,	   /* io_rw.len (u32) */
	IOT_UO_SYNC_OFF,   /* io_sync.off (loff_t) */
	IOT_UO_SYNC_LEN,   /* io_sync.len (loff_t) */
	IOT_UO_SYNC_FLAGS, /* io_sync.flags (int) */
	IOT_UO_FILE,	   /* io_kiocb.file (a pointer; at 0 on 6.18) */
	IOT_UO_F_INODE,	   /* file.f_inode (a pointer) */
	IOT_UO_I_INO,	   /* inode.i_ino (unsigned long, 8 bytes) */
	IOT_UO_I_SB,	   /* inode.i_sb (a pointer) */
	IOT_UO_S_DEV,	   /* super_block.s_dev (dev_t, 4 bytes) */
	IOT_UO__NR
};

/* One io_uring event of a request of a recorded process: its
 * submission, its completion, or a ring made. */
struct iot_uring {
	__u32 kind;  /* IOT_REC_URING */
	__u32 which; /* enum iot_uring_tp */
	__u32 tgid, tid;
	__u64 ts_ns;		  /* bpf_ktime_get_ns() (CLOCK_MONOTONIC) */
	__u64 ctx;		  /* the ring (struct io_ring_ctx *) */
	__u64 req;		  /* the request (struct io_kiocb *) */
	__u64 flags;		  /* submit: the request's flags (REQ_F_*) */
	__u64 pos;		  /* submit: io_rw's ki_pos (the sqe's offset);
				     complete: where it ended */
	__u64 sync_off, sync_len; /* submit: as io_sync has them */
	__u64 dev, ino;	  /* complete: of the file (dev as the kernel packs
			     it: major << 20 | minor), 0: none */
	__s32 fd;	  /* submit: the sqe's; create: the ring's */
	__s32 res;	  /* complete: the result */
	__u32 len;	  /* submit: io_rw's len (the sqe's) */
	__u32 sync_flags; /* submit: io_sync's */
	__u32 cflags;	  /* complete: the CQE's flags */
	__u8 opcode;	  /* submit: IORING_OP_* */
	__u8 sq_thread;	  /* submit: 1 by the ring's kernel thread */
	__u8 pad[2];
};

/* One finished system call. */
struct iot_call {
	__u32 kind;	 /* IOT_REC_CALL */
	__u32 nr;	 /* the syscall number */
	__u32 tgid, tid; /* process and thread */
	__u64 enter_ns;	 /* bpf_ktime_get_ns() at entry (CLOCK_MONOTONIC) */
	__u64 exit_ns;	 /* and at exit */
	__u64 args[6];	 /* its arguments */
	__s64 ret;	 /* its return value */
	/* an open that returned a descriptor, as the kernel has the file
	 * then (koff known); i_mode 0: not read */
	__u32 f_mode;  /* the struct file's f_mode */
	__u32 i_mode;  /* its inode's i_mode */
	__s64 i_size;  /* and i_size */
	__u64 nrpages; /* and the pages its page cache holds */
	/* the struct file's address: an open's new one at exit, the one
	 * a close closes at entry (0: not read). A close that another
	 * thread's open of the same number overtakes in the ring buffer
	 * (the descriptor is free before the close returns) is matched
	 * to the file it closed by it. */
	__u64 file;
};

/* One finished system call with path arguments. */
struct iot_call_path {
	struct iot_call c;	    /* kind IOT_REC_PATH */
	char path[2][IOT_PATH_MAX]; /* path_arg[0], path_arg[1]: "" if none */
};

#endif
