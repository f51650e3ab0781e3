// The translation unit of geomint_compile_checks (tests/CMakeLists.txt): a target that links
// geomint::core, whose compile flags the compile-fail tests use. It is never built.
int geomint_compile_checks() { return 0; }
