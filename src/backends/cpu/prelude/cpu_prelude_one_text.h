// Marks the CPU prelude as one embedded text: cpu_prelude.h need not include its parts.
#define __KJIT_CPU_PRELUDE_ONE_TEXT 1
