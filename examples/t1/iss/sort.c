/* examples/t1/iss/sort.c: quicksort of pseudo-random numbers, then a check that the result is sorted. */
#include "sys.h"

#define N 500
static int data[N];

static void quicksort(int* a, int lo, int hi) {
  while (lo < hi) {
    int pivot = a[(lo + hi) / 2];
    int i = lo, j = hi;
    while (i <= j) {
      while (a[i] < pivot) ++i;
      while (a[j] > pivot) --j;
      if (i <= j) {
        int t = a[i];
        a[i] = a[j];
        a[j] = t;
        ++i;
        --j;
      }
    }
    /* Recurse on the smaller part: bounded stack depth. */
    if (j - lo < hi - i) {
      quicksort(a, lo, j);
      lo = i;
    } else {
      quicksort(a, i, hi);
      hi = j;
    }
  }
}

int main(void) {
  unsigned x = 12345;
  for (int i = 0; i < N; ++i) {
    x = x * 1103515245u + 12345u; /* the C standard's example generator */
    data[i] = (int)(x >> 8) - (1 << 22);
  }
  quicksort(data, 0, N - 1);
  int sorted = 1;
  unsigned sum = 0;
  for (int i = 0; i < N; ++i) {
    if (i > 0 && data[i - 1] > data[i]) sorted = 0;
    sum = sum * 33 + (unsigned)data[i];
  }
  print_string(sorted ? "sorted" : "NOT sorted");
  print_string(" min ");
  print_int(data[0]);
  print_string(" median ");
  print_int(data[N / 2]);
  print_string(" max ");
  print_int(data[N - 1]);
  print_string(" hash ");
  print_hex(sum);
  print_char('\n');
  return sorted ? 0 : 1;
}
