/* Gemmini programs write #include "include/gemmini_counter.h". */
#include "../gemmini_counter.h"
