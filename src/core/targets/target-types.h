/*
 * The types of a target (target.h): what it is, where, and its work
 * directory. Apart from target.h so that the parts of a target that
 * target.c calls (workdir.c, scratch.c) fill and read a struct target
 * without depending on target.c. Users include target.h.
 */
#ifndef IOTRIAL_TARGET_TYPES_H
#define IOTRIAL_TARGET_TYPES_H

#include <stdint.h>
#include <sys/types.h>

enum target_kind {
	TARGET_DIR,
	TARGET_BLOCKDEV,
	TARGET_SCRATCH,
};

enum target_flags {
	TARGET_ALLOW_DESTROY = 1 << 0, /* write to a device with data on it */
	TARGET_NO_WORKDIR = 1 << 1,    /* inspect only: create nothing */
	TARGET_READS_ONLY = 1 << 2,    /* the caller only reads a device:
					  one with data on it is opened */
	TARGET_FILES = 1 << 3,	       /* the workload works on files: a
					  raw scratch:SIZE gets a file
					  system (scratch_auto_fs()) */
};

struct target {
	enum target_kind kind;
	char *spec;	 /* as the user gave it */
	char *path;	 /* the directory or the device node */
	char *workdir;	 /* our work dir's path (messages) or NULL */
	int dir_fd;	 /* the dir holding it: open iff workdir */
	int work_fd;	 /* the work dir itself: open iff workdir */
	char *work_name; /* its name in dir_fd ("iotrial.Ab3dE9") */
	dev_t work_dev;	 /* its identity when made */
	ino_t work_ino;
	uint64_t work_seq; /* its journal record, 0: not journaled */
	dev_t dev;	   /* st_dev of the dir, st_rdev of a device */
	unsigned logical_block_bytes; /* alignment O_DIRECT needs */
	uint64_t capacity_bytes;      /* device size (block device targets) */
	unsigned flags;		      /* enum target_flags */
	/* a device opened with TARGET_READS_ONLY that holds data: what it
	 * holds ("holds a 'ext4' filesystem"), owned; NULL otherwise. Only
	 * workloads that read nothing but it may run there. */
	char *holds;
	void *scratch; /* scratch state, owned by scratch.c */
};

#endif
