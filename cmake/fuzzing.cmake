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
  # Optimized enough for a useful execution rate, with asserts kept and line
  # tables for the reports.
  set(CMAKE_CXX_FLAGS_RELWITHDEBINFO "-O1 -gline-tables-only")
  # warnings.cmake's flags are GCC's; clang names some differently.
  add_compile_options(-Wno-unknown-warning-option)
  set(CREDENCE_BUILD_TESTS OFF CACHE BOOL "" FORCE)
  set(CREDENCE_BUILD_BENCH OFF CACHE BOOL "" FORCE)
endif()

# The wiring that runs once per process, not once per input: the route
# tables (src/http/handlers) and the application's composition (src/app).
# At -O1 under both sanitizers these large functions cost clang five times
# their -O0 time (trust_routes.cpp: 139 s against 20 s), the better part of
# the fuzz build and of a cold CI run; at -O0 the targets' execution rate is
# the same. Call once the modules are added.
function(credence_fuzz_wiring_at_O0)
  if(NOT CREDENCE_FUZZ)
    return()
  endif()
  file(GLOB wiring ${PROJECT_SOURCE_DIR}/src/http/handlers/*.cpp ${PROJECT_SOURCE_DIR}/src/app/*.cpp)
  set_source_files_properties(${wiring} TARGET_DIRECTORY credence_http credence_app PROPERTIES COMPILE_OPTIONS -O0)
endfunction()
