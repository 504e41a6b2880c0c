// The corpus's modern files (tests/corpus/manifest.json), each kernel run as its project's host code
// runs it, on random inputs, against a plain C++ reference.
#include "corpus.hpp"

namespace kjit::test {
namespace {

}  // namespace
}  // namespace kjit::test
