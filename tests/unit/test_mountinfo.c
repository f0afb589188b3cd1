/*
 * Tests for core/mountinfo: lines with zero to four optional fields,
 * octal escapes, empty sources, malformed lines, and the lookups: the
 * mount a path lives on (path boundaries, stacked mounts, a mount hidden
 * by a later mount of its parent directory, a mount point with a space),
 * the mount at a mount point, and a device's mounts.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <cmocka.h>
#include "core/targets/mountinfo.h"
#include "util/banned.h"

/* Parse one NUL-terminated line; assert the result code. */
static void parse(const char *line, struct mountinfo_entry *e, int want)
{
	assert_int_equal(mountinfo_parse_line(line, strlen(line), e), want);
}

/* Zero to four optional fields, however many: the tail is found. */
static void test_optional_fields(void **state)
{
	static const struct {
		const char *line, *optional;
	} cases[] = {
	    {"36 35 98:0 /r /mnt/a rw,noatime - ext4 /dev/sda1 rw,discard", ""},
	    {"36 35 98:0 /r /mnt/a rw,noatime shared:1 - ext4 /dev/sda1 "
	     "rw,discard",
	     "shared:1"},
	    {"36 35 98:0 /r /mnt/a rw,noatime shared:4 master:1 - ext4 "
	     "/dev/sda1 rw,discard",
	     "shared:4 master:1"},
	    {"36 35 98:0 /r /mnt/a rw,noatime shared:4 master:2 "
	     "propagate_from:1 - ext4 /dev/sda1 rw,discard",
	     "shared:4 master:2 propagate_from:1"},
	    {"36 35 98:0 /r /mnt/a rw,noatime shared:4 master:2 "
	     "propagate_from:1 unbindable - ext4 /dev/sda1 rw,discard",
	     "shared:4 master:2 propagate_from:1 unbindable"},
	};
	struct mountinfo_entry e;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		parse(cases[i].line, &e, 0);
		assert_int_equal(e.id, 36);
		assert_int_equal(e.parent_id, 35);
		assert_int_equal(e.major, 98);
		assert_int_equal(e.minor, 0);
		assert_string_equal(e.root, "/r");
		assert_string_equal(e.mnt, "/mnt/a");
		assert_string_equal(e.mnt_opts, "rw,noatime");
		assert_string_equal(e.optional, cases[i].optional);
		assert_string_equal(e.fstype, "ext4");
		assert_string_equal(e.source, "/dev/sda1");
		assert_string_equal(e.super_opts, "rw,discard");
		mountinfo_entry_release(&e);
	}
}

/* Octal escapes decode in every name; "\000" and broken ones stay. */
static void test_escapes(void **state)
{
	struct mountinfo_entry e;

	(void)state;
	parse("40 1 0:50 /with\\134slash /srv/my\\040disk rw - fuse\\040x "
	      "host:/a\\011b rw,x=\\0541",
	      &e, 0);
	assert_string_equal(e.root, "/with\\slash");
	assert_string_equal(e.mnt, "/srv/my disk");
	assert_string_equal(e.fstype, "fuse x");
	assert_string_equal(e.source, "host:/a\tb");
	assert_string_equal(e.super_opts, "rw,x=,1");
	mountinfo_entry_release(&e);

	parse("40 1 0:50 / /a\\000b\\08\\1 rw - tmpfs t rw", &e, 0);
	assert_string_equal(e.mnt, "/a\\000b\\08\\1");
	mountinfo_entry_release(&e);

	parse("40 1 0:50 / /nl\\012x\\ rw - tmpfs t rw", &e, 0);
	assert_string_equal(e.mnt, "/nl\nx\\");
	mountinfo_entry_release(&e);
}

/* An empty source (a tmpfs mounted with "") keeps the fields in place. */
static void test_empty_source(void **state)
{
	struct mountinfo_entry e;

	(void)state;
	parse("41 1 0:51 / /mnt/t rw,relatime shared:9 - tmpfs  rw,size=4k", &e,
	      0);
	assert_string_equal(e.fstype, "tmpfs");
	assert_string_equal(e.source, "");
	assert_string_equal(e.super_opts, "rw,size=4k");
	mountinfo_entry_release(&e);
}

