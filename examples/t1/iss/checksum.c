/* examples/t1/iss/checksum.c: CRC-32 and Adler-32 over a buffer, plus sums of words read at every byte
 * offset through a packed structure (gcc reads those with LWL/LWR and writes them with SWL/SWR). */
#include "sys.h"

#define SIZE 4096
static unsigned char buffer[SIZE + 8];

struct __attribute__((packed)) Unaligned {
  unsigned word;
  unsigned short half;
};

static unsigned crc32(const unsigned char* p, unsigned n) {
  unsigned crc = 0xffffffffu;
  for (unsigned i = 0; i < n; ++i) {
    crc ^= p[i];
    for (int k = 0; k < 8; ++k) crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1u)));
  }
  return ~crc;
}

static unsigned adler32(const unsigned char* p, unsigned n) {
  unsigned a = 1, b = 0;
  for (unsigned i = 0; i < n; ++i) {
    a = (a + p[i]) % 65521u;
    b = (b + a) % 65521u;
  }
  return (b << 16) | a;
}

int main(void) {
  unsigned x = 1;
  for (unsigned i = 0; i < SIZE; ++i) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    buffer[i] = (unsigned char)x;
  }
  print_string("crc32 ");
  print_hex(crc32(buffer, SIZE));
  print_string(" adler32 ");
  print_hex(adler32(buffer, SIZE));
  print_char('\n');
  unsigned sum = 0;
  for (unsigned offset = 0; offset < 8; ++offset) {
    const volatile struct Unaligned* u = (const volatile struct Unaligned*)(buffer + offset);
    sum = sum * 7 + u->word + u->half;
  }
  /* Unaligned stores, then read back with aligned byte loads. */
  for (unsigned offset = 0; offset < 4; ++offset) {
    volatile struct Unaligned* u = (volatile struct Unaligned*)(buffer + 100 + offset);
    u->word = 0x01020304u * (offset + 1);
    u->half = (unsigned short)(0xabcd + offset);
  }
  for (unsigned i = 100; i < 112; ++i) sum = sum * 3 + buffer[i];
  print_string("unaligned ");
  print_hex(sum);
  print_char('\n');
  return (int)(sum & 0xff);
}
