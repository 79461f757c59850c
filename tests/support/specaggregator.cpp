#include "specaggregator.h"

#include "specwebhook.h"

#include <QBuffer>
#include <QDateTime>
#include <QHash>
#include <QHttpServer>
#include <QHttpServerRequest>
#include <QHttpServerResponder>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QMutex>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QPointer>
#include <QRandomGenerator>
#include <QTcpSocket>
#include <QTimer>

#include <algorithm>
#include <vector>

namespace {

/// An operator of the spec's "Limits" tables: its code, a name for the records, and the amount range in rupees.
struct Operator
{
    const char *code;
    const char *name;
    qint64 minimum;
    qint64 maximum;
};

const std::vector<Operator> &mobileOperators()
{
    static const std::vector<Operator> operators{
        {"AT", "Airtel", 10, 2500}, {"VI", "Vi", 10, 5000}, {"BS", "BSNL", 10, 2000}, {"RJ", "Jio", 10, 4999}};
    return operators;
}

const std::vector<Operator> &dthOperators()
{
    static const std::vector<Operator> operators{
        {"SD", "Sun Direct", 10, 10000}, {"AD", "Airtel Digital TV", 50, 10000}, {"VC", "Videocon d2h", 50, 20000},
        {"TS", "Tata Play", 10, 25000},  {"DT", "Dish TV", 10, 20000},           {"BT", "Big TV", 20, 25000}};
    return operators;
}

const Operator *findOperator(const std::vector<Operator> &operators, const QString &code)
{
    for (const Operator &candidate : operators) {
        if (code == QLatin1String(candidate.code))
            return &candidate;
    }
    return nullptr;
}

/// The spec's circle table: code and name.
const std::vector<std::pair<const char *, const char *>> &circles()
{
    static const std::vector<std::pair<const char *, const char *>> table{{"AP", "Andhra Pradesh & Telangana"},
                                                                          {"AS", "Assam"},
                                                                          {"BR", "Bihar Jharkhand"},
                                                                          {"CH", "Chennai"},
                                                                          {"DL", "Delhi & NCR"},
                                                                          {"GJ", "Gujarat"},
                                                                          {"HR", "Haryana"},
                                                                          {"HP", "Himachal Pradesh"},
                                                                          {"JK", "Jammu & Kashmir"},
                                                                          {"KA", "Karnataka"},
                                                                          {"KL", "Kerala"},
                                                                          {"KO", "Kolkata"},
                                                                          {"MP", "Madhya Pradesh & Chhattisgarh"},
                                                                          {"MH", "Maharashtra & Goa"},
                                                                          {"MU", "Mumbai"},
                                                                          {"NE", "North East"},
                                                                          {"OR", "Odisha"},
                                                                          {"PB", "Punjab"},
                                                                          {"RJ", "Rajasthan"},
                                                                          {"TN", "Tamil Nadu"},
                                                                          {"UE", "Uttar Pradesh East"},
                                                                          {"UW", "Uttar Pradesh West & Uttarakhand"},
                                                                          {"WB", "West Bengal"}};
    return table;
}

/// What distinguishes the three sale endpoints (spec, "Recharge and voucher transactions").
struct SaleKind
{
    const char *entity;
    const char *type;
    const char *webhookEvent;
    const char *numberField;                ///< the body field holding the number; nullptr for vouchers
    const std::vector<Operator> *operators; ///< nullptr for vouchers (no operator_code)
};

const SaleKind kMobile{"mobile_recharge", "MOBILE", "event.mobile_recharge", "phone_number", &mobileOperators()};
const SaleKind kDth{"dth_recharge", "DTH", "event.dth_recharge", "number", &dthOperators()};
const SaleKind kVoucher{"appstore_voucher", "VOUCHER", "event.appstore_voucher", nullptr, nullptr};

/// One sale the aggregator made: its record as it is now, and the webhook_event of its kind.
struct Sale
{
    QJsonObject record;
    const char *webhookEvent;

