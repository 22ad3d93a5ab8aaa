// main() of a host-built driver program (linked with -Wl,--wrap=main): runs the program's own
// main on a stack mapped below 4 GiB, so that arrays on the stack have addresses the
// accelerator's 32-bit DMA can reach, and keeps malloc on the brk heap (also below 4 GiB in a
// non-PIE program) by turning off its mmap path.
#include "host_memory.h"

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <malloc.h>
#include <pthread.h>
#include <sys/mman.h>

extern "C" int __real_main(int argc, char** argv);

namespace {

constexpr size_t kStackBytes = size_t(256) << 20; // big local arrays are common in tests
constexpr uintptr_t kStackHint = uintptr_t(0x40000000);

struct MainArgs {
  int argc;
  char** argv;
  int result;
};

void* runMain(void* p) {
  auto* args = static_cast<MainArgs*>(p);
  args->result = __real_main(args->argc, args->argv);
  return nullptr;
}

void* mapLowStack() {
  void* stack = mmap(reinterpret_cast<void*>(kStackHint), kStackBytes, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE, -1, 0);
#ifdef MAP_32BIT
  if (stack == MAP_FAILED)
    stack = mmap(nullptr, kStackBytes, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_32BIT, -1, 0);
#endif
  if (stack == MAP_FAILED)
    return nullptr;
  if (reinterpret_cast<uintptr_t>(stack) + kStackBytes > (uintptr_t(1) << 32)) {
    munmap(stack, kStackBytes);
    return nullptr;
  }
  return stack;
}

} // namespace

extern "C" int __wrap_main(int argc, char** argv) {
  mallopt(M_MMAP_MAX, 0);
  mallopt(M_ARENA_MAX, 1); // main runs on another thread: keep it on the brk arena too
  void* stack = mapLowStack();
  if (!stack) {
    std::fprintf(stderr, "brickyard host driver: cannot map a stack below 4 GiB: %s\n",
                 std::strerror(errno));
    return 1;
  }
  by::driverhost::setLowStack(reinterpret_cast<uintptr_t>(stack), kStackBytes);
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstack(&attr, stack, kStackBytes);
  MainArgs args{argc, argv, 1};
  pthread_t thread;
  if (pthread_create(&thread, &attr, runMain, &args) != 0) {
    std::fprintf(stderr, "brickyard host driver: cannot start main's thread\n");
    return 1;
  }
  pthread_join(thread, nullptr);
  pthread_attr_destroy(&attr);
  return args.result;
}
