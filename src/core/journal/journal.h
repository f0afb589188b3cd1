/*
 * The journal: an append-only text file that holds the original value of
 * every setting iotrial changed and every scratch resource it made, so
 * that nothing is lost even after kill -9 or a crash.
 *
 * One record per line, fields separated by single spaces, each field
 * percent-escaped (bytes outside '!'..'~' and '%' itself; "%" alone is
 * the empty string), and a CRC-32 of the line at its end ("c=1a2b3c4d"),
 * so a damaged or hand-edited line is refused instead of restoring a
 * wrong value. The first line is "iotrial-journal 1".
 *
 *   own  SEQ PID START_TICKS TIME BOOT_ID COMMAND  a process took over
 *   set  SEQ OWN NAME GROUP SCOPE OBJECT IDENT ORIG WROTE  before a write
 *   wrote SEQ TARGET NOW         TARGET's write was made; NOW read back
 *   restore SEQ TARGET           before TARGET's original is written back
 *   retire SEQ TARGET REASON     TARGET and the older set records of its
 *                                setting no longer apply (changed since)
 *   scr  SEQ OWN WHAT A B        before making a scratch resource
 *   keep SEQ OWN                 OWN's set records outlive it (iotrial set)
 *   undo SEQ TARGET              TARGET was restored or torn down
 *   drop SEQ TARGET REASON       TARGET no longer applies; not restored
 *
 * A set record holds the original (ORIG, as knob_save() made it) and the
 * value about to be written (WROTE, canonical, as the knob reads back),
 * so that a restore can tell whether the setting still holds what
 * iotrial wrote or was changed since by someone else, whose value is
 * then kept. Journals of the previous version have set lines without
 * WROTE (8 fields); they are still read, as "written value unknown".
 *
 * Every write iotrial makes to a knob is in the journal before and after
 * it: a set record announces it and a wrote record confirms it; a
 * restore record announces the write of the original back and the undo
 * record confirms that. So the journal always knows which value iotrial
 * wrote last, and only while one write is announced and not confirmed
 * (a crash in between) are two values possible: the one before and the
 * one after it. When the setting holds a value someone set after
 * iotrial's last write, every record of it is retired at once, by one
 * retire record: the setting of a set record is its GROUP on its SCOPE
 * and OBJECT (journal_same_setting()). Journals of the previous version
 * have no wrote, restore or retire records; an older iotrial refuses a
 * journal that holds one ("unknown record", a corrupt journal: it
 * changes nothing until a person has looked). They are only there while
 * a change is in flight or was left by a crash: compaction drops a
 * wrote record once its set record is done or kept (a keep record is
 * written after every write of its owner was made).
 *
 * SEQ increases by line. A set or scr record is live until an undo or
 * drop names it. Each record is written with one write() and fsync'd
 * before the change it announces is made, so a crash can only cut the
 * last line short before that change happened: such a torn tail is
 * reported and cut off, never silently dropped from the middle.
 *
 * What the journal says is written back as root, so the file must be
 * trustworthy: it is opened without following a symbolic link, and it
 * (like the directory it is in) must belong to root or to the user
 * running iotrial and be writable by nobody else; otherwise it is
 * refused with a sentence saying how to fix it.
 */
#ifndef IOTRIAL_JOURNAL_H
#define IOTRIAL_JOURNAL_H

#include <stddef.h>
#include <stdint.h>
#include "../../util/strbuf.h"

#define JOURNAL_HEADER "iotrial-journal 1"

/* The kinds of record (the first word of a line). */
enum jrec_type {
	JREC_OWN,
	JREC_SET,
	JREC_SCR,
	JREC_KEEP,
	JREC_UNDO,
	JREC_DROP,
	JREC_WROTE,
	JREC_RESTORE,
	JREC_RETIRE,
};

/* The string fields of each record type (index into jrec.f). */
enum {
	JF_BOOT = 0,   /* own: the boot id */
	JF_CMD = 1,    /* own: the iotrial command */
	JF_NAME = 0,   /* set: the knob's canonical name */
	JF_GROUP = 1,  /* set: its journal group (twins share one) */
	JF_SCOPE = 2,  /* set: "device", "mount" or "system" */
	JF_OBJECT = 3, /* set: the disk, mount point or "system" */
	JF_IDENT = 4,  /* set: the object's identity when saved */
	JF_ORIG = 5,   /* set: the original, as knob_save() made it */
	JF_WROTE = 6,  /* set: the value written, canonical; "" when
			  wrote_unknown */
	JF_WHAT = 0,   /* scr: "dir", "file", "loop", "mount", "work"
			  or "cgroup" */
	JF_A = 1,      /* scr: its path (or device node for loop) */
	JF_B = 2,      /* scr: the backing file, the mounted device, or a
			  work directory's identity "DEV:INO" */
	JF_REASON = 0, /* drop, retire: why it no longer applies */
	JF_NOW = 0,    /* wrote: what the knob read back after the write */
	JF_MAX = 7,
};

