// wsm5's arrays as upstream/main.cu handles them with utils.h's macros, for kjit's builds that
// write their outputs (nvcc_wsm5.cu, jitify_wsm5.cu): each launch's inputs made and uploaded anew
// (every value 0.001), the last launch's th, q, qc, qi, qr and qs written to a file, in that
// order, as kjit_wsm5 --out writes them, and every array released. Upstream's names, which the
// macros build on: a pointer A and its device copy A_d for each array, d3 and d2 their lengths.
#pragma once

/// The host pointers, named as upstream names them.
#define WSM5_HOST_ARRAYS() \
  float *th, *pii, *q, *qc, *qi, *qr, *qs, *den, *p, *delz, *rain, *rainncv, *sr, *snow, *snowncv

#define WSM5_UPLOAD_ALL() \
  TODEV3(pii);            \
  TODEV3(den);            \
  TODEV3(p);              \
  TODEV3(delz);           \
  TODEV3(th);             \
  TODEV3(q);              \
  TODEV3(qc);             \
  TODEV3(qi);             \
  TODEV3(qr);             \
  TODEV3(qs);             \
  TODEV2(rain);           \
  TODEV2(rainncv);        \
  TODEV2(sr);             \
  TODEV2(snow);           \
  TODEV2(snowncv)

#define WSM5_WRITE_STATE(file)                                                 \
  do {                                                                         \
    FROMDEV3(th);                                                              \
    FROMDEV3(q);                                                               \
    FROMDEV3(qc);                                                              \
    FROMDEV3(qi);                                                              \
    FROMDEV3(qr);                                                              \
    FROMDEV3(qs);                                                              \
    for (const float* values : {th, q, qc, qi, qr, qs}) {                      \
      (file).write(reinterpret_cast<const char*>(values), d3 * sizeof(float)); \
    }                                                                          \
  } while (0)

#define WSM5_FREE_ALL() \
  FREE(pii);            \
  FREE(den);            \
  FREE(p);              \
  FREE(delz);           \
  FREE(th);             \
  FREE(q);              \
  FREE(qc);             \
  FREE(qi);             \
  FREE(qr);             \
  FREE(qs);             \
  FREE(rain);           \
  FREE(rainncv);        \
  FREE(sr);             \
  FREE(snow);           \
  FREE(snowncv)
