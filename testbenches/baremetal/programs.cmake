# The bare-metal suite: BM_PROGRAMS names, BM_SOURCES_<name> sources (relative to
# testbenches/baremetal). Shared by the host build and the riscv64 cross project.
set(BM_PROGRAMS mvin_mvout matmul_raw hazards counters_errors tiled_matmul conv eltwise
  gemmini_mvin_mvout gemmini_matmul gemmini_tiled gemmini_counters loop_matmul gemmini_loop
  gemmini_compat loop_conv gemmini_more gemmini_train transposes overlap)
# Programs for Boveda configs (compressed moves); built on tiny's host too, where they check
# that the driver refuses them.
set(BM_BOVEDA_PROGRAMS boveda_matmul boveda_conv_chain)
# Programs for vector-PE configs (lanes > 1: lane-packed B); built on tiny's host too, where the
# packing is the identity.
set(BM_LANES_PROGRAMS lanes_matmul)
# TensorDash (docs/tensordash.md): the driver's OS matmul with each scheduled side and off;
# built on tiny's host too, where B scheduling is refused.
set(BM_TD_PROGRAMS td_matmul)
set(BM_SOURCES_tiled_matmul native/tiled_matmul.c)
set(BM_SOURCES_mvin_mvout native/mvin_mvout.c)
set(BM_SOURCES_matmul_raw native/matmul_raw.c)
set(BM_SOURCES_hazards native/hazards.c)
set(BM_SOURCES_counters_errors native/counters_errors.c)
set(BM_SOURCES_transposes native/transposes.c)
set(BM_SOURCES_conv native/conv.c)
set(BM_SOURCES_overlap native/overlap.c)
set(BM_SOURCES_eltwise native/eltwise.c)
set(BM_SOURCES_boveda_matmul native/boveda_matmul.c)
set(BM_SOURCES_boveda_conv_chain native/boveda_conv_chain.c)
set(BM_SOURCES_lanes_matmul native/lanes_matmul.c)
set(BM_SOURCES_td_matmul native/td_matmul.c)
set(BM_SOURCES_loop_matmul native/loop_matmul.c)
set(BM_SOURCES_loop_conv native/loop_conv.c)
foreach(g gemmini_mvin_mvout gemmini_matmul gemmini_tiled gemmini_counters gemmini_loop
  gemmini_compat gemmini_more gemmini_train)
  set(BM_SOURCES_${g} gemmini/${g}.c)
endforeach()
# Programs also built with the MMIO command path (BY_HAL_MMIO / BY_HAL_HOST_MMIO).
set(BM_MMIO_PROGRAMS counters_errors tiled_matmul gemmini_matmul boveda_matmul loop_matmul
  loop_conv)
