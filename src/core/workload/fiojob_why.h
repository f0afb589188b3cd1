/*
 * Why a fio job file does not run (fiojob_why.c): for the fio options and
 * engines iotrial does not run, one sentence each that says what the
 * option does that iotrial does not, so that a refusal names the one
 * option that matters and why, instead of a list of names. Options at
 * the value that is fio's own default ask for nothing and are accepted
 * (thinktime=0, sync=none, offset=0).
 *
 * The entries are ranked: when a job file holds several options outside
 * what iotrial runs, the one with the lowest rank is named (an engine
 * first, then what changes the pattern the most: a rate cap before a
 * file-layout detail), and the file order breaks ties.
 */
#ifndef IOTRIAL_FIOJOB_WHY_H
#define IOTRIAL_FIOJOB_WHY_H

/* The rank of an option nobody wrote a reason for: after every entry. */
#define FIOJOB_WHY_UNKNOWN 100000

/*
 * Why iotrial does not run fio's ioengine=engine, as a clause ("a network
 * engine: ..."), or NULL when the name is no engine of fio's that iotrial
 * knows of.
 */
const char *fiojob_why_engine(const char *engine);

/*
 * Option key with value (NULL for a bare key): -1 when the value is fio's
 * default and asks for nothing; else its rank (FIOJOB_WHY_UNKNOWN for an
 * option without an entry) and, for an entry, its reason into *why (a
 * clause: "caps the rate of I/O; iotrial ...").
 */
int fiojob_why_option(const char *key, const char *value, const char **why);

#endif
