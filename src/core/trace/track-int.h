/*
 * What the tracker's files share: the kinds of system calls it knows
 * (track_sc.c has the table of their numbers on this architecture).
 */
#ifndef IOTRIAL_TRACE_TRACK_INT_H
#define IOTRIAL_TRACE_TRACK_INT_H

#include <stdint.h>

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
};

/* The kind of syscall number nr, SC_NONE for one not recorded. */
enum sc_kind sc_kind_of(uint32_t nr);

#endif
