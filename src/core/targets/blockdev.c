/*
 * Block devices by their node, through ioctls: what a target on a
 * device, a raw scratch target among them, needs to know of it; sysfs
 * when the node cannot be opened.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/sysmacros.h>
#include "blockdev.h"
#include "../../util/error.h"
#include "../../util/banned.h"

int target_blockdev_geometry(const char *path, unsigned *out_lbs,
			     uint64_t *out_bytes, struct strbuf *err)
{
	int fd, lbs = 512, ret = 0;
	uint64_t bytes = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return err_set(err, -errno, "cannot open '%s': %s", path,
			       strerror(errno));
	if (ioctl(fd, BLKSSZGET, &lbs) < 0 ||
	    ioctl(fd, BLKGETSIZE64, &bytes) < 0)
		ret =
		    err_set(err, -errno, "cannot read the geometry of '%s': %s",
			    path, strerror(errno));
	close(fd);
	if (!ret) {
		*out_lbs = (unsigned)lbs;
		*out_bytes = bytes;
	}
	return ret;
}

/* The number in sysfs file path, or -errno. */
static int64_t sysfs_num(const char *path)
{
	char buf[32];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -EIO;
	buf[n] = '\0';
	return (int64_t)strtoll(buf, NULL, 10);
}

int target_blockdev_geometry_sysfs(dev_t rdev, unsigned *out_lbs,
				   uint64_t *out_bytes)
{
	char path[96];
	int64_t sectors, lbs;

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/size", major(rdev),
		 minor(rdev));
	sectors = sysfs_num(path);
	if (sectors < 0)
		return (int)sectors;
	/* a partition has no queue of its own: its disk's is one up */
	snprintf(path, sizeof(path),
		 "/sys/dev/block/%u:%u/queue/logical_block_size", major(rdev),
		 minor(rdev));
	lbs = sysfs_num(path);
	if (lbs < 0) {
		snprintf(path, sizeof(path),
			 "/sys/dev/block/%u:%u/../queue/logical_block_size",
			 major(rdev), minor(rdev));
		lbs = sysfs_num(path);
	}
	if (lbs <= 0)
		return lbs < 0 ? (int)lbs : -EIO;
	*out_lbs = (unsigned)lbs;
	*out_bytes = (uint64_t)sectors * 512;
	return 0;
}