    QString status() const { return record.value(QStringLiteral("transaction_status")).toString(); }
    QString referenceId() const { return record.value(QStringLiteral("reference_id")).toString(); }
};

/// One Aadhaar authentication transaction: its state (spec, "States and transitions") and number.
struct AadhaarFlow
{
    QString status;
    QString aadhaarNumber;
};

/// An answer to write: status, body, and whether to hold it (delayMs) or close the connection instead (cut).
struct Answer
{
    int status = 200;
    QByteArray contentType = "application/json";
    QByteArray body;
    int delayMs = 0;
    bool cut = false;
};

Answer dataAnswer(const QJsonObject &data)
{
    return {200, "application/json", QJsonDocument(QJsonObject{{QStringLiteral("data"), data}}).toJson()};
}

/// The aggregator's own error format: {"status": word, "message": message}.
Answer message(int status, const char *word, const QString &message)
{
    return {status, "application/json",
            QJsonDocument(
                QJsonObject{{QStringLiteral("status"), QLatin1String(word)}, {QStringLiteral("message"), message}})
                .toJson()};
}

Answer failure(const QString &text)
{
    return message(400, "FAILURE", text);
}

Answer unavailable()
{
    return {503, "text/html",
            "<html>\r\n<head><title>503 Service Temporarily Unavailable</title></head>\r\n<body>\r\n<center><h1>503 "
            "Service Temporarily Unavailable</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n"};
}

/// A whole number given as a JSON number or as a string of digits ("The client samples send it as a JSON string").
std::optional<qint64> wholeNumber(const QJsonValue &value)
{
    if (value.isDouble() && value.toDouble() == double(value.toInteger()))
        return value.toInteger();
    bool ok = false;
    const qint64 number = value.toString().toLongLong(&ok);
    return ok ? std::optional<qint64>(number) : std::nullopt;
}

bool isDigits(const QString &text, qsizetype count)
{
    return text.size() == count && std::all_of(text.begin(), text.end(), [](QChar c) { return c.isDigit(); });
}

/// "<currency symbol><amount with two decimals>", the spec's money strings.
QString rupees(qint64 paise)
{
    return QChar(0x20B9) + QStringLiteral("%1.%2").arg(paise / 100).arg(paise % 100, 2, 10, QLatin1Char('0'));
}

/// Four groups of four characters separated by hyphens (spec, redeem_code).
QString redeemCode()
{
    static const char alphabet[] = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
    QString code;
    for (int i = 0; i < 16; ++i) {
        if (i > 0 && i % 4 == 0)
            code += QLatin1Char('-');
        code += QLatin1Char(alphabet[QRandomGenerator::global()->bounded(int(sizeof(alphabet) - 1))]);
    }
    return code;
}

SpecAggregator::Outcome outcomeForNumber(const QString &number)
{
    using Outcome = SpecAggregator::Outcome;
    static const std::pair<const char *, Outcome> bySuffix[] = {
        {"0000", Outcome::Failed},     {"1111", Outcome::PendingThenSuccess}, {"2222", Outcome::PendingThenFailed},
        {"4000", Outcome::Refused},    {"5030", Outcome::Unavailable},        {"7777", Outcome::SoldButLate},
        {"8888", Outcome::SoldThenCut}};
    for (const auto &[suffix, outcome] : bySuffix) {
        if (number.endsWith(QLatin1String(suffix)))
            return outcome;
    }
    return Outcome::Success;
}

/// Sets a sale's transaction_status; a voucher sold gets its redeem code.
void endSale(Sale &sale, const QString &status)
{
    sale.record.insert(QStringLiteral("transaction_status"), status);
    if (status == QLatin1String("SUCCESS") && sale.record.contains(QStringLiteral("redeem_code")) &&
        sale.record.value(QStringLiteral("redeem_code")).toString().isEmpty())
        sale.record.insert(QStringLiteral("redeem_code"), redeemCode());
}

/// The captcha's digits drawn as a seven-segment display on a small white PNG (no fonts needed), so a person trying a
/// shop by hand can read it.
QByteArray captchaPng(const QString &digits)
{
    // Segments a..g as bits 0..6, and each segment's rectangle in a 12x20 cell.
    static const int kSegments[10] = {0x3F, 0x06, 0x5B, 0x4F, 0x66, 0x6D, 0x7D, 0x07, 0x7F, 0x6F};
    static const QRect kRects[7] = {{2, 0, 8, 2},  {10, 2, 2, 7}, {10, 11, 2, 7}, {2, 18, 8, 2},
                                    {0, 11, 2, 7}, {0, 2, 2, 7},  {2, 9, 8, 2}};
    QImage image(int(16 * digits.size() + 8), 28, QImage::Format_RGB32);
    image.fill(Qt::white);
    for (qsizetype i = 0; i < digits.size(); ++i) {
        const int bits = kSegments[digits.at(i).digitValue()];
        for (int segment = 0; segment < 7; ++segment) {
            if (!(bits & (1 << segment)))
                continue;
            const QRect rect = kRects[segment].translated(int(6 + 16 * i), 4);
            for (int y = rect.top(); y <= rect.bottom(); ++y) {
                for (int x = rect.left(); x <= rect.right(); ++x)
                    image.setPixel(x, y, qRgb(20, 20, 90));
            }
        }
    }
    QBuffer png;
    png.open(QIODevice::WriteOnly);
    image.save(&png, "PNG");
    return png.data();
}

QString captchaDigits(qint64 aadhaarTransactionId)
{
    return QString::number(10000 + (aadhaarTransactionId * 7919) % 90000);
}

} // namespace

