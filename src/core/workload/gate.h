/*
 * What every threaded workload (rw, smallfiles, crashdump) does with its
 * threads around the timed region: a start gate, so that all begin at
 * once after each has set itself up, and the CPU time each thread used
 * inside the region, from getrusage(RUSAGE_THREAD).
 */
#ifndef IOTRIAL_GATE_H
#define IOTRIAL_GATE_H

#include <pthread.h>
#include <sys/resource.h>

/*
 * The start gate. Each thread calls gate_arrive() when it is set up and
 * waits there; main waits with gate_wait() for the threads it started,
 * then lets them all go with gate_open(). A gate rather than a barrier,
 * so that it also opens when fewer threads than planned could be
 * started.
 */
struct gate {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	unsigned arrived; /* threads done with their set-up */
	int open;	  /* main let them go */
};

void gate_init(struct gate *g);
void gate_destroy(struct gate *g);
/* A thread is set up: count it, and wait until the gate is open. */
void gate_arrive(struct gate *g);
/* Main: wait until started threads have arrived. */
void gate_wait(struct gate *g, unsigned started);
/* Main: let the threads at the gate (and those still to come) go. */
void gate_open(struct gate *g);

/* The CPU time of one thread from a start it takes itself. */
struct thread_cpu {
	struct rusage start;
	int started;
};

/* Take the calling thread's start, once: later calls change nothing. */
void thread_cpu_start(struct thread_cpu *c);
/*
 * The CPU the calling thread used since thread_cpu_start(), into
 * *user_s and *sys_s (OUT, seconds); left as they are when it was never
 * started.
 */
void thread_cpu_stop(const struct thread_cpu *c, double *user_s, double *sys_s);

#endif
