/*
 * What journal.c (the format, the parser) and journal_file.c (the file)
 * share, and nothing outside the journal uses.
 */
#ifndef IOTRIAL_JOURNAL_INT_H
#define IOTRIAL_JOURNAL_INT_H

#include "journal.h"

/* Drop every record from memory. */
void journal_clear(struct journal *j);
/* Mark what record r (already in j) implies for earlier records: done,
 * kept, confirmed, being restored. */
void journal_apply(struct journal *j, const struct jrec *r);

#endif
