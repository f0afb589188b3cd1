/*
 * fio's iolog, both ways, so users keep the traces they have: a trace
 * exported as a version 3 iolog (fio replays it with read_iolog=), and
 * an iolog of version 2 or 3 imported as a trace (iotrial replays it).
 * Only what fio's iolog can say crosses: reads, writes, fsync and
 * fdatasync, with add, open and close around them; name operations,
 * the threads and think times beyond the timestamps stay behind, and
 * the export counts them (iolog_export.c).
 */
#ifndef IOTRIAL_TRACE_IOLOG_H
#define IOTRIAL_TRACE_IOLOG_H

#include <stddef.h>
#include "trace.h"

struct strbuf;

/* The most bytes of a file name fio reads from an iolog line. */
#define IOLOG_NAME_MAX 256

/*
 * Can an iolog line name path? fio splits a line at white space and
 * reads at most IOLOG_NAME_MAX bytes of a name, so a path with a space,
 * a tab or a newline, or a longer one, reads as another line's words
 * (fio then runs or crashes on what was never meant); a control
 * character or bytes that are not UTF-8 would reach a terminal. 1 for
 * a path of printable UTF-8 without white space, up to the limit.
 */
int iolog_name_ok(const char *path);

/* What an export left out because an iolog cannot name it. */
struct iolog_unnamed {
	size_t nr_files;  /* files iolog_name_ok() refuses that had I/O */
	size_t nr_events; /* their reads, writes and syncs, left out */
	uint32_t first;	  /* the first such file's id (0: none) */
};

/* What an export wrote, and what of the trace it could not. */
struct iolog_report {
	size_t lines;		/* reads, writes and syncs written */
	size_t writes;		/* of them writes */
	size_t files;		/* names the iolog has */
	size_t files_existed;	/* of them, first read, of files that
				   existed before the trace: fio needs them
				   there first */
	uint64_t existed_bytes; /* their sizes before the trace */
	size_t dirs;		/* directories below the root they sit in
				   (fio makes none) */
	size_t max_open;	/* files fio holds open at once */
	size_t renamed;		/* lines played under the name a rename
				   gave their data */
	size_t left_names;	/* unlink, rename, mkdir, rmdir, stat,
				   getdents: no iolog line */
	size_t left_other;	/* ftruncate, fallocate, sync_file_range,
				   sync, syncfs */
	size_t left_advice;	/* fadvise, readahead */
	size_t threads;		/* the trace's threads: fio plays one */
	struct iolog_unnamed un;
};

/*
 * t as a fio version 3 iolog into out: a timestamp in microseconds
 * since the start on every line, the lines in the order the calls
 * started (an io_uring request as the read, write or sync it does),
 * each name added and opened at its first line and closed after its
 * last, the data of a renamed file under its last name. root NULL: the
 * trace's paths as they are; else each mapped beneath root as a replay
 * maps it beneath its work directory (trace_paths.h). The I/O of a
 * name iolog_name_ok() refuses is left out and counted; out never
 * holds a control byte but its newlines. rep says what was written and
 * what was not. 0, or -EINVAL with err set (root not plain and
 * absolute, a path of the trace not plain).
 */
int iolog_export(const struct trace *t, const char *root, struct strbuf *out,
		 struct iolog_report *rep, struct strbuf *err);
/*
 * The calls of t that change what reaches the device and that an iolog
 * cannot say, so an export leaves them out: fadvise and readahead (fio
 * replays an iolog's I/O only; a DONTNEED left out means the replay's
 * reads may come from the page cache where the trace's came from the
 * device).
 */
size_t iolog_left_out(const struct trace *t);

/*
 * Parse a fio iolog (version 2 or 3) held in data[0..len) into t
 * (zeroed by the caller; release it with trace_release() whatever this
 * returns): one thread, each file existing before with the size its
 * I/O reaches, a relative file name made absolute under "/fio/". 0, or
 * -EINVAL / -EFBIG with err naming the line.
 */
int iolog_import(const char *data, size_t len, struct trace *t,
		 struct strbuf *err);

#endif
