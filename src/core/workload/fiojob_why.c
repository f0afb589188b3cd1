/*
 * Why a fio option or engine is not run; see fiojob_why.h. Every reason is
 * a clause that follows the option as the user wrote it: "'rate_iops=50'
 * caps the rate of I/O; iotrial ...". The table is in rank order: what
 * changes the pattern or what is measured the most comes first, so that
 * of several such options the one a user must know about is named.
 */
#include <string.h>
#include <strings.h>
#include "fiojob_why.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* Engines by kind, each kind with one reason. Names are space separated. */
static const struct {
	const char *names;
	const char *why;
} engines[] = {
    {"net netsplice rdma http nfs nbd rbd rados gfapi gfapi_async libiscsi "
     "libhdfs sheepdog dfs librpma_apm_client librpma_apm_server "
     "librpma_gpspm_client librpma_gpspm_server ime_psync ime_psyncv "
     "ime_aio",
     "is a network or remote-storage engine: its I/O goes to a server, not "
     "through this machine's file system or block device, which is what "
     "iotrial measures"},
    {"filecreate filestat filedelete dircreate dirstat dirdelete "
     "filesetxattr filelistxattr ftruncate falloc e4defrag",
     "times file-system operations (create, stat, delete, truncate, "
     "allocate, defragment), not reads and writes; iotrial's smallfiles "
     "workload creates, reads and deletes files"},
    {"sg sgunmap bsg io_uring_cmd mtd libzbc dev-dax libpmem pmemblk "
     "libblkio xnvme spdk libcufile libhipfile fusion-aw-sync",
     "sends its own commands to a device or its memory (SCSI, NVMe "
     "passthrough, flash, zoned, persistent memory, GPU); iotrial measures "
     "reads and writes through the kernel's file and block layers"},
    {"null cpp_null cpuio page_fault",
     "does no storage I/O (it only pretends, burns CPU or touches "
     "memory); iotrial measures storage"},
    {"exec", "runs a program as the job; iotrial's own exec workload does that "
	     "('iotrial run exec -- CMD ARGS')"},
    {"posixaio vsync pvsync2 splice solarisaio windowsaio guasi syslet-rw "
     "binject",
     "is a way of submitting reads and writes that iotrial does not "
     "have"},
};

/* fio's options that iotrial does not run, in rank order. A key ending in
 * '*' is a prefix. accept: values that are fio's default and ask for
 * nothing ("0|none"; a bare key is "1"). */
