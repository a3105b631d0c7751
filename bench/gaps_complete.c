// Exploration tool (not part of the solver): the COMPLETE search space of a Gaps (no redeal) deal, Solvitaire's rule
// written in (a leftmost gap takes any Two, one at another row's left edge too; a gap after X takes X's successor;
// a gap after the top rank stays shut), searched to its end: docs/analysis.md, "Grid games: the grid search",
// session 10.
//
//   python bench/gaps_cells.py 0 20 | sed -n 3p | cut -d' ' -f2- | ./gaps_complete COLUMNS FLAGS LIMIT LOG2TABLE
//
// FLAGS (added up):
//   1 the pooled first column (GridSearch.pool_steps: while a leftmost cell holding a Two or a gap is a gap,
//     positions that differ only in how the Twos lie there are one, and the moves of every one of them are tried);
//   2 the next card of a run (GridSearch.forced, the sound one). 3 is the solver's complete search: searched to its
//     end, a deal stores exactly the positions of GridSearch.depth_first with the symmetric key off (the stored set
//     is the closure of the moves, whatever their order; checked on 4 x 5 and 4 x 6 deals: 511, 13,084, 112,814);
//   4 statistics: positions by Twos at the left edge and by fixed cards, the entries into the locked first column
//     (all four Twos at the left edge) and the new positions below each;
//   8 frozen cards (a proof of loss): the largest set S of filled cells whose cards never move (a Two's: every
//     leftmost cell in S; another card's: its predecessor in S, and the cell right of that one in S or off the
//     grid) holds a card outside the runs, or a gap every win fills stays shut (no card ever moves while the cells
//     it needs stay as they are: the first card of S to move would need one of them to have changed first);
//   16 stubborn sets where every leftmost Two is locked (a move is move(x): x into the cell right of x - 1; only
//     the enabled moves of a set closed under: x - 1 unless fixed; for an enabled x, x + 1 unless x is the top card,
//     ends its row or has x + 1 on its right; for a disabled x, the card right of x - 1 unless fixed. Deadlock
//     preserving after Valmari, and the won grid is a deadlock); 16 + 64: the same without the last rule, NOT sound,
//     a bound on what a stubborn set could reach;
//   32 statistics of the gaps' solo walks (each gap's moves with the others standing still: how often they are
//     apart, so that the position has one end);
//   128 the lazy first column (once the last leftmost gap takes a Two, which Two lies in a row is chosen only when
//     the gap right of it is filled; the key sorts the unread rows' Twos and holds which rows are read): sound (a
//     position stands for "some order of the unread Twos wins"), not a gain.
//   256 NOT sound, a bound: the last leftmost gap takes the fourth Two only when no other move is left (it turns 7
//     of the 64 small wins below into losses: the entry does not commute with a Three read into a second-column gap,
//     nor with the fourth Two's Three moving right of it).
//   512 the entry played first (sound, below: entry_first) where no second-column card and no card right of the
//     fourth Two can move before it.
// Positions are stored as 64-bit Zobrist hashes (a collision can only skip a position: "lost" is a measurement,
// not a proof), LIMIT positions at most. Four rows of COLUMNS cells, the cards Two to COLUMNS of four suits
// (suit * 16 + rank, 0 for a gap), one row after the other on stdin. Every reduction keeps the verdicts of flags 3
// on 70 small deals (40 of 4 x 5, seed 17; 30 of 4 x 6, seed 31; 64 won).
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define R 4
static int C, N, TOP;
static int pool_on, forced_on, stats_on, lazy_on, late_on;
#define DM 63  // the byte of a position holding the rows whose Two is read (the lazy first column)
#define ALL ((1 << R) - 1)
static uint64_t Z[64][64];
static uint64_t *table;
static uint64_t mask_;
static long stored = 0, limit;
static long by_twos[5], by_fixed[64];  // stored positions by how many leftmost cells hold a Two
static long max_pending = 0;
static uint64_t rng = 88172645463325252ULL;
static uint64_t xr(void) { rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17; return rng; }
int rank_(int c) { return c & 15; }

int twos_left(const uint8_t *cells) {
  int n = 0;
  for (int r = 0; r < R; r++) n += cells[r * C] && rank_(cells[r * C]) == 2;
  return n;
}

