/*
 * libFuzzer target for the knob value parsers: what people type after
 * KNOB= on `set`, `run --set` and `compare --vary`. The first byte picks
 * a knob (each family's own parser: scheduler, read-ahead, the queue
 * limits, the scheduler's tunables, vm.dirty_*, a raw sysctl:), the rest
 * is the value. They resolve against a fake sysfs and procfs tree made
 * once (knob_ctx.root), so nothing on the machine is read or written.
 * A value is accepted with a canonical text (one line, printable, that
 * parses again to itself; raw sysctl: values need only be one line) or
 * refused with -errno and a message.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "core/knob/knob.h"
#include "util/xalloc.h"
#include "util/banned.h"

static void check(int ok)
{
	if (!ok)
		__builtin_trap();
}

static char root[] = "/tmp/iotrial-fuzz-knob.XXXXXX";

static const char *const names[] = {
    "scheduler",
    "read_ahead_kb",
    "nr_requests",
    "max_sectors_kb",
    "wbt_lat_usec",
    "rq_affinity",
    "nomerges",
    "iosched.read_expire",
    "iosched.fifo_batch",
    "vm.dirty_ratio",
    "vm.dirty_bytes",
    "vm.dirty_background_ratio",
    "vm.dirty_background_bytes",
    "vm.dirty_expire_centisecs",
    "vm.dirty_writeback_centisecs",
    "vm.dirtytime_expire_seconds",
    "sysctl:vm.swappiness",
};

/* Write text to root/rel, making the directories on the way. */
static void put(const char *rel, const char *text)
{
	char p[512];
	char *slash;
	FILE *f;

	snprintf(p, sizeof(p), "%s%s", root, rel);
	for (slash = strchr(p + strlen(root) + 1, '/'); slash;
	     slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(p, 0755);
		*slash = '/';
	}
	f = fopen(p, "w");
	if (!f)
		abort();
	fputs(text, f);
	fclose(f);
}

/* Remove the fake tree at exit. */
static void cleanup(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd))
		fprintf(stderr, "cannot remove '%s'\n", root);
}

int LLVMFuzzerInitialize(int *argc, char ***argv);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	if (!mkdtemp(root))
		abort();
	atexit(cleanup);
	put("/sys/block/fake0/dev", "250:0\n");
	put("/sys/block/fake0/diskseq", "7\n");
	put("/sys/block/fake0/queue/scheduler",
	    "none [mq-deadline] kyber bfq\n");
	put("/sys/block/fake0/queue/read_ahead_kb", "128\n");
	put("/sys/block/fake0/queue/nr_requests", "256\n");
	put("/sys/block/fake0/queue/max_sectors_kb", "1280\n");
	put("/sys/block/fake0/queue/max_hw_sectors_kb", "2048\n");
	put("/sys/block/fake0/queue/logical_block_size", "512\n");
	put("/sys/block/fake0/queue/wbt_lat_usec", "2000\n");
	put("/sys/block/fake0/queue/rq_affinity", "1\n");
	put("/sys/block/fake0/queue/nomerges", "0\n");
	put("/sys/block/fake0/queue/iosched/read_expire", "500\n");
	put("/sys/block/fake0/queue/iosched/fifo_batch", "16\n");
	put("/proc/sys/vm/dirty_ratio", "20\n");
	put("/proc/sys/vm/dirty_bytes", "0\n");
	put("/proc/sys/vm/dirty_background_ratio", "10\n");
	put("/proc/sys/vm/dirty_background_bytes", "0\n");
	put("/proc/sys/vm/dirty_expire_centisecs", "3000\n");
	put("/proc/sys/vm/dirty_writeback_centisecs", "500\n");
	put("/proc/sys/vm/dirtytime_expire_seconds", "43200\n");
	put("/proc/sys/vm/swappiness", "60\n");
	return 0;
}

/* One line of printable text, not empty. */
static int printable_line(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return 0;
	return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf canon = STRBUF_INIT, again = STRBUF_INIT;
	struct strbuf note = STRBUF_INIT, err = STRBUF_INIT;
	struct knob_ctx c;
	struct knob k;
	char *in;
	int ret;

	if (!size)
		return 0;
	in = xstrndup((const char *)data + 1, size - 1);
	knob_ctx_init(&c);
	free(c.root);
	c.root = xstrdup(root);
	c.disk = xstrdup("fake0");
	ret = knob_resolve(&c, names[data[0] % ARRAY_SIZE(names)], &k, &note,
			   &err);
	check(ret == 0); /* every name exists in the fake tree */
	ret = k.ops->parse(&k, in, &canon, &note, &err);
	check(ret <= 0);
	if (!ret) {
		/* raw sysctl:/sysfs: values are checked only for length and
		 * newlines today; what they may hold is being restricted
		 * separately, so only one line is asked of them here */
		if (strcmp(k.ops->family, knob_raw_ops.family))
			check(printable_line(canon.buf));
		else
			check(canon.len && !strchr(canon.buf, '\n'));
		/* the canonical text is a value that means itself */
		strbuf_reset(&err);
		ret = k.ops->parse(&k, canon.buf, &again, &note, &err);
		check(ret == 0 && !strcmp(again.buf, canon.buf));
	} else {
		check(err.len > 0);
	}
	knob_release(&k);
	knob_ctx_release(&c);
	strbuf_release(&canon);
	strbuf_release(&again);
	strbuf_release(&note);
	strbuf_release(&err);
	free(in);
	return 0;
}
