/*
 * What the knob families share and nobody else needs: reading and
 * writing sysfs/proc files with messages in the user's words, number and
 * duration parsing with the knob's name in the error, device identity,
 * and the mount table.
 */
#ifndef IOTRIAL_KNOB_INT_H
#define IOTRIAL_KNOB_INT_H

#include <stdint.h>
#include "knob.h"

/* root + path; the caller frees. */
char *knob_path(const char *root, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Read a sysfs/proc file into out, whitespace trimmed. err names what. */
int knob_read_file(const char *path, const char *what, struct strbuf *out,
		   struct strbuf *err);
/*
 * Write value to a sysfs/proc file in one write(). err says what failed
 * in the user's words: EACCES/EPERM -> "changing 'what' needs root",
 * EINVAL -> "the kernel refused 'value' for 'what'".
 */
int knob_write_file(const char *path, const char *what, const char *value,
		    struct strbuf *err);
/*
 * Parse a plain integer (negative only when min < 0) in [min, max].
 * An input with a unit is rejected with a sentence saying what the knob
 * takes (takes: "a count such as 64").
 */
int knob_parse_int(const struct knob *k, const char *in, int64_t min,
		   int64_t max, const char *takes, int64_t *out,
		   struct strbuf *err);
/*
 * Parse a duration for a knob counted in unit_ns steps: a bare number is
 * already in that unit; "30s" or "250ms" is converted and must come out
 * whole. unit_word names the unit for messages ("centiseconds").
 */
int knob_parse_duration(const struct knob *k, const char *in, uint64_t unit_ns,
			const char *unit_word, int64_t min, int64_t max,
			int64_t *out, struct strbuf *err);
/* Does in look like a number or size ("4k", "12")? */
int knob_looks_numeric(const char *in);
/* Fill the fields every device knob shares (object, path, ident). */
int knob_bind_device(const struct knob_ctx *ctx, struct knob *k,
		     const char *name, const char *rel_path,
		     struct strbuf *err);
/* Fill the fields every system knob shares. */
void knob_bind_system(const struct knob_ctx *ctx, struct knob *k,
		      const char *name, const char *path);
/* The device identity used by the journal: "MAJ:MIN diskseq N". */
int knob_disk_ident(const char *root, const char *disk, struct strbuf *out,
		    struct strbuf *err);
/* The disk (not partition) of block device maj:min under root, or NULL;
 * the caller frees. */
char *knob_disk_of_dev(const char *root, unsigned maj, unsigned min);
/* The page size in KiB (read-ahead and max_sectors_kb round to it). */
unsigned knob_page_kib(void);
/* Split "a=1 b=2" snapshots: calls fn for each key=value pair. */
int knob_each_pair(const char *snapshot,
		   int (*fn)(const char *key, const char *value, void *data),
		   void *data);

/* One mount of /proc/self/mountinfo (core/targets/mountinfo.h reads it).
 * Strings owned, escapes decoded. */
struct knob_mount {
	unsigned id; /* mount id (field 1) */
	unsigned major, minor;
	char *mnt;	/* mount point */
	char *mnt_opts; /* per-mount options: "rw,noatime" */
	char *fstype;
	char *source;
	char *super_opts; /* superblock options: "rw,lazytime" */
};

/* The mount visible at exactly mountpoint (the top of a stack). -ENOENT
 * when nothing is mounted there. */
int knob_mount_at(const char *mountpoint, struct knob_mount *out);
/* The mount that path (a canonical absolute path) lives on, found as
 * mountinfo_find_path() does. */
int knob_mount_of_path(const char *path, struct knob_mount *out);
/* A mount of the block device maj:min, if any (the first). */
int knob_mount_of_dev(unsigned major, unsigned minor, struct knob_mount *out);
void knob_mount_release(struct knob_mount *m);
/* Is opt one of the comma separated options in opts? */
int knob_mount_has_opt(const char *opts, const char *opt);

#endif
