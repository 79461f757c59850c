# One INTERFACE target that every RechargeDesk target links: warnings, Qt defines, sanitizers.
add_library(rechargedesk_common INTERFACE)
target_compile_options(rechargedesk_common INTERFACE
    -Wall -Wextra -Wpedantic -Wold-style-cast -Woverloaded-virtual -Wnon-virtual-dtor)
if(RECHARGEDESK_WERROR)
    target_compile_options(rechargedesk_common INTERFACE -Werror)
endif()
target_compile_definitions(rechargedesk_common INTERFACE
    QT_NO_CAST_FROM_ASCII
    QT_NO_CONTEXTLESS_CONNECT
    QT_USE_QSTRINGBUILDER
    QT_NO_URL_CAST_FROM_STRING)
if(RECHARGEDESK_SANITIZE)
    target_compile_options(rechargedesk_common INTERFACE
        -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
    target_link_options(rechargedesk_common INTERFACE -fsanitize=address,undefined)
endif()
if(RECHARGEDESK_FUZZ)
    # Coverage feedback for libFuzzer in every RechargeDesk object, with the sanitizers that turn bugs into crashes.
    # The fuzz binaries add -fsanitize=fuzzer at link time (tests/fuzz/CMakeLists.txt); Qt stays the system's gcc build.
    if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
        message(FATAL_ERROR "RECHARGEDESK_FUZZ needs clang (libFuzzer): -DCMAKE_CXX_COMPILER=clang++")
    endif()
    target_compile_options(rechargedesk_common INTERFACE
        -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
    target_link_options(rechargedesk_common INTERFACE -fsanitize=address,undefined)
endif()
# Hardening (issue 14): bounds-checked libc calls, stack canaries, a read-only GOT bound at start.
# _FORTIFY_SOURCE needs optimization, and stays out of sanitizer and fuzz builds, whose interceptors it bypasses.
if(NOT RECHARGEDESK_SANITIZE AND NOT RECHARGEDESK_FUZZ)
    target_compile_options(rechargedesk_common INTERFACE
        $<$<NOT:$<CONFIG:Debug>>:-U_FORTIFY_SOURCE -D_FORTIFY_SOURCE=3>)
endif()
target_compile_options(rechargedesk_common INTERFACE -fstack-protector-strong)
target_link_options(rechargedesk_common INTERFACE -Wl,-z,relro -Wl,-z,now -Wl,-z,noexecstack)
