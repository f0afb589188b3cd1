/*
 * The tables of the parts of a run object that observe/ writes
 * (truth_doc.h, env_doc.h) and of the map entries every document
 * shares (model.h): one row per member, in the order the writers print
 * them (observe/truth_json.c, observe/regime_obs.c, observe/env.c). A row says
 * how the member is printed: MK_RND with its places where the truth's
 * numbers are rounded, MK_DBL where json-c's 17 digits print it, MK_UINT/MK_INT
 * for counts; MF_NULL where it may print null, MF_OPT or a has_ byte where it
 * may leave the member out.
 */
#include <errno.h>
#include <string.h>
#include "model-int.h"
#include "env_doc.h"
#include "truth_doc.h"
#include "../../util/banned.h"

/* ---- shared entries ---- */

static const struct model_row pair_rows[] = {
    M(struct model_pair, "", MK_STR, value, 0),
};
const struct model_desc model_pair_desc = {
    .name = "struct model_pair",
    .size = sizeof(struct model_pair),
    .keep = -1,
    .key = offsetof(struct model_pair, name),
    .flags = MD_SCALAR,
    .rows = pair_rows,
    .nr_rows = 1,
};

static const struct model_row num_rows[] = {
    M(struct model_num, "", MK_DBL, value, MF_NULL),
};
const struct model_desc model_num_desc = {
    .name = "struct model_num",
    .size = sizeof(struct model_num),
    .keep = offsetof(struct model_num, keep),
    .key = offsetof(struct model_num, name),
    .flags = MD_SCALAR,
    .rows = num_rows,
    .nr_rows = 1,
};

static const struct model_row count_rows[] = {
    M(struct model_count, "", MK_INT, value, 0),
};
const struct model_desc model_count_desc = {
    .name = "struct model_count",
    .size = sizeof(struct model_count),
    .keep = -1,
    .key = offsetof(struct model_count, name),
    .flags = MD_SCALAR,
    .rows = count_rows,
    .nr_rows = 1,
};

static const struct model_row param_rows[] = {
    M(struct model_param, "", MK_VAL, value, MF_NULL),
};
const struct model_desc model_param_desc = {
    .name = "struct model_param",
    .size = sizeof(struct model_param),
    .keep = offsetof(struct model_param, keep),
    .key = offsetof(struct model_param, name),
    .flags = MD_SCALAR,
    .rows = param_rows,
    .nr_rows = 1,
};

/* ---- env ---- */

#define S struct env_device
static const struct model_row env_device_rows[] = {
    M(S, "name", MK_STR, name, MF_NULL),
    M(S, "kind", MK_STR, kind, MF_NULL),
    M(S, "via", MK_STR, via, MF_NULL),
    M(S, "parent", MK_STR, parent, MF_NULL),
    M(S, "devno", MK_STR, devno, MF_NULL),
    M(S, "model", MK_STR, model, MF_NULL),
    M(S, "driver", MK_STR, driver, MF_NULL),
    M(S, "label", MK_STR, label, MF_OPT),
    M(S, "backing_file", MK_STR, backing_file, MF_OPT),
    M(S, "size_bytes", MK_UINT, size_bytes, 0),
    MH(S, "rotational", MK_BOOL, rotational, MF_NULL),
    MH(S, "logical_block_bytes", MK_INT, logical_block_bytes, MF_NULL),
    M(S, "queue_dev", MK_STR, queue_dev, MF_NULL),
    M(S, "scheduler", MK_STR, scheduler, MF_NULL),
    MH(S, "read_ahead_kb", MK_INT, read_ahead_kb, MF_NULL),
    MH(S, "nr_requests", MK_INT, nr_requests, MF_NULL),
    M(S, "note", MK_STR, note, MF_OPT),
};
static MODEL_DESC(env_device_desc, S, env_device_rows);
#undef S

#define S struct env_mount
static const struct model_row env_mount_rows[] = {
    M(S, "target", MK_STR, target, MF_NULL),
    M(S, "source", MK_STR, source, MF_NULL),
    M(S, "fstype", MK_STR, fstype, MF_NULL),
    M(S, "vfs_options", MK_STR, vfs_options, MF_NULL),
    M(S, "fs_options", MK_STR, fs_options, MF_NULL),
    MH(S, "unlisted", MK_BOOL, unlisted, 0),
};
static MODEL_DESC(env_mount_desc, S, env_mount_rows);
#undef S