// The pooled key: the Twos of the spots (leftmost cells holding a Two or a gap) sorted, gaps last, when a spot is a gap.
int rank_(int c);
int twos_left(const uint8_t *cells);
static void canonical(const uint8_t *cells, uint8_t *out) {
  memcpy(out, cells, N);
  if (lazy_on && twos_left(cells) == R) {
    int d = cells[DM], rows[R], cards[R], n = 0;
    for (int r = 0; r < R; r++) if (!(d >> r & 1)) { rows[n] = r; cards[n++] = cells[r * C]; }
    for (int i = 1; i < n; i++) { int a = cards[i], j = i - 1; while (j >= 0 && cards[j] > a) { cards[j + 1] = cards[j]; j--; } cards[j + 1] = a; }
    for (int i = 0; i < n; i++) out[rows[i] * C] = cards[i];
    return;
  }
  if (!pool_on) return;
  int spots[R], ns = 0, cards[R], nc = 0, gap = 0;
  for (int r = 0; r < R; r++) {
    int s = r * C;
    if (!cells[s]) { spots[ns++] = s; gap = 1; }
    else if (rank_(cells[s]) == 2) { spots[ns++] = s; cards[nc++] = cells[s]; }
  }
  if (!gap) return;
  for (int i = 1; i < nc; i++) { int a = cards[i], j = i - 1; while (j >= 0 && cards[j] > a) { cards[j + 1] = cards[j]; j--; } cards[j + 1] = a; }
  for (int i = 0; i < ns; i++) out[spots[i]] = i < nc ? cards[i] : 0;
}

static int fixedof(const uint8_t *cells, uint8_t *fx);
static int insert(const uint8_t *cells) {
  uint8_t key[64];
  canonical(cells, key);
  uint64_t h = 0;
  for (int i = 0; i < N; i++) h ^= Z[i][key[i]];
  if (lazy_on && twos_left(cells) == R) h ^= Z[DM][cells[DM]];
  if (!h) h = 1;
  uint64_t i = h & mask_;
  while (table[i]) { if (table[i] == h) return 0; i = (i + 1) & mask_; }
  table[i] = h;
  stored++;
  if (!(stored & ((1L << 24) - 1))) { fprintf(stderr, "%ld stored\n", stored); fflush(stderr); }
  if (stats_on) { uint8_t f[64]; int t = twos_left(cells); by_twos[t]++; by_fixed[fixedof(cells, f)]++; }
  return 1;
}

// Fixed cards: only once every leftmost cell holds a Two (locked), the runs from them.
static int fixedof(const uint8_t *cells, uint8_t *fx) {
  memset(fx, 0, N);
  if (twos_left(cells) != R) return 0;
  int n = 0;
  for (int r = 0; r < R; r++) {
    int s = r * C;
    if (lazy_on && !(cells[DM] >> r & 1)) continue;  // its Two not read yet: which one lies there is open
    fx[s] = 1; n++;
    for (int k = 1; k < C; k++) { if (cells[s + k] && cells[s + k] == cells[s + k - 1] + 1) { fx[s + k] = 1; n++; } else break; }
  }
  return n;
}

static void place(const uint8_t *cells, int8_t *where) {
  memset(where, -1, 64);
  for (int i = 0; i < N; i++) if (cells[i]) where[cells[i]] = i;
}