/// Everything the aggregator knows, shared by the server's thread and the test's; every access holds `mutex`.
struct SpecAggregator::State
{
    mutable QMutex mutex;
    QString credential;
    QUrl address; ///< http://host:port once listening
    QUrl webhookUrl;
    QString webhookPassword;
    std::optional<Outcome> outcome;
    int lateAnswerMs = 4000;
    int webhookDelayMs = 300;
    bool automaticWebhooks = true;
    QString failingPlans; ///< operator code + circle code whose plans answer 500; empty: none
    QList<Sale> sales;
    QHash<QString, int> requestsByReference;
    QStringList paths;
    int lateAnswersDropped = 0;
    QList<WebhookDelivery> webhooks;
    QHash<qint64, AadhaarFlow> aadhaar;
    QHash<QString, qint64> captchaTokens; ///< /captcha/<token>.png -> Aadhaar transaction_id
    qint64 nextTransactionId = 880001;
    qint64 nextAadhaarId = 770001;

    /// Index of the latest sale with this reference_id; -1 when none.
    qsizetype latestSale(const QString &referenceId) const
    {
        for (qsizetype i = sales.size() - 1; i >= 0; --i) {
            if (sales.at(i).referenceId() == referenceId)
                return i;
        }
        return -1;
    }

    /// The spec's webhook body ("Events") for a sale as it is now.
    QJsonObject webhookBody(const Sale &sale) const
    {
        return specWebhookBody(QLatin1String(sale.webhookEvent), webhookPassword, sale.record);
    }
};

/// The HTTP side, on the aggregator's own thread: routes, answers, timers and webhook deliveries.
class SpecAggregator::Server final : public QObject
{
public:
    explicit Server(State &state) : m_state(state) {}

    /// Creates the QHttpServer and listens; the port, 0 when it cannot. On the server's thread.
    quint16 listen(const QHostAddress &address, quint16 port)
    {
        m_network = new QNetworkAccessManager(this);
        m_http = new QHttpServer(this);
        m_http->setMissingHandler([this](const QHttpServerRequest &request, QHttpServerResponder &&responder) {
            handle(request, std::move(responder));
        });
        return m_http->listen(address, port);
    }

