# The bare-metal suite: BM_PROGRAMS names, BM_SOURCES_<name> sources (relative to
# testbenches/baremetal). Shared by the host build and the riscv64 cross project.
set(BM_PROGRAMS tiled_matmul)
set(BM_SOURCES_tiled_matmul native/tiled_matmul.c)
# Programs also built with the MMIO command path (BY_HAL_MMIO / BY_HAL_HOST_MMIO).
set(BM_MMIO_PROGRAMS tiled_matmul)
