/*
 * Jump-ahead for xoshiro256** (rng.h).
 *
 * The mathematics.  The state update of axb__rng_next uses only XORs,
 * shifts and rotations of the four words, so it is a linear map of the
 * 256-bit state over GF(2): s' = M s, M a 256 x 256 bit matrix (the output
 * multiplications act on a copy and do not touch the state).  Let p(x) be
 * the characteristic polynomial of M, of degree 256.  By Cayley-Hamilton
 * p(M) = 0, so for any k, writing x^k = a(x) p(x) + c(x) with
 * c(x) = x^k mod p(x) = sum_{i<256} c_i x^i,
 *     M^k s = c(M) s = sum_i c_i M^i s,
 * i.e. the state k steps ahead is the XOR of the states M^i s, i < 256,
 * for which c_i = 1: 256 steps of a copy of the state, accumulated.
 *
 * p(x) itself: the sequence b_n = (bit 0 of word 0 of M^n s) satisfies the
 * recurrence of p (p(M) = 0), and as the generator has full period
 * 2^256 - 1, p is primitive, hence irreducible, and the shortest
 * recurrence of b for any nonzero s has degree 256: Berlekamp-Massey on
 * 512 terms of b gives exactly p.  It was computed so once
 * (axb__rng_charpoly_bm) and is stored below; tests/test_rng_jump.c
 * recomputes it.
 *
 * c(x) = x^k mod p by left-to-right binary exponentiation: for each bit of
 * k from the top, c := c^2 mod p, then c := x c mod p if the bit is set.
 * Over GF(2) squaring is linear: (sum c_i x^i)^2 = sum c_i x^(2i), i.e. the
 * bits spread apart with zeros between them; multiplying by x is a shift.
 * A product of degree < 512 is reduced with R_t = x^(256+t) mod p,
 * t < 256 (R_0 = p - x^256, R_(t+1) = x R_t mod p): the high half's set
 * bits t contribute R_t each.  Cost: 256 shifts for the table, then per bit
 * of k one spread and at most 256 four-word XORs.
 */
#include "core/rng_jump.h"

#include <string.h>

/* Berlekamp-Massey's result (see above), x^256 implied. */
const axb_rng_poly axb__rng_charpoly = {
    {0x9d116f2bb0f0f001ULL, 0x0280002bcefd1a5eULL, 0x04b4edcf26259f85ULL,
     0x0003c03c3f3ecb19ULL}};

/* Polynomials of degree <= 256 as 5 words (Berlekamp-Massey only). */
static int bit5(const uint64_t *a, int t) {
  return (int)(a[t >> 6] >> (t & 63)) & 1;
}

/* a ^= x^m b, degrees <= 256 (terms beyond x^319 cannot occur). */
static void add_shifted5(uint64_t *a, const uint64_t *b, int m) {
  int w = m >> 6, sh = m & 63;
  for (int i = 4; i >= w; --i) {
    uint64_t v = b[i - w] << sh;
    if (sh && i - w - 1 >= 0) v |= b[i - w - 1] >> (64 - sh);
    a[i] ^= v;
  }
}

int axb__rng_charpoly_bm(axb_rng_poly *p) {
  enum { N = 512 };
  uint8_t b[N];
  axb_rng r;
  axb__rng_seed(&r, 1);
  for (int n = 0; n < N; ++n) {
    b[n] = (uint8_t)(r.s[0] & 1);
    axb__rng_advance(r.s);
  }
  /* C(x) = 1 + c_1 x + ... + c_L x^L: b_n = sum_{i=1..L} c_i b_(n-i). */
  uint64_t C[5] = {1, 0, 0, 0, 0}, B[5] = {1, 0, 0, 0, 0}, T[5];
  int L = 0, m = 1;
  for (int n = 0; n < N; ++n) {
    int d = b[n];
    for (int i = 1; i <= L; ++i)
      d ^= bit5(C, i) & b[n - i];
    if (!d) {
      ++m;
    } else if (2 * L <= n) {
      memcpy(T, C, sizeof T);
      add_shifted5(C, B, m);
      L = n + 1 - L;
      memcpy(B, T, sizeof B);
      m = 1;
    } else {
      add_shifted5(C, B, m);
      ++m;
    }
  }
  /* p(x) = x^L C(1/x): the coefficient of x^(L-i) is c_i. */
  memset(p, 0, sizeof *p);
  for (int i = 1; i <= L && L == 256; ++i)
    if (bit5(C, i)) p->c[(L - i) >> 6] |= 1ULL << ((L - i) & 63);
  return L;
}