#define S struct env_stack
static const struct model_row env_stack_rows[] = {
    M(S, "path", MK_STR, path, MF_NULL),
    MO(S, "mount", MK_PTR, mount, MF_OPT, &env_mount_desc),
    MA(S, "devices", MK_OBJ, devices, 0, &env_device_desc),
    M(S, "no_device_reason", MK_STR, no_device_reason, MF_OPT),
};
static MODEL_DESC(env_stack_desc, S, env_stack_rows);
#undef S

#define S struct env_cpu
static const struct model_row env_cpu_rows[] = {
    M(S, "model", MK_STR, model, MF_NULL),
    MH(S, "count", MK_INT, count, MF_NULL),
};
static MODEL_DESC(env_cpu_desc, S, env_cpu_rows);
#undef S

#define S struct env_vm
static const struct model_row env_vm_rows[] = {
    MH(S, "dirty_ratio", MK_INT, dirty_ratio, MF_NULL),
    MH(S, "dirty_background_ratio", MK_INT, dirty_background_ratio, MF_NULL),
    MH(S, "dirty_bytes", MK_INT, dirty_bytes, MF_NULL),
    MH(S, "dirty_background_bytes", MK_INT, dirty_background_bytes, MF_NULL),
    MH(S, "dirty_expire_centisecs", MK_INT, dirty_expire_centisecs, MF_NULL),
    MH(S, "dirty_writeback_centisecs", MK_INT, dirty_writeback_centisecs,
       MF_NULL),
};
static MODEL_DESC(env_vm_desc, S, env_vm_rows);
#undef S

#define S struct env_controller
static const struct model_row env_controller_rows[] = {
    M(S, "hostname", MK_STR, hostname, 0),
    M(S, "kernel_release", MK_STR, kernel_release, 0),
    M(S, "machine", MK_STR, machine, 0),
    M(S, "iotrial_version", MK_STR, iotrial_version, 0),
};
static MODEL_DESC(env_controller_desc, S, env_controller_rows);
#undef S

#define S struct env_doc
static const struct model_row env_rows[] = {
    M(S, "iotrial_version", MK_STR, iotrial_version, MF_NULL | MF_OPT),
    M(S, "hostname", MK_STR, hostname, MF_NULL | MF_OPT),
    M(S, "kernel_release", MK_STR, kernel_release, MF_NULL | MF_OPT),
    M(S, "kernel_version", MK_STR, kernel_version, MF_NULL | MF_OPT),
    M(S, "machine", MK_STR, machine, MF_NULL | MF_OPT),
    M(S, "boot_id", MK_STR, boot_id, MF_NULL | MF_OPT),
    MO(S, "cpu", MK_PTR, cpu, MF_OPT, &env_cpu_desc),
    MH(S, "mem_total_bytes", MK_UINT, mem_total_bytes, MF_NULL),
    MO(S, "vm", MK_PTR, vm, MF_OPT, &env_vm_desc),
    MO(S, "stack", MK_PTR, stack, MF_OPT, &env_stack_desc),
    M(S, "fio_version", MK_STR, fio_version, MF_OPT),
    MAH(S, "fleet_hosts", MK_STR, fleet_hosts, 0, NULL),
    MO(S, "controller", MK_PTR, controller, MF_OPT, &env_controller_desc),
};
MODEL_DESC(model_env_desc, S, env_rows);
#undef S

/* ---- truth ---- */

