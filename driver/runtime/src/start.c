/* C part of start-up: zero .bss (including .tbss), point tp at the TLS block (picolibc keeps
 * errno and friends in thread-local storage), run constructors, call main, exit. */
#include <picolibc.h> /* defines PICOLIBC_TLS, which picotls.h tests */
#include <picotls.h>
#include <stdlib.h>
#include <string.h>

extern char __bss_start[], __bss_end[], __tls_base[];
extern void __libc_init_array(void);
extern int main(int argc, char** argv);

void __by_start(void) __attribute__((noreturn, used));

void __by_start(void) {
  memset(__bss_start, 0, (size_t)(__bss_end - __bss_start));
  _set_tls(__tls_base);
  __libc_init_array();
  exit(main(0, NULL));
}
