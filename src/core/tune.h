/* AUTO dispatch (src/core/tune.c): the handle an AUTO handle hands a
   problem of order n (or a batch of them) to. */
#ifndef AXB_TUNE_H
#define AXB_TUNE_H

#include "core/internal.h"

/* h itself, or (AUTO handle, GPU present, n >= crossover) its CUDA
   sub-handle, created on first use.  Never fails: any trouble with the GPU
   keeps the work on h (the CPU). */
axb_handle axb__auto_pick(axb_handle h, axb_tune_routine r, int64_t n);
/* The same for a batched call on host arrays (r: AXB_TUNE_BATCHED_*):
   the CUDA sub-handle when axb_tuning_choose_batched says CUDA. */
axb_handle axb__auto_pick_batched(axb_handle h, axb_tune_routine r, int64_t n,
                                  int64_t batch);

#endif
