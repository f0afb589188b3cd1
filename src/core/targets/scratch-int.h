/*
 * What scratch.c shares with scratch_undo.c (recovery): tearing down a
 * mount and a loop device; and with scratch_fill.c: what a scratch
 * target made.
 */
#ifndef IOTRIAL_SCRATCH_INT_H
#define IOTRIAL_SCRATCH_INT_H

#include <stdint.h>

struct session_log;
struct session;

/* What a scratch target made; seqs are its journal records (0: none). */
struct scratch {
	struct session *s;
	char *dir, *image, *mnt, *dev;
	uint64_t seq_dir, seq_image, seq_loop, seq_mnt_dir, seq_mount;
	volatile int *stop;    /* the caller's signal flag during set-up */
	uint64_t filled_bytes; /* raw: [0, this) of the device holds data
				  written to the disk (scratch_fill) */
	const struct session_log *log; /* where fill notes go; may be NULL */
	const char *auto_fs; /* the file system TARGET_FILES gave a spec
				that named none, or NULL */
};

/* Unmount mnt (no link followed), retrying briefly while it is busy,
 * then lazily. 0 (also when nothing is mounted) or -errno. */
int scratch_umount(const char *mnt);
/* Detach loop device dev; the kernel defers it while it is open. */
int scratch_detach_loop(const char *dev);

#endif
