# The layer check (cmake/Layers.cmake) fails the configuration when a link breaks the layering.
# Run by ctest in script mode:
#   cmake -DBY_SOURCE_DIR=<src> -DWORK_DIR=<scratch> -DGENERATOR=<gen> -P layer_check_test.cmake
#
# 1. A small tree of the project's shape (fixture/): no bad link configures; a product linking
#    a testbenches/ library, an upward link, a sideways link (same layer, other folder) and a
#    library in a folder without a layer, and a link from the support floor up to spec each fail
#    with their message.
# 2. The project itself with links added by BY_LAYER_CHECK_INJECT from each product target
#    (brickyard, by_rtlmodel, the driver's host library) to testbench libraries: the
#    configuration fails and names each of them.

function(configure name source expect_ok expected)
  set(build ${WORK_DIR}/${name})
  file(REMOVE_RECURSE ${build})
  execute_process(
    COMMAND ${CMAKE_COMMAND} -S ${source} -B ${build} -G ${GENERATOR} ${ARGN}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  set(text "${out}${err}")
  if(expect_ok AND NOT rc EQUAL 0)
    message(FATAL_ERROR "${name}: expected the configuration to pass, it failed:\n${text}")
  elseif(NOT expect_ok AND rc EQUAL 0)
    message(FATAL_ERROR "${name}: expected the layer check to fail the configuration:\n${text}")
  endif()
  # CMake wraps long messages: compare without line breaks and indentation.
  string(REGEX REPLACE "[\n ]+" " " flat "${text}")
  foreach(line ${expected})
    string(FIND "${flat}" "${line}" at)
    if(at EQUAL -1)
      message(FATAL_ERROR "${name}: the output does not say \"${line}\":\n${text}")
    endif()
  endforeach()
  message(STATUS "${name}: ${rc} as expected")
  file(REMOVE_RECURSE ${build})
endfunction()

set(fixture ${CMAKE_CURRENT_LIST_DIR}/fixture)
configure(fixture_none ${fixture} TRUE "layer check: 7 targets, every link runs one way"
          -DBY_SOURCE_DIR=${BY_SOURCE_DIR} -DBY_VIOLATION=none)
configure(fixture_testbench ${fixture} FALSE
          "fx_brickyard (cli/) links fx_testutil, defined under testbenches/: product code never links test code"
          -DBY_SOURCE_DIR=${BY_SOURCE_DIR} -DBY_VIOLATION=testbench)
configure(fixture_upward ${fixture} FALSE
          "fx_hw (rtl_gen/, layer 3) links fx_soc (systemc_models/, layer 4)"
          -DBY_SOURCE_DIR=${BY_SOURCE_DIR} -DBY_VIOLATION=upward)
configure(fixture_sideways ${fixture} FALSE
          "fx_hw (rtl_gen/, layer 3) links fx_golden (models/, layer 3)"
          -DBY_SOURCE_DIR=${BY_SOURCE_DIR} -DBY_VIOLATION=sideways)
configure(fixture_unranked ${fixture} FALSE
          "fx_extra (extras/): the folder has no layer in BY_LAYER_RANKS"
          -DBY_SOURCE_DIR=${BY_SOURCE_DIR} -DBY_VIOLATION=unranked)
configure(fixture_floor ${fixture} FALSE
          "fx_support (support/, layer 0) links fx_config (spec/, layer 1)"
          -DBY_SOURCE_DIR=${BY_SOURCE_DIR} -DBY_VIOLATION=floor)

set(products "brickyard:by_testutil,by_rtlmodel:by_axi_memory,by_driver_tiny:by_testutil")
configure(project_products ${BY_SOURCE_DIR} FALSE
          "brickyard (cli/) links by_testutil, defined under testbenches/;by_rtlmodel (systemc_models/) links by_axi_memory, defined under testbenches/;by_driver_tiny (driver/) links by_testutil, defined under testbenches/"
          "-DBY_LAYER_CHECK_INJECT=${products}")
