/* <sys/mman.h> for Gemmini programs on the bare-metal SoC (picolibc has none): memory is
 * physical and never paged, so locking it succeeds and does nothing. Only on the bare-metal
 * include path (driver/driver.cmake). */
#ifndef BRICKYARD_SYS_MMAN_H
#define BRICKYARD_SYS_MMAN_H

#define MCL_CURRENT 1
#define MCL_FUTURE 2
#define MCL_ONFAULT 4

static inline int mlockall(int flags) {
  (void)flags;
  return 0;
}
static inline int munlockall(void) {
  return 0;
}

#endif /* BRICKYARD_SYS_MMAN_H */
