/* examples/t1/ni/self_ping.c: one T1 node sends itself ten LP requests whose handler (in C) replies with
 * an HP message to another C handler: t1.h's sends, masks and handler stubs, end to end. The replies
 * arrive while the LP handler is still running, so each HP handler preempts it (nesting, note 002 B8).
 * Exits 0 when the ten replies summed to 2 * (1 + ... + 10) = 110. */
#include "sys.h"
#include "t1.h"

static volatile unsigned replies;
static volatile unsigned sum;

void on_reply(unsigned value, unsigned w1, unsigned w2, unsigned w3, unsigned w4) {
  (void)w1, (void)w2, (void)w3, (void)w4;
  sum += value;
  replies++;
}
T1_C_HANDLER(reply_handler, on_reply, 256);

/* An LP (request) handler may spin on an HP (reply) send, never on an LP one (§3.9). */
void on_request(unsigned value, unsigned from, unsigned w2, unsigned w3, unsigned w4) {
  (void)w2, (void)w3, (void)w4;
  while (!t1_send1h(from, (unsigned)reply_handler, 2 * value)) {
  }
}
T1_C_HANDLER(request_handler, on_request, 256);

int main(void) {
  const unsigned me = t1_niid();
  t1_set_masks(T1_LPMM | T1_HPMM);
  for (unsigned i = 1; i <= 10; ++i) {
    while (!t1_send2(me, (unsigned)request_handler, i, me)) {
    }
  }
  while (replies < 10) {
  }
  print_string("replies ");
  print_unsigned(replies);
  print_string(" sum ");
  print_unsigned(sum);
  print_char('\n');
  return sum == 110 ? 0 : 1;
}
