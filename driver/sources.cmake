# The driver's C sources, one list for both builds: the host libraries (driver/CMakeLists.txt)
# and the bare-metal library (driver/driver.cmake). The planner's (brickyard/plan.h) read no
# generated header: the host build compiles them once into by_plan, which the compiler links too.
set(BY_DRIVER_SOURCE_NAMES boveda.c boveda_tensor.c conv.c conv_loop.c cpu.c eltwise.c hw.c
    layernorm.c layers.c matmul.c status.c tile.c)
set(BY_PLAN_SOURCE_NAMES plan_conv.c plan_conv_loop.c plan_matmul.c plan_status.c)
list(TRANSFORM BY_DRIVER_SOURCE_NAMES PREPEND ${CMAKE_CURRENT_LIST_DIR}/src/
     OUTPUT_VARIABLE BY_DRIVER_SOURCE_FILES)
list(TRANSFORM BY_PLAN_SOURCE_NAMES PREPEND ${CMAKE_CURRENT_LIST_DIR}/src/
     OUTPUT_VARIABLE BY_PLAN_SOURCE_FILES)
