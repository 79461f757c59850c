#pragma once

#include "entities/upstreaminfo.h"

#include <QObject>
#include <QPointer>

#include <functional>
#include <optional>

class ApiCall;
class ApiClient;

/// Finds the shop's distributor (issue 30): the first of the server's upstreams, by priority, that is configured and
/// offers the shop's balance (a RechargeDesk upstream, UpstreamOffers::balance). Asks GET /api/v1/upstreams (admin);
/// for a clerk, whom that refuses, the upstream of GET /api/v1/upstream (`default`). One question at a time.
class DistributorLookup final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DistributorLookup)

public:
    /// `answered` false: the server could not be asked (offline, an error); `upstream` nullopt with `answered` true:
    /// no upstream offers the balance.
    using Done = std::function<void(bool answered, const std::optional<UpstreamInfo> &upstream)>;

    explicit DistributorLookup(ApiClient &api, QObject *parent = nullptr);

    /// Asks the server and calls `done` once, on this object's thread (never after it is destroyed). A question
    /// already on its way is dropped, its `done` never called.
    void find(Done done);

    /// The first of `upstreams` (in the server's order) that is configured and offers the balance.
    static std::optional<UpstreamInfo> pick(const QList<UpstreamInfo> &upstreams);

private:
    ApiClient &m_api;
    QPointer<ApiCall> m_call;
};
