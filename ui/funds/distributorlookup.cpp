#include "distributorlookup.h"

#include "apiclient.h"
#include "upstreamapi.h"

DistributorLookup::DistributorLookup(ApiClient &api, QObject *parent) : QObject(parent), m_api(api)
{}

void DistributorLookup::find(Done done)
{
    if (m_call)
        m_call->abort();
    m_call = UpstreamApi(m_api).list().then(this, [this, done](const Answer<UpstreamList> &answer) {
        if (answer.ok()) {
            done(true, pick(answer.value->items));
            return;
        }
        if (answer.httpStatus != 403) {
            done(false, std::nullopt);
            return;
        }
        // A clerk: the one upstream every key may read.
        m_call = UpstreamApi(m_api).get().then(this, [done](const Answer<UpstreamInfo> &single) {
            if (!single.ok())
                done(single.httpStatus == 404, std::nullopt); // 404: a server without upstreams
            else
                done(true, pick({*single.value}));
        });
    });
}

std::optional<UpstreamInfo> DistributorLookup::pick(const QList<UpstreamInfo> &upstreams)
{
    for (const UpstreamInfo &info : upstreams) {
        if (info.configured && info.offers.balance)
            return info;
    }
    return std::nullopt;
}
