/*
 * A JSON number rounded where it is printed, for the truth's and the
 * regime's numbers (json_round.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "json_round.h"
#include "../../util/banned.h"

struct json_object *json_round(double v, int decimals)
{
	char buf[64];
	size_t n;

	if (!isfinite(v))
		return NULL;
	snprintf(buf, sizeof(buf), "%.*f", decimals, v);
	if (strchr(buf, '.')) { /* "12.500" -> "12.5", "3.000" -> "3" */
		n = strlen(buf);
		while (n && buf[n - 1] == '0')
			buf[--n] = '\0';
		if (n && buf[n - 1] == '.')
			buf[--n] = '\0';
	}
	if (!strcmp(buf, "-0"))
		snprintf(buf, sizeof(buf), "0");
	return json_object_new_double_s(strtod(buf, NULL), buf);
}
