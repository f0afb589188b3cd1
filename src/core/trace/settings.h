/*
 * The settings a capture records and a replay compares (trace format
 * 1.3): what was in force where the traced files were, so that a replay
 * can tell which of its differences from the capture a setting made.
 *
 * A capture writes, as meta entries, the knobs of the device holding
 * the traced files ("knob.NAME" for each knob iotrial names on its
 * disk's queue: scheduler and iosched.*, read_ahead_kb, nr_requests,
 * max_sectors_kb, ...), of its file system ("knob.atime"), and of the
 * disk's writeback ("bdi.min_ratio", "bdi.max_ratio", "bdi.strict_limit"), with
 * "settings.disk" naming the disk; the system's vm.* knobs are the "knob.vm.*"
 * entries every capture wrote at its start. A replay reads the same keys where
 * it runs.
 */
#ifndef IOTRIAL_TRACE_SETTINGS_H
#define IOTRIAL_TRACE_SETTINGS_H

#include <stddef.h>
#include <stdint.h>

struct strbuf;
struct knob_ctx;

/* One setting: its meta key ("knob.read_ahead_kb") and value ("128"). */
struct trace_setting {
	char *key, *value;
};

/* The settings of one place, and the disk they were read on. */
struct trace_settings {
	struct trace_setting *v;
	size_t nr, alloc;
	char *disk; /* "vda", NULL when none was read */
};

/*
 * The device and mount settings of block device dev ("loop3", "vda1":
 * a name under /dev) into out (zeroed by the caller): its disk's knobs,
 * its file system's atime, its disk's bdi. 0, or -ENODEV when dev is
 * no block device with a queue (out stays empty).
 */
int settings_read_device(const char *dev, struct trace_settings *out);

/*
 * The value of meta key (a "knob.NAME" or "bdi.NAME" a capture wrote)
 * where ctx points now, into out as a capture writes it. 0, or -errno
 * when it cannot be read there (no such knob on that disk, no disk).
 */
int settings_read_key(const struct knob_ctx *ctx, const char *key,
		      struct strbuf *out);

/* Is key one settings_read_key() reads ("knob." or "bdi.")? */
int settings_is_key(const char *key);

void settings_release(struct trace_settings *s);

/* The machine's drops of its caches so far (/proc/vmstat drop_pagecache
 * and drop_slab; 0 when it cannot be read): one another process makes
 * during a capture or a replay changes what reaches the device. */
uint64_t settings_cache_drops(void);

#endif
