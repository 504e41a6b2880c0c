// Force-included in the AddressSanitizer build (scripts/sanitize.sh). LLVM's headers poison the
// unused part of a BumpPtrAllocator's slabs when the code including them is built with ASan.
// lld is linked statically from Debian's archives, built without ASan, and allocates from the
// same slabs without unpoisoning: the mix reports use-after-poison on lld's own objects. Turning
// the poisoning off keeps ASan's checks on every real allocation.
#pragma once
#include <sanitizer/asan_interface.h>
#define __asan_poison_memory_region(addr, size) ((void)(addr), (void)(size))
#define __asan_unpoison_memory_region(addr, size) ((void)(addr), (void)(size))
