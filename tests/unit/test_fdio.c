/*
 * Tests for util/fdio: a buffer larger than a pipe's capacity reaches
 * the reader whole through short and interrupted writes, a full device and a
 * pipe with no reader give their errno, an empty buffer writes nothing.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>
#include "util/fdio.h"
#include "util/banned.h"

#define BIG (1u << 20) /* 16 times a pipe's default capacity */

static void on_alarm(int sig)
{
	(void)sig;
}

/*
 * A child writes BIG patterned bytes into a pipe of one page while a
 * timer interrupts it (no SA_RESTART), so its writes come back short
 * and with EINTR; the parent reads slowly and checks every byte.
 */
static void test_short_writes(void **state)
{
	unsigned char *buf = malloc(BIG), *got = malloc(BIG);
	size_t have = 0, i;
	int p[2], status;
	pid_t pid;

	(void)state;
	assert_non_null(buf);
	assert_non_null(got);
	for (i = 0; i < BIG; i++)
		buf[i] = (unsigned char)(i * 7 + i / 4096);
	assert_int_equal(pipe(p), 0);
	assert_true(fcntl(p[1], F_SETPIPE_SZ, 4096) > 0);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		struct sigaction sa = {.sa_handler = on_alarm};
		struct itimerval it = {{0, 200}, {0, 200}};

		close(p[0]);
		sigaction(SIGALRM, &sa, NULL);
		setitimer(ITIMER_REAL, &it, NULL);
		_exit(fd_write_all(p[1], buf, BIG) ? 1 : 0);
	}
	close(p[1]);
	while (have < BIG) {
		ssize_t n = read(p[0], got + have, 4096);

		usleep(20);

		assert_true(n > 0);
		have += (size_t)n;
	}
	assert_int_equal(read(p[0], got, 1), 0);
	close(p[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_memory_equal(buf, got, BIG);
	free(buf);
	free(got);
}

/* /dev/full refuses every write with ENOSPC. */
static void test_full_device(void **state)
{
	int fd = open("/dev/full", O_WRONLY | O_CLOEXEC);

	(void)state;
	if (fd < 0)
		skip();
	assert_int_equal(fd_write_all(fd, "x", 1), -ENOSPC);
	close(fd);
}

/* A pipe whose reader is gone: -EPIPE (SIGPIPE ignored), not a loop. */
static void test_no_reader(void **state)
{
	struct sigaction old, ign = {.sa_handler = SIG_IGN};
	int p[2];

	(void)state;
	assert_int_equal(pipe(p), 0);
	close(p[0]);
	assert_int_equal(sigaction(SIGPIPE, &ign, &old), 0);
	assert_int_equal(fd_write_all(p[1], "abc", 3), -EPIPE);
	assert_int_equal(sigaction(SIGPIPE, &old, NULL), 0);
	close(p[1]);
}

/* Nothing to write: 0, even on a descriptor that is not open. */
static void test_empty(void **state)
{
	(void)state;
	assert_int_equal(fd_write_all(-1, "", 0), 0);
	assert_int_equal(fd_write_all(-1, "x", 1), -EBADF);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_short_writes),
	    cmocka_unit_test(test_full_device),
	    cmocka_unit_test(test_no_reader),
	    cmocka_unit_test(test_empty),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