/* a := x a mod p; the bit shifted out of x^255 is x^256 = p - x^256. */
static void mulx(uint64_t *a) {
  uint64_t top = a[3] >> 63;
  a[3] = a[3] << 1 | a[2] >> 63;
  a[2] = a[2] << 1 | a[1] >> 63;
  a[1] = a[1] << 1 | a[0] >> 63;
  a[0] <<= 1;
  uint64_t mask = 0 - top;
  for (int w = 0; w < 4; ++w)
    a[w] ^= axb__rng_charpoly.c[w] & mask;
}

/* The 32 bits of x spread to the even bits of the result. */
static uint64_t spread32(uint64_t x) {
  x &= 0xffffffffULL;
  x = (x | x << 16) & 0x0000ffff0000ffffULL;
  x = (x | x << 8) & 0x00ff00ff00ff00ffULL;
  x = (x | x << 4) & 0x0f0f0f0f0f0f0f0fULL;
  x = (x | x << 2) & 0x3333333333333333ULL;
  x = (x | x << 1) & 0x5555555555555555ULL;
  return x;
}

/* a := a^2 mod p, R the table R_t = x^(256+t) mod p. */
static void square(uint64_t *a, const uint64_t (*R)[4]) {
  uint64_t w[8];
  for (int i = 0; i < 4; ++i) {
    w[2 * i] = spread32(a[i]);
    w[2 * i + 1] = spread32(a[i] >> 32);
  }
  memcpy(a, w, 4 * sizeof *a);
  for (int t = 0; t < 256; ++t) {
    uint64_t mask = 0 - (w[4 + (t >> 6)] >> (t & 63) & 1);
    a[0] ^= R[t][0] & mask;
    a[1] ^= R[t][1] & mask;
    a[2] ^= R[t][2] & mask;
    a[3] ^= R[t][3] & mask;
  }
}

void axb__rng_jump_poly(uint64_t k, axb_rng_poly *q) {
  uint64_t R[256][4];
  memcpy(R[0], axb__rng_charpoly.c, sizeof R[0]);
  for (int t = 1; t < 256; ++t) {
    memcpy(R[t], R[t - 1], sizeof R[t]);
    mulx(R[t]);
  }
  uint64_t *c = q->c;
  memset(q, 0, sizeof *q);
  c[0] = 1;
  int top = 63;
  while (top >= 0 && !(k >> top & 1))
    --top;
  for (int b = top; b >= 0; --b) {
    square(c, (const uint64_t(*)[4])R);
    if (k >> b & 1) mulx(c);
  }
}

void axb__rng_jump_apply(axb_rng *r, const axb_rng_poly *q) {
  uint64_t s[4], acc[4] = {0, 0, 0, 0};
  memcpy(s, r->s, sizeof s);
  int top = 255;
  while (top >= 0 && !(q->c[top >> 6] >> (top & 63) & 1))
    --top;
  for (int i = 0; i <= top; ++i) {
    uint64_t mask = 0 - (q->c[i >> 6] >> (i & 63) & 1);
    acc[0] ^= s[0] & mask;
    acc[1] ^= s[1] & mask;
    acc[2] ^= s[2] & mask;
    acc[3] ^= s[3] & mask;
    axb__rng_advance(s);
  }
  memcpy(r->s, acc, sizeof acc);
}

void axb__rng_jump(axb_rng *r, uint64_t k) {
  axb_rng_poly q;
  axb__rng_jump_poly(k, &q);
  axb__rng_jump_apply(r, &q);
}

void axb__rng_skip(axb_rng_skipper *S, axb_rng *r, uint64_t k) {
  if (k < (S->min ? S->min : AXB_RNG_SKIP_MIN)) {
    S->stepped += (int64_t)k;
    for (; k > 0; --k)
      axb__rng_advance(r->s);
    return;
  }
  int e = 0;
  while (e < S->used && S->k[e] != k)
    ++e;
  if (e == S->used) {
    if (S->used < AXB_RNG_SKIP_CACHE)
      e = S->used++;
    else {
      e = S->next;
      S->next = (S->next + 1) % AXB_RNG_SKIP_CACHE;
    }
    S->k[e] = k;
    axb__rng_jump_poly(k, &S->q[e]);
  }
  ++S->jumps;
  axb__rng_jump_apply(r, &S->q[e]);
}
