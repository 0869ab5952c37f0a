/* examples/t1/lib/splitc.c: the handlers of t1_put and t1_get, and the counters t1_sync waits on. */
#include "splitc.h"

#include "t1.h"

static volatile unsigned issued;   /* puts and gets sent */
static volatile unsigned answered; /* their acknowledgements and replies */

void t1__on_answer(unsigned value, unsigned address, unsigned store, unsigned w3, unsigned w4) {
  (void)w3, (void)w4;
  if (store) *(volatile unsigned*)address = value;
  answered++;
}
T1_C_HANDLER(t1__answer_handler, t1__on_answer, 256);

void t1__on_put(unsigned address, unsigned value, unsigned from, unsigned w3, unsigned w4) {
  (void)w3, (void)w4;
  *(volatile unsigned*)address = value;
  while (!t1_send3h(from, (unsigned)t1__answer_handler, 0, 0, 0)) {
  }
}
T1_C_HANDLER(t1__put_handler, t1__on_put, 256);

void t1__on_get(unsigned address, unsigned reply_address, unsigned from, unsigned w3, unsigned w4) {
  (void)w3, (void)w4;
  while (!t1_send3h(from, (unsigned)t1__answer_handler, *(volatile unsigned*)address, reply_address, 1)) {
  }
}
T1_C_HANDLER(t1__get_handler, t1__on_get, 256);

void t1_put(unsigned node, volatile unsigned* remote, unsigned value) {
  issued++;
  while (!t1_send3(node, (unsigned)t1__put_handler, (unsigned)remote, value, t1_niid())) {
  }
}

void t1_get(unsigned node, volatile unsigned* remote, volatile unsigned* local) {
  issued++;
  while (!t1_send3(node, (unsigned)t1__get_handler, (unsigned)remote, (unsigned)local, t1_niid())) {
  }
}

void t1_sync(void) {
  while (answered < issued) {
  }
}
