# Warnings apply to our own code only: modules link this INTERFACE target,
# third-party headers come in as SYSTEM includes.
add_library(credence_warnings INTERFACE)
target_compile_options(credence_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow=local -Wnon-virtual-dtor -Wno-missing-field-initializers -Wno-maybe-uninitialized)

# Sanitizer builds: cmake -DCREDENCE_SANITIZE=address,undefined (or thread).
set(CREDENCE_SANITIZE "" CACHE STRING "Comma-separated sanitizers")
if(CREDENCE_SANITIZE)
  add_compile_options(-fsanitize=${CREDENCE_SANITIZE} -fno-omit-frame-pointer)
  add_link_options(-fsanitize=${CREDENCE_SANITIZE})
endif()

# Declares a module library: credence_module(NAME sources... DEPS libs...)
function(credence_module name)
  cmake_parse_arguments(M "" "" "SOURCES;DEPS" ${ARGN})
  add_library(${name} STATIC ${M_SOURCES})
  target_include_directories(${name} PUBLIC ${PROJECT_SOURCE_DIR}/src)
  target_link_libraries(${name} PUBLIC ${M_DEPS} PRIVATE credence_warnings)
endfunction()
