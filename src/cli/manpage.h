/*
 * The manual's option and parameter lists, made from the rows that
 * parse them (manpage.c):
 * 'iotrial help --man' reads docs/iotrial.1.in and writes the page, each
 * command's list of options generated from its table, the prose beside
 * it kept as written. The template's markers (roff comments):
 *
 *	.\" @options CMD [ARG...]   a list: the rows 'iotrial CMD ARG...'
 *	                            parses, its workload's parameters left
 *	                            out (WORKLOADS has them)
 *	.\" @option --NAME [-X ...] an item: the tag made from those rows
 *	                            (in this order, joined by commas), then
 *	                            the lines below it up to the next
 *	                            marker; without lines, the row's help,
 *	                            its default and its range
 *	.\" @params WORKLOAD        a list of the workload's parameters:
 *	                            the rows 'iotrial run WORKLOAD' adds
 *	.\" @param --NAME           an item of it, as @option is of @options
 *	.\" @end                    the end of the list
 *
 * Items come in the template's order; a row no item names follows them,
 * from its help, in the table's order, so a new option is listed even
 * before anyone writes about it. A name no row of the command has, a
 * row named twice, a hand-written .TP item, an item marker of the other
 * kind of list and an unterminated list are errors, with the template's
 * line.
 */
#ifndef IOTRIAL_CLI_MANPAGE_H
#define IOTRIAL_CLI_MANPAGE_H

#include <stdio.h>

struct strbuf;

/*
 * The page from template in to out. run(argc, argv) runs a command as
 * main() does (argv[0] is its name); it is called with "--help-options"
 * last, which hands its table here. 0, or -1 with err set
 * ("line 300: ...").
 */
int cli_manpage(FILE *in, FILE *out, int (*run)(int argc, const char **argv),
		struct strbuf *err);

#endif
