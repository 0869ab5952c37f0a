# examples/t1/lib/crt0.S: program entry for freestanding MIPS-II programs (docs/t1.md).
# The loader (the simulator's or Linux's, under qemu-mips) leaves $sp at argc; main(void) ignores it.
# $gp must point at the small-data area gcc addresses through it (-mno-abicalls code uses $gp-relative
# loads for small globals); the linker defines _gp.
        .set    noreorder
        .text
        .globl  __start
        .ent    __start
__start:
        lui     $gp, %hi(_gp)
        addiu   $gp, $gp, %lo(_gp)
        addiu   $sp, $sp, -16          # o32: the caller reserves 16 bytes of argument save area
        jal     main
        nop
        move    $a0, $v0               # exit(main())
        li      $v0, 4001              # o32 exit
        syscall
        break                          # not reached
        .end    __start
