/*
 * The start gate and the per-thread CPU of the threaded workloads
 * (gate.h).
 */
#include <sys/resource.h>
#include "gate.h"
#include "../../util/banned.h"

void gate_init(struct gate *g)
{
	pthread_mutex_init(&g->mu, NULL);
	pthread_cond_init(&g->cv, NULL);
	g->arrived = 0;
	g->open = 0;
}

void gate_destroy(struct gate *g)
{
	pthread_cond_destroy(&g->cv);
	pthread_mutex_destroy(&g->mu);
}

void gate_arrive(struct gate *g)
{
	pthread_mutex_lock(&g->mu);
	g->arrived++;
	pthread_cond_broadcast(&g->cv);
	while (!g->open)
		pthread_cond_wait(&g->cv, &g->mu);
	pthread_mutex_unlock(&g->mu);
}

void gate_wait(struct gate *g, unsigned started)
{
	pthread_mutex_lock(&g->mu);
	while (g->arrived < started)
		pthread_cond_wait(&g->cv, &g->mu);
	pthread_mutex_unlock(&g->mu);
}

void gate_open(struct gate *g)
{
	pthread_mutex_lock(&g->mu);
	g->open = 1;
	pthread_cond_broadcast(&g->cv);
	pthread_mutex_unlock(&g->mu);
}

static double tv_s(struct timeval tv)
{
	return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

void thread_cpu_start(struct thread_cpu *c)
{
	if (c->started)
		return;
	getrusage(RUSAGE_THREAD, &c->start);
	c->started = 1;
}

void thread_cpu_stop(const struct thread_cpu *c, double *user_s, double *sys_s)
{
	struct rusage now;

	if (!c->started)
		return;
	getrusage(RUSAGE_THREAD, &now);
	*user_s = tv_s(now.ru_utime) - tv_s(c->start.ru_utime);
	*sys_s = tv_s(now.ru_stime) - tv_s(c->start.ru_stime);
}
