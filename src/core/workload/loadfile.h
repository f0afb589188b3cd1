/*
 * dbench/NetBench load files: the trace of a Windows file server client
 * (NTCreateX, ReadX, WriteX, Close, ...) that dbench replays against a
 * local filesystem. We parse one once, before any client starts, into a
 * compact array of operations that every client then reads and never
 * writes: paths are relative (backslashes made slashes, no "..": a
 * client's operations stay inside its own directory) and SMB handles
 * are renumbered 0..nr_handles-1 so a client keeps its open files in a
 * plain array.
 *
 * A line is "[TIME] OPERATION ARGS... STATUS": the optional leading
 * timestamp of dbench 4 load files is ignored (a replay runs as fast as
 * possible); STATUS is NT_STATUS_OK (or 0x0) when the operation is
 * expected to succeed, anything else (NT_STATUS_OBJECT_NAME_NOT_FOUND,
 * 0xc0000034, ...) when it is expected to fail. Blank lines and lines
 * starting with '#' are skipped. An operation we do not know is counted
 * (loadfile.unknown), not fatal; a line we cannot read is.
 */
#ifndef IOTRIAL_LOADFILE_H
#define IOTRIAL_LOADFILE_H

#include <stdint.h>
#include "../../util/strbuf.h"

/* The operations a load file can hold, as replayed. */
enum lf_kind {
	LF_NTCREATEX,
	LF_CLOSE,
	LF_RENAME,
	LF_UNLINK,
	LF_DELTREE,
	LF_RMDIR,
	LF_MKDIR,
	LF_QPATHINFO,
	LF_QFILEINFO,
	LF_QFSINFO,
	LF_SFILEINFO,
	LF_FIND,
	LF_WRITEX,
	LF_READX,
	LF_LOCKX,
	LF_UNLOCKX,
	LF_FLUSH,
	LF_KINDS,
};

/* NTCreateX's create options and dispositions that the replay uses. */
#define LF_FILE_DIRECTORY_FILE	   0x1u
#define LF_FILE_NON_DIRECTORY_FILE 0x40u
enum lf_disposition {
	LF_FILE_SUPERSEDE = 0,
	LF_FILE_OPEN = 1,
	LF_FILE_CREATE = 2,
	LF_FILE_OPEN_IF = 3,
	LF_FILE_OVERWRITE = 4,
	LF_FILE_OVERWRITE_IF = 5,
};

#define LF_MAX_IO_BYTES	  (16u << 20) /* largest ReadX/WriteX */
#define LF_MAX_OFFSET	  (1ull << 40)
#define LF_MAX_UNKNOWN	  64 /* distinct unknown names kept */
#define LF_MAX_FILE_BYTES (1ull << 30)
#define LF_NO_PATH	  UINT32_MAX

/* One operation. Paths are offsets into loadfile.strings. */
struct lf_op {
	uint8_t kind;	      /* enum lf_kind */
	uint8_t expect_ok;    /* the status says it succeeds */
	uint32_t line;	      /* in the file, from 1 */
	uint32_t handle;      /* renumbered; ops with a handle or NTCreateX */
	uint32_t path;	      /* LF_NO_PATH or an offset; Find: the directory */
	uint32_t path2;	      /* Rename: the new name; Find: the pattern
				 (wildcards made fnmatch's), or LF_NO_PATH */
	uint64_t offset;      /* ReadX, WriteX, LockX, UnlockX */
	uint32_t size;	      /* ReadX/WriteX/LockX/UnlockX bytes; Find:
				 entries to read at most */
	uint32_t ret_size;    /* ReadX/WriteX: bytes the trace moved */
	uint32_t options;     /* NTCreateX: create options */
	uint32_t disposition; /* NTCreateX: enum lf_disposition */
};

/* An operation name the parser did not know. */
struct lf_unknown {
	char *name;
	unsigned count;
	unsigned first_line;
};

struct loadfile {
	char *name; /* as given, for messages */
	struct lf_op *ops;
	unsigned nr_ops, alloc_ops;
	struct strbuf strings; /* NUL-terminated paths, back to back */
	unsigned nr_handles;   /* distinct handles, renumbered */
	uint32_t max_io_bytes; /* largest ReadX/WriteX size */
	unsigned kind_count[LF_KINDS];
	unsigned nr_lines;
	unsigned nr_ignored; /* Sleep lines: a replay does not sleep */
	struct lf_unknown *unknown;
	unsigned nr_unknown, alloc_unknown;
	unsigned nr_unknown_lines; /* all of them, kept or not */
};

/*
 * Parse text (len bytes, need not be NUL-terminated) of the load file
 * called name into lf (which the call initialises). 0, or -EINVAL with
 * err "loadfile 'NAME' line N: what is wrong"; lf is then empty. Release
 * lf with loadfile_release() either way.
 */
int loadfile_parse(struct loadfile *lf, const char *name, const char *text,
		   size_t len, struct strbuf *err);

/* Read and parse the file at path. -errno with err when it cannot be
 * read, else as loadfile_parse(). */
int loadfile_read(struct loadfile *lf, const char *path, struct strbuf *err);

/* Free the contents. NULL is fine. */
void loadfile_release(struct loadfile *lf);

/* The path at offset off ("" for LF_NO_PATH). */
static inline const char *lf_str(const struct loadfile *lf, uint32_t off)
{
	return off == LF_NO_PATH ? "" : lf->strings.buf + off;
}

/* The operation's name as dbench reports it ("NTCreateX", "Qpathinfo"). */
const char *lf_kind_name(enum lf_kind kind);

#endif
