/*
 * Jump-ahead for the generators' stream (rng.h): the state k draws later in
 * O(256 log k) word operations instead of k draws (rng_jump.c states the
 * mathematics).  Used by the distributed generator (dist/dist_io.c) to skip
 * the draws of the entries other ranks own.
 */
#ifndef AXB_RNG_JUMP_H
#define AXB_RNG_JUMP_H

#include "core/rng.h"

#include <stdint.h>

/* A polynomial over GF(2) of degree < 256: bit t % 64 of c[t / 64] is the
   coefficient of x^t. */
typedef struct {
  uint64_t c[4];
} axb_rng_poly;

/* The characteristic polynomial p(x) = x^256 + sum_t p_t x^t of the state
   map: its low coefficients p_t (x^256 implied). */
extern const axb_rng_poly axb__rng_charpoly;

/* p(x) recomputed by Berlekamp-Massey on 512 output bits (tests check the
   constant with it).  Returns the linear complexity found (256). */
int axb__rng_charpoly_bm(axb_rng_poly *p);

/* *q = x^k mod p(x). */
void axb__rng_jump_poly(uint64_t k, axb_rng_poly *q);

/* r := M^k r where *q = x^k mod p(x) (axb__rng_jump_poly). */
void axb__rng_jump_apply(axb_rng *r, const axb_rng_poly *q);

/* r := the state after k calls of axb__rng_next. */
void axb__rng_jump(axb_rng *r, uint64_t k);

/* Skipping many gaps of few distinct lengths: gaps shorter than
   AXB_RNG_SKIP_MIN draws are stepped, longer ones jumped with the
   polynomial of their length, kept in a small cache.  Measured on the
   2-core VM (EPYC, gcc -O2): a step 1.1 ns, applying a polynomial 0.56 us
   (about 500 steps: 256 state steps and their XORs), x^k mod p 11 us at
   k = 1e6, 25 us at k = 2^62; 4096 keeps a jump well under the steps it
   replaces even with the cache missing now and then. */
enum { AXB_RNG_SKIP_MIN = 4096, AXB_RNG_SKIP_CACHE = 8 };
typedef struct {
  uint64_t k[AXB_RNG_SKIP_CACHE];
  axb_rng_poly q[AXB_RNG_SKIP_CACHE];
  int used, next;
  uint64_t min;           /* the shortest gap jumped; 0: AXB_RNG_SKIP_MIN */
  int64_t jumps, stepped; /* statistics: jumps applied, draws stepped */
} axb_rng_skipper;

/* r := the state after k draws (stepped or jumped, as above).  *S starts
   zeroed (memset or = {0}). */
void axb__rng_skip(axb_rng_skipper *S, axb_rng *r, uint64_t k);

#endif
