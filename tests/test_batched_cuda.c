/*
 * test_batched.c on a CUDA handle with device arrays (exit 77 when the
 * build has no CUDA or the machine no GPU).
 */
#define TEST_BATCHED_CUDA 1
#include "test_batched.c"
