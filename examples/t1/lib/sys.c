/* examples/t1/lib/sys.c: the system calls as inline assembly, and printing without a C library. */
#include "sys.h"

void sys_exit(int status) {
  register int a0 __asm__("$4") = status;
  register int v0 __asm__("$2") = 4001;
  __asm__ volatile("syscall" : : "r"(v0), "r"(a0) : "memory");
  for (;;) {
  }
}

int sys_write(int fd, const void* buffer, unsigned length) {
  register int a0 __asm__("$4") = fd;
  register const void* a1 __asm__("$5") = buffer;
  register unsigned a2 __asm__("$6") = length;
  register int a3 __asm__("$7");
  register int v0 __asm__("$2") = 4004;
  /* The kernel may clobber the temporaries; $a3 says whether $v0 is a result or an errno. */
  __asm__ volatile("syscall"
                   : "+r"(v0), "=r"(a3)
                   : "r"(a0), "r"(a1), "r"(a2)
                   : "$1", "$3", "$8", "$9", "$10", "$11", "$12", "$13", "$14", "$15", "$24", "$25", "hi",
                     "lo", "memory");
  return a3 != 0 ? -v0 : v0;
}

static unsigned length_of(const char* s) {
  unsigned n = 0;
  while (s[n] != 0) ++n;
  return n;
}

void print_string(const char* s) { sys_write(1, s, length_of(s)); }

void print_char(char c) { sys_write(1, &c, 1); }

void print_unsigned(unsigned value) {
  char digits[10];
  int n = 0;
  do {
    digits[n++] = (char)('0' + value % 10);
    value /= 10;
  } while (value != 0);
  char text[10];
  for (int i = 0; i < n; ++i) text[i] = digits[n - 1 - i];
  sys_write(1, text, (unsigned)n);
}

void print_int(int value) {
  if (value < 0) {
    print_char('-');
    print_unsigned(0u - (unsigned)value);
  } else {
    print_unsigned((unsigned)value);
  }
}

void print_hex(unsigned value) {
  char text[8];
  for (int i = 7; i >= 0; --i) {
    text[i] = "0123456789abcdef"[value & 15];
    value >>= 4;
  }
  sys_write(1, text, 8);
}

/* gcc may call these for structure copies and initialisers even in freestanding code. */
void* memcpy(void* destination, const void* source, unsigned n) {
  unsigned char* d = destination;
  const unsigned char* s = source;
  while (n-- != 0) *d++ = *s++;
  return destination;
}

void* memset(void* destination, int c, unsigned n) {
  unsigned char* d = destination;
  while (n-- != 0) *d++ = (unsigned char)c;
  return destination;
}
