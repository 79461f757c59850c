#include "upstreamoffersread.h"

#include "upstreamclient.h"

#include <QJsonDocument>
#include <QJsonObject>

UpstreamOffersRead UpstreamOffersRead::of(const UpstreamAnswer &answer)
{
    UpstreamOffersRead read;
    if (answer.httpStatus == 0 || answer.httpStatus >= 500) {
        read.message =
            QStringLiteral("Could not read what the upstream offers (%1); it is held to the spec's "
                           "promises until it answers.")
                .arg(answer.httpStatus == 0 ? answer.networkError : QStringLiteral("HTTP %1").arg(answer.httpStatus));
        return read;
    }
    read.answered = true;
    const QJsonObject document =
        answer.httpStatus == 200 ? QJsonDocument::fromJson(answer.body).object() : QJsonObject();
    const QJsonValue declared = document.value(QStringLiteral("x-rechargedesk-upstream"));
    read.offers = UpstreamOffers::fromJson(declared.toObject());
    if (read.offers == UpstreamOffers{})
        read.message = QStringLiteral("The upstream promises what the API spec promises and no more: each sale is "
                                      "sent once, never again; a sale whose answer is lost waits for its webhook, "
                                      "its statement or a person.");
    else
        read.message = QStringLiteral("The upstream is a RechargeDesk server: a lost answer is asked again with the "
                                      "same reference_id%1.")
                           .arg(read.offers.statusCheck ? QStringLiteral(" and by its status check") : QString());
    return read;
}
