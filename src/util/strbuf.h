/*
 * A growable string, after git's strbuf. buf is never NULL and always
 * NUL-terminated, so a freshly initialised strbuf can be printed. All
 * message, JSON, CSV and HTML building goes through it.
 */
#ifndef IOTRIAL_STRBUF_H
#define IOTRIAL_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

struct strbuf {
	size_t alloc; /* bytes allocated; 0 while buf points at the slopbuf */
	size_t len;   /* bytes used, not counting the NUL */
	char *buf;    /* never NULL */
};

extern char strbuf_slopbuf[];
#define STRBUF_INIT                                                            \
	{                                                                      \
		0, 0, strbuf_slopbuf                                           \
	}

void strbuf_init(struct strbuf *sb, size_t hint);
/* Free the contents; sb is left empty and reusable. NULL is fine. */
void strbuf_release(struct strbuf *sb);
/* Hand the string to the caller (free() it); sb is left empty. */
char *strbuf_detach(struct strbuf *sb, size_t *out_len);
void strbuf_grow(struct strbuf *sb, size_t extra);
void strbuf_reset(struct strbuf *sb);
void strbuf_setlen(struct strbuf *sb, size_t len);
void strbuf_add(struct strbuf *sb, const void *data, size_t len);
void strbuf_addstr(struct strbuf *sb, const char *s);
void strbuf_addch(struct strbuf *sb, int c);
void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
    __attribute__((format(printf, 2, 0)));
/* Replace the contents with a formatted string. */
void strbuf_setf(struct strbuf *sb, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Strip trailing whitespace (newlines from sysfs reads, mostly). */
void strbuf_rtrim(struct strbuf *sb);
void strbuf_trim(struct strbuf *sb);

/*
 * Read a whole (small) file into sb, replacing its contents; a file longer
 * than max_bytes (0: no limit) gives -EFBIG. Returns 0 or
 * -errno; never sets errno for the caller.
 */
int strbuf_read_file(struct strbuf *sb, const char *path, size_t max_bytes);

#endif
