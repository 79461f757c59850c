#include "version.h"

// RECHARGEDESK_VERSION is defined for this file only (core/CMakeLists.txt).
const char *Version::text()
{
    return RECHARGEDESK_VERSION;
}
