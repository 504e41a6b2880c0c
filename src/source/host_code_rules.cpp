#include "source/host_code_rules.hpp"

#include <algorithm>
#include <array>
#include <cctype>

namespace kjit::source {

namespace {

using Kind = SourceToken::Kind;

// What a function body that calls one of these cannot be: device code. The C library's and
// POSIX's host side, and the host halves of the CUDA samples' helpers.
constexpr std::array kHostCalls = {
    // Files and streams.
    std::string_view("fprintf"),
    std::string_view("fopen"),
    std::string_view("fclose"),
    std::string_view("fread"),
    std::string_view("fwrite"),
    std::string_view("fscanf"),
    std::string_view("fgets"),
    std::string_view("fputs"),
    std::string_view("fflush"),
    std::string_view("fseek"),
    std::string_view("ftell"),
    std::string_view("scanf"),
    std::string_view("puts"),
    std::string_view("perror"),
    // Text.
    std::string_view("sprintf"),
    std::string_view("snprintf"),
    std::string_view("sscanf"),
    std::string_view("atoi"),
    std::string_view("atol"),
    std::string_view("atof"),
    std::string_view("strtol"),
    std::string_view("strtod"),
    std::string_view("strtoul"),
    std::string_view("strtof"),
    std::string_view("strlen"),
    std::string_view("strcpy"),
    std::string_view("strncpy"),
    std::string_view("strcat"),
    std::string_view("strcmp"),
    std::string_view("strncmp"),
    std::string_view("strchr"),
    std::string_view("strrchr"),
    std::string_view("strstr"),
    std::string_view("strdup"),
    std::string_view("strcasecmp"),
    std::string_view("strncasecmp"),
    std::string_view("strtok"),
    // The process, time, the machine.
    std::string_view("exit"),
    std::string_view("abort"),
    std::string_view("getenv"),
    std::string_view("system"),
    std::string_view("srand"),
    std::string_view("rand"),
    std::string_view("time"),
    std::string_view("gettimeofday"),
    std::string_view("clock_gettime"),
    std::string_view("usleep"),
    std::string_view("sleep"),
    std::string_view("getopt"),
    std::string_view("getopt_long"),
    std::string_view("memalign"),
    std::string_view("posix_memalign"),
    std::string_view("aligned_alloc"),
    std::string_view("getrusage"),
    std::string_view("sched_setaffinity"),
    std::string_view("omp_get_wtime"),
    std::string_view("omp_get_max_threads"),
    // cuda-samples' helpers (helper_cuda.h, helper_functions.h).
    std::string_view("checkCudaErrors"),
    std::string_view("getLastCudaError"),
    std::string_view("sdkCreateTimer"),
    std::string_view("findCudaDevice"),
};

// What the C++ library's host side names after "std::": a body that uses one is host code.
constexpr std::array kHostLibraryNames = {
    std::string_view("string"),        std::string_view("ifstream"),
    std::string_view("ofstream"),      std::string_view("fstream"),
    std::string_view("cout"),          std::string_view("cerr"),
    std::string_view("cin"),           std::string_view("endl"),
    std::string_view("vector"),        std::string_view("stringstream"),
    std::string_view("ostringstream"), std::string_view("istringstream"),
    std::string_view("getline"),       std::string_view("runtime_error"),
    std::string_view("exception"),     std::string_view("chrono"),
    std::string_view("thread"),        std::string_view("mutex"),
    std::string_view("ostream"),       std::string_view("istream"),
    std::string_view("map"),           std::string_view("unordered_map"),
    std::string_view("set"),           std::string_view("unique_ptr"),
    std::string_view("shared_ptr"),    std::string_view("make_unique"),
    std::string_view("mt19937"),       std::string_view("random_device"),
    std::string_view("setprecision"),  std::string_view("setw"),
};

bool is_host_library_name(std::string_view w) {
  return std::find(kHostLibraryNames.begin(), kHostLibraryNames.end(), w) !=
         kHostLibraryNames.end();
}

}  // namespace

bool is_host_body(std::string_view text, const std::vector<SourceToken>& t, std::size_t open,
                  std::size_t close) {
  for (std::size_t i = open + 1; i < close; ++i) {
    const std::string_view w = t[i].text(text);
    if (w == "<<<") {
      return true;
    }
    if (w == "std" && i + 2 < close && t[i + 1].text(text) == "::" &&
        is_host_library_name(t[i + 2].text(text))) {
      return true;
    }
    if (t[i].kind != Kind::identifier || i + 1 >= close || t[i + 1].text(text) != "(") {
      continue;
    }
    const bool runtime_api =
        (w.starts_with("cuda") || w.starts_with("cu")) && w.size() > 4 &&
        std::isupper(static_cast<unsigned char>(w[w.starts_with("cuda") ? 4 : 2])) != 0;
    if (runtime_api || std::find(kHostCalls.begin(), kHostCalls.end(), w) != kHostCalls.end()) {
      return true;
    }
  }
  return false;
}

bool names_host_type(std::string_view text, const std::vector<SourceToken>& t, std::size_t begin,
                     std::size_t end) {
  for (std::size_t i = begin; i < end; ++i) {
    const std::string_view w = t[i].text(text);
    if (w == "FILE" || w == "ostream" || w == "istream" ||
        (w == "std" && i + 2 < end && t[i + 1].text(text) == "::" &&
         is_host_library_name(t[i + 2].text(text)))) {
      return true;
    }
  }
  return false;
}

}  // namespace kjit::source
