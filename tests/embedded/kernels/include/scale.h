// Embedded with the kernels (kjit_add_kernels HEADERS): included by its path under BASE_DIR.
#define SCALE 3
