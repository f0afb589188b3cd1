/*
 * The environment a run or an experiment records ("env"): the machine,
 * the kernel, the dirty-memory settings and the device stack under the
 * target (observe/env.c fills it today). A fleet's merged experiment
 * describes the fleet instead: fleet_hosts and controller, and
 * "several: ..." where the hosts differ (fleet/fleet_agree.c); an
 * experiment imported from fio has only fio_version.
 */
#ifndef IOTRIAL_ENV_DOC_H
#define IOTRIAL_ENV_DOC_H

#include "model.h"
#include "../../util/strbuf.h"

/* One device of the stack under the target ("env.stack.devices[]"). */
struct env_device {
	char *name;		     /* "vda", "loop0", "dm-1" */
	char *kind;		     /* "disk", "part", "loop", "dm", ...; NULL:
					null */
	char *via;		     /* how it is under the one above
					("backing", "slave"); NULL: null */
	char *parent;		     /* the device above it; NULL: null */
	char *devno;		     /* "MAJ:MIN" */
	char *model;		     /* the disk's model; NULL: null */
	char *driver;		     /* its driver; NULL: null */
	char *label;		     /* a file system or dm label, or NULL */
	char *backing_file;	     /* a loop device's file, or NULL */
	uint64_t size_bytes;	     /* capacity, bytes */
	bool rotational;	     /* a spinning disk */
	uint8_t has_rotational;	     /* enum model_has (null: unknown) */
	int64_t logical_block_bytes; /* bytes */
	uint8_t has_logical_block_bytes;
	char *queue_dev;	   /* the device whose queue serves it */
	char *scheduler;	   /* its I/O scheduler; NULL: null */
	int64_t read_ahead_kb;	   /* KiB */
	uint8_t has_read_ahead_kb; /* enum model_has (null: unknown) */
	int64_t nr_requests;	   /* queue depth of the scheduler */
	uint8_t has_nr_requests;   /* enum model_has (null: unknown) */
	char *note;		   /* why something is missing, or NULL */
	struct model_kept *keep;
};

/* The mount the target is on ("env.stack.mount"). */
struct env_mount {
	char *target;	   /* the mount point */
	char *source;	   /* the mounted device */
	char *fstype;	   /* "ext4", "xfs", ... */
	char *vfs_options; /* "rw,relatime" */
	char *fs_options;  /* the file system's own options */
	bool unlisted;	   /* not in /proc/self/mountinfo's list */
	uint8_t has_unlisted;
	struct model_kept *keep;
};

/* The device stack under a path ("env.stack"). */
struct env_stack {
	char *path;		    /* the target's path */
	struct env_mount *mount;    /* NULL: not on a mount iotrial knows */
	struct env_device *devices; /* top first */
	size_t nr_devices;
	char *no_device_reason; /* why there is no device, or NULL */
	struct model_kept *keep;
};

/* The CPU ("env.cpu"). */
struct env_cpu {
	char *model;	   /* "Intel(R) Xeon(R) ..."; NULL: null */
	int64_t count;	   /* online CPUs */
	uint8_t has_count; /* enum model_has (null: unknown) */
	struct model_kept *keep;
};

/* The dirty-memory sysctls ("env.vm"), each null when unreadable. */
struct env_vm {
	int64_t dirty_ratio; /* percent of dirtyable memory */
	uint8_t has_dirty_ratio;
	int64_t dirty_background_ratio; /* percent */
	uint8_t has_dirty_background_ratio;
	int64_t dirty_bytes; /* bytes; 0: the ratio rules */
	uint8_t has_dirty_bytes;
	int64_t dirty_background_bytes; /* bytes */
	uint8_t has_dirty_background_bytes;
	int64_t dirty_expire_centisecs; /* 1/100 s */
	uint8_t has_dirty_expire_centisecs;
	int64_t dirty_writeback_centisecs; /* 1/100 s */
	uint8_t has_dirty_writeback_centisecs;
	struct model_kept *keep;
};

/* The machine that merged a fleet's results ("env.controller"). */
struct env_controller {
	char *hostname;
	char *kernel_release;
	char *machine;
	char *iotrial_version;
	struct model_kept *keep;
};

/* "env": every member may be missing (an import, an older iotrial). */
struct env_doc {
	char *iotrial_version; /* "0.1.0" */
	char *hostname;	       /* a fleet: "fleet of N hosts: ..." */
	char *kernel_release;  /* uname -r */
	char *kernel_version;  /* uname -v */
	char *machine;	       /* uname -m */
	char *boot_id;	       /* /proc/sys/kernel/random/boot_id */
	struct env_cpu *cpu;
	uint64_t mem_total_bytes;    /* bytes */
	uint8_t has_mem_total_bytes; /* enum model_has (null: unknown) */
	struct env_vm *vm;
	struct env_stack *stack;
	char *fio_version;  /* an import of fio output: "fio-3.33" */
	char **fleet_hosts; /* a fleet: the hosts merged */
	size_t nr_fleet_hosts;
	uint8_t has_fleet_hosts;
	struct env_controller *controller; /* a fleet: where it merged */
	struct model_kept *keep;
};

/* Lifecycle: init zeroes; release frees the contents; free the struct
 * too (NULL is fine). */
void env_doc_init(struct env_doc *e);
void env_doc_release(struct env_doc *e);
void env_doc_free(struct env_doc *e);

/*
 * The members of a and b (either NULL: none) that differ, one line each
 * appended to out, "path: 'a' vs 'b'" ("vm.dirty_ratio: '20' vs
 * 'null'"; an array of another length: "stack.devices: 1 entries vs
 * 2"); members named in ignore (NULL-terminated, NULL: none) skipped
 * at any depth. Returns how many (model_diff.c).
 */
int env_doc_members_diff(const struct env_doc *a, const struct env_doc *b,
			 const char *const *ignore, struct strbuf *out);

/*
 * The same as their JSON (model_json_diff.c): every member, those
 * decode kept as unknown too; a part one side lacks is one line, its
 * JSON against null ("stack: '{...}' vs 'null'"); a's members first,
 * then those only b has. What `iotrial diff` shows.
 */
int env_doc_json_diff(const struct env_doc *a, const struct env_doc *b,
		      const char *const *ignore, struct strbuf *out);

#endif
