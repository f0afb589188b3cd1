/*
 * Allocation that cannot fail from the caller's point of view: on
 * exhaustion we print one line and abort, which is the only sane
 * behaviour for a measuring tool that would otherwise report nonsense.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "xalloc.h"
#include "banned.h"

static void oom(size_t bytes)
{
	fprintf(stderr, "fatal: out of memory allocating %zu bytes\n", bytes);
	abort();
}

void *xmalloc(size_t bytes)
{
	void *p = malloc(bytes ? bytes : 1);

	if (!p)
		oom(bytes);
	return p;
}

void *xcalloc(size_t nmemb, size_t bytes)
{
	void *p = calloc(nmemb ? nmemb : 1, bytes ? bytes : 1);

	if (!p)
		oom(nmemb * bytes);
	return p;
}

void *xrealloc(void *ptr, size_t bytes)
{
	void *p = realloc(ptr, bytes ? bytes : 1);

	if (!p)
		oom(bytes);
	return p;
}

char *xstrdup(const char *s)
{
	char *p = strdup(s);

	if (!p)
		oom(strlen(s) + 1);
	return p;
}

char *xstrndup(const char *s, size_t n)
{
	char *p = strndup(s, n);

	if (!p)
		oom(n + 1);
	return p;
}

void *xalloc_aligned(size_t align, size_t bytes)
{
	void *p = NULL;

	if (posix_memalign(&p, align, bytes ? bytes : align))
		oom(bytes);
	memset(p, 0, bytes);
	return p;
}

#define IO_HUGE_BYTES ((size_t)2 << 20) /* a transparent huge page */

static size_t io_map_bytes(size_t bytes)
{
	return (bytes + IO_HUGE_BYTES - 1) & ~(IO_HUGE_BYTES - 1);
}

void *xalloc_io(size_t bytes)
{
	size_t len = io_map_bytes(bytes ? bytes : 1), head;
	uintptr_t at;
	char *map;

	if (len < bytes)
		oom(bytes);
	/* one huge page more, so that a 2 MiB boundary falls inside */
	map = mmap(NULL, len + IO_HUGE_BYTES, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED)
		oom(bytes);
	at = ((uintptr_t)map + IO_HUGE_BYTES - 1) & ~(IO_HUGE_BYTES - 1);
	head = at - (uintptr_t)map;
	if (head)
		munmap(map, head);
	munmap((char *)at + len, IO_HUGE_BYTES - head);
	/* advice only: without THP the pages are ordinary ones */
	madvise((void *)at, len, MADV_HUGEPAGE);
	memset((void *)at, 0, bytes); /* fault them in now, not in a run */
	return (void *)at;
}

void xfree_io(void *p, size_t bytes)
{
	if (p)
		munmap(p, io_map_bytes(bytes ? bytes : 1));
}
