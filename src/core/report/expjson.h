/*
 * Reading experiment objects (the JSON of experiment.h): the one set of
 * getters that the report, the store and the commands share, so that
 * they agree on what a missing or mistyped member means. A stored
 * object may come from an older iotrial or a hand-edited store, so
 * nothing here trusts a member's type: every getter checks it, accepts
 * NULL or a non-object for o, and answers as for a missing member.
 */
#ifndef IOTRIAL_EXPJSON_H
#define IOTRIAL_EXPJSON_H

#include <json-c/json.h>

/* Member key of o, of any type, or NULL (missing, null, o no object). */
struct json_object *expjson_get(struct json_object *o, const char *key);

/* Member key of o when it has the given type, else NULL. */
struct json_object *expjson_get_type(struct json_object *o, const char *key,
				     enum json_type type);

/* A string member, or "" when missing or not a string. Valid while o. */
const char *expjson_str(struct json_object *o, const char *key);

/* A number member (an integer or a double), or NaN. */
double expjson_num(struct json_object *o, const char *key);

/* A count for display: the number member when it is in 0..1e9, else 0. */
int expjson_count(struct json_object *o, const char *key);

/*
 * The environment an experiment recorded: its own "env", or its first
 * run's (an imported experiment keeps one per run). NULL when none.
 */
struct json_object *expjson_env(struct json_object *exp);

/*
 * The experiment's target as one string: a string "target", or a
 * target object's "spec" (its "path" when it has no spec). "" if none.
 */
const char *expjson_target(struct json_object *exp);

/* The verdict object of arm index arm in exp's "verdicts", or NULL (the
 * baseline has none). */
struct json_object *expjson_verdict(struct json_object *exp, int arm);

/*
 * Where an experiment came from, its "origin" member (kept in a column
 * of the store too, which is what a loaded object's member says):
 * measured here, imported from a file, or merged from a fleet's hosts.
 * What did not come from here is not trusted to choose what `apply` and
 * `export` write as root.
 */
#define EXP_ORIGIN_LOCAL    "local"
#define EXP_ORIGIN_IMPORTED "imported"
#define EXP_ORIGIN_FLEET    "fleet"

/*
 * exp's origin: one of the EXP_ORIGIN_* strings (static). A missing
 * member is "local" (an experiment stored before origins were kept); a
 * value that is none of the three is "imported", the cautious answer.
 */
const char *expjson_origin(struct json_object *exp);

/* Set exp's "origin" to one of the EXP_ORIGIN_* strings. */
void expjson_set_origin(struct json_object *exp, const char *origin);

/*
 * Make every string in the tree at o printable, member names included
 * (util/text.h): control characters and broken UTF-8 become '?'. For
 * what comes from outside (an imported file, a store row) and will be
 * shown or written into a generated file.
 */
void expjson_make_printable(struct json_object *o);

#endif
