/*
 * The generators' jump-ahead (core/rng_jump.c): the stored characteristic
 * polynomial against Berlekamp-Massey, axb__rng_jump(k) against k calls of
 * axb__rng_next (small, boundary and random k, several seeds), jumps
 * composed (a then b == a + b, for a, b too large to step), the skipper
 * (stepped and jumped gaps, its cache), and that a wrong polynomial or a
 * jump off by one is caught by the same comparisons.
 */
#include "core/rng_jump.h"
#include "testing.h"

#include <stdint.h>
#include <string.h>

static int same(const axb_rng *a, const axb_rng *b) {
  return memcmp(a->s, b->s, sizeof a->s) == 0;
}

/* The state after k sequential draws. */
static axb_rng stepped(uint64_t seed, uint64_t k) {
  axb_rng r;
  axb__rng_seed(&r, seed);
  for (uint64_t i = 0; i < k; ++i)
    (void)axb__rng_next(&r);
  return r;
}

static axb_rng jumped(uint64_t seed, uint64_t k) {
  axb_rng r;
  axb__rng_seed(&r, seed);
  axb__rng_jump(&r, k);
  return r;
}

static void test_charpoly(void) {
  axb_rng_poly p;
  int L = axb__rng_charpoly_bm(&p);
  CHECK(L == 256, "linear complexity %d, want 256", L);
  CHECK(memcmp(&p, &axb__rng_charpoly, sizeof p) == 0,
        "stored polynomial differs from Berlekamp-Massey's");
  CHECK(p.c[0] & 1, "p(0) = 0: the state map would be singular");
  /* x^0 and x^1 are themselves; x^256 reduces to p - x^256. */
  axb_rng_poly q;
  axb__rng_jump_poly(0, &q);
  CHECK(q.c[0] == 1 && !q.c[1] && !q.c[2] && !q.c[3], "x^0 mod p != 1");
  axb__rng_jump_poly(255, &q);
  CHECK(q.c[3] == 1ULL << 63 && !q.c[0], "x^255 mod p != x^255");
  axb__rng_jump_poly(256, &q);
  CHECK(memcmp(&q, &axb__rng_charpoly, sizeof q) == 0,
        "x^256 mod p != p - x^256");
}

/* jump(k) against k steps. */
static void test_against_steps(void) {
  static const uint64_t fixed[] = {0,   1,   2,    3,    63,   64,    65,
                                   127, 128, 255,  256,  257,  511,   512,
                                   513, 999, 1000, 4095, 4096, 65537, 1000003};
  static const uint64_t seeds[] = {0, 1, 42, 0xdeadbeefULL, ~0ULL};
  int bad = 0, cnt = 0;
  for (size_t s = 0; s < sizeof seeds / sizeof *seeds; ++s) {
    for (size_t i = 0; i < sizeof fixed / sizeof *fixed; ++i, ++cnt) {
      axb_rng a = stepped(seeds[s], fixed[i]), b = jumped(seeds[s], fixed[i]);
      if (!same(&a, &b)) ++bad;
      /* The draw after the jump too (the output, not only the state). */
      if (axb__rng_next(&a) != axb__rng_next(&b)) ++bad;
    }
    /* Random k up to ~1e6 from a separate stream. */
    axb_rng pick;
    axb__rng_seed(&pick, 7 + s);
    for (int t = 0; t < 12; ++t, ++cnt) {
      uint64_t k = (axb__rng_next(&pick) >> 44) % 1100000;
      axb_rng a = stepped(seeds[s], k), b = jumped(seeds[s], k);
      if (!same(&a, &b)) ++bad;
      /* A jump one short or one long never matches. */
      axb_rng c = jumped(seeds[s], k + 1);
      if (same(&a, &c)) ++bad;
    }
  }
  CHECK(bad == 0, "%d of %d jumps differ from stepping", bad, cnt);
}

/* jump(a) then jump(b) == jump(a + b) == jump(b) then jump(a), for a, b
   about 1e12 (and one pair near 2^63), which cannot be stepped; and jump
   by a differs from jump by a + 1. */
static void test_compose(void) {
  axb_rng pick;
  axb__rng_seed(&pick, 99);
  int bad = 0, cnt = 0;
  for (int t = 0; t < 16; ++t, ++cnt) {
    uint64_t a = (axb__rng_next(&pick) >> 24) % 2000000000000ULL;
    uint64_t b = (axb__rng_next(&pick) >> 24) % 2000000000000ULL;
    if (t == 15) {
      a = (1ULL << 62) + 12345;
      b = (1ULL << 62) - 1;
    }
    uint64_t seed = axb__rng_next(&pick);
    axb_rng x = jumped(seed, a), y = jumped(seed, b), z = jumped(seed, a + b);
    axb__rng_jump(&x, b);
    axb__rng_jump(&y, a);
    if (!same(&x, &z) || !same(&y, &z)) ++bad;
    axb_rng w = jumped(seed, a + b + 1);
    if (same(&w, &z)) ++bad;
    /* One step after jump(a + b) is jump(a + b + 1). */
    (void)axb__rng_next(&z);
    if (!same(&w, &z)) ++bad;
  }
  CHECK(bad == 0, "%d of %d compositions differ", bad, cnt);
}

/* The skipper: gaps below and above AXB_RNG_SKIP_MIN, repeated lengths
   (cache hits) and more distinct lengths than its cache holds, against one
   stepped stream. */
static void test_skipper(void) {
  axb_rng a, b;
  axb__rng_seed(&a, 5);
  b = a;
  axb_rng_skipper sk;
  memset(&sk, 0, sizeof sk);
  int bad = 0;
  for (int t = 0; t < 60; ++t) {
    uint64_t k = t % 3 == 0   ? (uint64_t)t
                 : t % 3 == 1 ? AXB_RNG_SKIP_MIN + 100
                              : AXB_RNG_SKIP_MIN + 1000 * (uint64_t)(t % 23);
    for (uint64_t i = 0; i < k; ++i)
      (void)axb__rng_next(&a);
    axb__rng_skip(&sk, &b, k);
    if (!same(&a, &b)) ++bad;
    if (axb__rng_next(&a) != axb__rng_next(&b)) ++bad;
  }
  CHECK(bad == 0, "%d skips differ from stepping", bad);
  CHECK(sk.jumps == 40 && sk.stepped > 0, "jumps %lld stepped %lld",
        (long long)sk.jumps, (long long)sk.stepped);
}

/* The comparisons above catch a wrong jump: the same comparison made with
   a polynomial one bit off, and with x^(k-1) in place of x^k, fails. */
static void test_sensitivity(void) {
  int caught = 0;
  for (int bit = 0; bit < 256; bit += 37) {
    axb_rng_poly q;
    axb__rng_jump_poly(1000, &q);
    q.c[bit >> 6] ^= 1ULL << (bit & 63);
    axb_rng a = stepped(3, 1000), b;
    axb__rng_seed(&b, 3);
    axb__rng_jump_apply(&b, &q);
    caught += !same(&a, &b);
  }
  axb_rng a = stepped(3, 1000), b = jumped(3, 999);
  caught += !same(&a, &b);
  CHECK(caught == 8, "only %d of 8 wrong jumps caught", caught);
}

int main(void) {
  test_charpoly();
  test_against_steps();
  test_compose();
  test_skipper();
  test_sensitivity();
  return test_finish("test_rng_jump");
}
