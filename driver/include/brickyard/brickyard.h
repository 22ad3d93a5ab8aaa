/* The Brickyard driver: commands (accel.h), kernels (kernels.h), layer operations (layers.h),
 * CPU references (cpu.h) and Boveda compressed moves (boveda.h). */
#ifndef BRICKYARD_DRIVER_H
#define BRICKYARD_DRIVER_H

#include "brickyard/accel.h"
#include "brickyard/boveda.h"
#include "brickyard/cpu.h"
#include "brickyard/kernels.h"
#include "brickyard/layers.h"

#endif /* BRICKYARD_DRIVER_H */
