/*
 * What fiojob_map.c's map_job() and the option mappers of
 * fiojob_optmap.c share. Each mapper reads the options of one job
 * (through its view, fiojob_opts.h) and sets the run's parameters with
 * fiojob_add_param(), or returns -errno with err saying which line of
 * the job file is at fault and why.
 */
#ifndef IOTRIAL_FIOJOB_MAP_INT_H
#define IOTRIAL_FIOJOB_MAP_INT_H

#include <stdint.h>
#include "fiojob_map.h"
#include "fiojob_opts.h"
#include "../../util/strbuf.h"

/* Append "name=value" (printf-style) to r's parameters. */
void fiojob_add_param(struct fiojob_run *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* rw= to a workload name in *out. */
int fiojob_map_rw(const struct fiojob_opt *o, const char **out,
		  struct strbuf *err);
/* ioengine= to an engine of ours in *out; what it drops into warn. */
int fiojob_map_engine(const struct fiojob_opt *o, const char **out,
		      struct strbuf *warn, struct strbuf *err);
/* Refuse a range or a list where one value is expected. */
int fiojob_one_value(const struct fiojob_opt *o, struct strbuf *err);
/* Of two settings of one option in v's job, the one that wins (the
 * job's own over a [global]'s, then the later line); either may be
 * NULL. */
const struct fiojob_opt *fiojob_later(const struct fiojob_view *v,
				      const struct fiojob_opt *a,
				      const struct fiojob_opt *b);
/* bs= (or its read and write parts) to one block size in *out. */
int fiojob_map_bs(const struct fiojob_view *v, uint64_t *out,
		  struct strbuf *err);
/* blockalign= against the workload's block size. */
int fiojob_map_blockalign(const struct fiojob_view *v, const char *workload,
			  uint64_t bs, struct strbuf *err);
/* A filename= or directory= value into *out (fio's "\:" a ':' of the
 * name); 1 when it has a ':' of its own (several names). */
int fiojob_one_name(const char *in, char **out);
/* verify=, do_verify= and verify_fatal= into r's parameters. */
int fiojob_map_verify(const struct fiojob_view *v, int writes,
		      struct fiojob_run *r, struct strbuf *warn,
		      struct strbuf *err);
/* iodepth_batch and its kin into r's parameters. */
int fiojob_map_batch(const struct fiojob_view *v, uint64_t iodepth,
		     struct fiojob_run *r, struct strbuf *err);

#endif
