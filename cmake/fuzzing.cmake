# libFuzzer builds (docs/fuzzing.md): cmake --preset fuzz, i.e. clang 16
# with -DCREDENCE_FUZZ=ON in build/fuzz. Debian 12's default clang (14)
# cannot compile the tree (no lambda captures of structured bindings, a
# C++20 feature the code uses); clang-16 is in Debian 12 too. Every module
# library is compiled with the fuzzer's coverage instrumentation and
# ASan+UBSan, so a finding deep in a module a parser calls is reported where
# it happens; only fuzz/ links the fuzzer runtime. Include before the
# modules are added.
option(CREDENCE_FUZZ "Build the libFuzzer targets in fuzz/ (clang only)" OFF)
if(CREDENCE_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "CREDENCE_FUZZ needs clang 16 (cmake --preset fuzz, or -DCMAKE_CXX_COMPILER=clang++-16)")
  endif()
  # UBSan aborts instead of printing and going on, so a report fails the run.
  add_compile_options(-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all
                      -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address,undefined)
  # -O0, with asserts kept and line tables for the reports. Under both
  # sanitizers clang's optimizer is most of the build: -O1 made the fuzz
  # build the longest part of a clean clone's test command and CI ran past
  # its 90 minutes (trust_routes.cpp alone took 139 s at -O1, 20 s at -O0).
  # The targets run fewer inputs a second (docs/fuzzing.md); the long runs
  # can afford that, and CREDENCE_FUZZ_OPT_LEVEL=-O1 buys the rate back.
  set(CREDENCE_FUZZ_OPT_LEVEL "-O0" CACHE STRING "Optimization of the fuzz build (-O0 builds fastest, -O1 runs faster)")
  set(CMAKE_CXX_FLAGS_RELWITHDEBINFO "${CREDENCE_FUZZ_OPT_LEVEL} -gline-tables-only")
  # warnings.cmake's flags are GCC's; clang names some differently.
  add_compile_options(-Wno-unknown-warning-option)
  set(CREDENCE_BUILD_TESTS OFF CACHE BOOL "" FORCE)
  set(CREDENCE_BUILD_BENCH OFF CACHE BOOL "" FORCE)
endif()
