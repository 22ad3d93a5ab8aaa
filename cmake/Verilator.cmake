# Verilator support: the Verilator runtime as one static library, and a function that
# generates RTL for a config with `brickyard gen` and Verilates one of its modules into a
# static library at build time (the RTL does not exist before `brickyard` is built).
find_program(VERILATOR_EXECUTABLE verilator REQUIRED)
set(VERILATOR_INCLUDE_DIR /usr/share/verilator/include)
if(NOT EXISTS ${VERILATOR_INCLUDE_DIR}/verilated.cpp)
  message(FATAL_ERROR "Verilator runtime sources not found in ${VERILATOR_INCLUDE_DIR}; "
                      "run scripts/setup.sh")
endif()
find_package(ZLIB REQUIRED)

add_library(verilator_runtime STATIC
  ${VERILATOR_INCLUDE_DIR}/verilated.cpp
  ${VERILATOR_INCLUDE_DIR}/verilated_threads.cpp
  ${VERILATOR_INCLUDE_DIR}/verilated_vcd_c.cpp
  ${VERILATOR_INCLUDE_DIR}/verilated_fst_c.cpp) # includes the gtkwave FST writer sources
target_include_directories(verilator_runtime SYSTEM PUBLIC
  ${VERILATOR_INCLUDE_DIR} ${VERILATOR_INCLUDE_DIR}/vltstd)
target_compile_definitions(verilator_runtime PUBLIC VM_TRACE=1 VM_TRACE_FST=1)
target_compile_options(verilator_runtime PRIVATE -w)
target_link_libraries(verilator_runtime PUBLIC Threads::Threads ZLIB::ZLIB)
set_target_properties(verilator_runtime PROPERTIES POSITION_INDEPENDENT_CODE ON)

# brickyard_generate_rtl(<config-name>): target gen_<config-name> writing
# ${CMAKE_BINARY_DIR}/gen/<config-name> from the config's file (by_config_file: configs/, or
# testbenches/configs/ for configs that exist only for tests).
function(brickyard_generate_rtl cfg)
  if(TARGET gen_${cfg})
    return()
  endif()
  by_config_file(${cfg} cfg_file)
  set(out ${CMAKE_BINARY_DIR}/gen/${cfg})
  add_custom_command(
    OUTPUT ${out}/rtl/filelist.f
    COMMAND brickyard gen ${cfg_file} -o ${out} --quiet
    DEPENDS brickyard ${cfg_file}
    COMMENT "brickyard gen ${cfg}")
  add_custom_target(gen_${cfg} DEPENDS ${out}/rtl/filelist.f)
endfunction()

# brickyard_verilate(<target> CONFIG <config-name> TOP <module> [TRACE | TRACE_VCD]
#                    [PARAMS <P=V>...])
# Creates static library <target> holding the Verilated model class V<target>. PARAMS override
# top-module parameters (Verilator -G), for corner cases no shipped config reaches.
function(brickyard_verilate target)
  cmake_parse_arguments(ARG "TRACE;TRACE_VCD" "CONFIG;TOP" "PARAMS" ${ARGN})
  brickyard_generate_rtl(${ARG_CONFIG})
  set(rtl ${CMAKE_BINARY_DIR}/gen/${ARG_CONFIG}/rtl)
  set(mdir ${CMAKE_BINARY_DIR}/verilated/${target})
  set(prefix V${target})
  set(trace_flags)
  if(ARG_TRACE)
    set(trace_flags --trace-fst)
  elseif(ARG_TRACE_VCD)
    set(trace_flags --trace)
  endif()
  set(param_flags)
  foreach(param ${ARG_PARAMS})
    list(APPEND param_flags -G${param})
  endforeach()
  set(objcache)
  if(CCACHE_PROGRAM)
    set(objcache OBJCACHE=${CCACHE_PROGRAM})
  endif()
  add_custom_command(
    OUTPUT ${mdir}/${prefix}__ALL.a ${mdir}/${prefix}.h
    COMMAND ${CMAKE_COMMAND} -E rm -rf ${mdir}
    COMMAND ${CMAKE_COMMAND} -E env ${objcache}
            ${VERILATOR_EXECUTABLE} --cc -O3 --x-assign fast --x-initial fast
            --prefix ${prefix} --top-module ${ARG_TOP} ${trace_flags} ${param_flags}
            -F ${rtl}/filelist.f -Mdir ${mdir} --build -j 2
            -CFLAGS "-O2 -std=c++17"
            # The __Slow files (construction and the initial settle, run once) without
            # optimization: a third of the models' compile time (measured: 252 of 616 s).
            -MAKEFLAGS "OPT_SLOW=-O0" > /dev/null
    DEPENDS gen_${ARG_CONFIG} ${rtl}/filelist.f
    COMMENT "verilator ${ARG_TOP} (${ARG_CONFIG})")
  add_custom_target(${target}_verilate DEPENDS ${mdir}/${prefix}__ALL.a)
  add_library(${target} STATIC IMPORTED GLOBAL)
  set_target_properties(${target} PROPERTIES IMPORTED_LOCATION ${mdir}/${prefix}__ALL.a)
  file(MAKE_DIRECTORY ${mdir})
  target_include_directories(${target} INTERFACE ${mdir})
  target_link_libraries(${target} INTERFACE verilator_runtime)
  add_dependencies(${target} ${target}_verilate)
endfunction()
