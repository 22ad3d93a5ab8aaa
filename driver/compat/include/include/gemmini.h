/* Gemmini programs write #include "include/gemmini.h". */
#include "../gemmini.h"
