# The driver's C sources, one list for both builds: the host libraries (driver/CMakeLists.txt)
# and the bare-metal library (driver/driver.cmake).
set(BY_DRIVER_SOURCE_NAMES boveda.c conv.c conv_loop.c cpu.c eltwise.c layers.c matmul.c status.c tile.c)
list(TRANSFORM BY_DRIVER_SOURCE_NAMES PREPEND ${CMAKE_CURRENT_LIST_DIR}/src/
     OUTPUT_VARIABLE BY_DRIVER_SOURCE_FILES)
