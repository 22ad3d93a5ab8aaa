/* The Brickyard driver: commands (accel.h), kernels (kernels.h) and CPU references (cpu.h). */
#ifndef BRICKYARD_DRIVER_H
#define BRICKYARD_DRIVER_H

#include "brickyard/accel.h"
#include "brickyard/cpu.h"
#include "brickyard/kernels.h"

#endif /* BRICKYARD_DRIVER_H */
