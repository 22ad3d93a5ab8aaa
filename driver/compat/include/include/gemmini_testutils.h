/* Gemmini programs write #include "include/gemmini_testutils.h". */
#include "../gemmini_testutils.h"