#define S struct disk_delta_doc
static const struct model_row delta_rows[] = {
    MR(S, "r_s", r_s, 2, MF_NULL),
    MR(S, "w_s", w_s, 2, MF_NULL),
    MR(S, "rmbps", rmbps, 3, MF_NULL),
    MR(S, "wmbps", wmbps, 3, MF_NULL),
    MR(S, "r_await_ms", r_await_ms, 3, MF_NULL),
    MR(S, "w_await_ms", w_await_ms, 3, MF_NULL),
    MR(S, "aqu_sz", aqu_sz, 3, MF_NULL),
    MR(S, "util_pct", util_pct, 2, MF_NULL),
    MH(S, "flushes", MK_UINT, flushes, MF_NULL),
    MH(S, "discards", MK_UINT, discards, MF_NULL),
    M(S, "reads", MK_UINT, reads, 0),
    M(S, "writes", MK_UINT, writes, 0),
    M(S, "read_bytes", MK_UINT, read_bytes, 0),
    M(S, "write_bytes", MK_UINT, write_bytes, 0),
    MH(S, "discard_bytes", MK_UINT, discard_bytes, MF_NULL),
    MR(S, "rrqm_s", rrqm_s, 2, MF_NULL),
    MR(S, "wrqm_s", wrqm_s, 2, MF_NULL),
    MR(S, "rareq_kib", rareq_kib, 2, MF_NULL),
    MR(S, "wareq_kib", wareq_kib, 2, MF_NULL),
    MR(S, "f_s", f_s, 2, MF_NULL),
    MR(S, "f_await_ms", f_await_ms, 3, MF_NULL),
    MR(S, "d_s", d_s, 2, MF_NULL),
    MR(S, "dmbps", dmbps, 3, MF_NULL),
    MR(S, "d_await_ms", d_await_ms, 3, MF_NULL),
    MR(S, "seconds", seconds, 3, MF_NULL),
};
MODEL_DESC(model_disk_delta_desc, S, delta_rows);
#undef S

#define S struct truth_device_doc
static const struct model_row truth_device_rows[] = {
    M(S, "name", MK_STR, name, MF_NULL),
    M(S, "kind", MK_STR, kind, MF_NULL),
    M(S, "via", MK_STR, via, MF_NULL),
    MF(S, delta, &model_disk_delta_desc),
};
MODEL_DESC(model_truth_device_desc, S, truth_device_rows);
#undef S

#define S struct truth_dirty_thresholds
static const struct model_row thresholds_rows[] = {
    M(S, "dirtyable_bytes", MK_UINT, dirtyable_bytes, 0),
    M(S, "background_bytes", MK_UINT, background_bytes, 0),
    M(S, "throttle_bytes", MK_UINT, throttle_bytes, 0),
    M(S, "dirty_writeback_peak_bytes", MK_UINT, dirty_writeback_peak_bytes, 0),
};
static MODEL_DESC(thresholds_desc, S, thresholds_rows);
#undef S

#define S struct truth_cgroup_dirty
static const struct model_row cgroup_dirty_rows[] = {
    M(S, "version", MK_INT, version, 0),
    M(S, "memory_max_bytes", MK_UINT, memory_max_bytes, 0),
    MH(S, "dirty_peak_bytes", MK_UINT, dirty_peak_bytes, 0),
    MH(S, "dirty_writeback_peak_bytes", MK_UINT, dirty_writeback_peak_bytes, 0),
    MH(S, "dirtyable_bytes", MK_UINT, dirtyable_bytes, 0),
    MH(S, "background_bytes", MK_UINT, background_bytes, 0),
    MH(S, "throttle_bytes", MK_UINT, throttle_bytes, 0),
};
static MODEL_DESC(cgroup_dirty_desc, S, cgroup_dirty_rows);
#undef S

#define S struct truth_queue_peak
static const struct model_row queue_peak_rows[] = {
    M(S, "name", MK_STR, name, 0),
    M(S, "max_in_flight", MK_UINT, max_in_flight, 0),
    MR(S, "max_aqu_sz", max_aqu_sz, 3, MF_NULL),
    MR(S, "max_rareq_kib", max_rareq_kib, 2, MF_NULL),
    M(S, "intervals", MK_UINT, intervals, 0),
};
static MODEL_DESC(queue_peak_desc, S, queue_peak_rows);
#undef S

#define S struct truth_sampler
static const struct model_row sampler_rows[] = {
    MR(S, "interval_ms", interval_ms, 3, MF_NULL),
    M(S, "samples", MK_UINT, samples, 0),
    MR(S, "cpu_s", cpu_s, 6, MF_NULL),
    MR(S, "cpu_pct", cpu_pct, 4, MF_NULL),
    M(S, "read_errors", MK_UINT, read_errors, 0),
};
static MODEL_DESC(sampler_desc, S, sampler_rows);
#undef S