/* What is not a mountinfo line is refused, and leaves e zeroed. */
static void test_malformed(void **state)
{
	static const char *const bad[] = {
	    "",
	    "36 35 98:0 /r /mnt rw ext4 /dev/sda1 rw",	 /* no "-" */
	    "36 35 98:0 /r /mnt rw - ext4 /dev/sda1",	 /* too short */
	    "36 35 98:0 /r - rw ext4 /dev/sda1 rw",	 /* "-" too early */
	    "x6 35 98:0 /r /mnt rw - ext4 /dev/sda1 rw", /* bad id */
	    "36 -1 98:0 /r /mnt rw - ext4 /dev/sda1 rw", /* bad parent */
	    "36 35 98/0 /r /mnt rw - ext4 /dev/sda1 rw", /* no colon */
	    "36 35 98: /r /mnt rw - ext4 /dev/sda1 rw",	 /* no minor */
	    "4294967296 35 98:0 /r /mnt rw - ext4 /dev/sda1 rw", /* > 32 bit */
	    "36 35 98:0  /mnt rw - ext4 /dev/sda1 rw", /* empty root */
	    "36 35 98:0 /r /mnt rw -  /dev/sda1 rw",   /* empty type */
	};
	struct mountinfo_entry e;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		parse(bad[i], &e, -EINVAL);
		assert_null(e.mnt);
		assert_int_equal(e.id, 0);
	}
	/* fields past the superblock options (a newer kernel?) are ignored */
	parse("36 35 98:0 /r /mnt rw - ext4 /dev/sda1 rw new", &e, 0);
	assert_string_equal(e.super_opts, "rw");
	mountinfo_entry_release(&e);
	/* a NUL inside the line */
	assert_int_equal(
	    mountinfo_parse_line("36 35 98:0 /r /m\0x rw - a b c", 29, &e),
	    -EINVAL);
}

/* A table: bad lines are counted and skipped, the rest kept in order. */
static void test_table(void **state)
{
	static const char text[] =
	    "22 27 0:21 / /proc rw,relatime - proc proc rw\n"
	    "garbage\n"
	    "\n"
	    "27 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw\n"
	    "30 27 7:1 / /mnt rw shared:2 master:1 propagate_from:3 - ext4 "
	    "/dev/loop1 rw"; /* no final newline */
	struct mountinfo mi;

	(void)state;
	assert_int_equal(mountinfo_parse(&mi, text, strlen(text)), 0);
	assert_int_equal(mi.nr, 3);
	assert_int_equal(mi.nr_bad, 1);
	assert_string_equal(mi.entries[0].mnt, "/proc");
	assert_string_equal(mi.entries[2].source, "/dev/loop1");
	mountinfo_release(&mi);
	/* a length that cuts the buffer short is respected */
	assert_int_equal(mountinfo_parse(&mi, text, 20), 0);
	assert_int_equal(mi.nr, 0);
	assert_int_equal(mi.nr_bad, 1);
	mountinfo_release(&mi);
}

/* The mount of path in text, "" for none. */
static const char *mount_of(const struct mountinfo *mi, const char *path)
{
	const struct mountinfo_entry *e = mountinfo_find_path(mi, path);

	return e ? e->source : "";
}

/* Longest mount point on a path boundary; the top of a stack wins. */
static void test_find_path(void **state)
{
	/* listed out of order, as the kernel may: "/" after its children */
	static const char text[] =
	    "22 27 0:21 / /proc rw - proc proc rw\n"
	    "27 1 254:0 / / rw - ext4 root rw\n"
	    "30 27 7:1 / /mnt rw - ext4 mnt rw\n"
	    "31 30 7:2 / /mnt/data rw shared:2 master:1 propagate_from:3 - "
	    "ext4 data rw\n"
	    "32 27 7:3 / /mntx rw - ext4 mntx rw\n"
	    "33 31 0:40 / /mnt/data/my\\040disk rw - tmpfs spaced rw\n"
	    /* two mounts stacked on /srv: the second on the first */
	    "40 27 0:41 / /srv rw - tmpfs srv-low rw\n"
	    "41 40 0:42 / /srv rw - tmpfs srv-top rw\n"
	    "42 41 0:43 / /srv/x rw - tmpfs srv-x rw\n";
	struct mountinfo mi;

	(void)state;
	mountinfo_parse(&mi, text, strlen(text));
	assert_int_equal(mi.nr_bad, 0);
	assert_string_equal(mount_of(&mi, "/"), "root");
	assert_string_equal(mount_of(&mi, "/etc/fstab"), "root");
	assert_string_equal(mount_of(&mi, "/proc/self"), "proc");
	assert_string_equal(mount_of(&mi, "/mnt"), "mnt");
	assert_string_equal(mount_of(&mi, "/mnt/"), "mnt");
	assert_string_equal(mount_of(&mi, "/mnt/dat"), "mnt");
	assert_string_equal(mount_of(&mi, "/mnt/data"), "data");
	assert_string_equal(mount_of(&mi, "/mnt/data/f"), "data");
	assert_string_equal(mount_of(&mi, "/mnt/datax"), "mnt");
	assert_string_equal(mount_of(&mi, "/mntx/f"), "mntx");
	assert_string_equal(mount_of(&mi, "/mnt/data/my disk/f"), "spaced");
	assert_string_equal(mount_of(&mi, "/mnt/data/my"), "data");
	assert_string_equal(mount_of(&mi, "/mnt/data/my\\040disk"), "data");
	assert_string_equal(mount_of(&mi, "/srv"), "srv-top");
	assert_string_equal(mount_of(&mi, "/srv/x/y"), "srv-x");
	assert_string_equal(mount_of(&mi, "relative"), "");
	assert_string_equal(mount_of(&mi, ""), "");

	assert_string_equal(mountinfo_find_mountpoint(&mi, "/srv")->source,
			    "srv-top");
	assert_string_equal(
	    mountinfo_find_mountpoint(&mi, "/mnt/data/my disk")->source,
	    "spaced");
	assert_null(mountinfo_find_mountpoint(&mi, "/mnt/data/f"));
	assert_null(mountinfo_find_mountpoint(&mi, "/etc"));
	mountinfo_release(&mi);
}

