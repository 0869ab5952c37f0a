/* examples/t1/iss/arith.c: integer arithmetic (multiply, divide, shifts, compares, overflow-free wraps),
 * printed so that the simulator's output can be compared with qemu-mips's byte for byte. */
#include "sys.h"

/* volatile: keeps gcc from folding the operations at compile time. */
static volatile int values[] = {0, 1, -1, 7, -7, 12345, -54321, 0x7fffffff, (int)0x80000000, 1000003};
#define COUNT (int)(sizeof(values) / sizeof(values[0]))

static void line(const char* name, unsigned value) {
  print_string(name);
  print_char(' ');
  print_hex(value);
  print_char('\n');
}

int main(void) {
  unsigned mix = 0;
  for (int i = 0; i < COUNT; ++i) {
    for (int j = 0; j < COUNT; ++j) {
      int a = values[i], b = values[j];
      unsigned ua = (unsigned)a, ub = (unsigned)b;
      long long wide = (long long)a * b;
      unsigned long long uwide = (unsigned long long)ua * ub;
      mix = mix * 31 + (unsigned)wide + (unsigned)(wide >> 32);
      mix = mix * 31 + (unsigned)uwide + (unsigned)(uwide >> 32);
      if (b != 0 && !(a == (int)0x80000000 && b == -1)) {
        mix = mix * 31 + (unsigned)(a / b) + (unsigned)(a % b);
        mix = mix * 31 + ua / ub + ua % ub;
      }
      mix = mix * 31 + (ua << (j & 31)) + (ua >> (i & 31)) + (unsigned)(a >> (j & 31));
      mix = mix * 31 + (unsigned)(a < b) + ((ua < ub) << 1) + (ua + ub) + (ua - ub) + (ua ^ ~ub);
    }
    line("row", mix);
  }
  print_string("signed product -54321 * 12345 = ");
  print_int(values[6] * values[5]);
  print_char('\n');
  print_string("quotient -54321 / 7 = ");
  print_int(values[6] / values[3]);
  print_string(", remainder ");
  print_int(values[6] % values[3]);
  print_char('\n');
  return (int)(mix & 0x7f);
}
