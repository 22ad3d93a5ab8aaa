# by_add_riscv_programs(<target> SOURCE_DIR <dir> CONFIG <config> [SLOW|EXCLUDE] [ARGS <-D...>...]
#                       [DEPENDS <targets>...]): a cross-compiled sub-build (an ExternalProject
# with cmake/riscv64-toolchain.cmake) of the bare-metal programs in <dir> for the SoC of a
# config (by_config_file), into build/<target's directory>. The sub-build gets BY_SOURCE_DIR and
# BY_SOC_LAYOUT_DIR (the config's memory map, by_add_soc_layout) plus ARGS. SLOW: not part of
# the default build; built with the slow tests. EXCLUDE: not part of the default build (a
# benchmark's programs: the caller adds the target where it is needed).
include(ExternalProject)
find_program(BY_RISCV_GCC riscv64-unknown-elf-gcc REQUIRED)

# by_add_soc_layout(<config>): target soc_layout_<config>, the config's SoC memory map
# (brickyard_soc.h, linker script) in build/soc_layout/<config>. Once per config.
function(by_add_soc_layout cfg)
  if(TARGET soc_layout_${cfg})
    return()
  endif()
  by_config_file(${cfg} cfg_file)
  set(layout ${CMAKE_BINARY_DIR}/soc_layout/${cfg})
  add_custom_command(
    OUTPUT ${layout}/stamp
    COMMAND by_soc_layout ${cfg_file} ${layout}
    COMMAND ${CMAKE_COMMAND} -E touch ${layout}/stamp
    DEPENDS by_soc_layout ${cfg_file}
    COMMENT "SoC layout files for ${cfg}")
  add_custom_target(soc_layout_${cfg} DEPENDS ${layout}/stamp)
endfunction()

function(by_add_riscv_programs target)
  cmake_parse_arguments(ARG "SLOW;EXCLUDE" "SOURCE_DIR;BINARY_DIR;CONFIG" "ARGS;DEPENDS" ${ARGN})
  by_add_soc_layout(${ARG_CONFIG})
  set(exclude OFF)
  if(ARG_SLOW OR ARG_EXCLUDE)
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
