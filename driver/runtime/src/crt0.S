/* Entry point of every Brickyard bare-metal program. The simulator loads the ELF into DRAM
 * (so there is no data to copy) and starts the hart at _start in machine mode. */
  .section .text.init, "ax", @progbits
  .globl _start
  .type _start, @function
_start:
  /* gp must be set before anything relaxes accesses against it. */
  .option push
  .option norelax
  la gp, __global_pointer$
  .option pop
  la sp, __stack              /* end of DRAM (linker script) */
#ifdef __riscv_flen
  /* Programs are built with F/D: turn the FPU on (mstatus.FS = Initial) before any C code,
   * which may use floating-point registers. */
  li t0, 0x2000
  csrs mstatus, t0
  csrw fcsr, zero
#endif
  call __by_start             /* clears .bss, sets up TLS, runs main, exits */
1:
  j 1b
  .size _start, . - _start
