/*
 * The copies of the JSON documents (doclog.h): each a new file, never
 * one that was there, never through a link.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include "doclog.h"
#include "error.h"
#include "fdio.h"
#include "banned.h"

/* How many taken names are skipped before giving up. */
#define DOCLOG_TRIES 1000

/* This process's next document number. */
static unsigned long doclog_seq;

int doclog_write(const char *dir, const char *text, size_t len, unsigned flags,
		 struct strbuf *name, struct strbuf *err)
{
	struct strbuf file = STRBUF_INIT;
	int dfd, fd = -1, ret, tries;

	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return err_set(err, -errno, "cannot open directory '%s': %s",
			       dir, strerror(errno));
	for (tries = 0; fd < 0 && tries < DOCLOG_TRIES; tries++) {
		strbuf_setf(&file, "%ld-%lu%s.json", (long)getpid(),
			    ++doclog_seq, flags & DOCLOG_OLD ? ".old" : "");
		/* O_EXCL: a name that exists, a link included, is not
		 * ours; O_NOFOLLOW says so again */
		fd = openat(
		    dfd, file.buf,
		    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd < 0 && errno != EEXIST)
			break;
	}
	if (fd < 0) {
		ret = err_set(err, -errno, "cannot make a file in '%s': %s",
			      dir, strerror(errno));
		goto out;
	}
	ret = fd_write_all(fd, text, len);
	if (close(fd) && !ret)
		ret = -errno;
	if (ret) {
		err_set(err, ret, "cannot write '%s/%s': %s", dir, file.buf,
			strerror(-ret));
		/* a part of a document is no document */
		unlinkat(dfd, file.buf, 0);
		goto out;
	}
	if (name)
		strbuf_setf(name, "%s/%s", dir, file.buf);
out:
	close(dfd);
	strbuf_release(&file);
	return ret;
}
