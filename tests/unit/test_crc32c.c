/*
 * Tests for util/crc32c: the published check values (the "123456789"
 * check of the CRC catalogue and the iSCSI vectors of RFC 3720 B.4), and
 * the instruction path agreeing with the table path on every length and
 * alignment, in one piece or many.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "util/crc32c.h"
#include "util/rng.h"
#include "util/banned.h"

typedef uint32_t (*crc_fn)(uint32_t, const void *, size_t);

static void known_answers(crc_fn f)
{
	unsigned char b[32];
	unsigned i;

	assert_int_equal(f(0, "123456789", 9), 0xe3069283u);
	assert_int_equal(f(0, "", 0), 0);
	assert_int_equal(
	    f(0, "The quick brown fox jumps over the lazy dog", 43),
	    0x22620404u);
	memset(b, 0, sizeof(b));
	assert_int_equal(f(0, b, sizeof(b)), 0x8a9136aau);
	memset(b, 0xff, sizeof(b));
	assert_int_equal(f(0, b, sizeof(b)), 0x62a8ab43u);
	for (i = 0; i < 32; i++)
		b[i] = (unsigned char)i;
	assert_int_equal(f(0, b, sizeof(b)), 0x46dd794eu);
	for (i = 0; i < 32; i++)
		b[i] = (unsigned char)(31 - i);
	assert_int_equal(f(0, b, sizeof(b)), 0x113fdb5cu);
}

static void test_table_vectors(void **state)
{
	(void)state;
	known_answers(crc32c_sw);
}

static void test_dispatch_vectors(void **state)
{
	(void)state;
	known_answers(crc32c);
}

/* Every length and start alignment, whole and split in two, gives the
 * table's value. */
static void test_paths_agree(void **state)
{
	static unsigned char buf[600];
	struct rng r;
	size_t start, len, cut;

	(void)state;
	rng_seed(&r, 7);
	for (len = 0; len < sizeof(buf); len++)
		buf[len] = (unsigned char)rng_next(&r);
	for (start = 0; start < 8; start++)
		for (len = 0; start + len <= 520; len++) {
			uint32_t want = crc32c_sw(0, buf + start, len);

			assert_int_equal(crc32c(0, buf + start, len), want);
			cut = len / 3;
			assert_int_equal(crc32c(crc32c(0, buf + start, cut),
						buf + start + cut, len - cut),
					 want);
			assert_int_equal(
			    crc32c_sw(crc32c_sw(0, buf + start, cut),
				      buf + start + cut, len - cut),
			    want);
		}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_table_vectors),
	    cmocka_unit_test(test_dispatch_vectors),
	    cmocka_unit_test(test_paths_agree),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