/* A series' array of rounded rates, NaN for null. */
#define MRS(S, KEY, FIELD)                                                     \
	{                                                                      \
		.key = KEY, .kind = MK_ARR, .elem = MK_RND, .dec = 3,          \
		.flags = MF_NULL, .off = offsetof(S, FIELD), .has = -1,        \
		.nr = offsetof(S, nr_##FIELD), .alt = -1                       \
	}

#define S struct truth_series_device
static const struct model_row series_device_rows[] = {
    M(S, "name", MK_STR, name, 0),
    MRS(S, "r_s", r_s),
    MRS(S, "w_s", w_s),
    MRS(S, "rmbps", rmbps),
    MRS(S, "wmbps", wmbps),
    MRS(S, "util_pct", util_pct),
    MRS(S, "aqu_sz", aqu_sz),
};
static MODEL_DESC(series_device_desc, S, series_device_rows);
#undef S

#define S struct truth_series
static const struct model_row series_rows[] = {
    MRS(S, "t_s", t_s),
    MA(S, "dirty_bytes", MK_UINT, dirty_bytes, MF_NULL | MF_NONZERO, NULL),
    MA(S, "writeback_bytes", MK_UINT, writeback_bytes, MF_NULL | MF_NONZERO,
       NULL),
    MA(S, "devices", MK_OBJ, devices, 0, &series_device_desc),
};
static MODEL_DESC(series_desc, S, series_rows);
#undef S

#define S struct truth_doc
static const struct model_row truth_rows[] = {
    M(S, "device", MK_STR, device, MF_NULL),
    MR(S, "seconds", seconds, 3, MF_NULL),
    M(S, "logical_write_bytes", MK_UINT, logical_write_bytes, 0),
    M(S, "logical_read_bytes", MK_UINT, logical_read_bytes, 0),
    MH(S, "device_write_bytes", MK_UINT, device_write_bytes, MF_NULL),
    MH(S, "device_read_bytes", MK_UINT, device_read_bytes, MF_NULL),
    M(S, "bottom_device", MK_STR, bottom_device, MF_NULL),
    MH(S, "bottom_write_bytes", MK_UINT, bottom_write_bytes, MF_NULL),
    MH(S, "bottom_read_bytes", MK_UINT, bottom_read_bytes, MF_NULL),
    MH(S, "process_write_bytes", MK_UINT, process_write_bytes, MF_NULL),
    MH(S, "process_read_bytes", MK_UINT, process_read_bytes, MF_NULL),
    MH(S, "cancelled_write_bytes", MK_UINT, cancelled_write_bytes, MF_NULL),
    MR(S, "absorbed_fraction", absorbed_fraction, 4, MF_NULL),
    MR(S, "cached_read_fraction", cached_read_fraction, 4, MF_NULL),
    MH(S, "dirty_start_bytes", MK_UINT, dirty_start_bytes, MF_NULL),
    MH(S, "dirty_end_bytes", MK_UINT, dirty_end_bytes, MF_NULL),
    MH(S, "dirty_peak_bytes", MK_UINT, dirty_peak_bytes, MF_NULL),
    MH(S, "writeback_peak_bytes", MK_UINT, writeback_peak_bytes, MF_NULL),
    MR(S, "burst_seconds", burst_seconds, 6, MF_NULL),
    MR(S, "burst_mbps", burst_mbps, 3, MF_NULL),
    MR(S, "settled_mbps", settled_mbps, 3, MF_NULL),
    M(S, "no_device_reason", MK_STR, no_device_reason, MF_OPT),
    MO(S, "dirty_thresholds", MK_PTR, dirty_thresholds, MF_OPT,
       &thresholds_desc),
    MO(S, "cgroup_dirty", MK_PTR, cgroup_dirty, MF_OPT, &cgroup_dirty_desc),
    MAH(S, "queue_peaks", MK_OBJ, queue_peaks, 0, &queue_peak_desc),
    MO(S, "sampler", MK_PTR, sampler, 0, &sampler_desc),
    MO(S, "series", MK_PTR, series, MF_OPT, &series_desc),
};
MODEL_DESC(model_truth_desc, S, truth_rows);
#undef S
