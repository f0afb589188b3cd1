/*
 * Is this something iotrial made? Recovery removes, as root, what a
 * journal record names: a work directory, a scratch directory, a
 * cgroup. The journal is a claim, not an order, so before anything is
 * removed the path must be exactly of a shape iotrial gives what it
 * makes, reached from "/" without following a link, and owned by this
 * user. The three kinds differ only in their names; the check is one.
 */
#ifndef IOTRIAL_MADE_H
#define IOTRIAL_MADE_H

#include <sys/stat.h>
#include "../../util/strbuf.h"

/* How the part after a made name's prefix looks. */
enum made_tail {
	MADE_ALNUM6,   /* six ASCII letters or digits ("iotrial.aZ09bc") */
	MADE_PID_HEX6, /* a pid (1 to 10 digits), '-', six lowercase hex
			  digits ("iotrial-cg.4242-00beef") */
};

/* The shape of the names iotrial gives one kind of thing it makes. */
struct made_name {
	const char *prefix; /* "iotrial.", "iotrial-scratch.", ... */
	enum made_tail tail;
	const char *what; /* for messages: "a work directory" */
};

/* Work directories (workdir.c), scratch directories (scratch.c) and
 * cgroups (cgroup.c). */
extern const struct made_name made_work_dir, made_scratch_dir, made_cgroup;

/* Is name (one path component) of shape m? 1 or 0. */
int made_name_ok(const struct made_name *m, const char *name);

/* A directory iotrial made, opened by made_dir_open(). */
struct made_dir {
	int parent_fd;	  /* its parent directory, open */
	int fd;		  /* the directory itself, opened O_NOFOLLOW */
	const char *name; /* its last component (points into the path) */
	struct stat st;	  /* fstat of fd */
};

/*
 * Open the directory at path if it is one iotrial makes: path plain
 * and absolute (atfile_path_plain()), its last component of shape m,
 * every component reached from "/" without following a symbolic link,
 * a directory (not a link to one) owned by geteuid(). 0 with d filled
 * (made_dir_close() closes it); else d holds no descriptor and why is
 * set: -ESTALE when it is gone, -EPERM when it is refused (a wrong
 * shape, a link on the way or in its place, a non-directory, another
 * owner: what, "it" or "its scratch directory", is how the message
 * names it), other -errno when it cannot be examined.
 */
int made_dir_open(struct made_dir *d, const char *path,
		  const struct made_name *m, const char *what,
		  struct strbuf *why);

/*
 * Why opening path (or the way to it) without following a link failed
 * with -errno e, into why: -ESTALE when it is gone, -EPERM when a link
 * or a non-directory is in the way, else e ("cannot open").
 */
int made_open_refused(int e, const char *path, struct strbuf *why);

/* Close what made_dir_open() opened; nothing for a d it refused. */
void made_dir_close(struct made_dir *d);

#endif