/* /a/b mounted, then /a over it: /a/b is out of sight. */
static void test_hidden(void **state)
{
	static const char text[] = "27 1 254:0 / / rw - ext4 root rw\n"
				   "50 27 0:44 / /a/b rw - tmpfs inner rw\n"
				   "51 27 0:45 / /a rw - tmpfs outer rw\n"
				   "52 50 0:46 / /a/b/c rw - tmpfs deep rw\n";
	struct mountinfo mi;

	(void)state;
	mountinfo_parse(&mi, text, strlen(text));
	assert_string_equal(mount_of(&mi, "/a/b"), "outer");
	assert_string_equal(mount_of(&mi, "/a/b/c/d"), "outer");
	assert_null(mountinfo_find_mountpoint(&mi, "/a/b"));
	assert_string_equal(mountinfo_find_mountpoint(&mi, "/a")->source,
			    "outer");
	mountinfo_release(&mi);
}

/* A chroot: the mounts' parents are out of sight, and there is no "/". */
static void test_no_root(void **state)
{
	static const char text[] = "60 9 0:21 / /proc rw - proc proc rw\n"
				   "61 9 7:4 / /data rw - ext4 data rw\n"
				   "62 61 7:5 / /data/in rw - ext4 in rw\n"
				   /* a cycle is not reachable, nor endless */
				   "70 71 7:6 / /c rw - ext4 c1 rw\n"
				   "71 70 7:7 / /c rw - ext4 c2 rw\n"
				   /* a namespace root is its own parent */
				   "80 80 0:2 / /ns rw - rootfs ns rw\n";
	struct mountinfo mi;

	(void)state;
	mountinfo_parse(&mi, text, strlen(text));
	assert_string_equal(mount_of(&mi, "/etc"), "");
	assert_string_equal(mount_of(&mi, "/data/in/x"), "in");
	assert_string_equal(mount_of(&mi, "/data/x"), "data");
	assert_string_equal(mount_of(&mi, "/c/x"), "");
	assert_string_equal(mount_of(&mi, "/ns/x"), "ns");
	mountinfo_release(&mi);
}

/* A device's first or last mount. */
static void test_find_dev(void **state)
{
	static const char text[] = "27 1 254:0 / / rw - ext4 root rw\n"
				   "30 27 7:1 / /mnt/a rw - ext4 one rw\n"
				   "31 27 7:1 /sub /mnt/b rw - ext4 two rw\n";
	struct mountinfo mi;

	(void)state;
	mountinfo_parse(&mi, text, strlen(text));
	assert_string_equal(mountinfo_find_dev(&mi, 7, 1, MOUNTINFO_FIRST)->mnt,
			    "/mnt/a");
	assert_string_equal(mountinfo_find_dev(&mi, 7, 1, MOUNTINFO_LAST)->mnt,
			    "/mnt/b");
	assert_null(mountinfo_find_dev(&mi, 7, 2, MOUNTINFO_FIRST));
	mountinfo_release(&mi);
}

/* Whole options only. */
static void test_has_opt(void **state)
{
	(void)state;
	assert_true(mountinfo_has_opt("rw,noatime", "noatime"));
	assert_true(mountinfo_has_opt("noatime", "noatime"));
	assert_true(mountinfo_has_opt("ro,relatime,x", "ro"));
	assert_false(mountinfo_has_opt("rw,noatime", "atime"));
	assert_false(mountinfo_has_opt("rw,noatimex", "noatime"));
	assert_false(mountinfo_has_opt("", "rw"));
	assert_false(mountinfo_has_opt("rw", ""));
}

