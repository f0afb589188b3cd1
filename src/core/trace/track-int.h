/*
 * What the tracker's files share: the kinds of system calls it knows
 * (track_sc.c has the table of their numbers on this architecture) and
 * its tables (track_tab.c), which track.c turns calls into events with.
 */
#ifndef IOTRIAL_TRACE_TRACK_INT_H
#define IOTRIAL_TRACE_TRACK_INT_H

#include <stdint.h>
#include "track.h"

struct strbuf;

/* What a recorded syscall is, for the tracker. */
enum sc_kind {
	SC_NONE,
	SC_OPEN,   /* open(path, flags) */
	SC_CREAT,  /* creat(path, mode) */
	SC_OPENAT, /* openat(dirfd, path, flags) */
	SC_READ,   /* read(fd, buf, n) */
	SC_PREAD,  /* pread64(fd, buf, n, off) */
	SC_READV,  /* readv(fd, iov, cnt) */
	SC_PREADV, /* preadv(fd, iov, cnt, off) */
	SC_WRITE,
	SC_PWRITE,
	SC_WRITEV,
	SC_PWRITEV,
	SC_LSEEK, /* lseek(fd, off, whence) */
	SC_FSYNC,
	SC_FDATASYNC,
	SC_SYNC_RANGE, /* sync_file_range(fd, off, n, flags) */
	SC_FALLOCATE,  /* fallocate(fd, mode, off, len) */
	SC_FTRUNCATE,  /* ftruncate(fd, len) */
	SC_CLOSE,
	SC_UNLINK,   /* unlink(path) */
	SC_UNLINKAT, /* unlinkat(dirfd, path, flags) */
	SC_RENAME,   /* rename(old, new) */
	SC_RENAMEAT, /* renameat(ofd, old, nfd, new), renameat2 */
	SC_MKDIR,    /* mkdir(path, mode) */
	SC_MKDIRAT,  /* mkdirat(dirfd, path, mode) */
	SC_RMDIR,
	SC_STAT,     /* stat(path, buf), lstat */
	SC_FSTATAT,  /* newfstatat(dirfd, path, buf, flags) */
	SC_STATX,    /* statx(dirfd, path, flags, mask, buf) */
	SC_FSTAT,    /* fstat(fd, buf) */
	SC_GETDENTS, /* getdents64(fd, buf, n) */
	SC_MMAP,     /* mmap(addr, len, prot, flags, fd, off) */
	SC_MSYNC,    /* msync(addr, len, flags) */
	SC_CHDIR,
	SC_FCHDIR,
	SC_DUP,	      /* dup(fd) */
	SC_DUP2,      /* dup2(old, new), dup3 */
	SC_FCNTL,     /* fcntl(fd, F_DUPFD..) */
	SC_FORK,      /* clone, fork, vfork, clone3: only the BPF side acts */
	SC_COPY,      /* copy_file_range(in, off_in*, out, off_out*, n) */
	SC_SENDFILE,  /* sendfile(out, in, off*, n) */
	SC_FADVISE,   /* fadvise64(fd, off, len, advice) */
	SC_READAHEAD, /* readahead(fd, off, count) */
	SC_SYNC,      /* sync() */
	SC_SYNCFS,    /* syncfs(fd) */
	SC_URING,     /* io_uring_setup(entries, params): counted only */
};

/* The kind of syscall number nr, SC_NONE for one not recorded. */
enum sc_kind sc_kind_of(uint32_t nr);

/* A descriptor of a recorded process. */
struct track_fd {
	uint32_t tgid;
	int32_t fd;
	uint32_t file;	 /* 0: not a file of a file system (dropped) */
	uint32_t oflags; /* open flags */
	uint64_t pos;	 /* the position, as far as the tracker knows */
	uint64_t kfile;	 /* the kernel's struct file (0: not known) */
	int used;
	int gone; /* its number was given to another file, its close not
		   * handled yet: found by kfile only (track_close_target()) */
};

/* A recorded process's working directory. */
struct track_proc {
	uint32_t tgid;
	char *cwd; /* NULL: read /proc/PID/cwd when needed */
};

/* The tracker's tables, track_tab.c. */

/* Is path (absolute, normalized) one the trace leaves out: /proc, /sys,
 * /dev, /run/user? */
int track_path_ignored(const char *path);
/* The absolute, normalized form of path as process tgid meant it
 * relative to dirfd; 0 or -errno (the base is unknown). */
int track_resolve(struct tracker *tk, uint32_t tgid, int64_t dirfd,
		  const char *path, struct strbuf *out);
/* The file at the normalized path abs, added to the trace on first
 * sight (how, follow, kc, kind: see track_tab.c); 0 or -errno. */
int track_file_of(struct tracker *tk, const char *abs, int how, int follow,
		  const struct iot_call *kc, uint8_t kind, uint32_t *id,
		  struct strbuf *err);
/* Process tgid's entry, added on first sight (no cwd yet). */
struct track_proc *track_proc_of(struct tracker *tk, uint32_t tgid);
/* Descriptor fd of tgid as the tracker knows it, or NULL. */
struct track_fd *track_fd_find(struct tracker *tk, uint32_t tgid, int32_t fd);
/* Descriptor fd of tgid, a cleared entry when it is new. */
struct track_fd *track_fd_put(struct tracker *tk, uint32_t tgid, int32_t fd);
/* The entry for the descriptor open call c returned. */
struct track_fd *track_fd_opened(struct tracker *tk, const struct iot_call *c);
/* The entry close call c closes: f, or the one kept aside for it. */
struct track_fd *track_close_target(struct tracker *tk,
				    const struct iot_call *c,
				    struct track_fd *f);
/* Descriptor fd of tgid, learnt from /proc when not seen opened; NULL
 * when it cannot be known; *ret: 0 or -errno from the writer. */
struct track_fd *track_fd_get(struct tracker *tk, uint32_t tgid, int32_t fd,
			      struct strbuf *err, int *ret);
/* Is the file with id one whose calls are recorded? */
int track_file_recorded(struct tracker *tk, uint32_t id);
/*
 * For the io_uring requests (track_uring.c), which name files as calls
 * do: the file descriptor fd of process tgid is (learnt from /proc as
 * a call's is, when it was opened before the trace), and the file at
 * absolute path (added on first sight, as a call's is). 0 with *id its
 * id (0: not known); 1 when it is no file of a file system (a pipe, a
 * socket, /proc: left out as calls on them are); -errno from the
 * writer with err set.
 */
int track_fd_file(struct tracker *tk, uint32_t tgid, int32_t fd, uint32_t *id,
		  struct strbuf *err);
int track_path_file(struct tracker *tk, const char *path, uint32_t *id,
		    struct strbuf *err);

#endif
