/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * void xomp_kmp_invoke(kmp_microtask fn, kmp_int32 *gtid, kmp_int32 *tid,
 *                      int argc, void **argv)
 *
 * Calls fn(gtid, tid, argv[0], ..., argv[argc - 1]): the outlined function
 * of a parallel or teams region takes one pointer-sized argument per
 * captured variable, any number of them (__kmpc_fork_call is variadic), so
 * the call is built here: the first arguments in registers, the others on
 * the stack, as the platform's calling convention places them.  Other
 * targets use the C version in kmp_invoke.c (a bounded argument count).
 */

#if defined(__x86_64__)

/* System V AMD64: rdi fn, rsi gtid, rdx tid, ecx argc, r8 argv.  The
 * callee gets gtid, tid, argv[0..3] in rdi, rsi, rdx, rcx, r8, r9 and
 * argv[4..] on the stack, which is 16-byte aligned at the call. */
    .text
    .p2align 4
    .globl xomp_kmp_invoke
    .hidden xomp_kmp_invoke
    .type xomp_kmp_invoke, @function
xomp_kmp_invoke:
    .cfi_startproc
    pushq %rbp
    .cfi_def_cfa_offset 16
    .cfi_offset %rbp, -16
    movq %rsp, %rbp
    .cfi_def_cfa_register %rbp
    movq %rdi, %r11             /* fn */
    movslq %ecx, %rax           /* argc */
    movq %r8, %r10              /* argv */
    movq %rax, %rcx
    subq $4, %rcx               /* arguments that go on the stack */
    jle 2f
    testq $1, %rcx              /* an odd count: pad to keep the alignment */
    jz 1f
    subq $8, %rsp
1:  leaq -8(%r10,%rax,8), %r9   /* &argv[argc - 1], pushed first */
3:  pushq (%r9)
    subq $8, %r9
    decq %rcx
    jnz 3b
2:  movq %rsi, %rdi             /* gtid */
    movq %rdx, %rsi             /* tid */
    cmpq $1, %rax
    jl 4f
    movq 0(%r10), %rdx
    cmpq $2, %rax
    jl 4f
    movq 8(%r10), %rcx
    cmpq $3, %rax
    jl 4f
    movq 16(%r10), %r8
    cmpq $4, %rax
    jl 4f
    movq 24(%r10), %r9
4:  xorl %eax, %eax             /* no vector registers (variadic callee) */
    call *%r11
    leave
    .cfi_def_cfa %rsp, 8
    ret
    .cfi_endproc
    .size xomp_kmp_invoke, .-xomp_kmp_invoke

#elif defined(__aarch64__)

/* AAPCS64: x0 fn, x1 gtid, x2 tid, w3 argc, x4 argv.  The callee gets
 * gtid, tid, argv[0..5] in x0..x7 and argv[6..] in 8-byte stack slots;
 * sp stays 16-byte aligned. */
    .text
    .p2align 2
    .globl xomp_kmp_invoke
    .hidden xomp_kmp_invoke
    .type xomp_kmp_invoke, %function
xomp_kmp_invoke:
    .cfi_startproc
    stp x29, x30, [sp, #-16]!
    .cfi_def_cfa_offset 16
    .cfi_offset x29, -16
    .cfi_offset x30, -8
    mov x29, sp
    .cfi_def_cfa_register x29
    mov x9, x0                  /* fn */
    sxtw x10, w3                /* argc */
    mov x11, x4                 /* argv */
    subs x12, x10, #6           /* arguments that go on the stack */
    b.le 2f
    add x13, x12, #1
    and x13, x13, #~1
    lsl x13, x13, #3
    sub sp, sp, x13
    add x15, x11, #48           /* &argv[6] */
    mov x14, #0
1:  ldr x16, [x15, x14, lsl #3]
    str x16, [sp, x14, lsl #3]
    add x14, x14, #1
    cmp x14, x12
    b.lt 1b
2:  mov x0, x1                  /* gtid */
    mov x1, x2                  /* tid */
    cmp x10, #1
    b.lt 3f
    ldr x2, [x11]
    cmp x10, #2
    b.lt 3f
    ldr x3, [x11, #8]
    cmp x10, #3
    b.lt 3f
    ldr x4, [x11, #16]
    cmp x10, #4
    b.lt 3f
    ldr x5, [x11, #24]
    cmp x10, #5
    b.lt 3f
    ldr x6, [x11, #32]
    cmp x10, #6
    b.lt 3f
    ldr x7, [x11, #40]
3:  blr x9
    mov sp, x29
    ldp x29, x30, [sp], #16
    .cfi_def_cfa sp, 0
    ret
    .cfi_endproc
    .size xomp_kmp_invoke, .-xomp_kmp_invoke

#endif

#if defined(__linux__) && defined(__ELF__)
    .section .note.GNU-stack, "", %progbits
#endif
