/*
 * The generators' random numbers: xoshiro256** (Blackman and Vigna, 2018)
 * seeded through splitmix64.  Only 64-bit integer operations and exact
 * integer-to-double conversions are used, so a seed gives the same stream of
 * bits, and the same doubles, on every platform and compiler.  Never rand().
 */
#ifndef AXB_RNG_H
#define AXB_RNG_H

#include <stdint.h>

typedef struct {
  uint64_t s[4];
} axb_rng;

/* splitmix64: the next output of the sequence whose state is *x. */
static inline uint64_t axb__splitmix64(uint64_t *x) {
  uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/* The four state words are the first four splitmix64 outputs from seed
   (never all zero, whatever the seed). */
static inline void axb__rng_seed(axb_rng *r, uint64_t seed) {
  uint64_t x = seed;
  for (int i = 0; i < 4; ++i)
    r->s[i] = axb__splitmix64(&x);
}

static inline uint64_t axb__rotl64(uint64_t x, int k) {
  return (x << k) | (x >> (64 - k));
}

/* xoshiro256**'s state update (linear over GF(2): rng_jump.c). */
static inline void axb__rng_advance(uint64_t *s) {
  uint64_t t = s[1] << 17;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = axb__rotl64(s[3], 45);
}

/* xoshiro256**: the next 64 random bits. */
static inline uint64_t axb__rng_next(axb_rng *r) {
  uint64_t out = axb__rotl64(r->s[1] * 5, 7) * 9;
  axb__rng_advance(r->s);
  return out;
}

/* Uniform in [0, 1): k 2^-53 with k the top 53 bits of one draw (exact). */
static inline double axb__rng_unit(axb_rng *r) {
  return (double)(axb__rng_next(r) >> 11) * 0x1p-53;
}

/* Uniform in (-1, 1), never 0: (2k + 1 - 2^53) 2^-53 with k the top 53
   bits of one draw, i.e. the odd multiples of 2^-53, symmetric about 0.
   Every step is exact. */
static inline double axb__rng_sym(axb_rng *r) {
  int64_t k = (int64_t)(axb__rng_next(r) >> 11);
  return (double)(2 * k + 1 - ((int64_t)1 << 53)) * 0x1p-53;
}

/* Integer in [0, m), 1 <= m <= 2^11: floor(k m / 2^53) with k the top 53
   bits of one draw (bias below m 2^-53). */
static inline int64_t axb__rng_below(axb_rng *r, uint64_t m) {
  return (int64_t)(((axb__rng_next(r) >> 11) * m) >> 53);
}

/* +1 or -1 from the top bit of one draw. */
static inline double axb__rng_sign(axb_rng *r) {
  return (axb__rng_next(r) >> 63) ? -1.0 : 1.0;
}

#endif
