/*
 * Tests for core/targets/devstack.c. Partitions, dm, md and loop devices are
 * rarely all present on a test machine, so most cases build a fake sysfs
 * tree in a temporary directory (devices/.../block/NAME with dev, size,
 * queue/, partition, slaves/, loop/backing_file, and dev/block/MAJ:MIN
 * symlinks) and resolve device numbers against it. The real machine is
 * checked too: "/" resolves to a mount with a device (when it has one),
 * a tmpfs resolves to none with a reason, a missing path is an error. In
 * a chroot, whose root is no mount it can see, "/" still resolves to its
 * device; a child process makes such a chroot to check that anywhere.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <cmocka.h>
#include "core/targets/devstack.h"
#include "util/banned.h"

/* The fake tree's root, made per test. */
static char root[PATH_MAX];

/* Write text to root/rel, creating directories on the way. */
static void put(const char *rel, const char *text)
{
	char path[PATH_MAX * 2], *slash;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (slash = strchr(path + strlen(root) + 1, '/'); slash;
	     slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(path, 0755);
		*slash = '/';
	}
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* A symlink root/rel -> target (relative to rel's directory or absolute). */
static void link_to(const char *rel, const char *target)
{
	char path[PATH_MAX * 2];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	assert_int_equal(symlink(target, path), 0);
}

/* A whole disk at devices/virtual/block/NAME with devno maj:min. */
static void fake_disk(const char *name, unsigned maj, unsigned min,
		      const char *sched, const char *model)
{
	char rel[256], text[64];

	snprintf(rel, sizeof(rel), "devices/virtual/block/%s/dev", name);
	snprintf(text, sizeof(text), "%u:%u\n", maj, min);
	put(rel, text);
	snprintf(rel, sizeof(rel), "devices/virtual/block/%s/size", name);
	put(rel, "2097152\n"); /* 1 GiB */
	snprintf(rel, sizeof(rel), "devices/virtual/block/%s/queue/scheduler",
		 name);
	put(rel, sched);
	snprintf(rel, sizeof(rel),
		 "devices/virtual/block/%s/queue/read_ahead_kb", name);
	put(rel, "128\n");
	snprintf(rel, sizeof(rel), "devices/virtual/block/%s/queue/nr_requests",
		 name);
	put(rel, "64\n");
	snprintf(rel, sizeof(rel), "devices/virtual/block/%s/queue/rotational",
		 name);
	put(rel, "1\n");
	snprintf(rel, sizeof(rel),
		 "devices/virtual/block/%s/queue/logical_block_size", name);
	put(rel, "4096\n");
	if (model) {
		snprintf(rel, sizeof(rel),
			 "devices/virtual/block/%s/device/model", name);
		put(rel, model);
	}
	snprintf(rel, sizeof(rel), "dev/block/%u:%u", maj, min);
	snprintf(text, sizeof(text), "../../devices/virtual/block/%s", name);
	put("dev/block/.keep", "");
	link_to(rel, text);
}

/* A partition NAME of disk DISK. */
static void fake_part(const char *disk, const char *name, unsigned maj,
		      unsigned min)
{
	char rel[256], text[128];

	snprintf(rel, sizeof(rel), "devices/virtual/block/%s/%s/partition",
		 disk, name);
	put(rel, "1\n");
	snprintf(rel, sizeof(rel), "devices/virtual/block/%s/%s/dev", disk,
		 name);
	snprintf(text, sizeof(text), "%u:%u\n", maj, min);
	put(rel, text);
	snprintf(rel, sizeof(rel), "devices/virtual/block/%s/%s/size", disk,
		 name);
	put(rel, "1024\n");
	snprintf(rel, sizeof(rel), "dev/block/%u:%u", maj, min);
	snprintf(text, sizeof(text), "../../devices/virtual/block/%s/%s", disk,
		 name);
	link_to(rel, text);
}

/* Make slave (a path under devices/virtual/block) a slave of holder. */
static void fake_slave(const char *holder, const char *slave_name,
		       const char *slave_rel)
{
	char rel[256], text[256];

	snprintf(rel, sizeof(rel), "devices/virtual/block/%s/slaves/.keep",
		 holder);
	put(rel, "");
	snprintf(rel, sizeof(rel), "devices/virtual/block/%s/slaves/%s", holder,
		 slave_name);
	snprintf(text, sizeof(text), "../../%s", slave_rel);
	link_to(rel, text);
}

/* Remove the fake tree. */
static int teardown(void **state)
{
	char cmd[PATH_MAX + 32];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd) == 0 ? 0 : -1;
}

/* A fresh fake tree. */
static int setup(void **state)
{
	(void)state;
	snprintf(root, sizeof(root), "/tmp/iotrial-devstack.XXXXXX");
	return mkdtemp(root) ? 0 : -1;
}

static void test_parse_scheduler(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	assert_int_equal(devstack_parse_scheduler("none [mq-deadline] kyber "
						  "bfq\n",
						  &sb),
			 0);
	assert_string_equal(sb.buf, "mq-deadline");
	assert_int_equal(devstack_parse_scheduler("[none] mq-deadline", &sb),
			 0);
	assert_string_equal(sb.buf, "none");
	assert_int_equal(devstack_parse_scheduler("none\n", &sb), 0);
	assert_string_equal(sb.buf, "none");
	assert_int_equal(devstack_parse_scheduler("none kyber", &sb), -EINVAL);
	assert_int_equal(devstack_parse_scheduler("[]", &sb), -EINVAL);
	assert_int_equal(devstack_parse_scheduler("[bfq", &sb), -EINVAL);
	assert_int_equal(devstack_parse_scheduler("", &sb), -EINVAL);
	strbuf_release(&sb);
}

/* A partition leads to its disk; its knobs are the disk's. */
static void test_partition(void **state)
{
	struct devstack ds;
	struct strbuf err = STRBUF_INIT;

	(void)state;
	fake_disk("sdz", 8, 0, "mq-deadline [bfq] none\n", "FAKE DISK  \n");
	fake_part("sdz", "sdz1", 8, 1);
	assert_int_equal(devstack_resolve_devno(&ds, root, makedev(8, 1), &err),
			 0);
	assert_int_equal(ds.nr_devs, 2);
	assert_string_equal(ds.devs[0].name, "sdz1");
	assert_int_equal(ds.devs[0].kind, DEVSTACK_PARTITION);
	assert_int_equal(ds.devs[0].parent, -1);
	assert_string_equal(ds.devs[0].queue_dev, "sdz");
	assert_string_equal(ds.devs[0].scheduler, "bfq");
	assert_int_equal(ds.devs[0].read_ahead_kb, 128);
	assert_int_equal(ds.devs[0].size_bytes, 1024 * 512);
	assert_string_equal(ds.devs[0].model, "FAKE DISK");
	assert_string_equal(ds.devs[1].name, "sdz");
	assert_int_equal(ds.devs[1].kind, DEVSTACK_DISK);
	assert_int_equal(ds.devs[1].via, DEVSTACK_VIA_DISK);
	assert_int_equal(ds.devs[1].parent, 0);
	assert_int_equal(ds.devs[1].depth, 1);
	assert_int_equal(ds.devs[1].size_bytes, 1ull << 30);
	assert_int_equal(ds.devs[1].rotational, 1);
	assert_int_equal(ds.devs[1].logical_block_bytes, 4096);
	assert_int_equal(ds.devs[1].nr_requests, 64);
	assert_int_equal(devstack_find(&ds, "sdz"), 1);
	assert_int_equal(devstack_find(&ds, "sdq"), -1);
	/* a knob changed: refresh sees it */
	put("devices/virtual/block/sdz/queue/scheduler", "[none] bfq\n");
	devstack_refresh(&ds);
	assert_string_equal(ds.devs[0].scheduler, "none");
	devstack_release(&ds);
	strbuf_release(&err);
}

/* dm over a partition and a disk; md over two partitions of one disk:
 * every device once, slaves in name order. */
static void test_dm_and_md(void **state)
{
	struct devstack ds;
	struct strbuf err = STRBUF_INIT;

	(void)state;
	fake_disk("sdz", 8, 0, "[mq-deadline] none\n", NULL);
	fake_part("sdz", "sdz1", 8, 1);
	fake_part("sdz", "sdz2", 8, 2);
	fake_disk("sdy", 8, 16, "[none]\n", NULL);
	fake_disk("dm-0", 253, 0, "none\n", NULL);
	put("devices/virtual/block/dm-0/dm/name", "vg-lv\n");
	fake_slave("dm-0", "sdz1", "sdz/sdz1");
	fake_slave("dm-0", "sdy", "sdy");
	assert_int_equal(
	    devstack_resolve_devno(&ds, root, makedev(253, 0), &err), 0);
	assert_int_equal(ds.nr_devs, 4);
	assert_string_equal(ds.devs[0].name, "dm-0");
	assert_int_equal(ds.devs[0].kind, DEVSTACK_DM);
	assert_string_equal(ds.devs[0].label, "vg-lv");
	assert_string_equal(ds.devs[1].name, "sdy");
	assert_int_equal(ds.devs[1].via, DEVSTACK_VIA_SLAVE);
	assert_string_equal(ds.devs[2].name, "sdz1");
	assert_string_equal(ds.devs[3].name, "sdz");
	assert_int_equal(ds.devs[3].parent, 2);
	devstack_release(&ds);

	fake_disk("md0", 9, 0, "none\n", NULL);
	put("devices/virtual/block/md0/md/level", "raid1\n");
	fake_slave("md0", "sdz1", "sdz/sdz1");
	fake_slave("md0", "sdz2", "sdz/sdz2");
	assert_int_equal(devstack_resolve_devno(&ds, root, makedev(9, 0), &err),
			 0);
	assert_int_equal(ds.nr_devs, 4); /* md0 sdz1 sdz sdz2: sdz once */
	assert_int_equal(ds.devs[0].kind, DEVSTACK_MD);
	assert_string_equal(ds.devs[0].label, "raid1");
	assert_string_equal(ds.devs[1].name, "sdz1");
	assert_string_equal(ds.devs[2].name, "sdz");
	assert_string_equal(ds.devs[3].name, "sdz2");
	devstack_release(&ds);
	strbuf_release(&err);
}

/* A cycle in the tree (impossible on a real machine) ends. */
static void test_cycle(void **state)
{
	struct devstack ds;
	struct strbuf err = STRBUF_INIT;

	(void)state;
	fake_disk("dm-1", 253, 1, "none\n", NULL);
	fake_disk("dm-2", 253, 2, "none\n", NULL);
	put("devices/virtual/block/dm-1/dm/name", "a\n");
	put("devices/virtual/block/dm-2/dm/name", "b\n");
	fake_slave("dm-1", "dm-2", "dm-2");
	fake_slave("dm-2", "dm-1", "dm-1");
	assert_int_equal(
	    devstack_resolve_devno(&ds, root, makedev(253, 1), &err), 0);
	assert_int_equal(ds.nr_devs, 2);
	devstack_release(&ds);
	strbuf_release(&err);
}

/* A loop device names its backing file and the device holding it. */
static void test_loop(void **state)
{
	struct devstack real, ds;
	struct strbuf err = STRBUF_INIT;
	char file[] = "/var/tmp/iotrial-devstack-backing.XXXXXX";
	char rel[64], text[PATH_MAX + 8];
	int fd;

	(void)state;
	/* the real device of /var/tmp, mirrored into the fake tree */
	assert_int_equal(devstack_resolve_path(&real, "/var/tmp", &err), 0);
	if (!real.nr_devs) {
		devstack_release(&real);
		skip();
	}
	fd = mkstemp(file);
	assert_true(fd >= 0);
	close(fd);
	fake_disk("realdisk", major(real.devs[0].devno),
		  minor(real.devs[0].devno), "[none]\n", NULL);
	fake_disk("loop7", 7, 7, "[none]\n", NULL);
	snprintf(text, sizeof(text), "%s\n", file);
	put("devices/virtual/block/loop7/loop/backing_file", text);
	assert_int_equal(devstack_resolve_devno(&ds, root, makedev(7, 7), &err),
			 0);
	unlink(file);
	assert_int_equal(ds.devs[0].kind, DEVSTACK_LOOP);
	assert_string_equal(ds.devs[0].backing_file, file);
	assert_string_equal(ds.devs[0].driver, "loop");
	assert_int_equal(ds.nr_devs, 2);
	assert_string_equal(ds.devs[1].name, "realdisk");
	assert_int_equal(ds.devs[1].via, DEVSTACK_VIA_BACKING);
	devstack_release(&ds);

	/* a deleted backing file stops the stack with a note */
	snprintf(rel, sizeof(rel), "%s",
		 "devices/virtual/block/loop7/loop/"
		 "backing_file");
	snprintf(text, sizeof(text), "%s (deleted)\n", file);
	put(rel, text);
	assert_int_equal(devstack_resolve_devno(&ds, root, makedev(7, 7), &err),
			 0);
	assert_int_equal(ds.nr_devs, 1);
	assert_non_null(ds.devs[0].note);
	assert_non_null(strstr(ds.devs[0].note, file));
	devstack_release(&ds);
	devstack_release(&real);
	strbuf_release(&err);
}

/* Resolve devno in the fake tree; its bottom's names, "+"-joined. */
static void bottom_of(dev_t devno, char *out, size_t len)
{
	struct devstack ds;
	struct strbuf err = STRBUF_INIT;
	int idx[4];
	unsigned n, i;
	size_t used = 0;

	assert_int_equal(devstack_resolve_devno(&ds, root, devno, &err), 0);
	n = devstack_bottom(&ds, idx, 4);
	assert_true(n <= 4);
	out[0] = '\0';
	for (i = 0; i < n; i++)
		used += (size_t)snprintf(out + used, len - used, "%s%s",
					 i ? "+" : "", ds.devs[idx[i]].name);
	devstack_release(&ds);
	strbuf_release(&err);
}

/*
 * The bottom of a stack is every whole disk in it: a partition leads to
 * its disk, dm and md to their slaves' disks (each once), a disk is its
 * own bottom, a loop device to the disk under its backing file, and a
 * loop device on a tmpfs file has none.
 */
static void test_bottom(void **state)
{
	struct devstack real;
	struct strbuf err = STRBUF_INIT;
	char file[] = "/var/tmp/iotrial-devstack-bottom.XXXXXX";
	char shm[] = "/dev/shm/iotrial-devstack-bottom.XXXXXX";
	char names[128], text[PATH_MAX + 8];
	int fd, idx[1];

	(void)state;
	fake_disk("sdz", 8, 0, "[none]\n", NULL);
	fake_part("sdz", "sdz1", 8, 1);
	fake_part("sdz", "sdz2", 8, 2);
	fake_disk("sdy", 8, 16, "[none]\n", NULL);
	fake_disk("dm-0", 253, 0, "none\n", NULL);
	put("devices/virtual/block/dm-0/dm/name", "vg-lv\n");
	fake_slave("dm-0", "sdz1", "sdz/sdz1");
	fake_slave("dm-0", "sdy", "sdy");
	fake_disk("md0", 9, 0, "none\n", NULL);
	put("devices/virtual/block/md0/md/level", "raid1\n");
	fake_slave("md0", "sdz1", "sdz/sdz1");
	fake_slave("md0", "sdz2", "sdz/sdz2");
	bottom_of(makedev(8, 1), names, sizeof(names));
	assert_string_equal(names, "sdz");
	bottom_of(makedev(8, 0), names, sizeof(names));
	assert_string_equal(names, "sdz");
	bottom_of(makedev(253, 0), names, sizeof(names));
	assert_string_equal(names, "sdy+sdz");
	bottom_of(makedev(9, 0), names, sizeof(names));
	assert_string_equal(names, "sdz");
	/* no stack, no bottom; max 0 still counts */
	assert_int_equal(devstack_bottom(NULL, idx, 1), 0);

	/* a loop device: the disk under its backing file */
	assert_int_equal(devstack_resolve_path(&real, "/var/tmp", &err), 0);
	if (real.nr_devs) {
		fd = mkstemp(file);
		assert_true(fd >= 0);
		close(fd);
		fake_disk("realdisk", major(real.devs[0].devno),
			  minor(real.devs[0].devno), "[none]\n", NULL);
		fake_disk("loop7", 7, 7, "[none]\n", NULL);
		snprintf(text, sizeof(text), "%s\n", file);
		put("devices/virtual/block/loop7/loop/backing_file", text);
		bottom_of(makedev(7, 7), names, sizeof(names));
		unlink(file);
		assert_string_equal(names, "realdisk");
	}
	devstack_release(&real);
	/* on a tmpfs file: nothing physical under it */
	fd = mkstemp(shm);
	if (fd >= 0) {
		close(fd);
		fake_disk("loop6", 7, 6, "[none]\n", NULL);
		snprintf(text, sizeof(text), "%s\n", shm);
		put("devices/virtual/block/loop6/loop/backing_file", text);
		bottom_of(makedev(7, 6), names, sizeof(names));
		unlink(shm);
		assert_string_equal(names, "");
	}
	strbuf_release(&err);
}

/* An unknown device number is an error. */
static void test_no_such_devno(void **state)
{
	struct devstack ds;
	struct strbuf err = STRBUF_INIT;

	(void)state;
	put("dev/block/.keep", "");
	assert_int_equal(
	    devstack_resolve_devno(&ds, root, makedev(250, 9), &err), -ENODEV);
	assert_non_null(strstr(err.buf, "250:9"));
	devstack_release(&ds);
	strbuf_release(&err);
}

/* Is "/" a mount point listed in /proc/self/mountinfo? Not in a chroot,
 * whose root is a directory of a mount outside it. */
static int root_is_listed_mount(void)
{
	FILE *f = fopen("/proc/self/mountinfo", "r");
	char *line = NULL, mnt_point[4096];
	size_t alloc = 0;
	int found = 0;

	assert_non_null(f);
	/* ID PARENT MAJ:MIN ROOT MOUNT-POINT OPTIONS ... */
	while (!found && getline(&line, &alloc, f) > 0)
		found =
		    sscanf(line, "%*s %*s %*s %*s %4095s", mnt_point) == 1 &&
		    !strcmp(mnt_point, "/");
	free(line);
	fclose(f);
	return found;
}

/* "/" on this machine: a mount (in a chroot whose root is not a mount,
 * one described from "/" itself, unlisted), and a device when it has a
 * real one. */
static void test_real_root(void **state)
{
	struct devstack ds;
	struct strbuf err = STRBUF_INIT;
	struct stat st;

	(void)state;
	assert_int_equal(devstack_resolve_path(&ds, "/", &err), 0);
	assert_true(ds.have_mount);
	assert_string_equal(ds.mnt.target, "/");
	assert_non_null(ds.mnt.fstype);
	assert_int_equal(ds.mnt.unlisted, !root_is_listed_mount());
	assert_int_equal(stat("/", &st), 0);
	if (major(st.st_dev)) {
		assert_true(ds.nr_devs >= 1);
		assert_int_equal(ds.devs[0].devno, st.st_dev);
		assert_non_null(ds.devs[0].scheduler);
		assert_true(ds.devs[0].size_bytes > 0);
		assert_null(ds.no_device_reason);
	}
	devstack_release(&ds);
	strbuf_release(&err);
}

/*
 * In a chroot (dir, on a block device, with /proc and /sys), resolve "/".
 * Runs in a child in its own mount namespace, so the mounts go with it.
 * Exit status: 0 it resolved to the device of dir, its file system told
 * by st_dev (an unlisted mount at "/"), 77 the
 * chroot could not be made (reason on stderr), 1 a wrong answer.
 */
static int resolve_in_chroot(const char *dir, dev_t want)
{
	struct devstack ds;
	struct strbuf err = STRBUF_INIT, path = STRBUF_INIT;
	int ret = 0;

	strbuf_addf(&path, "%s/proc", dir);
	if (unshare(CLONE_NEWNS) ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
	    mount("proc", path.buf, "proc", 0, NULL)) {
		fprintf(stderr, "cannot set up a chroot: %s\n",
			strerror(errno));
		return 77;
	}
	strbuf_setf(&path, "%s/sys", dir);
	if (mount("/sys", path.buf, NULL, MS_BIND | MS_REC, NULL) ||
	    chroot(dir) || chdir("/")) {
		fprintf(stderr, "cannot set up a chroot: %s\n",
			strerror(errno));
		return 77;
	}
	if (devstack_resolve_path(&ds, "/", &err)) {
		fprintf(stderr, "resolving '/': %s\n", err.buf);
		ret = 1;
	} else if (!ds.have_mount || !ds.mnt.unlisted ||
		   strcmp(ds.mnt.target, "/") || ds.mnt.devno != want ||
		   !ds.nr_devs || ds.devs[0].devno != want) {
		fprintf(stderr, "'/' in a chroot: mount %d, %u devices (%s)\n",
			ds.have_mount, ds.nr_devs,
			ds.no_device_reason ? ds.no_device_reason : "");
		ret = 1;
	}
	devstack_release(&ds);
	strbuf_release(&err);
	strbuf_release(&path);
	return ret;
}

/* A chroot's root is no mount it can see: the device is still found. */
static void test_chroot_root(void **state)
{
	char dir[] = "/var/tmp/iotrial-chroot.XXXXXX", sub[64];
	struct stat st;
	pid_t pid;
	int status;

	(void)state;
	if (geteuid()) {
		print_message("skipped: making a chroot needs root\n");
		skip();
	}
	if (!root_is_listed_mount()) {
		print_message("skipped: this is a chroot already, which "
			      "test_real_root checks\n");
		skip();
	}
	assert_non_null(mkdtemp(dir));
	assert_int_equal(stat(dir, &st), 0);
	if (!major(st.st_dev)) {
		rmdir(dir);
		print_message("skipped: /var/tmp is on no block device\n");
		skip();
	}
	snprintf(sub, sizeof(sub), "%s/proc", dir);
	assert_int_equal(mkdir(sub, 0755), 0);
	snprintf(sub, sizeof(sub), "%s/sys", dir);
	assert_int_equal(mkdir(sub, 0755), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid)
		_exit(resolve_in_chroot(dir, st.st_dev));
	assert_int_equal(waitpid(pid, &status, 0), pid);
	rmdir(sub);
	snprintf(sub, sizeof(sub), "%s/proc", dir);
	rmdir(sub);
	assert_int_equal(rmdir(dir), 0);
	assert_true(WIFEXITED(status));
	if (WEXITSTATUS(status) == 77)
		skip();
	assert_int_equal(WEXITSTATUS(status), 0);
}

/* A tmpfs has no block device: no error, a reason naming it. */
static void test_tmpfs(void **state)
{
	struct devstack ds;
	struct strbuf err = STRBUF_INIT;

	(void)state;
	assert_int_equal(devstack_resolve_path(&ds, "/dev/shm", &err), 0);
	if (!ds.have_mount || !ds.mnt.fstype ||
	    strcmp(ds.mnt.fstype, "tmpfs")) {
		devstack_release(&ds);
		skip();
	}
	assert_int_equal(ds.nr_devs, 0);
	assert_non_null(ds.no_device_reason);
	assert_non_null(strstr(ds.no_device_reason, "'tmpfs'"));
	devstack_release(&ds);
	/* /proc likewise */
	assert_int_equal(devstack_resolve_path(&ds, "/proc/self", &err), 0);
	assert_int_equal(ds.nr_devs, 0);
	assert_non_null(ds.no_device_reason);
	devstack_release(&ds);
	strbuf_release(&err);
}

/* A path that does not exist is an error that names it. */
static void test_missing_path(void **state)
{
	struct devstack ds;
	struct strbuf err = STRBUF_INIT;

	(void)state;
	assert_int_equal(devstack_resolve_path(&ds, "/no/such/dir", &err),
			 -ENOENT);
	assert_non_null(strstr(err.buf, "'/no/such/dir'"));
	devstack_release(&ds);
	devstack_release(NULL);
	strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_parse_scheduler),
	    cmocka_unit_test_setup_teardown(test_partition, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_dm_and_md, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_cycle, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_loop, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_bottom, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_no_such_devno, setup,
					    teardown),
	    cmocka_unit_test(test_real_root),
	    cmocka_unit_test(test_chroot_root),
	    cmocka_unit_test(test_tmpfs),
	    cmocka_unit_test(test_missing_path),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