/* The real table of this machine reads without a bad line. */
static void test_real(void **state)
{
	struct strbuf err = STRBUF_INIT;
	struct mountinfo mi;

	(void)state;
	if (mountinfo_read(&mi, &err)) {
		strbuf_release(&err);
		skip();
	}
	assert_int_equal(mi.nr_bad, 0);
	assert_true(mi.nr > 0);
	assert_non_null(mountinfo_find_path(&mi, "/proc/self"));
	mountinfo_release(&mi);
	assert_int_equal(mountinfo_read_file(&mi, "/nonexistent/x", &err),
			 -ENOENT);
	assert_non_null(strstr(err.buf, "cannot read '/nonexistent/x'"));
	mountinfo_release(&mi);
	strbuf_release(&err);
}

/*
 * A path's file system from the path itself (a chroot whose root is no
 * mount): st_dev's numbers, the highest directory on that device, and a
 * fake sysfs naming the block device and telling ext4 by fs/ext4/DEV.
 */
static void test_entry_of_path(void **state)
{
	char sys[] = "/tmp/iotrial-test-mi.XXXXXX";
	struct strbuf p = STRBUF_INIT, cmd = STRBUF_INIT;
	struct mountinfo_entry e;
	struct stat st, at;
	char *parent;

	(void)state;
	assert_non_null(mkdtemp(sys));
	assert_int_equal(stat(sys, &st), 0);
	/* sysfs: dev/block/MAJ:MIN -> .../block/fakedisk */
	strbuf_setf(&p, "%s/dev", sys);
	assert_int_equal(mkdir(p.buf, 0755), 0);
	strbuf_addstr(&p, "/block");
	assert_int_equal(mkdir(p.buf, 0755), 0);
	strbuf_addf(&p, "/%u:%u", major(st.st_dev), minor(st.st_dev));
	assert_int_equal(symlink("../../devices/virtual/block/fakedisk", p.buf),
			 0);
	assert_int_equal(mountinfo_entry_of_path(sys, sys, &e), 0);
	assert_int_equal(e.major, major(st.st_dev));
	assert_int_equal(e.minor, minor(st.st_dev));
	assert_int_equal(e.id, 0);
	if (major(st.st_dev))
		assert_string_equal(e.source, "/dev/fakedisk");
	assert_true(!strncmp(e.mnt_opts, "rw", 2) ||
		    !strncmp(e.mnt_opts, "ro", 2));
	assert_true(strlen(e.fstype) > 0);
	/* mnt: above sys, on its device, and the highest such */
	assert_true(!strncmp(sys, e.mnt, strlen(e.mnt)));
	assert_int_equal(stat(e.mnt, &at), 0);
	assert_true(at.st_dev == st.st_dev);
	if (strcmp(e.mnt, "/")) {
		parent = strdup(e.mnt);
		*strrchr(parent, '/') = '\0';
		assert_int_equal(stat(*parent ? parent : "/", &at), 0);
		assert_true(at.st_dev != st.st_dev);
		free(parent);
	}
	if (!strcmp(e.fstype, "ext4") || !strcmp(e.fstype, "ext2/ext3")) {
		/* no fs/ext4/fakedisk in the fake sysfs: not told ext4 */
		assert_string_equal(e.fstype, "ext2/ext3");
		mountinfo_entry_release(&e);
		strbuf_setf(&p, "%s/fs", sys);
		assert_int_equal(mkdir(p.buf, 0755), 0);
		strbuf_addstr(&p, "/ext4");
		assert_int_equal(mkdir(p.buf, 0755), 0);
		strbuf_addstr(&p, "/fakedisk");
		assert_int_equal(mkdir(p.buf, 0755), 0);
		assert_int_equal(mountinfo_entry_of_path(sys, sys, &e), 0);
		assert_string_equal(e.fstype, "ext4");
	}
	mountinfo_entry_release(&e);
	assert_int_equal(mountinfo_entry_of_path("/nonexistent/x", sys, &e),
			 -ENOENT);
	strbuf_addf(&cmd, "rm -rf '%s'", sys);
	assert_int_equal(system(cmd.buf), 0);
	strbuf_release(&p);
	strbuf_release(&cmd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_optional_fields),
	    cmocka_unit_test(test_escapes),
	    cmocka_unit_test(test_empty_source),
	    cmocka_unit_test(test_malformed),
	    cmocka_unit_test(test_table),
	    cmocka_unit_test(test_find_path),
	    cmocka_unit_test(test_hidden),
	    cmocka_unit_test(test_no_root),
	    cmocka_unit_test(test_find_dev),
	    cmocka_unit_test(test_has_opt),
	    cmocka_unit_test(test_real),
	    cmocka_unit_test(test_entry_of_path),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
