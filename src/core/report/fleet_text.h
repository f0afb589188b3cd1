/*
 * The fleet part of a fleet experiment (core/fleet/fleet.h) for people:
 * each host with its status, kernel and its own verdict per arm, then
 * per arm whether the hosts agree. The arms' table above it is the
 * ordinary experiment table (report.h).
 */
#ifndef IOTRIAL_FLEET_TEXT_H
#define IOTRIAL_FLEET_TEXT_H

#include <json-c/json.h>
#include "../../util/strbuf.h"

/*
 * Appends to out:
 *
 *   fleet: 4 hosts, 3 merged, 1 failed
 *   host  kernel          read_ahead_kb=1024
 *   h1    6.1.0-18-amd64  1.120 faster
 *   h2    6.1.0-18-amd64  0.910 slower
 *   h3    6.5.0-1 (!)     1.040 inconclusive
 *   h4    failed at 'iotrial version': the host runs 'iotrial 0.0.9' ...
 *   (!): differs from most hosts (kernel, devices or schedulers)
 *
 *   hosts on read_ahead_kb=1024: mixed: 1 faster, 1 slower, 1 inconclusive
 *   (ratios 0.910 to 1.120)
 *
 * Nothing when exp has no "fleet" member.
 */
void report_fleet_text(struct json_object *exp, struct strbuf *out);

#endif
