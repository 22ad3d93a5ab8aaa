# by_add_riscv_programs(<target> SOURCE_DIR <dir> CONFIG <config> [SLOW] [ARGS <-D...>...]
#                       [DEPENDS <targets>...]): a cross-compiled sub-build (an ExternalProject
# with cmake/riscv64-toolchain.cmake) of the bare-metal programs in <dir> for the SoC of
# configs/<config>.yaml, into build/<target's directory>. The sub-build gets BY_SOURCE_DIR and
# BY_SOC_LAYOUT_DIR (the config's memory map, target soc_layout_<config>) plus ARGS. SLOW:
# not part of the default build; built with the slow tests.
include(ExternalProject)
find_program(BY_RISCV_GCC riscv64-unknown-elf-gcc REQUIRED)

function(by_add_riscv_programs target)
  cmake_parse_arguments(ARG "SLOW" "SOURCE_DIR;BINARY_DIR;CONFIG" "ARGS;DEPENDS" ${ARGN})
  set(exclude OFF)
  if(ARG_SLOW)
    set(exclude ON)
  endif()
  ExternalProject_Add(${target}
    SOURCE_DIR ${ARG_SOURCE_DIR}
    BINARY_DIR ${ARG_BINARY_DIR}
    CMAKE_ARGS
      -DCMAKE_TOOLCHAIN_FILE=${PROJECT_SOURCE_DIR}/cmake/riscv64-toolchain.cmake
      -DBY_SOURCE_DIR=${PROJECT_SOURCE_DIR}
      -DBY_SOC_LAYOUT_DIR=${CMAKE_BINARY_DIR}/soc_layout/${ARG_CONFIG}
      ${ARG_ARGS}
    INSTALL_COMMAND ""
    BUILD_ALWAYS ON # the sub-build tracks its own sources and headers
    EXCLUDE_FROM_ALL ${exclude}
    DEPENDS soc_layout_${ARG_CONFIG} ${ARG_DEPENDS})
  if(ARG_SLOW)
    add_dependencies(slow_tests ${target})
  endif()
endfunction()
