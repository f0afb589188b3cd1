/*
 * CRC-32C in software and with SSE4.2. The software path is
 * slicing-by-8: eight 256-entry tables let the loop fold eight input
 * bytes per step instead of one. The tables are built once, on first
 * use, from the reflected polynomial 0x82f63b78.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include "crc32c.h"
#include "banned.h"

#define CRC32C_POLY 0x82f63b78u /* reflected 0x1edc6f41 */

static uint32_t table[8][256];
static pthread_once_t table_once = PTHREAD_ONCE_INIT;

/* table[0] is the bytewise CRC; table[k][b] is table[k-1][b] pushed
 * through eight more zero bits. */
static void table_build(void)
{
	unsigned b, k, bit;

	for (b = 0; b < 256; b++) {
		uint32_t c = b;

		for (bit = 0; bit < 8; bit++)
			c = c & 1 ? (c >> 1) ^ CRC32C_POLY : c >> 1;
		table[0][b] = c;
	}
	for (b = 0; b < 256; b++)
		for (k = 1; k < 8; k++)
			table[k][b] = (table[k - 1][b] >> 8) ^
				      table[0][table[k - 1][b] & 0xff];
}

uint32_t crc32c_sw(uint32_t crc, const void *buf, size_t len)
{
	const unsigned char *p = buf;

	pthread_once(&table_once, table_build);
	crc = ~crc;
	for (; len && ((uintptr_t)p & 7); len--)
		crc = (crc >> 8) ^ table[0][(crc ^ *p++) & 0xff];
	for (; len >= 8; len -= 8, p += 8) {
		uint32_t lo, hi;

		memcpy(&lo, p, 4);
		memcpy(&hi, p + 4, 4);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
		lo = __builtin_bswap32(lo);
		hi = __builtin_bswap32(hi);
#endif
		lo ^= crc;
		crc = table[7][lo & 0xff] ^ table[6][(lo >> 8) & 0xff] ^
		      table[5][(lo >> 16) & 0xff] ^ table[4][lo >> 24] ^
		      table[3][hi & 0xff] ^ table[2][(hi >> 8) & 0xff] ^
		      table[1][(hi >> 16) & 0xff] ^ table[0][hi >> 24];
	}
	while (len--)
		crc = (crc >> 8) ^ table[0][(crc ^ *p++) & 0xff];
	return ~crc;
}

#if defined(__x86_64__)
/* The crc32 instruction: eight bytes a step, the same polynomial. */
__attribute__((target("sse4.2"))) static uint32_t
crc32c_sse42(uint32_t crc, const void *buf, size_t len)
{
	const unsigned char *p = buf;
	uint64_t c = ~crc;

	for (; len && ((uintptr_t)p & 7); len--)
		c = __builtin_ia32_crc32qi((uint32_t)c, *p++);
	for (; len >= 8; len -= 8, p += 8) {
		uint64_t v;

		memcpy(&v, p, 8);
		c = __builtin_ia32_crc32di(c, v);
	}
	for (; len; len--)
		c = __builtin_ia32_crc32qi((uint32_t)c, *p++);
	return ~(uint32_t)c;
}

int crc32c_hw(void)
{
	return __builtin_cpu_supports("sse4.2");
}

uint32_t crc32c(uint32_t crc, const void *buf, size_t len)
{
	static _Atomic int hw = -1; /* -1: not asked yet */
	int h = atomic_load_explicit(&hw, memory_order_relaxed);

	if (h < 0) {
		h = crc32c_hw();
		atomic_store_explicit(&hw, h, memory_order_relaxed);
	}
	return h ? crc32c_sse42(crc, buf, len) : crc32c_sw(crc, buf, len);
}
#else
int crc32c_hw(void)
{
	return 0;
}

uint32_t crc32c(uint32_t crc, const void *buf, size_t len)
{
	return crc32c_sw(crc, buf, len);
}
#endif
