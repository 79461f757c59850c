#pragma once

/// The program's version: project(VERSION …) of the top CMakeLists.txt, e.g. "0.1.0". Shown by
/// `rechargedesk --version` and sent in the webhooks' User-Agent.
namespace Version {

/// The version as text ("MAJOR.MINOR.PATCH").
const char *text();

} // namespace Version
