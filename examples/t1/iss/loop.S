# examples/t1/iss/loop.S: a counted loop whose instruction and cycle counts are derived by hand
# (src/cpu/mips/crosscheck_test.cpp checks them): it sums a table of 100 words holding 3, then adds the last
# word once more.
        .set    noreorder
        .data
        .align  2
table:  .rept    100
        .word   3
        .endr
        .text
        .globl  __start
        .ent    __start
__start:
        lui     $t0, %hi(table)         # 1: $t0 = table
        addiu   $t0, $t0, %lo(table)    # 2
        li      $t1, 100                # 3: words left (one addiu)
        move    $v1, $zero              # 4: sum
loop:   lw      $t2, 0($t0)             # per word: 1
        addiu   $t1, $t1, -1            # 2 (independent of the load: no interlock)
        addu    $v1, $v1, $t2           # 3
        bne     $t1, $zero, loop        # 4
        addiu   $t0, $t0, 4             # 5: delay slot
        lw      $t3, -4($t0)            # after: 1, then a use of $t3 right after it: 1 stall cycle
        addu    $v1, $v1, $t3           # 2
        move    $a0, $v1                # 3: exit status = 100 * 3 + 3 = 303, i.e. 47 mod 256
        li      $v0, 4001               # 4
        syscall                         # 5
        .end    __start
