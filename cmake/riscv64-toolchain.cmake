# CMake toolchain file for Brickyard bare-metal programs: riscv64-unknown-elf-gcc with
# picolibc (Debian packages gcc-riscv64-unknown-elf, picolibc-riscv64-unknown-elf).
#   cmake -S . -B build-sw -DCMAKE_TOOLCHAIN_FILE=<brickyard>/cmake/riscv64-toolchain.cmake
# The host CPU of the SoC is RV64IMAFDC (machine mode, lp64d ABI); DRAM sits at 0x8000_0000,
# beyond +/-2 GiB of address 0, hence -mcmodel=medany.
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR riscv64)

set(BY_RISCV_PREFIX riscv64-unknown-elf- CACHE STRING "prefix of the bare-metal RISC-V tools")
find_program(CMAKE_C_COMPILER ${BY_RISCV_PREFIX}gcc REQUIRED)
find_program(CMAKE_CXX_COMPILER ${BY_RISCV_PREFIX}g++)
set(CMAKE_ASM_COMPILER ${CMAKE_C_COMPILER})
find_program(CMAKE_OBJCOPY ${BY_RISCV_PREFIX}objcopy)
find_program(CMAKE_OBJDUMP ${BY_RISCV_PREFIX}objdump)
find_program(CMAKE_SIZE ${BY_RISCV_PREFIX}size)

if(NOT EXISTS /usr/lib/picolibc/riscv64-unknown-elf/picolibc.specs)
  message(FATAL_ERROR "picolibc for riscv64-unknown-elf is not installed "
                      "(Debian package picolibc-riscv64-unknown-elf); run scripts/setup.sh")
endif()

set(BY_RISCV_ARCH_FLAGS "-march=rv64imafdc -mabi=lp64d -mcmodel=medany")
set(CMAKE_C_FLAGS_INIT "${BY_RISCV_ARCH_FLAGS} --specs=picolibc.specs -ffunction-sections -fdata-sections")
set(CMAKE_CXX_FLAGS_INIT "${CMAKE_C_FLAGS_INIT}")
set(CMAKE_ASM_FLAGS_INIT "${BY_RISCV_ARCH_FLAGS} --specs=picolibc.specs")
# The compile flags (with --specs) are on the link line too; do not repeat the specs file.
set(CMAKE_EXE_LINKER_FLAGS_INIT "-Wl,--gc-sections")

# No host libraries or programs can be used by the cross build; try_compile builds a
# library because a bare-metal executable needs the runtime's crt0 and linker script.
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
