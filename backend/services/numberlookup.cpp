#include "numberlookup.h"

#include "store/database.h"
#include "store/numberrepository.h"
#include "upstream/upstreamdispatcher.h"

#include <QJsonDocument>
#include <QLoggingCategory>
#include <QUrl>

Q_LOGGING_CATEGORY(lcNumberLookup, "rechargedesk.numbers")

NumberLookup::NumberLookup(Database &db, const Clock &clock, UpstreamDispatcher &dispatcher, int upstreamTimeoutMs)
    : m_db(db), m_dispatcher(dispatcher), m_client(clock, qMin(upstreamTimeoutMs, kUpstreamTimeoutMs))
{}

std::optional<NumberInfo::Sighting> NumberLookup::ofShop(qint64 accountId, Mode mode, const QString &phoneNumber)
{
    return fromSales(NumberRepository(m_db).lastSold(accountId, mode, phoneNumber));
}

std::optional<NumberInfo::Sighting> NumberLookup::ofNetwork(Mode mode, const QString &phoneNumber)
{
    return fromSales(NumberRepository(m_db).lastSoldInNetwork(mode, phoneNumber));
}

std::optional<NumberInfo::Sighting> NumberLookup::fromSales(const std::optional<NumberSales> &sales)
{
    if (!sales)
        return std::nullopt;
    NumberInfo::Sighting s;
    s.operatorCode = sales->operatorCode;
    s.circleCode = sales->circleCode;
    s.lastSoldAt = QDateTime::fromMSecsSinceEpoch(sales->lastSoldAtMs, Qt::UTC);
    s.count = sales->count;
    s.source = QStringLiteral("shop");
    return s;
}

void NumberLookup::askUpstream(Mode mode, const QString &phoneNumber,
                               std::function<void(std::optional<NumberInfo::Sighting>)> done)
{
    std::optional<UpstreamSettings> upstream;
    if (mode == Mode::Live) { // a test key's lookup never leaves the server, as its sales never do
        try {
            for (const UpstreamSettings &candidate : m_dispatcher.upstreams()) {
                if (candidate.sells(QStringLiteral("mobile")) && candidate.offers.numberLookup) {
                    upstream = candidate;
                    break;
                }
            }
        } catch (const std::exception &e) {
            qCWarning(lcNumberLookup, "cannot read the upstreams: %s", e.what());
        }
    }
    if (!upstream) {
        done(std::nullopt);
        return;
    }
    m_client.call(*upstream, "GET",
                  QStringLiteral("/numbers/") + QString::fromLatin1(QUrl::toPercentEncoding(phoneNumber)) +
                      QStringLiteral("?scope=network"),
                  {}, [done = std::move(done), name = upstream->name](const UpstreamAnswer &answer) {
                      std::optional<NumberInfo::Sighting> sighting;
                      if (answer.httpStatus == 200) {
                          QString why;
                          const std::optional<NumberInfo> info = NumberInfo::fromJson(
                              QJsonDocument::fromJson(answer.body).object().value(QStringLiteral("data")).toObject(),
                              &why);
                          if (info) {
                              sighting = info->best;
                              sighting->source = QStringLiteral("upstream");
                          } else {
                              qCInfo(lcNumberLookup, "the upstream %s answered the lookup unreadably: %s",
                                     qPrintable(name), qPrintable(why));
                          }
                      } else if (answer.httpStatus != 404) {
                          qCInfo(lcNumberLookup, "the upstream %s did not answer the lookup: %s", qPrintable(name),
                                 qPrintable(answer.inWords()));
                      }
                      done(sighting);
                  });
}
