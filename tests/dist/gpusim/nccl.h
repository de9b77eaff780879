/*
 * Stand-in for NCCL's header, for the host simulation of GPU ranks
 * (tests/dist/gpusim/gpusim.c): the calls src/dist/dist_gpu.c makes, over
 * MPI.  A communicator is a duplicate of the MPI communicator it serves:
 * src/dist/dist_gpu.c creates it with axb_gpusim_nccl_init where this
 * header defines AXB_GPUSIM_NCCL (ncclCommInitRank cannot know it).
 */
#ifndef AXB_GPUSIM_NCCL_H
#define AXB_GPUSIM_NCCL_H
#include <stddef.h>

#include "cuda_runtime.h"

typedef enum { ncclSuccess = 0, ncclSystemError = 2 } ncclResult_t;
typedef enum { ncclUint8 = 1 } ncclDataType_t;
typedef struct {
  char internal[128];
} ncclUniqueId;
typedef struct axb_gpusim_nccl *ncclComm_t;

ncclResult_t ncclGetUniqueId(ncclUniqueId *id);
ncclResult_t ncclCommInitRank(ncclComm_t *comm, int nranks, ncclUniqueId id,
                              int rank);
#define AXB_GPUSIM_NCCL 1
#include <mpi.h>
ncclResult_t axb_gpusim_nccl_init(ncclComm_t *comm, MPI_Comm mpi);
ncclResult_t ncclBroadcast(const void *send, void *recv, size_t count,
                           ncclDataType_t type, int root, ncclComm_t comm,
                           cudaStream_t stream);
ncclResult_t ncclSend(const void *send, size_t count, ncclDataType_t type,
                      int peer, ncclComm_t comm, cudaStream_t stream);
ncclResult_t ncclRecv(void *recv, size_t count, ncclDataType_t type, int peer,
                      ncclComm_t comm, cudaStream_t stream);
ncclResult_t ncclCommDestroy(ncclComm_t comm);
ncclResult_t ncclCommAbort(ncclComm_t comm);
ncclResult_t ncclGroupStart(void);
ncclResult_t ncclGroupEnd(void);
#endif
