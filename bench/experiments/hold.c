/*
 * Issue 24 evidence (not built by the project): the bench's reference hold model (bench/reference.ts:
 * a binary heap of 1024 (time, seq) keys in two arrays, pop the earliest and push one a pseudo-random
 * step later, 1,000,000 pairs, median of five timings) in C, to set what compiled code does with the
 * same loop on this machine against the JavaScript reference in the same minutes (README, Speed).
 *   gcc -O2 -o /tmp/hold bench/experiments/hold.c && /tmp/hold   # prints pop+push pairs per CPU-second
 */
#include <stdio.h>
#include <time.h>
#define PENDING 1024
#define OPS 1000000
static double tm[PENDING + 2], sq[PENDING + 2];
static int n = 0;
static double x = 12345;
static double rnd(void) { x = (double)(((long long)x * 48271LL) % 2147483647LL); return x; }
static void push(double t, double s) {
  int i = ++n;
  while (i > 1) { int p = i >> 1; if (tm[p] < t || (tm[p] == t && sq[p] < s)) break; tm[i] = tm[p]; sq[i] = sq[p]; i = p; }
  tm[i] = t; sq[i] = s;
}
static double pop(void) {
  double top = tm[1], t = tm[n], s = sq[n]; n--;
  int i = 1;
  for (;;) { int c = 2 * i; if (c > n) break;
    if (c < n && (tm[c + 1] < tm[c] || (tm[c + 1] == tm[c] && sq[c + 1] < sq[c]))) c++;
    if (t < tm[c] || (t == tm[c] && s < sq[c])) break;
    tm[i] = tm[c]; sq[i] = sq[c]; i = c; }
  tm[i] = t; sq[i] = s; return top;
}
static double cpu(void) { struct timespec ts; clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts); return ts.tv_sec + ts.tv_nsec * 1e-9; }
int main(void) {
  double rates[5];
  for (int r = 0; r < 5; r++) {
    n = 0; double seq = 0; x = 12345;
    for (int i = 0; i < PENDING; i++) push((double)((long long)rnd() % 1000000), seq++);
    double c0 = cpu(), sink = 0;
    for (int k = 0; k < OPS; k++) { double t = pop(); sink += t; push(t + (double)((long long)rnd() % 1000000), seq++); }
    double c = cpu() - c0; if (sink < 0) printf("%f", sink);
    rates[r] = OPS / c;
  }
  for (int i = 0; i < 5; i++) for (int j = i + 1; j < 5; j++) if (rates[j] < rates[i]) { double t = rates[i]; rates[i] = rates[j]; rates[j] = t; }
  printf("%.0f\n", rates[2]);
  return 0;
}
