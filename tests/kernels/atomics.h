// One field per atomic operation and type, written by the all_atomics kernel and read by the
// host test: the same struct on both sides.
#pragma once

struct AtomicResults {
  int add_i;
  unsigned add_u;
  unsigned long long add_ull;
  float add_f;
  double add_d;
  int sub_i;
  unsigned sub_u;
  int min_i;
  int max_i;
  unsigned min_u;
  unsigned max_u;
  unsigned long long min_ull;
  unsigned long long max_ull;
  long long min_ll;
  long long max_ll;
  unsigned and_u;
  unsigned or_u;
  unsigned xor_u;
  int and_i;
  int or_i;
  int xor_i;
  unsigned long long and_ull;
  unsigned long long or_ull;
  unsigned long long xor_ull;
  int cas_counter;
  unsigned long long cas_counter_ull;
  unsigned inc;
  unsigned dec;
  int exch_i;
  unsigned exch_u;
  unsigned long long exch_ull;
  float exch_f;
};
