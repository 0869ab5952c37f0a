/* examples/t1/lib/sys.h: the tiny library of freestanding T1 programs: exit, write and printing. */
#ifndef T1_SYS_H
#define T1_SYS_H

/* Linux o32 system calls (docs/t1.md): the number in $v0, arguments in $a0..$a2. */
void sys_exit(int status) __attribute__((noreturn));
int sys_write(int fd, const void* buffer, unsigned length);

/* Output to fd 1. */
void print_string(const char* s);
void print_int(int value);
void print_unsigned(unsigned value);
void print_hex(unsigned value); /* 8 digits, no prefix */
void print_char(char c);

#endif
