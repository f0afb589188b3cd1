/*
 * Tests for util/xalloc's I/O buffers: xalloc_io() gives zeroed, 2 MiB
 * aligned memory of the asked size, every byte of it writable, advised
 * for huge pages (the "hg" flag of its mapping in /proc/self/smaps), and
 * xfree_io() returns the mapping.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "util/xalloc.h"
#include "util/banned.h"

#define HUGE_BYTES ((size_t)2 << 20)

/*
 * The VmFlags of the mapping that starts at p, from /proc/self/smaps,
 * into flags (a line); 0 when found, -1 when no mapping starts there.
 */
static int smaps_flags_of(const void *p, char *flags, size_t size)
{
	char line[512], want[32];
	FILE *f = fopen("/proc/self/smaps", "r");
	int in = 0, ret = -1;

	if (!f)
		return -1;
	snprintf(want, sizeof(want), "%lx-", (unsigned long)(uintptr_t)p);
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, want, strlen(want)))
			in = 1;
		else if (in && !strncmp(line, "VmFlags:", 8)) {
			snprintf(flags, size, "%s", line + 8);
			ret = 0;
			break;
		}
	}
	fclose(f);
	return ret;
}

/* Is /proc mounted here (a plain chroot may have none)? */
static int have_smaps(void)
{
	FILE *f = fopen("/proc/self/smaps", "r");

	if (!f)
		return 0;
	fclose(f);
	return 1;
}

/* Does this kernel have transparent huge pages to advise? */
static int have_thp(void)
{
	FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");

	if (!f)
		return 0;
	fclose(f);
	return 1;
}

/* Is the mapping at p still there? */
static int mapped(const void *p)
{
	char flags[256];

	return !smaps_flags_of(p, flags, sizeof(flags));
}

static void check_buffer(size_t bytes)
{
	unsigned char *p = xalloc_io(bytes);
	char flags[256];
	size_t i, nonzero = 0;

	assert_non_null(p);
	assert_int_equal((uintptr_t)p % HUGE_BYTES, 0);
	for (i = 0; i < bytes; i++)
		nonzero += p[i] != 0;
	assert_int_equal(nonzero, 0);
	memset(p, 0xa5, bytes); /* every byte writable */
	if (bytes)
		assert_int_equal(p[bytes - 1], 0xa5);
	if (!have_smaps()) { /* what can be checked without /proc */
		xfree_io(p, bytes);
		return;
	}
	assert_int_equal(smaps_flags_of(p, flags, sizeof(flags)), 0);
	if (have_thp())
		assert_non_null(strstr(flags, " hg"));
	xfree_io(p, bytes);
	assert_false(mapped(p));
}

static void test_sizes(void **state)
{
	(void)state;
	check_buffer(4096);		     /* QD1 4k */
	check_buffer(1 << 20);		     /* a 1 MiB request */
	check_buffer(HUGE_BYTES);	     /* exactly one huge page */
	check_buffer(32 * (1 << 20) + 4096); /* QD32 of 1 MiB, and a page */
	check_buffer(0);		     /* still a mapping, freed */
}

/* Two buffers never overlap, and freeing one leaves the other. */
static void test_two(void **state)
{
	unsigned char *a = xalloc_io(1 << 20), *b = xalloc_io(1 << 20);

	(void)state;
	assert_true(a + HUGE_BYTES <= b || b + HUGE_BYTES <= a);
	memset(a, 1, 1 << 20);
	memset(b, 2, 1 << 20);
	xfree_io(a, 1 << 20);
	if (have_smaps())
		assert_true(mapped(b));
	assert_int_equal(b[(1 << 20) - 1], 2);
	xfree_io(b, 1 << 20);
	xfree_io(NULL, 1 << 20); /* as free(NULL) */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_sizes),
	    cmocka_unit_test(test_two),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
