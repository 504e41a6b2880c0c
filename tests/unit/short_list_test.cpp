// ShortList: the entries a launch builds in place (or on the heap when many), made
// value-initialised whatever the memory held before, and only as many as asked for.
#include "support/short_list.hpp"

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <random>

namespace kjit::detail {
namespace {

struct Entry {
  const void* value = nullptr;
  std::size_t size = 7;  // a default other than zero: made as the type says, not zeroed
};

using List = ShortList<Entry, 8>;

/// Makes a list of `size` entries in memory full of 0xAB bytes and checks every entry is made.
void check_made_over_poison(std::size_t size) {
  alignas(List) std::byte room[sizeof(List)];
  std::memset(room, 0xAB, sizeof room);
  List* list = new (room) List(size);
  ASSERT_EQ(list->size(), size);
  for (std::size_t i = 0; i < size; ++i) {
    EXPECT_EQ((*list)[i].value, nullptr) << "entry " << i << " of " << size;
    EXPECT_EQ((*list)[i].size, 7U) << "entry " << i << " of " << size;
  }
  list->~List();
}

TEST(ShortList, EntriesAreMadeAsTheirTypeSaysWhateverTheMemoryHeld) {
  for (std::size_t size = 0; size <= 20; ++size) {  // in place up to 8, on the heap above
    check_made_over_poison(size);
  }
}

TEST(ShortList, WritesReadBackInPlaceAndOnTheHeap) {
  std::mt19937 random(42);
  for (int round = 0; round < 200; ++round) {
    const std::size_t size = random() % 40;
    ShortList<std::uint64_t, 16> list(size);
    std::vector<std::uint64_t> expected(size);
    for (std::size_t i = 0; i < size; ++i) {
      expected[i] = random();
      list[i] = expected[i];
    }
    ASSERT_EQ(list.span().size(), size);
    for (std::size_t i = 0; i < size; ++i) {
      EXPECT_EQ(list.span()[i], expected[i]);
      EXPECT_EQ(list.data()[i], expected[i]);
    }
    const auto& constant = list;
    EXPECT_EQ(constant.span().data(), list.data());
  }
}

}  // namespace
}  // namespace kjit::detail
