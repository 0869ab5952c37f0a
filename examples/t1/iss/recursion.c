/* examples/t1/iss/recursion.c: deep and branching recursion (stack frames, $ra, delay slots). */
#include "sys.h"

static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

static int ackermann(int m, int n) {
  if (m == 0) return n + 1;
  if (n == 0) return ackermann(m - 1, 1);
  return ackermann(m - 1, ackermann(m, n - 1));
}

static unsigned hanoi(int disks, int from, int to, int via) {
  if (disks == 0) return 0;
  return hanoi(disks - 1, from, via, to) + 1 + hanoi(disks - 1, via, to, from);
}

int main(void) {
  print_string("fib(20) = ");
  print_int(fib(20));
  print_string("\nackermann(2, 3) = ");
  print_int(ackermann(2, 3));
  print_string("\nhanoi(12) moves = ");
  print_unsigned(hanoi(12, 1, 3, 2));
  print_char('\n');
  return fib(10); /* 55 */
}