/* One record. Strings are owned and never NULL (empty when unused). */
struct jrec {
	enum jrec_type type;
	uint64_t seq;
	uint64_t ref;	      /* set/scr/keep: the own record; undo/drop/
				 wrote/restore/retire: the set or scr
				 record */
	int64_t pid;	      /* own */
	uint64_t start_ticks; /* own: /proc/PID/stat starttime, against pid
				 reuse */
	uint64_t time_s;      /* own: wall clock, for messages */
	char *f[JF_MAX];
	unsigned line;		    /* 1-based line in the file it came from */
	unsigned done : 1;	    /* set/scr: an undo or drop names it */
	unsigned kept : 1;	    /* set: its owner has a keep record */
	unsigned wrote_unknown : 1; /* set: an old line without WROTE */
	unsigned confirmed : 1;	    /* set: a wrote record names it */
	unsigned restoring : 1;	    /* set: a restore record names it */
};

/* The journal in memory, plus the file it mirrors. */
struct journal {
	char *path; /* for messages */
	int dir_fd; /* the directory the file is opened in (not owned);
		       AT_FDCWD until journal_set_dir() */
	char *name; /* the file, relative to dir_fd */
	struct jrec *recs;
	size_t nr, alloc;
	uint64_t next_seq;
	int fd;		   /* append descriptor, -1 until the first append */
	size_t torn_bytes; /* a crash-cut last line that was not parsed */
	unsigned torn_line;
};

/* An empty journal for the file at path (opened relative to the
 * current directory until journal_set_dir()). */
void journal_init(struct journal *j, const char *path);
/*
 * Open the file as name relative to dir_fd from now on: the caller has
 * opened and checked the directory (state_check()) and keeps
 * dir_fd open as long as j lives. fsyncs of the directory use it too.
 */
void journal_set_dir(struct journal *j, int dir_fd, const char *name);
/* Free everything and close the file. NULL is fine. */
void journal_release(struct journal *j);

/*
 * Parse len bytes (need not be NUL-terminated) into j, replacing what it
 * held. 0, or -EBADMSG with err "line N: what is wrong". An unterminated
 * last line is not an error: it is skipped and counted in torn_bytes.
 */
int journal_parse(struct journal *j, const char *buf, size_t len,
		  struct strbuf *err);
/*
 * Read the file as it is into out, without following a symbolic link,
 * after checking it with state_check(). -ENOENT when missing;
 * -EPERM when it is not to be trusted (err says why and how to fix it).
 */
int journal_read(const struct journal *j, struct strbuf *out,
		 struct strbuf *err);
/* Read (journal_read()) and parse. A missing file is an empty journal. */
int journal_load(struct journal *j, struct strbuf *err);

/*
 * Append r (its seq is assigned here; strings are copied) with one
 * write() and fdatasync(). Creates the file with its header when needed
 * and cuts a torn tail off first. 0 or -errno with err set; on failure
 * the file is left as it was.
 */
int journal_append(struct journal *j, const struct jrec *r, struct strbuf *err);
/*
 * Rewrite the file with only what is still live (and the own records
 * they need), atomically (temp file, fsync, rename, fsync of the
 * directory); remove it when nothing is live. Seqs are kept. A failure
 * at any step, the directory fsync included, returns -errno with err
 * set; j then still holds every record.
 */
int journal_compact(struct journal *j, struct strbuf *err);

/* The record with this seq, or NULL. */
struct jrec *journal_find(const struct journal *j, uint64_t seq);
/* How many set/scr records are live. */
size_t journal_live(const struct journal *j);
/* One line, escaped, with its checksum and newline. */
void journal_format(const struct jrec *r, struct strbuf *out);
/* Append s escaped as a journal field is ("%" for ""; bytes outside
 * '!'..'~' and '%' as %XX), so it holds no blank or control byte. */
void journal_escape(struct strbuf *out, const char *s);
/* s unescaped, in a new string; NULL when malformed. */
char *journal_unescape(const char *s);
/* A record type's keyword ("set"). */
const char *journal_type_name(enum jrec_type t);
/* What a set or scr record changed, as the journal names it: "set" for
 * a set record (a knob's setting), a scr record's WHAT ("dir", "file",
 * "loop", "mount", "work"); NULL for the other types. */
const char *jrec_kind(const struct jrec *r);
/* Free the strings of a record built by hand. */
void jrec_release(struct jrec *r);
/* A copy of r with its own strings, into out (jrec_release() it). */
void jrec_copy(struct jrec *out, const struct jrec *r);
/* Do set records a and b change the same setting (group, scope and
 * object)? */
int journal_same_setting(const struct jrec *a, const struct jrec *b);
/* The wrote record that confirms set record seq, or NULL. */
const struct jrec *journal_wrote_of(const struct journal *j, uint64_t seq);
/* Set field i of r to a copy of s. */
void jrec_set(struct jrec *r, int i, const char *s);

#endif
