/*
 * libFuzzer target for core/fleet: the merge of hosts' experiments and
 * the parser of ansible-playbook --list-hosts. A fleet merges files that
 * came back from many machines, any of them damaged or hand-edited. The
 * input is one host's experiment: it is merged with two copies of
 * itself and a failed host, the fleet table is rendered, and what every
 * caller assumes is checked: a merge either fails with a message or
 * lists every host, the failed one failed (or, holding a host's member
 * of the wrong type, is refused by the report with a message); the same bytes,
 * NUL- terminated, go through the --list-hosts parser, which counts the lines
 * it returns.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "core/experiment/import.h"
#include "core/fleet/fleet.h"
#include "core/model/model_tree.h"
#include "core/report/fleet_text.h"
#include "core/report/report.h"
#include "util/banned.h"

/* Stop the run: libFuzzer reports the crash with the input. */
static void check(int ok)
{
	if (!ok)
		__builtin_trap();
}

/* Merge three copies of exp and a failed host; check and render. */
static void merge(struct json_object *exp)
{
	struct strbuf err = STRBUF_INIT, text = STRBUF_INIT;
	struct fleet_hosts h = {0};
	struct json_object *out = NULL, *fleet, *n;
	bool partial = false;
	int ret;

	fleet_hosts_add(&h, "b", "b.json", exp, NULL, NULL);
	fleet_hosts_add(&h, "a", "a.json", exp, NULL, NULL);
	fleet_hosts_add(&h, "c", "c.json", exp, NULL, NULL);
	fleet_hosts_add(&h, "d", "d.error", NULL, "compare", "failed");
	ret = fleet_merge(&h, &out, &partial, &err);
	if (ret) {
		check(ret == -EINVAL && out == NULL && err.len);
	} else {
		check(out != NULL && partial);
		check(json_object_object_get_ex(out, "fleet", &fleet));
		check(json_object_object_get_ex(fleet, "nr_hosts", &n));
		check(json_object_get_int(n) == 4);
		/* the report reads the merge as a document: a host's member
		 * of the wrong type (which the merge keeps: it does not decode
		 * its hosts yet) is refused, naming it; else the table has
		 * every host */
		strbuf_reset(&err);
		if (report_experiment_text(out, &text, &err)) {
			check(err.len > 0);
		} else {
			report_fleet_text(out, &text);
			check(strstr(text.buf, "failed at 'compare'") != NULL);
		}
	}
	json_object_put(out);
	fleet_hosts_release(&h);
	strbuf_release(&err);
	strbuf_release(&text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf err = STRBUF_INIT, hosts = STRBUF_INIT;
	struct import_run r;
	char *buf = malloc(size + 1);
	size_t nr, i, lines = 0;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	nr = fleet_parse_list_hosts(buf, &hosts);
	for (i = 0; i < hosts.len; i++)
		lines += hosts.buf[i] == '\n';
	check(nr == lines);
	if (!import_parse(buf, size, "fuzz.json", NULL, &r, &err)) {
		if (r.kind == IMPORT_EXPERIMENT) {
			struct json_object *exp =
			    experiment_doc_to_tree(r.doc.exp);

			merge(exp);
			json_object_put(exp);
		}
		import_run_release(&r);
	}
	strbuf_release(&err);
	strbuf_release(&hosts);
	free(buf);
	return 0;
}
