/*
 * A known io_uring workload for tests/cli/record_uring.sh (built by the
 * test with liburing): on FILE, 32 writes of 4 KiB at offsets 0, 4 KiB,
 * ... submitted 8 at a time, an fsync and an fdatasync, 16 reads of
 * 4 KiB (readv) at every other 4 KiB, the file registered and 8 reads of
 * 4 KiB through its index, then 2 nops and a statx of FILE (operations
 * record does not take). Exits 0 when every request did what it asked,
 * 1 otherwise, 77 when io_uring is not available here.
 */
#define _GNU_SOURCE /* statx */
#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#define BLOCK 4096

static char buf[8][BLOCK];
static struct iovec iov[8];

/* Submit what is queued and take n completions; 0 if each had want
 * (-1: any result not negative). */
static int reap(struct io_uring *ring, unsigned n, int want)
{
	struct io_uring_cqe *cqe;
	int bad = 0;

	if (io_uring_submit(ring) < 0)
		return 1;
	while (n--) {
		if (io_uring_wait_cqe(ring, &cqe))
			return 1;
		if (cqe->res < 0 || (want >= 0 && cqe->res != want)) {
			fprintf(stderr, "uring_ops: a request returned %d\n",
				cqe->res);
			bad = 1;
		}
		io_uring_cqe_seen(ring, cqe);
	}
	return bad;
}

int main(int argc, char **argv)
{
	struct io_uring ring;
	struct io_uring_sqe *sqe;
	struct statx stx;
	int fd, ret, i, j, bad = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: uring_ops FILE\n");
		return 2;
	}
	ret = io_uring_queue_init(16, &ring, 0);
	if (ret) {
		fprintf(stderr, "uring_ops: io_uring: %s\n", strerror(-ret));
		return 77;
	}
	fd = open(argv[1], O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		perror("uring_ops: open");
		return 1;
	}
	memset(buf, 'u', sizeof(buf));
	for (i = 0; i < 8; i++) {
		iov[i].iov_base = buf[i];
		iov[i].iov_len = BLOCK;
	}
	for (i = 0; i < 32; i += 8) {
		for (j = 0; j < 8; j++) {
			sqe = io_uring_get_sqe(&ring);
			io_uring_prep_write(sqe, fd, buf[j], BLOCK,
					    (unsigned long long)(i + j) *
						BLOCK);
		}
		bad |= reap(&ring, 8, BLOCK);
	}
	sqe = io_uring_get_sqe(&ring);
	io_uring_prep_fsync(sqe, fd, 0);
	bad |= reap(&ring, 1, 0);
	sqe = io_uring_get_sqe(&ring);
	io_uring_prep_fsync(sqe, fd, IORING_FSYNC_DATASYNC);
	bad |= reap(&ring, 1, 0);
	for (i = 0; i < 16; i += 8) {
		for (j = 0; j < 8; j++) {
			sqe = io_uring_get_sqe(&ring);
			io_uring_prep_readv(sqe, fd, &iov[j], 1,
					    (unsigned long long)(i + j) * 2 *
						BLOCK);
		}
		bad |= reap(&ring, 8, BLOCK);
	}
	if (io_uring_register_files(&ring, &fd, 1)) {
		fprintf(stderr, "uring_ops: cannot register the file\n");
		return 1;
	}
	for (j = 0; j < 8; j++) {
		sqe = io_uring_get_sqe(&ring);
		io_uring_prep_read(sqe, 0, buf[j], BLOCK,
				   (unsigned long long)j * 3 * BLOCK);
		sqe->flags |= IOSQE_FIXED_FILE;
	}
	bad |= reap(&ring, 8, BLOCK);
	for (j = 0; j < 2; j++) {
		sqe = io_uring_get_sqe(&ring);
		io_uring_prep_nop(sqe);
	}
	sqe = io_uring_get_sqe(&ring);
	io_uring_prep_statx(sqe, AT_FDCWD, argv[1], 0, STATX_SIZE, &stx);
	bad |= reap(&ring, 3, 0);
	io_uring_queue_exit(&ring);
	close(fd);
	return bad;
}
