/*
 * Checked allocation. Running out of memory in a benchmark tool is not a
 * condition worth threading through every caller: these abort with a
 * message instead of returning NULL. They are the only functions in util/
 * and core/ allowed to end the process.
 */
#ifndef IOTRIAL_XALLOC_H
#define IOTRIAL_XALLOC_H

#include <stddef.h>

void *xmalloc(size_t bytes);
void *xcalloc(size_t nmemb, size_t bytes);
void *xrealloc(void *ptr, size_t bytes);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);

/* Page-aligned zeroed allocation for O_DIRECT buffers; free with free(). */
void *xalloc_aligned(size_t align, size_t bytes);

/*
 * Zeroed memory for the buffers of a job's I/O, backed by huge pages
 * where the kernel gives them (MADV_HUGEPAGE; ordinary pages otherwise):
 * an O_DIRECT request is built from its buffer's pages, one segment per
 * physically contiguous run of them, and a 1 MiB buffer of scattered
 * 4 KiB pages is 256 segments, more than a queue takes (virtio-blk:
 * 254), so the block layer splits the request in two. Aligned to 2 MiB;
 * free with xfree_io() and the same bytes.
 */
void *xalloc_io(size_t bytes);
void xfree_io(void *p, size_t bytes);

/* Grow *ptr (of *alloc elements of elem_bytes) to hold at least nr. */
#define ALLOC_GROW(ptr, nr, alloc)                                             \
	do {                                                                   \
		if ((nr) > (alloc)) {                                          \
			size_t alloc_new_ = (alloc) ? (alloc)*2 : 16;          \
			if (alloc_new_ < (nr))                                 \
				alloc_new_ = (nr);                             \
			(ptr) = xrealloc((ptr), alloc_new_ * sizeof(*(ptr)));  \
			(alloc) = alloc_new_;                                  \
		}                                                              \
	} while (0)

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#endif