    /// POSTs a webhook body to the configured URL and records the delivery. On the server's thread.
    void deliver(const QString &referenceId, const QJsonObject &body)
    {
        QMutexLocker lock(&m_state.mutex);
        const QUrl url = m_state.webhookUrl;
        if (url.isEmpty()) {
            m_state.webhooks.append({referenceId, body, 0, QStringLiteral("no webhook URL configured")});
            return;
        }
        lock.unlock();
        QNetworkRequest request(url);
        request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
        request.setTransferTimeout(10'000);
        QNetworkReply *reply = m_network->post(request, QJsonDocument(body).toJson(QJsonDocument::Compact));
        connect(reply, &QNetworkReply::finished, this, [this, reply, referenceId, body] {
            reply->deleteLater();
            const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
            const QString error = status == 0 ? reply->errorString() : QString();
            const QMutexLocker lock(&m_state.mutex);
            m_state.webhooks.append({referenceId, body, status, error});
        });
    }

private:
    using Handler = Answer (Server::*)(const QHttpServerRequest &, const QJsonObject &);
    struct Route
    {
        QHttpServerRequest::Method method;
        const char *path;
        Handler handler;
    };

    void handle(const QHttpServerRequest &request, QHttpServerResponder &&responder)
    {
        static const Route routes[] = {
            {QHttpServerRequest::Method::Post, "/api/v1/recharge/mobile/initiate-transaction", &Server::mobile},
            {QHttpServerRequest::Method::Post, "/api/v1/recharge/dth/initiate-transaction", &Server::dth},
            {QHttpServerRequest::Method::Post, "/api/v1/voucher/appstore/initiate-transaction", &Server::voucher},
            {QHttpServerRequest::Method::Post, "/api/v1/plans/mobile/prepaid-plans", &Server::plans},
            {QHttpServerRequest::Method::Get, "/api/v1/uidai/aadhaar-authentication/initiate-transaction",
             &Server::aadhaarInitiate},
            {QHttpServerRequest::Method::Post, "/api/v1/uidai/aadhaar-authentication/request-otp", &Server::requestOtp},
            {QHttpServerRequest::Method::Post, "/api/v1/uidai/aadhaar-authentication/verify-otp", &Server::verifyOtp},
        };
        const QString path = request.url().path();
        const QJsonDocument document = QJsonDocument::fromJson(request.body());
        {
            const QMutexLocker lock(&m_state.mutex);
            m_state.paths.append(path);
            const QString referenceId = document.object().value(QStringLiteral("reference_id")).toString();
            if (!referenceId.isEmpty())
                ++m_state.requestsByReference[referenceId];
        }
        if (request.method() == QHttpServerRequest::Method::Get && path.startsWith(QLatin1String("/captcha/")))
            return respond(std::move(responder), captcha(path));
        for (const Route &route : routes) {
            if (request.method() != route.method || path != QLatin1String(route.path))
                continue;
            if (!authorized(request))
                return respond(std::move(responder), message(401, "error", QStringLiteral("Invalid API key")));
            if (route.method == QHttpServerRequest::Method::Post && !document.isObject())
                return respond(std::move(responder), failure(QStringLiteral("Invalid JSON body")));
            return respond(std::move(responder), (this->*route.handler)(request, document.object()));
        }
        respond(std::move(responder), message(404, "error", QStringLiteral("Not found")));
    }

    /// `Authorization: Basic <credential>`, the credential compared verbatim (spec, "Authentication").
    bool authorized(const QHttpServerRequest &request) const
    {
        const QMutexLocker lock(&m_state.mutex);
        return request.value("authorization") == "Basic " + m_state.credential.toUtf8();
    }

    void respond(QHttpServerResponder &&responder, const Answer &answer)
    {
        if (answer.cut) {
            // After the handler returns, so that QHttpServer is done with the request before its socket closes.
            QTcpSocket *socket = responder.socket();
            QTimer::singleShot(0, socket, [socket] { socket->abort(); });
            return;
        }
        if (answer.delayMs <= 0)
            return write(responder, answer);
        // The answer waits; QHttpServer deletes the socket when the client goes, so it is watched with a QPointer.
        const auto held = std::make_shared<QHttpServerResponder>(std::move(responder));
        const QPointer<QTcpSocket> socket = held->socket();
        QTimer::singleShot(answer.delayMs, this, [this, held, socket, answer] {
            if (socket && socket->state() == QAbstractSocket::ConnectedState)
                return write(*held, answer);
            const QMutexLocker lock(&m_state.mutex);
            ++m_state.lateAnswersDropped;
        });
    }

    static void write(QHttpServerResponder &responder, const Answer &answer)
    {
        responder.write(answer.body, {{"Content-Type", answer.contentType}},
                        static_cast<QHttpServerResponder::StatusCode>(answer.status));
    }

    Answer mobile(const QHttpServerRequest &, const QJsonObject &body) { return initiateSale(kMobile, body); }
    Answer dth(const QHttpServerRequest &, const QJsonObject &body) { return initiateSale(kDth, body); }
    Answer voucher(const QHttpServerRequest &, const QJsonObject &body) { return initiateSale(kVoucher, body); }

    /// Endpoints 5, 6 and 7: checks the fields and the spec's limits, then makes a sale as the outcome says.
    Answer initiateSale(const SaleKind &kind, const QJsonObject &body)
    {
        const std::optional<qint64> amount = wholeNumber(body.value(QStringLiteral("amount")));
        if (!amount || *amount <= 0)
            return failure(QStringLiteral("Invalid amount"));
        QString number;
        QString operatorName = QStringLiteral("Google Play");
        if (kind.operators) {
            number = body.value(QLatin1String(kind.numberField)).toString();
            if (kind.operators == &mobileOperators() ? !isDigits(number, 10) : number.trimmed().isEmpty())
                return failure(QStringLiteral("Invalid %1").arg(QLatin1String(kind.numberField)));
            const Operator *op = findOperator(*kind.operators, body.value(QStringLiteral("operator_code")).toString());
            if (!op)
                return failure(QStringLiteral("Invalid operator_code"));
            if (*amount < op->minimum || *amount > op->maximum)
                return failure(QStringLiteral("Amount should be between %1 and %2").arg(op->minimum).arg(op->maximum));
            operatorName = QLatin1String(op->name);
        }

        QMutexLocker lock(&m_state.mutex);
        const Outcome outcome = m_state.outcome.value_or(outcomeForNumber(number));
        if (outcome == Outcome::Refused)
            return failure(QStringLiteral("Recharge not allowed for this number"));
        if (outcome == Outcome::Unavailable)
            return unavailable();
        const bool pending = outcome == Outcome::PendingThenSuccess || outcome == Outcome::PendingThenFailed;
        const qint64 paise = *amount * 100;
        const qint64 discount = paise * 2 / 100; // the aggregator's 2 % commission
        QJsonObject record{
            {QStringLiteral("entity"), QLatin1String(kind.entity)},
            {QStringLiteral("transaction_id"), m_state.nextTransactionId++},
            {QStringLiteral("operator"), operatorName},
            {QStringLiteral("type"), QLatin1String(kind.type)},
            {QStringLiteral("bill_amount"), rupees(paise)},
            {QStringLiteral("discount"), rupees(discount)},
            {QStringLiteral("paid"), rupees(paise - discount)},
            {QStringLiteral("transaction_status"), QStringLiteral("PENDING")},
            {QStringLiteral("reference_id"), body.value(QStringLiteral("reference_id")).toString()},
            {QStringLiteral("datetime"),
             QDateTime::currentDateTimeUtc().addSecs(5 * 3600 + 1800).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"))},
        };
        if (kind.operators) {
            record.insert(QStringLiteral("number"), number);
        } else {
            record.insert(QStringLiteral("customer_email"), body.value(QStringLiteral("customer_email")).toString());
            record.insert(QStringLiteral("redeem_code"), QString());
        }
        Sale sale{record, kind.webhookEvent};
        if (!pending)
            endSale(sale, outcome == Outcome::Failed ? QStringLiteral("FAILED") : QStringLiteral("SUCCESS"));
        m_state.sales.append(sale);
        Answer answer = dataAnswer(sale.record);
        if (outcome == Outcome::SoldButLate)
            answer.delayMs = m_state.lateAnswerMs;
        answer.cut = outcome == Outcome::SoldThenCut;
        if (pending) {
            const qsizetype index = m_state.sales.size() - 1;
            const QString end =
                outcome == Outcome::PendingThenSuccess ? QStringLiteral("SUCCESS") : QStringLiteral("FAILED");
            QTimer::singleShot(m_state.webhookDelayMs, this, [this, index, end] { endPending(index, end); });
        }
        return answer;
    }

    /// A PENDING sale's end at the aggregator, and its webhook unless webhooks are off. Nothing when the test already
    /// ended it (sendWebhook()).
    void endPending(qsizetype index, const QString &end)
    {
        QMutexLocker lock(&m_state.mutex);
        Sale &sale = m_state.sales[index];
        if (sale.status() != QLatin1String("PENDING"))
            return;
        endSale(sale, end);
        if (!m_state.automaticWebhooks)
            return;
        const QJsonObject body = m_state.webhookBody(sale);
        const QString referenceId = sale.referenceId();
        lock.unlock();
        deliver(referenceId, body);
    }

    /// Endpoint 4. Plan ids are unique only within one operator and circle: every pair reuses 1..5.
    Answer plans(const QHttpServerRequest &, const QJsonObject &body)
    {
        const Operator *op = findOperator(mobileOperators(), body.value(QStringLiteral("operator_code")).toString());
        if (!op)
            return failure(QStringLiteral("Invalid operator_code"));
        const QString circleCode = body.value(QStringLiteral("circle_code")).toString();
        const auto circle = std::find_if(circles().begin(), circles().end(),
                                         [&](const auto &entry) { return circleCode == QLatin1String(entry.first); });
        if (circle == circles().end())
            return failure(QStringLiteral("Invalid circle_code"));
        {
            const QMutexLocker lock(&m_state.mutex);
            if (m_state.failingPlans == QLatin1String(op->code) + circleCode)
                return message(500, "error", QStringLiteral("Plans are not available for this circle"));
        }
        const auto plan = [&](int id, qint64 amount, const char *validity, const char *data, bool withOffer) {
            QJsonArray subscriptions;
            if (withOffer)
                subscriptions.append(QJsonObject{{QStringLiteral("entity"), QStringLiteral("subscription")},
                                                 {QStringLiteral("name"), QStringLiteral("Wynk Music")},
                                                 {QStringLiteral("description"), QStringLiteral("Free for 28 days")},
                                                 {QStringLiteral("logo"), QStringLiteral("wynk.png")}});
            return QJsonObject{{QStringLiteral("entity"), QStringLiteral("plan")},
                               {QStringLiteral("plan_id"), id},
                               {QStringLiteral("amount"), qint64(amount + (op - mobileOperators().data()))},
                               {QStringLiteral("validity"), QLatin1String(validity)},
                               {QStringLiteral("talktime"), QStringLiteral("Unlimited")},
                               {QStringLiteral("benefit"),
                                QStringLiteral("%1 for %2").arg(QLatin1String(data), QLatin1String(validity))},
                               {QStringLiteral("calls"), QStringLiteral("Unlimited")},
                               {QStringLiteral("sms"), QStringLiteral("100/day")},
                               {QStringLiteral("data"), QLatin1String(data)},
                               {QStringLiteral("remark"), QString()},
                               {QStringLiteral("subscriptions"), subscriptions}};
        };
        const auto category = [](const char *name, const QJsonArray &items) {
            return QJsonObject{{QStringLiteral("entity"), QStringLiteral("collection")},
                               {QStringLiteral("name"), QLatin1String(name)},
                               {QStringLiteral("count"), items.size()},
                               {QStringLiteral("items"), items}};
        };
        return dataAnswer({{QStringLiteral("entity"), QStringLiteral("prepaid_plans")},
                           {QStringLiteral("operator"), QLatin1String(op->name)},
                           {QStringLiteral("circle"), QLatin1String(circle->second)},
                           {QStringLiteral("categories"),
                            QJsonArray{category("Popular", {plan(1, 199, "28 days", "1.5 GB/day", true),
                                                            plan(2, 299, "28 days", "2 GB/day", false),
                                                            plan(3, 719, "84 days", "1.5 GB/day", true)}),
                                       category("Data", {plan(4, 19, "1 day", "1 GB", false),
                                                         plan(5, 58, "28 days", "3 GB", false)})}}});
    }

    /// Endpoint 1: a new transaction and its captcha, an absolute URL on this host outside /api/v1.
    Answer aadhaarInitiate(const QHttpServerRequest &request, const QJsonObject &)
    {
        const QMutexLocker lock(&m_state.mutex);
        const qint64 id = m_state.nextAadhaarId++;
        const QString token = QString::number(QRandomGenerator::global()->generate64(), 16);
        m_state.aadhaar.insert(id, {QStringLiteral("CAPTCHA_GENERATED"), QString()});
        m_state.captchaTokens.insert(token, id);
        QUrl captcha = request.url().host().isEmpty() ? m_state.address : request.url();
        captcha.setPath(QStringLiteral("/captcha/%1.png").arg(token));
        captcha.setQuery(QString());
        return dataAnswer({{QStringLiteral("transaction_id"), id},
                           {QStringLiteral("entity"), QStringLiteral("aadhaar_authentication")},
                           {QStringLiteral("status"), QStringLiteral("CAPTCHA_GENERATED")},
                           {QStringLiteral("msg"), QStringLiteral("Captcha generated successfully")},
                           {QStringLiteral("captcha"), captcha.toString()}});
    }

    /// GET /captcha/<token>.png (no Authorization needed, as an <img> would fetch it).
    Answer captcha(const QString &path)
    {
        const QString token = path.mid(int(qstrlen("/captcha/"))).chopped(int(qstrlen(".png")));
        const QMutexLocker lock(&m_state.mutex);
        const auto found = m_state.captchaTokens.constFind(token);
        if (!path.endsWith(QLatin1String(".png")) || found == m_state.captchaTokens.cend())
            return message(404, "error", QStringLiteral("Not found"));
        return {200, "image/png", captchaPng(captchaDigits(found.value()))};
    }

    /// Endpoints 2 and 3 share this answer shape.
    static QJsonObject aadhaarStep(qint64 id, const AadhaarFlow &flow, const QString &msg)
    {
        return {{QStringLiteral("transaction_id"), id},
                {QStringLiteral("entity"), QStringLiteral("aadhaar_authentication")},
                {QStringLiteral("aadhaar_number"), flow.aadhaarNumber},
                {QStringLiteral("status"), flow.status},
                {QStringLiteral("msg"), msg}};
    }

    /// The Aadhaar transaction named by the body's transaction_id (a number or a string) in state `status`.
    AadhaarFlow *flowIn(const QJsonObject &body, const char *status, qint64 *id)
    {
        const std::optional<qint64> number = wholeNumber(body.value(QStringLiteral("transaction_id")));
        const auto found = number ? m_state.aadhaar.find(*number) : m_state.aadhaar.end();
        if (found == m_state.aadhaar.end() || found->status != QLatin1String(status))
            return nullptr;
        *id = *number;
        return &found.value();
    }

    /// Endpoint 2: a wrong captcha answers 400 "Invalid captcha" and the transaction may try again.
    Answer requestOtp(const QHttpServerRequest &, const QJsonObject &body)
    {
        const QMutexLocker lock(&m_state.mutex);
        qint64 id = 0;
        AadhaarFlow *flow = flowIn(body, "CAPTCHA_GENERATED", &id);
        if (!flow)
            return failure(QStringLiteral("Invalid transaction_id"));
        const QString aadhaarNumber = body.value(QStringLiteral("aadhaar_number")).toString();
        if (!isDigits(aadhaarNumber, 12))
            return failure(QStringLiteral("Invalid Aadhaar number"));
        if (body.value(QStringLiteral("captcha_value")).toString() != captchaDigits(id))
            return failure(QStringLiteral("Invalid captcha"));
        flow->status = QStringLiteral("OTP_GENERATED");
        flow->aadhaarNumber = aadhaarNumber;
        return dataAnswer(aadhaarStep(id, *flow, QStringLiteral("OTP sent to the mobile number linked with Aadhaar")));
    }

    /// Endpoint 3: the OTP is SpecAggregator::otp().
    Answer verifyOtp(const QHttpServerRequest &, const QJsonObject &body)
    {
        const QMutexLocker lock(&m_state.mutex);
        qint64 id = 0;
        AadhaarFlow *flow = flowIn(body, "OTP_GENERATED", &id);
        if (!flow)
            return failure(QStringLiteral("Invalid transaction_id"));
        if (body.value(QStringLiteral("otp_value")).toString() != SpecAggregator::otp())
            return failure(QStringLiteral("Invalid OTP"));
        flow->status = QStringLiteral("AUTHENTICATION_SUCCESS");
        return dataAnswer(aadhaarStep(id, *flow, QStringLiteral("Aadhaar authentication successful")));
    }

    State &m_state;
    QHttpServer *m_http = nullptr;
    QNetworkAccessManager *m_network = nullptr;
};

SpecAggregator::SpecAggregator(QString credential) : m_state(std::make_unique<State>())
{
    m_state->credential = std::move(credential);
    m_server = new Server(*m_state);
    m_server->moveToThread(&m_thread);
    // Deleted on its thread as the thread finishes (QThread runs deferred deletes then).
    QObject::connect(&m_thread, &QThread::finished, m_server, &QObject::deleteLater);
    m_thread.setObjectName(QStringLiteral("spec-aggregator"));
    m_thread.start();
}

SpecAggregator::~SpecAggregator()
{
    m_thread.quit();
    m_thread.wait();
}

bool SpecAggregator::listen(const QHostAddress &address, quint16 port, QString *error)
{
    quint16 bound = 0;
    QMetaObject::invokeMethod(
        m_server, [&] { bound = m_server->listen(address, port); }, Qt::BlockingQueuedConnection);
    if (bound == 0) {
        if (error)
            *error = QStringLiteral("cannot listen on %1:%2").arg(address.toString()).arg(port);
        return false;
    }
    QUrl url;
    url.setScheme(QStringLiteral("http"));
    const bool any = address == QHostAddress::Any || address == QHostAddress::AnyIPv4;
    url.setHost(any ? QStringLiteral("127.0.0.1") : address.toString());
    url.setPort(bound);
    const QMutexLocker lock(&m_state->mutex);
    m_state->address = url;
    return true;
}

QUrl SpecAggregator::url(const QString &path) const
{
    const QMutexLocker lock(&m_state->mutex);
    QUrl url = m_state->address;
    url.setPath(path);
    return url;
}

void SpecAggregator::setWebhook(const QUrl &url, const QString &password)
{
    const QMutexLocker lock(&m_state->mutex);
    m_state->webhookUrl = url;
    m_state->webhookPassword = password;
}

void SpecAggregator::setOutcome(std::optional<Outcome> outcome)
{
    const QMutexLocker lock(&m_state->mutex);
    m_state->outcome = outcome;
}

void SpecAggregator::setLateAnswerMs(int ms)
{
    const QMutexLocker lock(&m_state->mutex);
    m_state->lateAnswerMs = ms;
}

void SpecAggregator::setWebhookDelayMs(int ms)
{
    const QMutexLocker lock(&m_state->mutex);
    m_state->webhookDelayMs = ms;
}

void SpecAggregator::setAutomaticWebhooks(bool on)
{
    const QMutexLocker lock(&m_state->mutex);
    m_state->automaticWebhooks = on;
}

void SpecAggregator::failPlans(const QString &operatorCode, const QString &circleCode)
{
    const QMutexLocker lock(&m_state->mutex);
    m_state->failingPlans = operatorCode + circleCode;
}

bool SpecAggregator::sendWebhook(const QString &referenceId, const QString &status)
{
    QJsonObject body;
    {
        const QMutexLocker lock(&m_state->mutex);
        const qsizetype index = m_state->latestSale(referenceId);
        if (index < 0)
            return false;
        Sale &sale = m_state->sales[index];
        endSale(sale, status);
        body = m_state->webhookBody(sale);
    }
    QMetaObject::invokeMethod(
        m_server, [server = m_server, referenceId, body] { server->deliver(referenceId, body); }, Qt::QueuedConnection);
    return true;
}

int SpecAggregator::salesFor(const QString &referenceId) const
{
    const QMutexLocker lock(&m_state->mutex);
    return int(std::count_if(m_state->sales.cbegin(), m_state->sales.cend(),
                             [&](const Sale &sale) { return sale.referenceId() == referenceId; }));
}

int SpecAggregator::totalSales() const
{
    const QMutexLocker lock(&m_state->mutex);
    return int(m_state->sales.size());
}

int SpecAggregator::requestsFor(const QString &referenceId) const
{
    const QMutexLocker lock(&m_state->mutex);
    return m_state->requestsByReference.value(referenceId);
}

int SpecAggregator::requestsTo(const QString &pathPrefix) const
{
    const QMutexLocker lock(&m_state->mutex);
    return int(std::count_if(m_state->paths.cbegin(), m_state->paths.cend(),
                             [&](const QString &path) { return path.startsWith(pathPrefix); }));
}

int SpecAggregator::lateAnswersDropped() const
{
    const QMutexLocker lock(&m_state->mutex);
    return m_state->lateAnswersDropped;
}

QList<QJsonObject> SpecAggregator::records() const
{
    const QMutexLocker lock(&m_state->mutex);
    QList<QJsonObject> records;
    for (const Sale &sale : m_state->sales)
        records.append(sale.record);
    return records;
}

QJsonObject SpecAggregator::record(const QString &referenceId) const
{
    const QMutexLocker lock(&m_state->mutex);
    const qsizetype index = m_state->latestSale(referenceId);
    return index < 0 ? QJsonObject() : m_state->sales.at(index).record;
}

QList<SpecAggregator::WebhookDelivery> SpecAggregator::webhooks() const
{
    const QMutexLocker lock(&m_state->mutex);
    return m_state->webhooks;
}

QString SpecAggregator::captchaAnswer(qint64 aadhaarTransactionId) const
{
    return captchaDigits(aadhaarTransactionId);
}
