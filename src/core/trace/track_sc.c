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

/* One row: a syscall number, its kind, its path arguments (-1: none). */
struct sc_row {
	long nr;
	enum sc_kind kind;
	signed char path[2];
};

static const struct sc_row sc_rows[] = {
#ifdef SYS_open
    {SYS_open, SC_OPEN, {0, -1}},
#endif
#ifdef SYS_creat
    {SYS_creat, SC_CREAT, {0, -1}},
#endif
    {SYS_openat, SC_OPENAT, {1, -1}},
    {SYS_read, SC_READ, {-1, -1}},
    {SYS_pread64, SC_PREAD, {-1, -1}},
    {SYS_readv, SC_READV, {-1, -1}},
    {SYS_preadv, SC_PREADV, {-1, -1}},
    {SYS_preadv2, SC_PREADV, {-1, -1}},
    {SYS_write, SC_WRITE, {-1, -1}},
    {SYS_pwrite64, SC_PWRITE, {-1, -1}},
    {SYS_writev, SC_WRITEV, {-1, -1}},
    {SYS_pwritev, SC_PWRITEV, {-1, -1}},
    {SYS_pwritev2, SC_PWRITEV, {-1, -1}},
    {SYS_lseek, SC_LSEEK, {-1, -1}},
    {SYS_fsync, SC_FSYNC, {-1, -1}},
    {SYS_fdatasync, SC_FDATASYNC, {-1, -1}},
#ifdef SYS_sync_file_range
    {SYS_sync_file_range, SC_SYNC_RANGE, {-1, -1}},
#endif
    {SYS_fallocate, SC_FALLOCATE, {-1, -1}},
    {SYS_ftruncate, SC_FTRUNCATE, {-1, -1}},
    {SYS_close, SC_CLOSE, {-1, -1}},
#ifdef SYS_unlink
    {SYS_unlink, SC_UNLINK, {0, -1}},
#endif
    {SYS_unlinkat, SC_UNLINKAT, {1, -1}},
#ifdef SYS_rename
    {SYS_rename, SC_RENAME, {0, 1}},
#endif
#ifdef SYS_renameat
    {SYS_renameat, SC_RENAMEAT, {1, 3}},
#endif
    {SYS_renameat2, SC_RENAMEAT, {1, 3}},
#ifdef SYS_mkdir
    {SYS_mkdir, SC_MKDIR, {0, -1}},
#endif
    {SYS_mkdirat, SC_MKDIRAT, {1, -1}},
#ifdef SYS_rmdir
    {SYS_rmdir, SC_RMDIR, {0, -1}},
#endif
#ifdef SYS_stat
    {SYS_stat, SC_STAT, {0, -1}},
#endif
#ifdef SYS_lstat
    {SYS_lstat, SC_STAT, {0, -1}},
#endif
#ifdef SYS_newfstatat
    {SYS_newfstatat, SC_FSTATAT, {1, -1}},
#endif
    {SYS_statx, SC_STATX, {1, -1}},
    {SYS_fstat, SC_FSTAT, {-1, -1}},
    {SYS_getdents64, SC_GETDENTS, {-1, -1}},
    {SYS_mmap, SC_MMAP, {-1, -1}},
    {SYS_msync, SC_MSYNC, {-1, -1}},
    {SYS_chdir, SC_CHDIR, {0, -1}},
    {SYS_fchdir, SC_FCHDIR, {-1, -1}},
    {SYS_dup, SC_DUP, {-1, -1}},
#ifdef SYS_dup2
    {SYS_dup2, SC_DUP2, {-1, -1}},
#endif
    {SYS_dup3, SC_DUP2, {-1, -1}},
    {SYS_fcntl, SC_FCNTL, {-1, -1}},
    {SYS_copy_file_range, SC_COPY, {-1, -1}},
    {SYS_sendfile, SC_SENDFILE, {-1, -1}},
    {SYS_clone, SC_FORK, {-1, -1}},
#ifdef SYS_clone3
    {SYS_clone3, SC_FORK, {-1, -1}},
#endif
#ifdef SYS_fork
    {SYS_fork, SC_FORK, {-1, -1}},
#endif
#ifdef SYS_vfork
    {SYS_vfork, SC_FORK, {-1, -1}},
#endif
};

void tracker_sysinfo(struct iot_sysinfo *rows)
{
	size_t i;

	memset(rows, 0, sizeof(*rows) * IOT_MAX_SYSCALL);
	for (i = 0; i < ARRAY_SIZE(sc_rows); i++) {
		const struct sc_row *r = &sc_rows[i];

		if (r->nr < 0 || r->nr >= IOT_MAX_SYSCALL)
			continue;
		rows[r->nr].record = r->kind == SC_FORK ? 2 : 1;
		rows[r->nr].path_arg[0] =
		    r->path[0] < 0 ? IOT_NO_ARG : (uint8_t)r->path[0];
		rows[r->nr].path_arg[1] =
		    r->path[1] < 0 ? IOT_NO_ARG : (uint8_t)r->path[1];
	}
}

enum sc_kind sc_kind_of(uint32_t nr)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(sc_rows); i++)
		if (sc_rows[i].nr == (long)nr)
			return sc_rows[i].kind;
	return SC_NONE;
}
