// Exploration tool (not part of the solver): a fast depth-first search of Gaps (no redeal)'s streamlined spaces,
// Solvitaire's rule written in (a leftmost gap takes any Two; a gap after X takes X's successor; a gap after a King
// stays shut), to classify deals: docs/analysis.md, "Grid games: the grid search", session 9.
//
//   python bench/gaps_cells.py 0 20 | sed -n 18p | cut -d' ' -f2- | ./gaps_streamlined MODE LIMIT LOG2TABLE [DEPTH]
//
// MODE 0: every leftmost Two stays (the quick pass's streamliner; same positions as its best-first pass when it
// ends); 1: only a Two with its Three beside it stays (the looser pass); k: only a Two heading a run of k+1 cards;
// add 100 for a pooled key that is NOT sound (it misses wins: deal 17). Four leftmost Twos are always locked.
// The next card of a run is always played at once. Positions are stored as 64-bit Zobrist hashes (a collision
// can only skip a position: "exhausted" is then no proof), LIMIT positions at most, lines up to DEPTH moves.
// A win prints its moves (cell from, cell to; cells row by row, 13 a row), to replay through the engine.
// Exploration tool: fast DFS for Gaps (Solvitaire gaps-one-deal rule), to find winning lines.
// mode 0: Twos at the left edge stay (the quick pass's streamliner); 1: only a Two with its Three beside it stays.
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#define N 52
#define C 13
static uint64_t Z[N][64];
static uint8_t cells[N]; static int8_t where_[64];
static uint64_t *table; static uint64_t mask_; static long stored = 0, limit;
static int mode = 0; static int line[200000][2]; static int maxdepth = 3000; static int depth = 0; static long maxfix = 0;
static uint64_t rng = 88172645463325252ULL;
static uint64_t xr(void){ rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17; return rng; }
static int pool_on = 0;
static uint64_t canon(uint64_t h);
static int insert(uint64_t h){ if(pool_on) h = canon(h); if(!h) h=1; uint64_t i = h & mask_; while(table[i]){ if(table[i]==h) return 0; i=(i+1)&mask_; } table[i]=h; stored++; return 1; }
static int rank_(int c){ return c & 15; }
static void fixedof(uint8_t *fx){
  memset(fx,0,N);
  int alltwos=1; for(int r=0;r<4;r++) if(!cells[r*C]||rank_(cells[r*C])!=2) alltwos=0;
  for(int r=0;r<4;r++){ int s=r*C; int c=cells[s];
    if(!c || rank_(c)!=2) continue;
    if(!alltwos){ int run=1; while(run<C && cells[s+run] && cells[s+run]==cells[s+run-1]+1) run++; if(run < mode+1) continue; }
    fx[s]=1; for(int k=1;k<C;k++){ if(cells[s+k] && cells[s+k]==cells[s+k-1]+1) fx[s+k]=1; else break; } }
}
static void mv(int src,int gap,uint64_t *h){ int c=cells[src]; *h ^= Z[src][c]^Z[src][0]^Z[gap][0]^Z[gap][c]; cells[gap]=c; cells[src]=0; where_[c]=gap; }
static int won(uint8_t *fx){ int n=0; for(int i=0;i<N;i++) n+=fx[i]; if(n>maxfix) maxfix=n; return n==48; }
// returns 1 won, 0 done, -1 limit
static int dfs(uint64_t h){
  if(depth > maxdepth) return 0;
  uint8_t fx[N]; int forced[64][2]; int nf=0;
  // forced chain (streamlined): next card of a run
  for(;;){
    fixedof(fx);
    if(won(fx)) return 1;
    int did=0;
    for(int g=0;g<N;g++){ if(cells[g]||g%C==0||g%C==12) continue; if(!fx[g-1]) continue;
      int l=cells[g-1]; if(rank_(l)==13) { goto dead; }
      int s=where_[l+1]; if(fx[s]) goto dead;
      mv(s,g,&h); forced[nf][0]=s; forced[nf][1]=g; nf++; line[depth][0]=s; line[depth][1]=g; depth++; did=1; break; }
    if(!did) break;
  }
  if(nf && !insert(h)) goto undo;
  {
  int ms[64][3]; int nm=0;
  for(int g=0;g<N;g++){ if(cells[g]) continue; int col=g%C;
    int ext = (col==0 || fx[g-1]) ? 4 : 0;
    if(col==0){ for(int su=0;su<4;su++){ int card=su*16+2; int s=where_[card]; if(s<0||fx[s]) continue; 
        int sc=ext; int sl=s%C? s-1:-1; if(sl<0||fx[sl]) sc+=2; else if(!cells[sl]||rank_(cells[sl])==13) sc-=1;
        ms[nm][0]=sc; ms[nm][1]=s; ms[nm][2]=g; nm++; } }
    else { int l=cells[g-1]; if(!l||rank_(l)==13) continue; int s=where_[l+1]; if(s<0||fx[s]) continue;
        int sc=ext; int sl=s%C? s-1:-1; if(sl<0||fx[sl]) sc+=2; else if(!cells[sl]||rank_(cells[sl])==13) sc-=1;
        ms[nm][0]=sc; ms[nm][1]=s; ms[nm][2]=g; nm++; }
  }
  // sort by score desc (stable insertion)
  for(int i=1;i<nm;i++){ int a=ms[i][0],b=ms[i][1],c=ms[i][2]; int j=i-1; while(j>=0&&ms[j][0]<a){ ms[j+1][0]=ms[j][0];ms[j+1][1]=ms[j][1];ms[j+1][2]=ms[j][2]; j--; } ms[j+1][0]=a;ms[j+1][1]=b;ms[j+1][2]=c; }
  for(int i=0;i<nm;i++){ int s=ms[i][1], g=ms[i][2];
    mv(s,g,&h);
    if(insert(h)){
      line[depth][0]=s; line[depth][1]=g; depth++;
      int r=dfs(h);
      if(r) return r;
      depth--;
      if(stored>limit){ return -1; }
    }
    mv(g,s,&h);
  }
  }
undo:
  for(int k=nf-1;k>=0;k--){ mv(forced[k][1],forced[k][0],&h); depth--; }
  return 0;
dead:
  goto undo;
}
static void fixedof(uint8_t *fx);
static uint64_t canon(uint64_t h){
  uint8_t fx[N]; fixedof(fx); int spots[4], ns=0, cards[4], nc=0, gap=0;
  for(int r=0;r<4;r++){ int s=r*C; if(!cells[s]){ spots[ns++]=s; gap=1; } else if(rank_(cells[s])==2 && !fx[s]){ spots[ns++]=s; cards[nc++]=cells[s]; } }
  if(!gap) return h;
  for(int i=0;i<ns;i++) h ^= Z[spots[i]][cells[spots[i]]];
  for(int i=1;i<nc;i++){ int a=cards[i], j=i-1; while(j>=0&&cards[j]>a){ cards[j+1]=cards[j]; j--; } cards[j+1]=a; }
  for(int i=0;i<ns;i++) h ^= Z[spots[i]][i<nc?cards[i]:0];
  return h;
}
int main(int argc,char**argv){
  // usage: gs mode limit logsize  cells... (52 numbers on stdin)
  mode=atoi(argv[1]); if(mode>=100){ pool_on=1; mode-=100; } if(argc>4) maxdepth=atoi(argv[4]); limit=atol(argv[2]); int lg=atoi(argv[3]);
  table=calloc((size_t)1<<lg,8); mask_=((uint64_t)1<<lg)-1;
  for(int i=0;i<N;i++) for(int c=0;c<64;c++) Z[i][c]=xr();
  memset(where_,-1,64);
  for(int i=0;i<N;i++){ int v; if(scanf("%d",&v)!=1) return 2; cells[i]=v; if(v) where_[v]=i; }
  uint64_t h=0; for(int i=0;i<N;i++) h^=Z[i][cells[i]];
  insert(h);
  int r=dfs(h);
  printf("%s %ld maxfixed %ld\n", r==1?"won":r==0?"exhausted":"unknown", stored, maxfix);
  if(r==1){ for(int i=0;i<depth;i++) printf("%d %d ", line[i][0], line[i][1]); printf("\n"); }
  return 0;
}
