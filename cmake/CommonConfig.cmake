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