enum { OPEN, WON, DEAD };
// Whether some Two of the unread rows in each unread row makes the grid won (the lazy first column).
static int lazy_won(const uint8_t *cells) {
  for (int r = 0; r < R; r++) {
    int s = r * C, c1 = cells[s + 1];
    if (!c1 || rank_(c1) != 3) return 0;
    if ((cells[DM] >> r & 1) && cells[s] != c1 - 1) return 0;
    for (int k = 2; k < C - 1; k++) if (cells[s + k] != c1 + k - 1) return 0;
  }
  return 1;
}
static int frozen_on;
static long frozen_cuts = 0;
// Whether the frozen cards prove the position lost: the largest set S of filled cells whose cards never move
// (a Two's: every leftmost cell in S; another card's: its predecessor in S with the cell on that one's right in S or
// off the grid) holds a card outside the runs, or a gap every win fills stays shut (its left neighbour in S, a top
// card or one whose successor is in S).
static int frozen_lost(const uint8_t *cells, const uint8_t *fx) {
  uint8_t in[64]; int8_t where[64];
  int lazy = lazy_on && twos_left(cells) == R;
  place(cells, where);
  for (int i = 0; i < N; i++) in[i] = cells[i] != 0;
  int changed = 1;
  while (changed) {
    changed = 0;
    int left_all = 1;
    for (int r = 0; r < R; r++) left_all &= in[r * C];
    for (int i = 0; i < N; i++) {
      if (!in[i]) continue;
      int y = cells[i], ok;
      if (rank_(y) == 2) ok = left_all;
      else if (lazy && rank_(y) == 3 && where[y - 1] % C == 0 && !(cells[DM] >> (where[y - 1] / C) & 1)) ok = 0;
      else { int q = where[y - 1]; ok = in[q] && (q % C == C - 1 || in[q + 1]); }
      if (!ok) { in[i] = 0; changed = 1; }
    }
  }
  for (int i = 0; i < N; i++) if (in[i] && !fx[i] && !(lazy && i % C == 0)) return 1;
  for (int g = 0; g < N; g++) {
    if (cells[g] || g % C == 0 || g % C == C - 1 || !in[g - 1]) continue;
    if (lazy && g % C == 1 && !(cells[DM] >> (g / C) & 1)) continue;
    int l = cells[g - 1];
    if (rank_(l) == TOP || in[where[l + 1]]) return 1;
  }
  return 0;
}
// The sound forced chain of GridSearch.forced (gaps in order, the first forced move each time).
static int settle(uint8_t *cells, int *chain) {
  uint8_t fx[64]; int8_t where[64];
  *chain = 0;
  for (;;) {
    int nf = fixedof(cells, fx);
    if (nf == R * (C - 1)) return WON;
    if (lazy_on && twos_left(cells) == R && cells[DM] != ALL && lazy_won(cells)) return WON;
    if (frozen_on && frozen_lost(cells, fx)) { frozen_cuts++; return DEAD; }
    if (!forced_on || !nf) return OPEN;
    place(cells, where);
    int did = 0;
    for (int g = 0; g < N; g++) {
      int col = g % C;
      if (cells[g] || col == C - 1 || col == 0 || !fx[g - 1]) continue;
      int l = cells[g - 1];
      if (rank_(l) == TOP) return DEAD;
      int x = l + 1, s = where[x];
      if (s < 0 || fx[s]) return DEAD;
      int ok = s % C == C - 1 || rank_(x) == TOP || cells[s + 1] == x + 1 || fx[where[x + 1]];
      if (!ok) continue;
      cells[g] = x; cells[s] = 0; (*chain)++; did = 1;
      break;
    }
    if (!did) return OPEN;
  }
}

static int por_on;
static long por_cut = 0, por_nodes = 0, hist[8][8];
// The stubborn set of a position where every leftmost cell holds a Two (docs/analysis.md): a move is move(x), x into
// the cell right of x - 1. Grown from the card `start` whose move is enabled: with x, x - 1 unless fixed; with an
// enabled x, x + 1 unless x is the top card, lies at the end of its row or has x + 1 on its right; with a disabled x,
// the card z on the right of x - 1 unless fixed. Returns the cards of the set, as a mask over card codes.
static uint64_t stubborn(const uint8_t *cells, const int8_t *where, const uint8_t *fx, int start) {
  uint64_t in = 1ULL << start;
  int stack[64], n = 0;
  stack[n++] = start;
  while (n) {
    int x = stack[--n];
    int q = where[x - 1];
    if (!fx[q] && !(in >> (x - 1) & 1)) { in |= 1ULL << (x - 1); stack[n++] = x - 1; }
    int enabled = q % C != C - 1 && !cells[q + 1];
    if (enabled) {
      int a = where[x];
      if (rank_(x) < TOP && a % C != C - 1 && cells[a + 1] != x + 1 && !(in >> (x + 1) & 1)) { in |= 1ULL << (x + 1); stack[n++] = x + 1; }
    } else if (q % C != C - 1 && !(por_on & 64)) {
      int z = cells[q + 1];
      if (!fx[q + 1] && !(in >> z & 1)) { in |= 1ULL << z; stack[n++] = z; }
    }
  }
  return in;
}

