/*
 * Block devices by their node, through ioctls (no sysfs): what a target
 * on a device, a raw scratch target among them, needs to know of it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
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
