/* examples/t1/lib/barrier.h: a barrier over every node of a T1 machine, on LP messages to node 0 and
 * LP releases from it. Events must be enabled (it masks in LP messages). */
#ifndef T1_BARRIER_H
#define T1_BARRIER_H

/* Returns once every node has called it as many times as this node has. */
void t1_barrier(unsigned me, unsigned nodes);

#endif
