# The one-way layering of docs/architecture.md ("Layers"), checked when the build is configured.
#
# A target's layer is the top-level folder it is defined in (BY_LAYER_ROOT, by default the
# project's source directory):
#
#   support         0  hashes, atomic writes, the file lock, processes, the caches' find-or-make,
#                      the job pool, JSON records
#   spec            1  config, ISA, array/accel params, TensorDash plan, Boveda format, memory map
#   contract        2  the C headers and linker fragment programs are built against, the manifest
#   models          3  golden, functional, TensorDash and Boveda reference models
#   rtl_gen         3  the Verilog IR, the block generators, the emission of `brickyard gen`
#   systemc_models  4  the SoC, the AXI runtime, the RTL accelerator model
#   synthesis       4  per-module Yosys synthesis, its cache, the area report
#   driver          4  the driver's planner (by_plan) and its host build
#   compiler_backend
#                   5  the compiler (it takes tiles and paths from the driver's planner)
#   evaluation      6  the flows run, eval and sweep: jobs, caches, records, reports, back ends
#   cli             7  the brickyard command: parses options and calls the libraries
#   testbenches, bench   tests and benchmarks: may link anything, nothing else may link them
#
# A product target (any target outside testbenches/ and bench/) may link targets of its own
# folder and of lower layers only: a target of the same layer in another folder (models and
# rtl_gen), of a higher layer, or of testbenches/ or bench/ is an error. Targets defined at the
# root (the Verilator runtime) and imported targets from outside the tree are not checked.
# set_target_properties(<target> PROPERTIES BY_LAYER <folder>) places a target explicitly.

set(BY_LAYER_RANKS
    support=0 spec=1 contract=2 models=3 rtl_gen=3 systemc_models=4 synthesis=4 driver=4
    compiler_backend=5 evaluation=6 cli=7)
set(BY_LAYER_TEST_FOLDERS testbenches bench)

# The top-level folder of a target (empty for the root or outside the tree), or its BY_LAYER
# property: a target a function of one folder makes when called from another (the driver's
# host libraries, made for the configs the tests use) belongs to the function's folder.
function(by_layer_folder target out)
  get_target_property(layer ${target} BY_LAYER)
  if(layer)
    set(${out} ${layer} PARENT_SCOPE)
    return()
  endif()
  get_target_property(dir ${target} SOURCE_DIR)
  if(NOT BY_LAYER_ROOT)
    set(BY_LAYER_ROOT ${PROJECT_SOURCE_DIR})
  endif()
  file(RELATIVE_PATH rel ${BY_LAYER_ROOT} ${dir})
  if(rel STREQUAL "" OR rel MATCHES "^\\.\\.")
    set(${out} "" PARENT_SCOPE)
    return()
  endif()
  string(REGEX REPLACE "/.*" "" folder ${rel})
  set(${out} ${folder} PARENT_SCOPE)
endfunction()

function(by_layer_rank folder out)
  set(rank "")
  foreach(entry ${BY_LAYER_RANKS})
    if(entry MATCHES "^${folder}=([0-9]+)$")
      set(rank ${CMAKE_MATCH_1})
    endif()
  endforeach()
  set(${out} "${rank}" PARENT_SCOPE)
endfunction()

# The targets the tree builds (imported ones, packages and Verilated models, are only checked
# as what a target links).
function(by_collect_targets dir out)
  get_property(targets DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
  get_property(subdirs DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
  foreach(sub ${subdirs})
    by_collect_targets(${sub} more)
    list(APPEND targets ${more})
  endforeach()
  set(${out} ${targets} PARENT_SCOPE)
endfunction()

# Fails the configuration (FATAL_ERROR) with one line per link that breaks the layering.
function(by_check_layers)
  by_collect_targets(${CMAKE_CURRENT_SOURCE_DIR} targets)
  set(errors "")
  foreach(target ${targets})
    by_layer_folder(${target} folder)
    if(folder STREQUAL "" OR folder IN_LIST BY_LAYER_TEST_FOLDERS)
      continue()
    endif()
    by_layer_rank(${folder} rank)
    if(rank STREQUAL "")
      string(APPEND errors "  ${target} (${folder}/): the folder has no layer in BY_LAYER_RANKS\n")
      continue()
    endif()
    get_target_property(type ${target} TYPE)
    set(links "")
    if(NOT type STREQUAL "INTERFACE_LIBRARY")
      get_target_property(direct ${target} LINK_LIBRARIES)
      if(direct)
        list(APPEND links ${direct})
      endif()
    endif()
    get_target_property(iface ${target} INTERFACE_LINK_LIBRARIES)
    if(iface)
      list(APPEND links ${iface})
    endif()
    # $<LINK_ONLY:x> (a static library's private links, again in its interface) and the
    # ::@(directory) markers of links made in other directories; aliases resolved.
    set(deps "")
    foreach(link ${links})
      string(REGEX REPLACE "^\\$<LINK_ONLY:(.*)>$" "\\1" link "${link}")
      if(link MATCHES "^::@" OR NOT TARGET ${link})
        continue()
      endif()
      get_target_property(aliased ${link} ALIASED_TARGET)
      if(aliased)
        set(link ${aliased})
      endif()
      list(APPEND deps ${link})
    endforeach()
    list(REMOVE_DUPLICATES deps)
    foreach(link ${deps})
      by_layer_folder(${link} dep_folder)
      if(dep_folder STREQUAL "" OR dep_folder STREQUAL folder)
        continue()
      endif()
      if(dep_folder IN_LIST BY_LAYER_TEST_FOLDERS)
        string(APPEND errors
               "  ${target} (${folder}/) links ${link}, defined under ${dep_folder}/: product "
               "code never links test code\n")
        continue()
      endif()
      by_layer_rank(${dep_folder} dep_rank)
      if(dep_rank STREQUAL "" OR NOT dep_rank LESS rank)
        string(APPEND errors
               "  ${target} (${folder}/, layer ${rank}) links ${link} (${dep_folder}/, layer "
               "${dep_rank}): dependencies run one way, to lower layers only\n")
      endif()
    endforeach()
  endforeach()
  if(errors)
    message(FATAL_ERROR "layer check (cmake/Layers.cmake, docs/architecture.md \"Layers\"):\n"
                        "${errors}")
  endif()
  list(LENGTH targets count)
  message(STATUS "layer check: ${count} targets, every link runs one way")
endfunction()
