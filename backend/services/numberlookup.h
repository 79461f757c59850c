#pragma once

#include "auth/authcontext.h"
#include "entities/numberinfo.h"
#include "upstream/upstreamclient.h"

#include <functional>
#include <optional>

struct NumberSales;
class Clock;
class Database;
class UpstreamDispatcher;

/// The operator and circle of a phone number from what was sold to it (issue 29, "The operator and circle from the
/// number"; GET /api/v1/numbers/{phone_number}): this server's SUCCESS mobile sales of the caller's account and mode
/// (NumberRepository: every terminal's, the latest deciding, so a ported number shows its new operator after its
/// first sale there), and — for a live caller — the answer of the first enabled RechargeDesk upstream that sells
/// mobile recharges and offers the lookup (`number_lookup` in its OpenAPI document), asked with `scope=network` (so a
/// distributor answers from every shop's sales, ofNetwork()) and a short time limit so that it never holds up or
/// fails the answer.
class NumberLookup
{
public:
    /// The upstream's answer is awaited at most this long (ms; or the server's upstream time limit when shorter).
    static constexpr int kUpstreamTimeoutMs = 1500;

    NumberLookup(Database &db, const Clock &clock, UpstreamDispatcher &dispatcher, int upstreamTimeoutMs);

    /// What this server's sales of the account and mode say (source "shop"); nullopt when none was sold to the
    /// number. Throws DatabaseError.
    std::optional<NumberInfo::Sighting> ofShop(qint64 accountId, Mode mode, const QString &phoneNumber);
    /// What this server's sales of every account of `mode` say (a distributor answering a downstream shop server,
    /// `scope=network`; source "shop", as it is this server's answer): only the operator, circle, time of the latest
    /// and count — never which account or shop sold, the amounts or anything else of a sale. nullopt when none was
    /// sold to the number. Throws DatabaseError.
    std::optional<NumberInfo::Sighting> ofNetwork(Mode mode, const QString &phoneNumber);
    /// Asks the upstream as above for a caller of `mode` and runs `done` exactly once, on this thread, with its
    /// answer (source "upstream"), or nullopt: a test caller, no such upstream, it does not know the number, it
    /// answered something else, or not within the time limit. Never throws into `done`'s caller.
    void askUpstream(Mode mode, const QString &phoneNumber,
                     std::function<void(std::optional<NumberInfo::Sighting>)> done);

private:
    /// The sighting `sales` make, of source "shop".
    static std::optional<NumberInfo::Sighting> fromSales(const std::optional<NumberSales> &sales);

    Database &m_db;
    UpstreamDispatcher &m_dispatcher;
    UpstreamClient m_client;
};
