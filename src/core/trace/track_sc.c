/*
 * The system calls the capture records, by number on the architecture
 * this is built for (<sys/syscall.h>): their kind for the tracker and
 * which of their arguments are path strings for the BPF program. A call
 * an architecture lacks (open, stat: arm64 has only the *at forms) is
 * left out by its #ifdef.
 */
#include <string.h>
#include <sys/syscall.h>
#include "track.h"
#include "track-int.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* One row: a syscall number, its kind, its path arguments (-1: none),
 * the NAME of its tracepoints syscalls/sys_{enter,exit}_NAME (the
 * kernel's name of the call: newstat for stat, sendfile64). */
struct sc_row {
	long nr;
	enum sc_kind kind;
	signed char path[2];
	const char *tp;
};

static const struct sc_row sc_rows[] = {
#ifdef SYS_open
    {SYS_open, SC_OPEN, {0, -1}, "open"},
#endif
#ifdef SYS_creat
    {SYS_creat, SC_CREAT, {0, -1}, "creat"},
#endif
    {SYS_openat, SC_OPENAT, {1, -1}, "openat"},
    {SYS_read, SC_READ, {-1, -1}, "read"},
    {SYS_pread64, SC_PREAD, {-1, -1}, "pread64"},
    {SYS_readv, SC_READV, {-1, -1}, "readv"},
    {SYS_preadv, SC_PREADV, {-1, -1}, "preadv"},
    {SYS_preadv2, SC_PREADV, {-1, -1}, "preadv2"},
    {SYS_write, SC_WRITE, {-1, -1}, "write"},
    {SYS_pwrite64, SC_PWRITE, {-1, -1}, "pwrite64"},
    {SYS_writev, SC_WRITEV, {-1, -1}, "writev"},
    {SYS_pwritev, SC_PWRITEV, {-1, -1}, "pwritev"},
    {SYS_pwritev2, SC_PWRITEV, {-1, -1}, "pwritev2"},
    {SYS_lseek, SC_LSEEK, {-1, -1}, "lseek"},
    {SYS_fsync, SC_FSYNC, {-1, -1}, "fsync"},
    {SYS_fdatasync, SC_FDATASYNC, {-1, -1}, "fdatasync"},
#ifdef SYS_sync_file_range
    {SYS_sync_file_range, SC_SYNC_RANGE, {-1, -1}, "sync_file_range"},
#endif
    {SYS_fallocate, SC_FALLOCATE, {-1, -1}, "fallocate"},
    {SYS_ftruncate, SC_FTRUNCATE, {-1, -1}, "ftruncate"},
    {SYS_close, SC_CLOSE, {-1, -1}, "close"},
#ifdef SYS_unlink
    {SYS_unlink, SC_UNLINK, {0, -1}, "unlink"},
#endif
    {SYS_unlinkat, SC_UNLINKAT, {1, -1}, "unlinkat"},
#ifdef SYS_rename
    {SYS_rename, SC_RENAME, {0, 1}, "rename"},
#endif
#ifdef SYS_renameat
    {SYS_renameat, SC_RENAMEAT, {1, 3}, "renameat"},
#endif
    {SYS_renameat2, SC_RENAMEAT, {1, 3}, "renameat2"},
#ifdef SYS_mkdir
    {SYS_mkdir, SC_MKDIR, {0, -1}, "mkdir"},
#endif
    {SYS_mkdirat, SC_MKDIRAT, {1, -1}, "mkdirat"},
#ifdef SYS_rmdir
    {SYS_rmdir, SC_RMDIR, {0, -1}, "rmdir"},
#endif
#ifdef SYS_stat
    {SYS_stat, SC_STAT, {0, -1}, "newstat"},
#endif
#ifdef SYS_lstat
    {SYS_lstat, SC_STAT, {0, -1}, "newlstat"},
#endif
#ifdef SYS_newfstatat
    {SYS_newfstatat, SC_FSTATAT, {1, -1}, "newfstatat"},
#endif
    {SYS_statx, SC_STATX, {1, -1}, "statx"},
    {SYS_fstat, SC_FSTAT, {-1, -1}, "newfstat"},
    {SYS_getdents64, SC_GETDENTS, {-1, -1}, "getdents64"},
    {SYS_mmap, SC_MMAP, {-1, -1}, "mmap"},
    {SYS_msync, SC_MSYNC, {-1, -1}, "msync"},
    {SYS_chdir, SC_CHDIR, {0, -1}, "chdir"},
    {SYS_fchdir, SC_FCHDIR, {-1, -1}, "fchdir"},
    {SYS_dup, SC_DUP, {-1, -1}, "dup"},
#ifdef SYS_dup2
    {SYS_dup2, SC_DUP2, {-1, -1}, "dup2"},
#endif
    {SYS_dup3, SC_DUP2, {-1, -1}, "dup3"},
    {SYS_fcntl, SC_FCNTL, {-1, -1}, "fcntl"},
    {SYS_copy_file_range, SC_COPY, {-1, -1}, "copy_file_range"},
    {SYS_sendfile, SC_SENDFILE, {-1, -1}, "sendfile64"},
#ifdef SYS_fadvise64
    {SYS_fadvise64, SC_FADVISE, {-1, -1}, "fadvise64"},
#endif
    {SYS_readahead, SC_READAHEAD, {-1, -1}, "readahead"},
    {SYS_sync, SC_SYNC, {-1, -1}, "sync"},
    {SYS_syncfs, SC_SYNCFS, {-1, -1}, "syncfs"},
#ifdef SYS_io_uring_setup
    {SYS_io_uring_setup, SC_URING, {-1, -1}, "io_uring_setup"},
#endif
    {SYS_clone, SC_FORK, {-1, -1}, "clone"},
#ifdef SYS_clone3
    {SYS_clone3, SC_FORK, {-1, -1}, "clone3"},
#endif
#ifdef SYS_fork
    {SYS_fork, SC_FORK, {-1, -1}, "fork"},
#endif
#ifdef SYS_vfork
    {SYS_vfork, SC_FORK, {-1, -1}, "vfork"},
#endif
};

void tracker_sysinfo(struct iot_sysinfo *rows, const char **tp)
{
	size_t i;

	memset(rows, 0, sizeof(*rows) * IOT_MAX_SYSCALL);
	if (tp)
		memset(tp, 0, sizeof(*tp) * IOT_MAX_SYSCALL);
	for (i = 0; i < ARRAY_SIZE(sc_rows); i++) {
		const struct sc_row *r = &sc_rows[i];

		if (r->nr < 0 || r->nr >= IOT_MAX_SYSCALL)
			continue;
		rows[r->nr].record = r->kind == SC_FORK ? 2 : 1;
		rows[r->nr].path_arg[0] =
		    r->path[0] < 0 ? IOT_NO_ARG : (uint8_t)r->path[0];
		rows[r->nr].path_arg[1] =
		    r->path[1] < 0 ? IOT_NO_ARG : (uint8_t)r->path[1];
		rows[r->nr].nargs = 6;
		rows[r->nr].raw = 1;
		rows[r->nr].open = r->kind == SC_OPEN || r->kind == SC_CREAT ||
				   r->kind == SC_OPENAT;
		rows[r->nr].close = r->kind == SC_CLOSE;
		if (tp)
			tp[r->nr] = r->tp;
	}
}

enum sc_kind sc_kind_of(uint32_t nr)
{
	/* by number, made once: a call is looked up per record */
	static unsigned char kind[IOT_MAX_SYSCALL];
	static int made;
	size_t i;

	if (!made) {
		for (i = 0; i < ARRAY_SIZE(sc_rows); i++)
			if (sc_rows[i].nr >= 0 &&
			    sc_rows[i].nr < IOT_MAX_SYSCALL)
				kind[sc_rows[i].nr] =
				    (unsigned char)sc_rows[i].kind;
		made = 1;
	}
	return nr < IOT_MAX_SYSCALL ? (enum sc_kind)kind[nr] : SC_NONE;
}
