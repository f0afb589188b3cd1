/*
 * Writing all of a buffer to a descriptor: write(2) may write less than
 * asked (a pipe, a signal, a full disk), and every writer of a journal
 * line, a document, a trace or a progress line must go on until the
 * whole is written or the write fails.
 */
#ifndef IOTRIAL_FDIO_H
#define IOTRIAL_FDIO_H

#include <stddef.h>

/*
 * Write the len bytes at buf to fd, again after a short write and after
 * EINTR. 0, or -errno of the write that failed (-ENOSPC when a write
 * wrote nothing without an error). What was written before a failure
 * stays written.
 */
int fd_write_all(int fd, const void *buf, size_t len);

#endif