static int walks_on;
static long walk_positions = 0, walk_free = 0, walk_single[5];
// Each gap's solo walk (the others standing still): the cells it is a gap in, as a 64-bit mask. Returns whether
// the walks of every two gaps are apart: no cell shared and none right of a cell of another's (module doc).
static int walks_apart(const uint8_t *cells, int *alone) {
  uint8_t w[64]; int8_t where[64];
  uint64_t G[R]; int gaps[R], ng = 0;
  for (int i = 0; i < N; i++) if (!cells[i]) gaps[ng++] = i;
  for (int j = 0; j < ng; j++) {
    memcpy(w, cells, N); place(w, where);
    int g = gaps[j]; uint64_t m = 1ULL << g;
    for (int step = 0; step < 400; step++) {
      if (g % C == 0) { m = ~0ULL; break; }
      int l = w[g - 1];
      if (!l || rank_(l) == TOP) break;
      int a = where[l + 1];
      w[g] = l + 1; w[a] = 0; where[l + 1] = g; g = a; m |= 1ULL << g;
      if (step == 399) m = ~0ULL;
    }
    G[j] = m;
  }
  int apart = 1; *alone = 0;
  for (int j = 0; j < ng; j++) {
    int free_ = 1;
    for (int k = 0; k < ng; k++) if (k != j && ((G[j] & G[k]) || ((G[j] << 1) & G[k]) || ((G[k] << 1) & G[j]))) free_ = 0;
    *alone += free_; apart &= free_;
  }
  return apart;
}

static uint8_t *pending; static uint8_t *pflag; static long npending = 0, cap = 0; static int entry_flag = 0;
static long entries = 0, entry_sizes[40];
static void push(const uint8_t *cells) {
  if (npending == cap) { cap = cap ? cap * 2 : 1 << 16; pending = realloc(pending, (size_t)cap * 64); pflag = realloc(pflag, (size_t)cap); if (!pending) { fprintf(stderr, "out of memory\n"); exit(3); } }
  memcpy(pending + (size_t)npending * 64, cells, 64);
  pflag[npending] = entry_flag;
  npending++;
  if (npending > max_pending) max_pending = npending;
}

// Try the move (source, gap) of `base`: store, settle, store; push what is to be expanded. WON when it wins.
static int try_move(const uint8_t *base, int s, int g) {
  uint8_t p[64];
  memcpy(p, base, 64);
  p[g] = p[s]; p[s] = 0;
  if (twos_left(base) < R && twos_left(p) == R) p[DM] = 0;  // the last hole filled: every order of the Twos was open
  if (!insert(p)) return OPEN;
  int chain;
  int r = settle(p, &chain);
  if (r == WON) return WON;
  if (chain && !insert(p)) return OPEN;
  if (r == DEAD) return OPEN;
  entry_flag = twos_left(base) < R && twos_left(p) == R;
  push(p);
  entry_flag = 0;
  return OPEN;
}

static int early_on;
static long early_hits = 0;
// Flag 512: whether the entry (the fourth Two into the last leftmost gap) commutes with every move that can come
// before it, so that it may be played first: no card of the second column and none right of the fourth Two ever
// moves before it (the largest set S of filled cells whose cards stay put until the entry: a Two; a Three whose Two is
// at the left edge, every second-column cell in S (it may go right of any of them); the fourth Two's Three, the cell
// right of that Two in S or off the grid; another card, its predecessor in S with the cell right of it in S or off the
// grid). A move before the entry then reads no leftmost cell, nor the fourth Two's cell or the one right of it.
static int entry_first(const uint8_t *cells, int b) {
  uint8_t in[64]; int8_t where[64];
  place(cells, where);
  for (int i = 0; i < N; i++) in[i] = cells[i] != 0;
  int changed = 1;
  while (changed) {
    changed = 0;
    int col1 = 1;
    for (int r = 0; r < R; r++) col1 &= in[r * C + 1];
    for (int i = 0; i < N; i++) {
      if (!in[i]) continue;
      int y = cells[i], ok;
      if (rank_(y) == 2) ok = 1;
      else if (rank_(y) == 3 && where[y - 1] % C == 0) ok = col1;
      else { int q = where[y - 1]; ok = in[q] && (q % C == C - 1 || in[q + 1]); }
      if (!ok) { in[i] = 0; changed = 1; }
    }
  }
  for (int r = 0; r < R; r++) if (!in[r * C + 1]) return 0;
  return b % C == C - 1 || in[b + 1];
}

