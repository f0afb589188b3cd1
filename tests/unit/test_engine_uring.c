/*
 * io_uring engine tests beyond the contract every engine keeps (that is
 * test_engine.c): a ring set up on one thread and driven from another,
 * buffers the kernel cannot register, and a kernel or seccomp policy
 * that refuses io_uring_setup. Skipped when io_uring is unavailable,
 * except the refusal test, which makes the refusal itself.
 */
#include <dirent.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include "engine_harness.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* What the io_uring thread test's worker does and finds. */
struct thread_job {
	struct env *v;
	size_t bad;
};

/* Worker: drive an engine set up on another thread. */
static void *thread_pump(void *arg)
{
	struct thread_job *j = arg;

	j->bad = pump(&j->v->e, j->v->reqs, 8, IO_WRITE, 5);
	j->bad += pump(&j->v->e, j->v->reqs, 8, IO_READ, 5);
	return NULL;
}

/* io_uring set up on one thread works when driven from another (the
 * single-issuer ring binds to the first submitter). */
static void test_uring_other_thread(void **state)
{
	const struct tcase *c = *state;
	struct thread_job j;
	pthread_t t;
	struct env v;

	env_setup(&v, "io_uring", 8, c->direct, FILE_BYTES);
	j.v = &v;
	j.bad = 0;
	assert_int_equal(pthread_create(&t, NULL, thread_pump, &j), 0);
	assert_int_equal(pthread_join(t, NULL), 0);
	assert_int_equal(j.bad, 0);
	check_file(v.path, FILE_BYTES, 5);
	env_teardown(&v);
}

/* A ring says what it was set up with: registered files and buffers, the
 * setup flags the kernel took (deferred task work only with a single
 * issuer, never with cooperative task work), no polling thread, batched
 * reaping; the ring fd is registered by the first submit, if at all. */
static void test_uring_features(void **state)
{
	const struct tcase *c = *state;
	unsigned f;
	struct env v;

	env_setup(&v, "io_uring", 8, c->direct, FILE_BYTES);
	f = v.e.features;
	assert_true(f & ENGINE_FEAT_FIXED_FILES);
	assert_true(f & ENGINE_FEAT_FIXED_BUFFERS);
	assert_true(f & ENGINE_FEAT_BATCH_REAP);
	assert_false(f & ENGINE_FEAT_SQPOLL);
	assert_false(f & ENGINE_FEAT_RING_FD);
	if (f & ENGINE_FEAT_DEFER_TASKRUN) {
		assert_true(f & ENGINE_FEAT_SINGLE_ISSUER);
		assert_false(f & ENGINE_FEAT_COOP_TASKRUN);
	}
	assert_int_equal(pump(&v.e, v.reqs, 8, IO_WRITE, 3), 0);
	/* the first submit adds at most the registered ring fd */
	assert_int_equal(v.e.features & ~ENGINE_FEAT_RING_FD, f);
	env_teardown(&v);
}

/* Buffers io_uring cannot register (a shared file mapping) still work,
 * through plain reads and writes, and the fallback is noted. */
static void test_uring_unregistered_bufs(void **state)
{
	struct strbuf err = STRBUF_INIT;
	struct engine_opts o;
	struct env v, backing;
	char *map;
	int ret;

	(void)state;
	memset(&v, 0, sizeof(v));
	memset(&backing, 0, sizeof(backing));
	assert_int_equal(env_open_file(&v, FILE_BYTES, 0), 0);
	assert_int_equal(env_open_file(&backing, MAX_DEPTH * BLOCK_BYTES, 0),
			 0);
	map = mmap(NULL, MAX_DEPTH * BLOCK_BYTES, PROT_READ | PROT_WRITE,
		   MAP_SHARED, backing.fd, 0);
	assert_true(map != MAP_FAILED);
	for (unsigned i = 0; i < MAX_DEPTH; i++) {
		v.bufs[i] = map + i * BLOCK_BYTES;
		v.reqs[i].buf = v.bufs[i];
		v.reqs[i].buf_idx = (uint16_t)i;
	}
	memset(&o, 0, sizeof(o));
	o.iodepth = 4;
	o.fds = &v.fd;
	o.nr_files = 1;
	o.bufs = v.bufs;
	o.nr_bufs = MAX_DEPTH;
	o.buf_bytes = BLOCK_BYTES;
	o.file_bytes = FILE_BYTES;
	o.writable = 1;
	ret = engine_init(&v.e, &engine_io_uring, &o, &err);
	if (ret == -ENOSYS || ret == -EPERM) {
		munmap(map, MAX_DEPTH * BLOCK_BYTES);
		close(backing.fd);
		unlink(backing.path);
		close(v.fd);
		unlink(v.path);
		strbuf_release(&err);
		skip();
	}
	assert_int_equal(ret, 0);
	if (v.e.note)
		print_message("note: %s\n", v.e.note);
	/* the run says it ran without registered buffers */
	assert_false(v.e.features & ENGINE_FEAT_FIXED_BUFFERS);
	assert_true(v.e.features & ENGINE_FEAT_FIXED_FILES);
	assert_int_equal(pump(&v.e, v.reqs, 4, IO_WRITE, 6), 0);
	assert_int_equal(pump(&v.e, v.reqs, 4, IO_READ, 6), 0);
	check_file(v.path, FILE_BYTES, 6);
	engine_release(&v.e);
	munmap(map, MAX_DEPTH * BLOCK_BYTES);
	close(backing.fd);
	unlink(backing.path);
	close(v.fd);
	unlink(v.path);
	strbuf_release(&err);
}

/* Rings open in this process whose fdinfo names a polling thread
 * ("SqThread:" above -1). */
