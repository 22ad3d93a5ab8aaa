# The driver for bare-metal programs (a project using cmake/riscv64-toolchain.cmake):
#
#   include(<brickyard>/driver/driver.cmake)   # also the runtime (driver/runtime)
#   by_add_baremetal_driver(by_driver ROCC <dir with the generated include/>)
#   brickyard_add_baremetal_elf(prog SOURCES prog.c LIBS by_driver)
#
# The library is freestanding C99 built with -Wall -Wextra -Werror; its HAL (ROCC or MMIO) is a
# PUBLIC definition, so programs see the same one. <gen> is a `brickyard gen` output directory;
# its include/ holds brickyard_params.h, brickyard_isa.h and gemmini_params.h.
include(${CMAKE_CURRENT_LIST_DIR}/runtime/baremetal.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/sources.cmake)

set(BY_DRIVER_DIR ${CMAKE_CURRENT_LIST_DIR})

function(by_add_baremetal_driver name hal gen)
  if(NOT hal STREQUAL ROCC AND NOT hal STREQUAL MMIO)
    message(FATAL_ERROR "by_add_baremetal_driver(${name}): HAL must be ROCC or MMIO, not ${hal}")
  endif()
  if(NOT EXISTS ${gen}/include/brickyard_params.h)
    message(FATAL_ERROR "by_add_baremetal_driver(${name}): ${gen}/include has no generated headers")
  endif()
  add_library(${name} STATIC ${BY_DRIVER_SOURCE_FILES} ${BY_PLAN_SOURCE_FILES})
  target_compile_definitions(${name} PUBLIC BY_HAL_${hal})
  # The layout dir first: its brickyard_soc.h is the one the runtime is linked against.
  target_include_directories(${name} PUBLIC ${BY_SOC_LAYOUT_DIR} ${BY_DRIVER_DIR}/include
                                            ${BY_DRIVER_DIR}/runtime/include ${gen}/include)
  target_compile_options(${name} PRIVATE -std=c99 -ffreestanding -Wall -Wextra -Werror -O2)
endfunction()

# Include paths of Gemmini-style programs: "include/gemmini_testutils.h", the generated
# "include/gemmini_params.h", and <sys/mman.h>, which picolibc lacks.
function(by_gemmini_program target gen)
  target_include_directories(${target} PRIVATE ${BY_DRIVER_DIR}/compat/include ${gen}
                                               ${BY_DRIVER_DIR}/compat/baremetal)
  target_compile_definitions(${target} PRIVATE BAREMETAL)
endfunction()
