/*
 * Allocation that cannot fail from the caller's point of view: on
 * exhaustion we print one line and abort, which is the only sane
 * behaviour for a measuring tool that would otherwise report nonsense.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
