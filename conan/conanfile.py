"""Conan 2 recipe for kjit: libkjit.so, its headers, kjit-warm, and kjit's own CMake package
(find_package(kjit) gives kjit::kjit and kjit_add_kernels()).

Options map one to one onto the CMake options (conan/README.md; tests/tools/conan_recipe_test.py
checks that they agree). The CPU backend needs LLVM, Clang and LLD 19 and Boost.Context from the
system (Debian: llvm-19-dev libclang-19-dev liblld-19-dev libboost-context-dev): no Conan Center
package provides Clang's C++ libraries. The CUDA and HIP backends load their vendor libraries at
run time and need nothing to build.
"""
import os
import re

from conan import ConanFile
from conan.tools.cmake import CMake, CMakeDeps, CMakeToolchain, cmake_layout
from conan.tools.files import copy, load

required_conan_version = ">=2.0"

# What the build reads of the repository (no tests, benchmarks or examples).
SOURCES = ("CMakeLists.txt", "cmake/*", "include/*", "src/*", "kernels/*", "README.md", "LICENSE")

# Recipe option -> CMake option.
CMAKE_OPTIONS = {
    "with_cpu": "KJIT_WITH_CPU",
    "with_cuda": "KJIT_WITH_CUDA",
    "with_hip": "KJIT_WITH_HIP",
    "tools": "KJIT_BUILD_TOOLS",
}


class KjitConan(ConanFile):
    name = "kjit"
    license = "Apache-2.0 WITH LLVM-exception"
    description = ("JIT-compiles CUDA-dialect kernels at run time for NVIDIA GPUs (NVRTC), AMD "
                   "GPUs (hipRTC) and the CPU (Clang + LLVM ORC), with a disk cache")
    topics = ("jit", "cuda", "hip", "gpu", "llvm", "kernels")
    package_type = "shared-library"  # libkjit.so only: it links LLVM and spdlog privately
    settings = "os", "arch", "compiler", "build_type"
    options = {name: [True, False] for name in CMAKE_OPTIONS}
    default_options = {"with_cpu": True, "with_cuda": True, "with_hip": True, "tools": True}

    def set_version(self):
        text = load(self, os.path.join(self.recipe_folder, "..", "CMakeLists.txt"))
        self.version = re.search(r"project\(kjit VERSION ([0-9.]+)", text).group(1)

    def export_sources(self):
        # The recipe lives in conan/; the sources are the repository around it.
        root = os.path.join(self.recipe_folder, "..")
        for pattern in SOURCES:
            copy(self, pattern, root, self.export_sources_folder)

    def validate(self):
        from conan.errors import ConanInvalidConfiguration
        if self.settings.os != "Linux":
            raise ConanInvalidConfiguration("kjit supports Linux only")

    def requirements(self):
        # As cmake/KjitDependencies.cmake finds them; all private to libkjit.so.
        self.requires("spdlog/[>=1.10 <2]")
        self.requires("nlohmann_json/[>=3.11 <4]")
        self.requires("xxhash/[>=0.8.1 <0.9]")
        if self.options.tools:
            self.requires("cli11/[>=2.1 <3]")

    def layout(self):
        cmake_layout(self)

    def generate(self):
        tc = CMakeToolchain(self)
        for option, variable in CMAKE_OPTIONS.items():
            tc.cache_variables[variable] = bool(self.options.get_safe(option))
        for part in ("TESTS", "BENCHMARKS", "EXAMPLES", "FUZZERS"):
            tc.cache_variables[f"KJIT_BUILD_{part}"] = False
        tc.generate()
        CMakeDeps(self).generate()

    def build(self):
        cmake = CMake(self)
        cmake.configure()
        cmake.build()

    def package(self):
        CMake(self).install()
        copy(self, "LICENSE", self.source_folder, os.path.join(self.package_folder, "licenses"))

    def package_info(self):
        # Consumers use kjit's own package file (kjit::kjit, kjit_add_kernels()), not one Conan
        # writes.
        self.cpp_info.set_property("cmake_find_mode", "none")
        self.cpp_info.builddirs = [os.path.join("lib", "cmake", "kjit")]
        self.cpp_info.libs = ["kjit"]
        self.cpp_info.set_property("pkg_config_name", "kjit")
        if self.options.tools:
            self.buildenv_info.prepend_path("PATH", os.path.join(self.package_folder, "bin"))