static int next_perm(int *a, int n) {
  int i = n - 2;
  while (i >= 0 && a[i] >= a[i + 1]) i--;
  if (i < 0) return 0;
  int j = n - 1;
  while (a[j] <= a[i]) j--;
  int t = a[i]; a[i] = a[j]; a[j] = t;
  for (int l = i + 1, r = n - 1; l < r; l++, r--) { t = a[l]; a[l] = a[r]; a[r] = t; }
  return 1;
}

// Every move of every position of the class of `cells` (its moves alone when no spot is a gap), but those between spots.
static int expand(const uint8_t *cells) {
  uint8_t fx[64], a[64]; int8_t where[64];
  int spots[R], ns = 0, content[R], gap = 0;
  for (int r = 0; r < R; r++) {
    int s = r * C;
    if (!cells[s] || rank_(cells[s]) == 2) { spots[ns] = s; content[ns++] = cells[s]; gap |= !cells[s]; }
  }
  int pooled = pool_on && gap;
  if (pooled) { for (int i = 1; i < ns; i++) { int v = content[i], j = i - 1; while (j >= 0 && content[j] > v) { content[j + 1] = content[j]; j--; } content[j + 1] = v; } }
  uint64_t allowed = ~0ULL;
  int late = 0;  // flag 256 (NOT sound, a bound): the last leftmost gap takes a Two only when no other move is left
  if (late_on && pooled) {
    int holes = 0;
    for (int i = 0; i < ns; i++) holes += !cells[spots[i]];
    for (int g = 0; holes == 1 && ns == R && g < N && !late; g++) {
      if (cells[g] || g % C == 0) continue;
      int l = cells[g - 1];
      if ((l && rank_(l) < TOP) || (g % C == 1 && (!l || rank_(l) == 2))) late = 1;
    }
  }
  int only_entry = 0;
  if (early_on && pooled && ns == R) {
    int holes = 0, b = -1;
    for (int i = 0; i < ns; i++) holes += !cells[spots[i]];
    for (int su = 0; su < 4; su++) { int i; for (i = 0; i < N; i++) if (cells[i] == su * 16 + 2 && i % C) b = i; }
    if (holes == 1 && b >= 0 && entry_first(cells, b)) { only_entry = 1; early_hits++; }
  }
  if (walks_on && !pooled && twos_left(cells) == R) {
    int alone; walk_positions++; walk_free += walks_apart(cells, &alone); walk_single[alone]++;
  }
  if ((por_on & 16) && !pooled && twos_left(cells) == R) {
    fixedof(cells, fx); place(cells, where);
    int best = 99, total = 0;
    for (int g = 0; g < N; g++) {
      if (cells[g] || g % C == 0 || !cells[g - 1] || rank_(cells[g - 1]) == TOP) continue;
      total++;
      uint64_t t = stubborn(cells, where, fx, cells[g - 1] + 1);
      int k = 0;
      for (int h = 0; h < N; h++) if (!cells[h] && h % C && cells[h - 1] && rank_(cells[h - 1]) < TOP && (t >> (cells[h - 1] + 1) & 1)) k++;
      if (k < best) { best = k; allowed = t; }
    }
    por_nodes++;
    por_cut += total - (best == 99 ? 0 : best);
    if (stats_on && total < 8 && best < 8) hist[total][best]++;
  }
  do {
    memcpy(a, cells, 64);
    if (pooled) for (int i = 0; i < ns; i++) a[spots[i]] = content[i];
    if (pooled) memset(fx, 0, N);
    else fixedof(a, fx);
    place(a, where);
    for (int g = 0; g < N; g++) {
      if (a[g]) continue;
      int col = g % C;
      if (col == 0) {
        for (int su = 0; su < 4; su++) {
          int s = where[su * 16 + 2];
          if (s < 0 || fx[s]) continue;
          if (pooled && s % C == 0) continue;  // between two spots: the same class
          if (late) continue;
          if (try_move(a, s, g) == WON) return WON;
        }
      } else if (only_entry) {
        continue;
      } else if (lazy_on && col == 1 && twos_left(a) == R && !(a[DM] >> (g / C) & 1)) {
        // the row's Two is read now: each Two of an unread row in turn (swapped in), the row read from then on
        int r = g / C;
        for (int r2 = 0; r2 < R; r2++) {
          if (a[DM] >> r2 & 1) continue;
          uint8_t b[64]; memcpy(b, a, 64);
          int t = b[r2 * C]; b[r2 * C] = b[r * C]; b[r * C] = t; b[DM] |= 1 << r;
          int s = where[t + 1];
          if (try_move(b, s, g) == WON) return WON;
        }
      } else {
        int l = a[g - 1];
        if (!l || rank_(l) == TOP) continue;
        int s = where[l + 1];
        if (s < 0 || fx[s]) continue;
        if (!(allowed >> (l + 1) & 1)) continue;
        if (try_move(a, s, g) == WON) return WON;
      }
    }
  } while (pooled && next_perm(content, ns));
  return OPEN;
}