static unsigned count_sqpoll_rings(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *de;
	unsigned n = 0;

	assert_non_null(d);
	while ((de = readdir(d))) {
		char path[300], link[64], line[128];
		ssize_t len;
		FILE *f;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/self/fd/%s", de->d_name);
		len = readlink(path, link, sizeof(link) - 1);
		if (len < 0)
			continue;
		link[len] = 0;
		if (!strstr(link, "io_uring"))
			continue;
		snprintf(path, sizeof(path), "/proc/self/fdinfo/%s",
			 de->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		while (fgets(line, sizeof(line), f))
			if (!strncmp(line, "SqThread:", 9) &&
			    atoi(line + 9) > 0)
				n++;
		fclose(f);
	}
	closedir(d);
	return n;
}

/* --sqpoll: a kernel thread of ours polls the ring, and data still goes
 * where it should, buffered and O_DIRECT. */
static void test_uring_sqpoll(void **state)
{
	const struct tcase *c = *state;
	struct engine_opts o;
	struct env v;
	int ret;

	env_setup(&v, "io_uring", c->depth, c->direct, FILE_BYTES);
	o = v.e.opts;
	o.fds = &v.fd;
	o.bufs = v.bufs;
	o.sqpoll = 1;
	engine_release(&v.e);
	assert_int_equal(count_sqpoll_rings(), 0);
	ret = engine_init(&v.e, &engine_io_uring, &o, &v.err);
	if (ret == -EINVAL || ret == -EPERM) {
		print_message("no SQPOLL here: %s\n", v.err.buf);
		env_teardown(&v);
		skip();
	}
	assert_int_equal(ret, 0);
	assert_int_equal(count_sqpoll_rings(), 1);
	assert_true(v.e.features & ENGINE_FEAT_SQPOLL);
	assert_false(v.e.features & ENGINE_FEAT_DEFER_TASKRUN);
	assert_int_equal(pump(&v.e, v.reqs, c->depth, IO_WRITE, 7), 0);
	assert_int_equal(pump(&v.e, v.reqs, c->depth, IO_READ, 7), 0);
	check_file(v.path, FILE_BYTES, 7);
	env_teardown(&v);
}

/*
 * In a child, make io_uring_setup fail with code (as a kernel without
 * io_uring, or a container's seccomp policy, would) and check the
 * sentence engine_init gives. Returns the child's exit status: 0 when
 * the message matched, 77 when seccomp is unavailable.
 */
static int uring_refused_child(int code, const char *want)
{
	struct sock_filter filter[] = {
	    BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
		     offsetof(struct seccomp_data, nr)),
	    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_io_uring_setup, 0, 1),
	    BPF_STMT(BPF_RET | BPF_K,
		     SECCOMP_RET_ERRNO | (unsigned)(code & 0xffff)),
	    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = {ARRAY_LEN(filter), filter};
	struct strbuf err = STRBUF_INIT;
	struct engine_opts o;
	struct engine e;
	int fd = 0, ret;

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog))
		return 77;
	memset(&o, 0, sizeof(o));
	o.iodepth = 4;
	o.fds = &fd;
	o.nr_files = 1;
	ret = engine_init(&e, &engine_io_uring, &o, &err);
	if (ret != -code || strcmp(err.buf, want)) {
		fprintf(stderr, "got %d '%s'\n", ret, err.buf);
		return 1;
	}
	strbuf_release(&err);
	return 0;
}

/* The sentence for EPERM: it names the sysctl when that is what refused. */
static void want_eperm(char *out, size_t len)
{
	struct strbuf val = STRBUF_INIT;
	const char *why = "io_uring_setup: operation not permitted, probably "
			  "by a seccomp filter";

	if (!strbuf_read_file(&val, "/proc/sys/kernel/io_uring_disabled", 64)) {
		strbuf_trim(&val);
		if (!strcmp(val.buf, "2"))
			why = "disabled by sysctl kernel.io_uring_disabled=2";
		else if (!strcmp(val.buf, "1"))
			why = "kernel.io_uring_disabled=1 allows it only for "
			      "kernel.io_uring_group";
	}
	snprintf(out, len,
		 "io_uring is not available on this kernel (%s); use "
		 "--engine=libaio or psync",
		 why);
	strbuf_release(&val);
}

/* io_uring refused by the kernel: a clear sentence naming the way out. */
static void test_uring_unavailable(void **state)
{
	char eperm[256];
	const struct {
		int code;
		const char *want;
	} cases[] = {
	    {ENOSYS, "io_uring is not available on this kernel "
		     "(io_uring_setup: function not implemented); use "
		     "--engine=libaio or psync"},
	    {EPERM, eperm},
	};

	(void)state;
	want_eperm(eperm, sizeof(eperm));
	for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
		int status;
		pid_t pid = fork();

		assert_true(pid >= 0);
		if (!pid)
			_exit(
			    uring_refused_child(cases[i].code, cases[i].want));
		assert_int_equal(waitpid(pid, &status, 0), pid);
		assert_true(WIFEXITED(status));
		if (WEXITSTATUS(status) == 77)
			skip();
		assert_int_equal(WEXITSTATUS(status), 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    CASE(test_uring_other_thread, "io_uring", 8, 0),
	    CASE(test_uring_other_thread, "io_uring", 8, 1),
	    CASE(test_uring_features, "io_uring", 8, 0),
	    CASE(test_uring_features, "io_uring", 8, 1),
	    CASE(test_uring_sqpoll, "io_uring", 8, 0),
	    CASE(test_uring_sqpoll, "io_uring", 8, 1),
	    cmocka_unit_test(test_uring_unregistered_bufs),
	    cmocka_unit_test(test_uring_unavailable),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