static const struct {
	const char *key, *accept, *why;
} options[] = {
    /* the pace of I/O */
    {"rate", "0",
     "caps the rate of I/O; iotrial issues I/O as fast as it "
     "completes and measures how fast that is"},
    {"rate_iops", "0", NULL},
    {"rate_min", "0", NULL},
    {"ratemin", "0", NULL},
    {"rate_iops_min", "0", NULL},
    {"rate_process", "linear", NULL},
    {"rate_cycle", "1000", NULL},
    {"ratecycle", "1000", NULL},
    {"io_submit_mode", "inline",
     "submits I/O from a separate thread at a set pace; iotrial submits "
     "from each job's thread as fast as I/O completes"},
    {"thinktime", "0",
     "pauses between I/Os; iotrial issues the next I/O as soon as there "
     "is room for it"},
    {"thinktime_spin", "0", NULL},
    {"thinktime_blocks", "1", NULL},
    {"thinktime_blocks_type", "complete", NULL},
    {"thinktime_iotime", "0", NULL},
    {"flow", "0",
     "ties the pace of jobs to each other; iotrial runs each job as fast "
     "as it goes"},
    {"flow_id", "0", NULL},
    {"flow_watermark", NULL, NULL},
    {"flow_sleep", NULL, NULL},
    /* what ends or starts a job */
    {"latency_target", "0",
     "searches for the queue depth that meets a latency target; iotrial "
     "runs at the iodepth given ('compare --vary iodepth=...' finds the "
     "best)"},
    {"latency_window", NULL, NULL},
    {"latency_percentile", NULL, NULL},
    {"latency_run", "0", NULL},
    {"iodepth_mode", NULL,
     "steps the queue depth during the run; iotrial runs one iodepth per "
     "job ('compare --vary iodepth=...' compares them)"},
    {"ss", NULL,
     "ends a job when fio sees a steady state; iotrial runs for a time or "
     "an amount of I/O, and repeats runs until its statistics settle"},
    {"steadystate", NULL, NULL},
    {"ss_dur", NULL, NULL},
    {"steadystate_duration", NULL, NULL},
    {"ss_ramp", NULL, NULL},
    {"steadystate_ramp_time", NULL, NULL},
    {"ss_interval", NULL, NULL},
    {"exitall", "0",
     "ends the other jobs when one ends; iotrial runs every job section "
     "to its own end"},
    {"exit_what", "group", NULL},
    {"exitall_on_error", "0", NULL},
    {"wait_for", NULL,
     "starts a job when the job it names ends; iotrial orders jobs only "
     "with stonewall (a stonewall in its place runs the job after every "
     "job before it)"},
    {"number_ios", "0",
     "ends a job after a count of I/Os; iotrial ends a job after size x "
     "loops of I/O or its runtime (--ios counts the I/O of all jobs "
     "together)"},
    {"io_size", NULL,
     "sets the amount of I/O apart from the size of the file; iotrial "
     "does size x loops of I/O per job"},
    {"io_limit", NULL, NULL},
    {"fill_device", "0",
     "writes until the device is full; iotrial writes the size it is "
     "given"},
    {"fill_fs", "0", NULL},
    /* where I/O lands */
    {"zonemode", "none",
     "works on zones (of a file, or of a zoned block device); iotrial "
     "works on the whole region of a job"},
    {"zonesize", NULL, NULL},
    {"zoneskip", NULL, NULL},
    {"zonerange", NULL, NULL},
    {"zonecapacity", NULL, NULL},
    {"max_open_zones", NULL, NULL},
    {"job_max_open_zones", NULL, NULL},
    {"ignore_zone_limits", NULL, NULL},
    {"read_beyond_wp", NULL, NULL},
    {"zone_reset_threshold", NULL, NULL},
    {"zone_reset_frequency", NULL, NULL},
    {"bssplit", NULL,
     "mixes block sizes; iotrial runs one block size per job ('compare "
     "--vary bs=...' compares them)"},
    {"bs_is_seq_rand", "0", NULL},
    {"bs_unaligned", "0",
     "issues I/O at offsets that are not multiples of the block size; "
     "iotrial aligns every I/O to it"},
    {"blocksize_unaligned", "0", NULL},
    {"random_distribution", "random",
     "shapes where random I/O lands (zipf, pareto, zones, a sequence); "
     "iotrial's random offsets are uniform over the job's region"},
    {"random_sequence_stride", NULL, NULL},
    {"percentage_random", "100",
     "mixes random and sequential offsets in one job; iotrial runs one "
     "pattern per job"},
    {"percentage_sequential", "0", NULL},
    {"random_generator", "tausworthe",
     "picks fio's generator of random offsets; iotrial has its own, whose "
     "offsets follow --seed"},
    {"randseed", NULL, NULL},
    {"offset", "0",
     "starts the job at an offset into its file or device; iotrial starts "
     "every job at its region's first byte"},
    {"fileoffset", "0", NULL},
    {"offset_increment", "0",
     "gives each job a region further into the file or device; iotrial "
     "gives each job its own file (or region of a device)"},
    {"offset_align", "0", NULL},
    /* what is checked and what is written */
    {"atomic", "0",
     "issues atomic writes (RWF_ATOMIC); iotrial issues plain writes"},
    {"verify_*", NULL,
     "tunes how fio verifies (a pattern, a backlog, an interval, a "
     "dump); iotrial verifies with crc32c every block it wrote, after the "
     "run"},
    {"experimental_verify", "0", NULL},
    {"trim_*", NULL, "trims blocks during a job; iotrial issues no trims"},
    {"dedupe_*", "0",
     "shapes the data fio writes (a pattern, compressibility, "
     "duplicates); iotrial writes data of its own"},
    {"buffer_compress_*", "0", NULL},
    {"compress_percentage", "0", NULL},
    {"buffer_pattern", NULL, NULL},
    {"scramble_buffers", "1", NULL},
    {"zero_buffers", "0", NULL},
    {"refill_buffers", "0", NULL},
    {"sprandom", "0",
     "preconditions the device with fio's SPRandom pattern; iotrial "
     "writes the pattern of its workload"},
    {"spr_*", NULL, NULL},
    /* how files are made and opened */
    {"sync", "0|none",
     "opens the file O_SYNC or O_DSYNC; iotrial opens it without (fsync= "
     "flushes)"},
    {"write_hint", "none",
     "tags writes with a lifetime hint; iotrial tags none"},
    {"fsync_on_close", "0",
     "flushes each file when it is closed; iotrial flushes only as fsync= "
     "and end_fsync=1 ask"},
    {"sync_file_range", NULL,
     "flushes ranges with sync_file_range(); iotrial flushes with fsync"},
    {"write_barrier", "0", NULL},
    {"fallocate", "native|posix|1",
     "chooses how fio allocates a file before a job writes it; iotrial "
     "preallocates a writing job's file and writes a reading job's file "
     "in full"},
    {"overwrite", "0",
     "writes a file in full before a job overwrites it; iotrial "
     "preallocates a writing job's file without writing it"},
    {"create_on_open", "0",
     "creates files inside the timed part; iotrial lays files out before "
     "it"},
    {"create_only", "0", NULL},
    {"create_serialize", "0|1", NULL},
    {"create_fsync", "1", NULL},
    {"pre_read", "0",
     "reads the file into the page cache before the job; iotrial drops "
     "it from the cache instead (invalidate=1)"},
    {"openfiles", "1",
     "keeps some of a job's files open at once; iotrial gives each job "
     "one file, open throughout"},
    {"file_service_type", "roundrobin", NULL},
    {"filename_format", NULL,
     "names each job's files after the job ($jobname, $jobnum, "
     "$filenum); iotrial names its own files in its work directory "
     "(filename= names one)"},
    {"unique_filename", "1", NULL},
    {"allow_file_create", "1",
     "forbids fio to create files; iotrial creates its own in its work "
     "directory"},
    {"allow_mounted_write", "0",
     "lets fio write to a mounted device; iotrial refuses a device that "
     "holds data unless --allow-destroy"},
    {"lockfile", "none", "locks the file between jobs; iotrial takes no lock"},
    {"kb_base", "1024",
     "reads sizes with SI prefixes (k is 1000); iotrial reads them as "
     "fio's default kb_base=1024 does (k is 1024)"},
    {"mem", "malloc",
     "chooses where fio's I/O buffers live (shared memory, huge pages, "
     "GPU memory); iotrial allocates its own aligned buffers"},
    {"iomem", "malloc", NULL},
    {"iomem_align", NULL, NULL},
    /* the job's process */
    {"prio", NULL,
     "sets the I/O or CPU priority of a job; iotrial runs every job at "
     "the priority it was started with"},
    {"prioclass", NULL, NULL},
    {"priohint", NULL, NULL},
    {"cmdprio*", NULL, NULL},
    {"nice", "0", NULL},
    {"cpus_allowed", NULL,
     "places jobs on CPUs or NUMA nodes; iotrial places the whole run "
     "with --cpus and --mems"},
    {"cpus_allowed_policy", "shared", NULL},
    {"cpumask", NULL, NULL},
    {"numa_cpu_nodes", NULL, NULL},
    {"numa_mem_policy", NULL, NULL},
    {"continue_on_error", "none|0",
     "goes on after I/O errors; iotrial ends a run at its first error"},
    {"ignore_error", NULL, NULL},
    /* options of engines iotrial does not have (the engine is named
     * first when it is in the file) */
    {"hostname", NULL,
     "is an option of fio's network engines (net, rdma, librpma), which "
     "iotrial does not have: it measures storage"},
    {"port", NULL, NULL},
    {"protocol", NULL, NULL},
    {"listen", NULL, NULL},
    {"pingpong", NULL, NULL},
    {"interface", NULL, NULL},
    {"ttl", NULL, NULL},
    {"nodelay", NULL, NULL},
    {"window_size", NULL, NULL},
    {"mss", NULL, NULL},
    {"verb", NULL, NULL},
    {"bindname", NULL, NULL},
    {"serverip", NULL, NULL},
    {"direct_write_to_pmem", NULL, NULL},
    {"http*", NULL,
     "is an option of fio's remote-storage engines (http, nfs, nbd, rbd, "
     "rados, gfapi, sheepdog, dfs, libblkio), which iotrial does not "
     "have: it measures this machine's storage"},
    {"nfs_url", NULL, NULL},
    {"uri", NULL, NULL},
    {"clientname", NULL, NULL},
    {"pool", NULL, NULL},
    {"rbdname", NULL, NULL},
    {"busy_poll", NULL, NULL},
    {"cont", NULL, NULL},
    {"volume", NULL, NULL},
    {"brick", NULL, NULL},
    {"target", NULL, NULL},
    {"libblkio_*", NULL, NULL},
    {"cmd_type", NULL,
     "is an option of fio's passthrough engines (io_uring_cmd, sg, "
     "xnvme), which send their own commands to a device; iotrial goes "
     "through the kernel's block layer"},
    {"fdp", "0", NULL},
    {"fdp_pli", NULL, NULL},
    {"fdp_pli_select", NULL, NULL},
    {"dataplacement", NULL, NULL},
    {"plids", NULL, NULL},
    {"pi_act", NULL, NULL},
    {"pi_chk", NULL, NULL},
    {"apptag", NULL, NULL},
    {"apptag_mask", NULL, NULL},
    {"md_per_io_size", NULL, NULL},
    {"num_range", NULL, NULL},
    {"writefua", "0", NULL},
    {"readfua", "0", NULL},
    {"sg_write_mode", NULL, NULL},
    {"xnvme_*", NULL, NULL},
    {"sqthread_poll_cpu", NULL,
     "pins io_uring's polling thread to a CPU; iotrial's sqpoll leaves "
     "the thread where the kernel puts it"},
    {"registerfiles", "0",
     "registers files or buffers with io_uring; iotrial's io_uring engine "
     "registers neither"},
    {"fixedbufs", "0", NULL},
    {"nonvectored", NULL, NULL},
    {"hipri", "0", "polls for completions; iotrial waits for them"},
    {"gpu_dev_id", NULL,
     "is an option of fio's GPU engines (libcufile, libhipfile, rdma "
     "with GPU memory), which iotrial does not have"},
    {"gpu_dev_ids", NULL, NULL},
    {"cuda_io", NULL, NULL},
    {"rocm_io", NULL, NULL},
    {"program", NULL,
     "is an option of fio's exec and cpuio engines; iotrial's exec "
     "workload runs a program ('iotrial run exec -- CMD ARGS')"},
    {"arguments", NULL, NULL},
    {"grace_time", NULL, NULL},
    {"std_redirect", NULL, NULL},
    {"cpuload", NULL, NULL},
    {"cpumode", NULL, NULL},
    {"cpuchunks", NULL, NULL},
    {"exit_on_io_done", NULL, NULL},
    {"donorname", NULL,
     "is an option of fio's file-system engines (e4defrag, filesetxattr, "
     "mtd), which iotrial does not have"},
    {"inplace", NULL, NULL},
    {"xattr_count", NULL, NULL},
    {"xattr_size", NULL, NULL},
    {"skip_bad", NULL, NULL},
    /* gone from fio */
    {"rwmixcycle", NULL,
     "is an option fio deprecated and no longer reads (fio 3 refuses it "
     "too)"},
};

