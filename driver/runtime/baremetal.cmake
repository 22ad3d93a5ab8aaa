# brickyard_add_baremetal_elf(<name> SOURCES <files...> [LIBS <targets...>])
#
# Builds <name>.elf, a bare-metal program for the Brickyard SoC, from C (or assembly)
# sources, linked with the runtime (driver/runtime). Use it in a project configured with
# cmake/riscv64-toolchain.cmake and BY_SOC_LAYOUT_DIR set to the layout files of the config
# the program will run on (DRAM size and clock differ per config):
#
#   cmake -S prog -B build -DCMAKE_TOOLCHAIN_FILE=<brickyard>/cmake/riscv64-toolchain.cmake \
#         -DBY_SOC_LAYOUT_DIR=<dir with brickyard_soc.h and brickyard_soc.ld>
#
#   include(<brickyard>/driver/runtime/baremetal.cmake)   # also adds the runtime
#   brickyard_add_baremetal_elf(hello SOURCES hello.c)
#
# Run it with: brickyard sim --config CONFIG.yaml build/hello.elf
if(NOT TARGET by_runtime)
  add_subdirectory(${CMAKE_CURRENT_LIST_DIR} ${CMAKE_BINARY_DIR}/by_runtime)
endif()

function(brickyard_add_baremetal_elf name)
  cmake_parse_arguments(ARG "" "" "SOURCES;LIBS" ${ARGN})
  if(NOT ARG_SOURCES)
    message(FATAL_ERROR "brickyard_add_baremetal_elf(${name}): no SOURCES")
  endif()
  add_executable(${name} ${ARG_SOURCES})
  set_target_properties(${name} PROPERTIES SUFFIX .elf LINK_DEPENDS "${BY_RUNTIME_LINK_DEPENDS}")
  target_compile_options(${name} PRIVATE -Wall -Wextra -O2 -g)
  target_link_libraries(${name} PRIVATE by_runtime ${ARG_LIBS})
endfunction()
