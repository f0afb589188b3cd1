/* mmap-msync FILE MIB [patched]: the regression test of journey 004.
 * Makes FILE MIB mebibytes long, maps it shared, adds one to every
 * byte, and waits for msync(MS_SYNC) to write it back. "patched" (or
 * JOURNEY_KERNEL=patched in the environment) plays a kernel whose
 * writeback path got slower: it waits half a second first. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct timespec pause = {0, 500 * 1000 * 1000};
	size_t len, off;
	unsigned char *map;
	const char *kernel;
	int fd;

	if (argc < 3 || argc > 4) {
		fprintf(stderr, "usage: mmap-msync FILE MIB [patched]\n");
		return 2;
	}
	len = strtoul(argv[2], NULL, 10) << 20;
	fd = open(argv[1], O_RDWR | O_CREAT, 0600);
	if (fd < 0 || len == 0 || ftruncate(fd, (off_t)len) != 0) {
		perror(argv[1]);
		return 1;
	}
	map = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	for (off = 0; off < len; off++)
		map[off]++;
	kernel = getenv("JOURNEY_KERNEL");
	if ((argc == 4 && strcmp(argv[3], "patched") == 0) ||
	    (kernel && strcmp(kernel, "patched") == 0))
		nanosleep(&pause, NULL);
	if (msync(map, len, MS_SYNC) != 0) {
		perror("msync");
		return 1;
	}
	printf("dirtied %zu bytes\n", len);
	return 0;
}
