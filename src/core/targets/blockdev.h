/*
 * Block devices by their node (blockdev.c). Apart from target.c, which
 * includes this for its users, so that the parts of a target it calls
 * (scratch.c, for its loop device) can ask too.
 */
#ifndef IOTRIAL_BLOCKDEV_H
#define IOTRIAL_BLOCKDEV_H

#include <stdint.h>
#include <sys/types.h>
#include "../../util/strbuf.h"

/*
 * The logical block size (*out_lbs, bytes) and the size (*out_bytes) of
 * the block device at path, by ioctls on it (no sysfs). 0, or -errno
 * with err set (it cannot be opened, or the ioctls fail). Exposed for
 * tests and info.
 */
int target_blockdev_geometry(const char *path, unsigned *out_lbs,
			     uint64_t *out_bytes, struct strbuf *err);

/*
 * The same from sysfs (/sys/dev/block/MAJ:MIN), for a device that may
 * not be opened (a mounted disk where the kernel guards those). 0, or
 * -errno when sysfs does not have them.
 */
int target_blockdev_geometry_sysfs(dev_t rdev, unsigned *out_lbs,
				   uint64_t *out_bytes);

#endif
