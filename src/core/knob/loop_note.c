/*
 * The queue knobs of a loop device (the scheduler, its iosched.*
 * parameters, nr_requests and the other request-queue limits) act on
 * the loop device's own request queue. What the loop device passes on
 * to its backing file then goes through the queue of the disk holding
 * that file, whose settings stay as they are. Someone comparing
 * schedulers on a scratch target expects the disk's scheduler to be
 * under test; this note, given when a plan takes such a knob (so that
 * the plan, compare, set and apply say it once) and in the head of the
 * knobs listing,
 * says whose queue it is. Read-ahead is left out: a loop device's own
 * read-ahead is what the file system on it reads by.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include "knob-int.h"
#include "../../util/text.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/*
 * The backing file of loop device disk (printable, caller frees) and
 * the disk holding it into *out_disk (caller frees; NULL when unknown),
 * or NULL when disk is no loop device (or is bound to nothing).
 */
static char *loop_backing(const char *root, const char *disk, char **out_disk)
{
	struct strbuf v = STRBUF_INIT;
	static const char deleted[] = " (deleted)";
	char *p = knob_path(root, "/sys/block/%s/loop/backing_file", disk);
	struct stat st;

	*out_disk = NULL;
	if (strbuf_read_file(&v, p, 4096) < 0 || !v.len) {
		free(p);
		strbuf_release(&v);
		return NULL;
	}
	free(p);
	strbuf_rtrim(&v);
	if (v.len > sizeof(deleted) - 1 &&
	    !strcmp(v.buf + v.len - (sizeof(deleted) - 1), deleted))
		strbuf_setlen(&v, v.len - (sizeof(deleted) - 1));
	/* the file as this process sees it: under a test's fake /sys the
	 * path names nothing, and no disk is named */
	if (!*root && !stat(v.buf, &st))
		*out_disk = S_ISBLK(st.st_mode)
				? knob_disk_of_dev(root, major(st.st_rdev),
						   minor(st.st_rdev))
				: knob_disk_of_dev(root, major(st.st_dev),
						   minor(st.st_dev));
	text_make_printable(v.buf);
	return strbuf_detach(&v, NULL);
}

void knob_loop_note(const struct knob_ctx *ctx, const struct knob *k,
		    struct strbuf *note)
{
	char *below = NULL, *file;

	if (!note || !ctx->disk)
		return;
	/* the scheduler, iosched.* and the queue limits of ctx's disk;
	 * its read-ahead is what its own file system reads by */
	if (k &&
	    (k->scope != KNOB_SCOPE_DEVICE || !k->object ||
	     strcmp(k->object, ctx->disk) || !k->path ||
	     !strstr(k->path, "/queue/") || !strcmp(k->name, "read_ahead_kb")))
		return;
	file = loop_backing(ctx->root ? ctx->root : "", ctx->disk, &below);
	if (!file)
		return;
	strbuf_addstr(note, note->len ? "; " : "");
	if (k)
		strbuf_addf(note,
			    "'%s' on '%s' acts on the loop device's own "
			    "queue, not on the disk's",
			    k->name, ctx->disk);
	else
		strbuf_addf(note,
			    "'%s' is a loop device: its scheduler and "
			    "queue limits act on its own queue, not on "
			    "the disk's",
			    ctx->disk);
	strbuf_addf(note, ": '%s' passes its I/O to its backing file '%s'",
		    ctx->disk, file);
	if (below && strcmp(below, ctx->disk))
		strbuf_addf(note, " on '%s', whose queue keeps its settings",
			    below);
	free(below);
	free(file);
}