int main(int argc, char **argv) {
  if (argc < 5) { fprintf(stderr, "usage: gaps_complete COLUMNS FLAGS LIMIT LOG2TABLE < cells\n"); return 2; }
  C = atoi(argv[1]); N = R * C; TOP = C;
  int flags = atoi(argv[2]);
  pool_on = flags & 1; forced_on = flags & 2; stats_on = flags & 4; frozen_on = flags & 8; por_on = flags & (16 | 64); walks_on = flags & 32; lazy_on = flags & 128; late_on = flags & 256; early_on = flags & 512;
  limit = atol(argv[3]);
  int lg = atoi(argv[4]);
  if (C < 3 || C > 13 || lg < 10 || lg > 34) { fprintf(stderr, "bad arguments\n"); return 2; }
  table = calloc((size_t)1 << lg, 8); mask_ = ((uint64_t)1 << lg) - 1;
  if (!table) { fprintf(stderr, "out of memory\n"); return 3; }
  for (int i = 0; i < 64; i++) for (int c = 0; c < 64; c++) Z[i][c] = c ? xr() : 0;
  for (int i = 0; i < 64; i++) Z[i][0] = xr();
  uint8_t root[64] = {0};
  for (int i = 0; i < N; i++) { int v; if (scanf("%d", &v) != 1) { fprintf(stderr, "expected %d cells\n", N); return 2; } root[i] = v; }
  root[DM] = ALL;  // a deal with every Two at the left edge: their order is given
  int chain, r = settle(root, &chain);
  insert(root);
  const char *verdict = "lost";
  if (r == WON) verdict = "won";
  else if (r == OPEN) {
    push(root);
    long mk[4096], ms[4096]; int nm = 0;
    while (npending) {
      while (nm && mk[nm - 1] >= npending) { long size = stored - ms[--nm]; int b = 0; while ((1L << b) < size + 1) b++; entry_sizes[b]++; }
      npending--;
      if (pflag[npending] && nm < 4096) { entries++; mk[nm] = npending; ms[nm++] = stored; }
      uint8_t e[64];
      memcpy(e, pending + (size_t)npending * 64, 64);
      if (expand(e) == WON) { verdict = "won"; break; }
      if (stored > limit) { verdict = "unknown"; break; }
      if ((stored >> 4) > (long)(mask_ >> 4) * 3 / 4) { verdict = "unknown (table full)"; break; }
    }
  }
  printf("%s %ld\n", verdict, stored);
  if (stats_on) {
    printf("stored by Twos in the first column:");
    for (int t = 0; t <= R; t++) printf(" %d:%ld", t, by_twos[t]);
    printf("  most pending %ld  frozen cuts %ld  stubborn: %ld positions, %ld moves left out\n", max_pending, frozen_cuts, por_nodes, por_cut);
  }
  if (stats_on && por_on) { for (int t = 0; t < 8; t++) { printf("enabled %d, in the set:", t); for (int b = 0; b < 8; b++) printf(" %ld", hist[t][b]); printf("\n"); } }
  if (walks_on) printf("walks: %ld positions, %ld all apart, by gaps apart from the others: %ld %ld %ld %ld %ld\n", walk_positions, walk_free, walk_single[0], walk_single[1], walk_single[2], walk_single[3], walk_single[4]);
  if (stats_on) { printf("stored by fixed cards:"); for (int k = 0; k < 64; k++) if (by_fixed[k]) printf(" %d:%ld", k, by_fixed[k]); printf("\n"); }
  if (stats_on) { printf("phase entries %ld, their new positions by powers of two:", entries); for (int b = 0; b < 40; b++) if (entry_sizes[b]) printf(" <%ld:%ld", 1L << b, entry_sizes[b]); printf("\n"); }
  if (early_on) printf("entries played first: %ld\n", early_hits);
  return 0;
}
