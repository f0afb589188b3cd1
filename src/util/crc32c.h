/*
 * CRC-32C (Castagnoli, the polynomial iSCSI, ext4 and btrfs use), for
 * checking that data read back is the data written. crc32c() uses the
 * SSE4.2 crc32 instruction when the CPU has it and a slicing-by-8 table
 * otherwise; both give the same values (crc32c("123456789") is
 * 0xe3069283).
 */
#ifndef IOTRIAL_CRC32C_H
#define IOTRIAL_CRC32C_H

#include <stddef.h>
#include <stdint.h>

/*
 * The CRC of len bytes at buf continued from crc: start with 0, and pass
 * the result of one call as crc to the next to checksum a buffer in
 * pieces. Thread-safe.
 */
uint32_t crc32c(uint32_t crc, const void *buf, size_t len);
/* The same with the table only, whatever the CPU (for tests). */
uint32_t crc32c_sw(uint32_t crc, const void *buf, size_t len);
/* Whether crc32c() uses the CPU's instruction. */
int crc32c_hw(void);

#endif
