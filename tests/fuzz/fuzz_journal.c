/*
 * libFuzzer target for the journal parser (core/journal/journal.c): the
 * journal is read at the start of every invocation, as root, and decides
 * what gets written back to the machine, so it must never crash, and
 * what it accepts must mean exactly one thing. The input is copied to a
 * buffer of its exact length (ASan sees any read past it). Checked:
 * an error is -EBADMSG with "line N: ..." inside the input; on success,
 * seqs increase, references point backwards at the right record types
 * (a wrote or restore record at a set record it marks confirmed or
 * being restored),
 * a set record has a written value unless it is an old 8-field line,
 * and formatting the records again parses back to the same records
 * (old lines stay old lines).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "core/journal/journal.h"
#include "util/banned.h"

/* Stop the run: libFuzzer reports the crash with the input. */
static void check(int ok)
{
	if (!ok)
		__builtin_trap();
}

/* The records of a and b are the same, field by field. */
static void check_same(const struct journal *a, const struct journal *b)
{
	size_t i;
	int f;

	check(a->nr == b->nr);
	for (i = 0; i < a->nr; i++) {
		const struct jrec *x = &a->recs[i], *y = &b->recs[i];

		check(x->type == y->type && x->seq == y->seq &&
		      x->ref == y->ref && x->pid == y->pid &&
		      x->start_ticks == y->start_ticks &&
		      x->time_s == y->time_s && x->done == y->done &&
		      x->kept == y->kept &&
		      x->wrote_unknown == y->wrote_unknown &&
		      x->confirmed == y->confirmed &&
		      x->restoring == y->restoring);
		for (f = 0; f < JF_MAX; f++)
			check(!strcmp(x->f[f], y->f[f]));
	}
}

/* CRC-32 (IEEE), as the journal computes it. */
static uint32_t crc32_of(const char *p, size_t n)
{
	uint32_t c = 0xffffffffu;
	size_t i;
	int b;

	for (i = 0; i < n; i++) {
		c ^= (unsigned char)p[i];
		for (b = 0; b < 8; b++)
			c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1u)));
	}
	return ~c;
}

/*
 * Give every complete line that ends in " c=XXXXXXXX" its right checksum,
 * so mutations reach the checks behind it instead of all dying there.
 */
static void fix_checksums(char *buf, size_t size)
{
	static const char hex[] = "0123456789abcdef";
	size_t start = 0, i;
	int d;

	for (i = 0; i < size; i++) {
		size_t n = i - start;
		uint32_t c;

		if (buf[i] != '\n')
			continue;
		if (n >= 11 && !memcmp(buf + i - 11, " c=", 3)) {
			c = crc32_of(buf + start, n - 11);
			for (d = 0; d < 8; d++)
				buf[i - 8 + d] = hex[(c >> (28 - 4 * d)) & 15];
		}
		start = i + 1;
	}
}

/* libFuzzer's entry point, declared here as no header declares it. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* One fuzz input: parse it as a journal and check the contracts. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct journal j, again;
	struct strbuf err = STRBUF_INIT, text = STRBUF_INIT;
	char *buf = malloc(size ? size : 1);
	size_t i, lines = 1;
	int ret;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	if (size & 1)
		fix_checksums(buf, size);
	for (i = 0; i < size; i++)
		lines += data[i] == '\n';
	journal_init(&j, "/nonexistent/journal");
	ret = journal_parse(&j, buf, size, &err);
	if (ret) {
		check(ret == -EBADMSG);
		check(!strncmp(err.buf, "line ", 5));
		check(strtoul(err.buf + 5, NULL, 10) >= 1);
		check(strtoul(err.buf + 5, NULL, 10) <= lines);
		check(j.nr == 0);
		goto out;
	}
	check(j.torn_bytes <= size);
	for (i = 0; i < j.nr; i++) {
		const struct jrec *r = &j.recs[i], *t;

		check(i == 0 || r->seq > j.recs[i - 1].seq);
		check(journal_find(&j, r->seq) == r);
		if (r->type == JREC_OWN)
			continue;
		t = journal_find(&j, r->ref);
		check(t && t->seq < r->seq);
		if (r->type == JREC_UNDO || r->type == JREC_DROP)
			check((t->type == JREC_SET || t->type == JREC_SCR) &&
			      t->done);
		else if (r->type == JREC_WROTE)
			check(t->type == JREC_SET && t->confirmed);
		else if (r->type == JREC_RESTORE)
			check(t->type == JREC_SET && t->restoring);
		else
			check(t->type == JREC_OWN);
		for (int f = 0; f < JF_MAX; f++)
			check(r->f[f] != NULL);
		if (r->type == JREC_SET)
			check(r->wrote_unknown ? !*r->f[JF_WROTE]
					       : *r->f[JF_WROTE] != '\0');
		else
			check(!r->wrote_unknown);
	}
	/* what we accept, we write back the same way */
	strbuf_addstr(&text, JOURNAL_HEADER "\n");
	for (i = 0; i < j.nr; i++)
		journal_format(&j.recs[i], &text);
	journal_init(&again, "/nonexistent/journal");
	check(journal_parse(&again, text.buf, text.len, &err) == 0);
	check(again.torn_bytes == 0);
	check_same(&j, &again);
	journal_release(&again);
out:
	journal_release(&j);
	strbuf_release(&err);
	strbuf_release(&text);
	free(buf);
	return 0;
}
