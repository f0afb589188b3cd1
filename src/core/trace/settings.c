/*
 * Reading the settings a capture records and a replay compares. See
 * settings.h. The knobs are read through the knob families (the values
 * are their canonical text, what `iotrial knobs` and --set speak); the
 * system's vm.* entries as /proc/sys has them, as the capture's start
 * wrote them; the bdi's from /sys/block/DISK/bdi.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "settings.h"
#include "../knob/knob.h"
#include "../observe/kvstat.h"
#include "../../util/strbuf.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* The bdi's writeback limits of a disk a capture records (not
 * max_bytes: it reads as max_ratio of memory as it is at the moment) */
static const char *const bdi_names[] = {"min_ratio", "max_ratio",
					"strict_limit"};

static void add(struct trace_settings *s, const char *key, const char *value)
{
	ALLOC_GROW(s->v, s->nr + 1, s->alloc);
	s->v[s->nr].key = xstrdup(key);
	s->v[s->nr].value = xstrdup(value);
	s->nr++;
}

/* A file's first line, trimmed, into out: 0 or -errno. */
static int read_line(const char *path, struct strbuf *out)
{
	int ret;

	strbuf_reset(out);
	ret = strbuf_read_file(out, path, 4096);
	if (ret)
		return ret;
	strbuf_trim(out);
	return memchr(out->buf, '\n', out->len) ? -EINVAL : 0;
}

/* knob name on ctx, read as its family reads it: 0 or -errno. */
static int read_knob(const struct knob_ctx *ctx, const char *name,
		     struct strbuf *out, enum knob_scope *scope)
{
	struct strbuf err = STRBUF_INIT, note = STRBUF_INIT;
	struct knob k;
	int ret;

	ret = knob_resolve(ctx, name, &k, &note, &err);
	if (!ret) {
		*scope = k.scope;
		strbuf_reset(out);
		ret = k.ops->read(&k, out, &err);
		knob_release(&k);
	}
	strbuf_release(&err);
	strbuf_release(&note);
	return ret;
}

int settings_read_device(const char *dev, struct trace_settings *out)
{
	struct strbuf node = STRBUF_INIT, val = STRBUF_INIT, key = STRBUF_INIT,
		      err = STRBUF_INIT;
	struct knob_list names = {0};
	struct knob_ctx ctx;
	enum knob_scope scope;
	size_t i;
	int ret;

	knob_ctx_init(&ctx);
	strbuf_addf(&node, "/dev/%s", dev);
	ret = strchr(dev, '/') ? -ENODEV
			       : knob_ctx_from_device(&ctx, node.buf, &err);
	/* a file system's traced files are on a mounted device only */
	if (!ret && !ctx.mountpoint)
		ret = -ENODEV;
	if (ret)
		goto out;
	out->disk = xstrdup(ctx.disk);
	knob_names(&ctx, &names);
	for (i = 0; i < names.nr; i++) {
		/* the system's are the capture's start's entries */
		if (read_knob(&ctx, names.v[i], &val, &scope) ||
		    scope == KNOB_SCOPE_SYSTEM)
			continue;
		strbuf_reset(&key);
		strbuf_addf(&key, "knob.%s", names.v[i]);
		add(out, key.buf, val.buf);
	}
	for (i = 0; i < ARRAY_SIZE(bdi_names); i++) {
		strbuf_reset(&key);
		strbuf_addf(&key, "bdi.%s", bdi_names[i]);
		if (!settings_read_key(&ctx, key.buf, &val))
			add(out, key.buf, val.buf);
	}
out:
	knob_list_release(&names);
	knob_ctx_release(&ctx);
	strbuf_release(&node);
	strbuf_release(&val);
	strbuf_release(&key);
	strbuf_release(&err);
	return ret;
}

int settings_is_key(const char *key)
{
	return (!strncmp(key, "knob.", 5) && key[5]) ||
	       (!strncmp(key, "bdi.", 4) && key[4]);
}

int settings_read_key(const struct knob_ctx *ctx, const char *key,
		      struct strbuf *out)
{
	struct strbuf path = STRBUF_INIT;
	enum knob_scope scope;
	const char *p;
	size_t i;
	int ret = -ENOENT;

	if (!strncmp(key, "bdi.", 4)) {
		for (i = 0; i < ARRAY_SIZE(bdi_names); i++)
			if (!strcmp(key + 4, bdi_names[i]))
				break;
		if (i == ARRAY_SIZE(bdi_names) || !ctx->disk)
			return -ENOENT;
		strbuf_addf(&path, "%s/sys/block/%s/bdi/%s",
			    ctx->root ? ctx->root : "", ctx->disk, key + 4);
		ret = read_line(path.buf, out);
	} else if (!strncmp(key, "knob.vm.", 8)) {
		/* as the capture's start read it: /proc/sys as it is */
		strbuf_addf(&path, "%s/proc/sys/", ctx->root ? ctx->root : "");
		for (p = key + 5; *p; p++) {
			if (*p == '/') /* a name, never a path */
				break;
			strbuf_addch(&path, *p == '.' ? '/' : *p);
		}
		ret = *p ? -ENOENT : read_line(path.buf, out);
	} else if (!strncmp(key, "knob.", 5) && key[5]) {
		ret = read_knob(ctx, key + 5, out, &scope);
	}
	strbuf_release(&path);
	return ret;
}

void settings_release(struct trace_settings *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->nr; i++) {
		free(s->v[i].key);
		free(s->v[i].value);
	}
	free(s->v);
	free(s->disk);
	memset(s, 0, sizeof(*s));
}

uint64_t settings_cache_drops(void)
{
	static const char *const names[] = {"drop_pagecache", "drop_slab"};
	uint64_t v[2] = {0, 0};
	int fd = open("/proc/vmstat", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return 0;
	if (kvstat_read_fd(fd, names, 2, v) < 0)
		v[0] = v[1] = 0;
	close(fd);
	return v[0] + v[1];
}