const char *fiojob_why_engine(const char *engine)
{
	size_t i, n = strlen(engine);

	if (!strncmp(engine, "external:", 9))
		return "is an external engine (a library fio loads); iotrial "
		       "runs its own engines only";
	for (i = 0; n && i < ARRAY_SIZE(engines); i++) {
		const char *p = engines[i].names;

		while ((p = strstr(p, engine)) != NULL) {
			if ((p == engines[i].names || p[-1] == ' ') &&
			    (p[n] == ' ' || !p[n]))
				return engines[i].why;
			p += n;
		}
	}
	return NULL;
}

/* Does key match pattern (a trailing '*' is a prefix)? */
static int key_matches(const char *pattern, const char *key)
{
	size_t n = strlen(pattern);

	if (n && pattern[n - 1] == '*')
		return !strncmp(pattern, key, n - 1);
	return !strcmp(pattern, key);
}

/* Is value one of the '|' separated words of list? */
static int in_list(const char *list, const char *value)
{
	size_t n = strlen(value);
	const char *p = list;

	while (p && *p) {
		const char *bar = strchr(p, '|');
		size_t len = bar ? (size_t)(bar - p) : strlen(p);

		if (len == n && !strncasecmp(p, value, n))
			return 1;
		p = bar ? bar + 1 : NULL;
	}
	return 0;
}

int fiojob_why_option(const char *key, const char *value, const char **why)
{
	size_t i, k;

	*why = NULL;
	for (i = 0; i < ARRAY_SIZE(options); i++) {
		if (!key_matches(options[i].key, key))
			continue;
		if (options[i].accept &&
		    in_list(options[i].accept, value ? value : "1"))
			return -1;
		/* an entry without a reason shares the one above it */
		for (k = i; !options[k].why; k--)
			;
		*why = options[k].why;
		return (int)i;
	}
	return FIOJOB_WHY_UNKNOWN;
}
