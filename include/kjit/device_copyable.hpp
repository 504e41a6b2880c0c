// DeviceCopyable: the types whose bytes may be copied to a device and used there as they are.
#pragma once

#include <type_traits>

namespace kjit {

/// A type that can live in device memory and be passed to a kernel by value: trivially
/// copyable, not const, not a reference, not an array. Pointers qualify (a buffer of device
/// pointers is legitimate); raw host pointers are refused where a launch would pass them.
template <class T>
concept DeviceCopyable = std::is_object_v<T> && !std::is_array_v<T> && !std::is_const_v<T> &&
                         !std::is_volatile_v<T> && std::is_trivially_copyable_v<T>;

}  // namespace kjit
