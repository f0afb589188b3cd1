/*
 * Tests for core/observe/disks: finding the block devices to watch in a
 * fake sysfs tree. Whole disks count as active when their stat shows
 * reads, writes or requests in flight; idle, unreadable and dot entries
 * are left out, and the order is by name. Typed names are checked
 * against class/block (partitions too); a wrong one, an empty one or one
 * with a slash is refused with the list of what is there.
 */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <cmocka.h>
#include "core/observe/disks.h"
#include "util/banned.h"

/* The fake tree's root, made per test. */
static char root[PATH_MAX];

/* A stat line: reads, writes and in-flight as given, the rest zero. */
#define STAT(rd, wr, inflight)                                                 \
	"    " #rd "        0        0        0    " #wr                       \
	"        0        0        0        " #inflight                        \
	"        0        0        0        0        0        0        0"      \
	"        0\n"

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

/* A tree with disks vdb (reads), sda (writes), loop1 (in flight), loop0
 * (idle), loop2 (detached: I/O counted, size 0), a dot entry and zz
 * without a stat; partition sda1 in class. */
static int setup(void **state)
{
	(void)state;
	snprintf(root, sizeof(root), "/tmp/test_disks.XXXXXX");
	if (!mkdtemp(root))
		return -1;
	put("block/vdb/stat", STAT(12, 0, 0));
	put("block/sda/stat", STAT(0, 7, 0));
	put("block/loop1/stat", STAT(0, 0, 1));
	put("block/loop0/stat", STAT(0, 0, 0));
	put("block/loop2/stat", STAT(40, 3, 0));
	put("block/loop2/size", "0\n");
	put("block/sda/size", "2048\n");
	put("block/.hidden/stat", STAT(5, 5, 0));
	put("block/zz/size", "8\n");
	put("class/block/sda/stat", STAT(0, 7, 0));
	put("class/block/sda1/stat", STAT(0, 7, 0));
	put("class/block/vdb/stat", STAT(12, 0, 0));
	return 0;
}

static int teardown(void **state)
{
	char cmd[PATH_MAX + 16];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd) == 0 ? 0 : -1;
}

/* Disks with I/O, by name; idle, empty, hidden and unreadable ones left
 * out. */
static void test_active(void **state)
{
	struct disk_names l = {0};
	struct strbuf p = STRBUF_INIT;

	(void)state;
	disks_active(root, &l);
	assert_int_equal(l.nr, 3);
	assert_string_equal(l.v[0], "loop1");
	assert_string_equal(l.v[1], "sda");
	assert_string_equal(l.v[2], "vdb");
	disks_stat_path(root, l.v[1], &p);
	assert_int_equal(access(p.buf, R_OK), 0);
	assert_non_null(strstr(p.buf, "/class/block/sda/stat"));
	disk_names_release(&l);
	assert_int_equal(l.nr, 0);
	strbuf_release(&p);
}

/* No block directory at all: nothing active, no error. */
static void test_active_none(void **state)
{
	struct disk_names l = {0};
	char missing[PATH_MAX + 16];

	(void)state;
	snprintf(missing, sizeof(missing), "%s/nothing", root);
	disks_active(missing, &l);
	assert_int_equal(l.nr, 0);
	disk_names_release(&l);
}

/* Typed names: disks and partitions are fine, in the order given. */
static void test_check(void **state)
{
	const char *const names[] = {"sda1", "vdb"};
	struct disk_names l = {0};
	struct strbuf err = STRBUF_INIT;

	(void)state;
	assert_int_equal(disks_check(root, names, 2, &l, &err), 0);
	assert_int_equal(l.nr, 2);
	assert_string_equal(l.v[0], "sda1");
	assert_string_equal(l.v[1], "vdb");
	disk_names_release(&l);
	strbuf_release(&err);
}

/* A wrong name is answered with what is there. */
static void test_check_refused(void **state)
{
	const char *const bad[] = {"sda", "nvme0n1"};
	const char *const slash[] = {"../block/sda"};
	const char *const empty[] = {""};
	struct disk_names l = {0};
	struct strbuf err = STRBUF_INIT;

	(void)state;
	assert_int_equal(disks_check(root, bad, 2, &l, &err), -ENOENT);
	assert_string_equal(err.buf, "no block device 'nvme0n1'; the devices "
				     "here are: sda, sda1, vdb");
	assert_int_equal(l.nr, 1);
	strbuf_reset(&err);
	assert_int_equal(disks_check(root, slash, 1, &l, &err), -ENOENT);
	assert_non_null(strstr(err.buf, "'../block/sda'"));
	strbuf_reset(&err);
	assert_int_equal(disks_check(root, empty, 1, &l, &err), -ENOENT);
	assert_non_null(strstr(err.buf, "no block device ''"));
	disk_names_release(&l);
	strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
	    T(test_active),
	    T(test_active_none),
	    T(test_check),
	    T(test_check_refused),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
