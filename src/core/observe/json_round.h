/*
 * Numbers in the truth's JSON are rounded where they are printed
 * (json_object_new_double_s), so the file says 12.5, not
 * 12.500000000000002.
 */
#ifndef IOTRIAL_JSON_ROUND_H
#define IOTRIAL_JSON_ROUND_H

#include <json-c/json.h>

/* A JSON number rounded to decimals places (NaN and inf: NULL, which
 * json-c writes as null). */
struct json_object *json_round(double v, int decimals);

#endif
