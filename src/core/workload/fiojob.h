/*
 * fio job files: the text people already have for their workloads. This
 * module reads one into sections of options (fiojob.c) and maps the
 * subset iotrial can run faithfully onto its rw workloads (fiojob_map.c).
 *
 * The reader keeps every option with the file and line it came from, so
 * that any refusal can point at it. It understands "[section]" headers,
 * "key=value" and bare "key" lines, comments from ';' or '#' to the end
 * of the line, wherever they start ("bs=4k ; small": fio cuts a line
 * there too, so neither character can be part of a value), "${VAR}" in a
 * value (replaced by the environment variable; an unset one is an error
 * naming it), fio's reserved keywords $pagesize, $mb_memory and $ncpus
 * (fiojob_expr.h), and "include FILE" (a path relative
 * to the including file, whose options go to the section being read;
 * included files may not hold section headers, and a file that includes
 * itself, directly or not, is refused). An included file must be below
 * the job file's directory, reached through no symbolic link, unless
 * include_any is set; either way it must be a regular file, and no
 * message repeats its text (the user named the job file, not it). It also reads
 * fio's units: sizes with kb_base=1024 (4k is 4096, 1ki is 1000) and times in
 * seconds unless suffixed.
 */
#ifndef IOTRIAL_FIOJOB_H
#define IOTRIAL_FIOJOB_H

#include <stdint.h>
#include "fiojob_expr.h"
#include "../../util/strbuf.h"

#define FIOJOB_MAX_INCLUDE_DEPTH 16
/* Job sections a file may hold ([global] ones not counted): fio's limit. */
#define FIOJOB_MAX_JOBS 4096u

/* One option as written, after ${VAR} substitution. */
struct fiojob_opt {
	char *key;
	char *value;	  /* NULL for a bare key ("time_based") */
	const char *file; /* where it was written: one of fiojob.files */
	unsigned line;	  /* 1-based */
	int included;	  /* from an included file: messages omit its text */
	int keyword;	  /* a reserved keyword ($ncpus) was replaced: the
			     value is an expression (fiojob_expr.h) */
};

/* One "[name]" section; [global] ones have is_global set. */
struct fiojob_section {
	char *name;
	int is_global;
	const char *file; /* where the header is */
	unsigned line;
	struct fiojob_opt *opts; /* in file order */
	unsigned nr_opts, alloc_opts;
};

/* A parsed job file and everything it included. */
struct fiojob {
	struct fiojob_section *secs; /* in file order */
	unsigned nr_secs, alloc_secs;
	unsigned nr_jobs; /* sections that are not [global] */
	char **files;	  /* every file read, the top one first */
	unsigned nr_files, alloc_files;
	/* Looks up ${VAR}; NULL: getenv(). Tests and the fuzzer set it. */
	const char *(*getenv)(const char *name, void *ctx);
	void *getenv_ctx;
	int no_include;	 /* refuse include lines (the fuzzer: no files) */
	int include_any; /* includes may leave the job file's directory */
	char *top_dir;	 /* the job file's directory; set by the parse */
	struct fiojob_keywords kw; /* $pagesize, $mb_memory, $ncpus: this
				      machine's (fiojob_init()); tests and
				      the fuzzer may set their own */
};

void fiojob_init(struct fiojob *j);
/* Free everything j holds; j may be NULL. */
void fiojob_release(struct fiojob *j);

/*
 * Read the job file at path (and what it includes) into j. 0, or
 * -errno with err set to a sentence that starts with "FILE:LINE: " when
 * a line is at fault. Options before the first section header are
 * refused (fio needs a section for them).
 */
int fiojob_parse_file(struct fiojob *j, const char *path, struct strbuf *err);

/*
 * The same for len bytes of buf, named name in messages; includes are
 * looked up relative to name's directory.
 */
int fiojob_parse_buf(struct fiojob *j, const char *name, const char *buf,
		     size_t len, struct strbuf *err);

/* The last value of key in sec (NULL when absent; "" for a bare key),
 * and the option itself through *out_opt when out_opt is not NULL. */
const char *fiojob_get(const struct fiojob_section *sec, const char *key,
		       const struct fiojob_opt **out_opt);

/* Parse a fio size ("4k" is 4096, "1ki" is 1000, "0x1000"): 0 or
 * -EINVAL/-ERANGE. */
int fiojob_parse_size(const char *in, uint64_t *out_bytes);
/* Parse a fio time ("900" seconds, "10m" minutes, "250ms"): 0 or -EINVAL. */
int fiojob_parse_time(const char *in, uint64_t *out_ns);

#endif
