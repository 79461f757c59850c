#include "apiclient.h"
#include "backoffice/collectionmodel.h"
#include "backoffice/userspage.h"
#include "backoffice/walletpage.h"
#include "terminalcontext.h"
#include "usersapi.h"
#include "walletapi.h"

#include <QApplication>
#include <QComboBox>
#include <QHash>
#include <QHttpServer>
#include <QHttpServerRequest>
#include <QHttpServerResponder>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

namespace {

constexpr int kTimeoutMs = 10'000;

/// A server on port 0 that answers GET of the paths it was given with their `data` (any query) and 404 otherwise:
/// the back office meets answers the real server never writes.
class CannedServer
{
public:
    CannedServer()
    {
        m_server.setMissingHandler([this](const QHttpServerRequest &request, QHttpServerResponder &&responder) {
            const auto found = answers.constFind(request.url().path());
            if (found == answers.cend()) {
                responder.write(
                    QJsonDocument(QJsonObject{{QStringLiteral("error"),
                                               QJsonObject{{QStringLiteral("code"), QStringLiteral("NOT_FOUND_ERROR")},
                                                           {QStringLiteral("description"), QStringLiteral("not here")},
                                                           {QStringLiteral("field"), QJsonValue::Null},
                                                           {QStringLiteral("reason"), QStringLiteral("not_found")}}}}),
                    QHttpServerResponder::StatusCode::NotFound);
                return;
            }
            responder.write(QJsonDocument(QJsonObject{{QStringLiteral("data"), *found}}));
        });
        m_port = m_server.listen(QHostAddress::LocalHost, 0);
    }

    QUrl baseUrl() const { return QUrl(QStringLiteral("http://127.0.0.1:%1").arg(m_port)); }

    /// `data` of the answer by path.
    QHash<QString, QJsonObject> answers;

private:
    QHttpServer m_server;
    quint16 m_port = 0;
};

/// A terminal (test key) talking to a CannedServer.
struct CannedShop
{
    CannedShop()
        : api(server.baseUrl(), QStringLiteral("test_counter1"), QStringLiteral("secret")),
          context(api, dir.filePath(QStringLiteral("prefs.ini")))
    {}
    QTemporaryDir dir;
    CannedServer server;
    ApiClient api;
    TerminalContext context;
};

/// A one-page collection answer of `items`.
QJsonObject collection(const QJsonArray &items)
{
    return {{QStringLiteral("entity"), QStringLiteral("collection")},
            {QStringLiteral("count"), items.size()},
            {QStringLiteral("items"), items},
            {QStringLiteral("next_cursor"), QJsonValue::Null}};
}

QJsonObject ledgerEntry(qint64 id, const char *kind, const char *amount, qint64 paise)
{
    return {{QStringLiteral("entity"), QStringLiteral("ledger_entry")},
            {QStringLiteral("id"), id},
            {QStringLiteral("kind"), QLatin1String(kind)},
            {QStringLiteral("amount"), QString::fromUtf8(amount)},
            {QStringLiteral("amount_paise"), paise},
            {QStringLiteral("transaction_id"), QJsonValue::Null},
            {QStringLiteral("note"), QStringLiteral("cash float")},
            {QStringLiteral("actor"), QStringLiteral("user:Owner")},
            {QStringLiteral("datetime"), QStringLiteral("2026-11-24 10:01:45")}};
}

QString cell(const QTableView *table, int row, int column)
{
    return table->model()->index(row, column).data().toString();
}

void showPage(QWidget &page)
{
    page.resize(1160, 720);
    page.show();
    QApplication::setActiveWindow(&page);
    QVERIFY(QTest::qWaitForWindowExposed(&page));
}

} // namespace

/// Issue 14: the back office's tables read their rows as entities of core/entities/, so a row the server sent with a
/// missing or mistyped field says what is wrong in the table (never a blank or ₹0.00) and the other rows stay.
class TestUiTypedTables final : public QObject
{
    Q_OBJECT

private slots:
    void ledgerRowWithoutAmountSaysSo()
    {
        CannedShop shop;
        QJsonObject noAmount = ledgerEntry(2, "topup", "₹100.00", 10'000);
        noAmount.remove(QStringLiteral("amount"));
        shop.server.answers.insert(WalletApi::ledgerPath(),
                                   collection({ledgerEntry(3, "topup", "₹5000.00", 500'000), noAmount,
                                               ledgerEntry(1, "opening", "₹10000.00", 1'000'000)}));
        WalletPage page(shop.context);
        showPage(page);
        auto *table = page.findChild<QTableView *>(QStringLiteral("ledgerTable"));
        QVERIFY(table);
        QTRY_COMPARE_WITH_TIMEOUT(table->model()->rowCount(), 3, kTimeoutMs);
        QCOMPARE(cell(table, 0, 2), QStringLiteral("₹5,000.00"));
        const QString problem = QStringLiteral("Unreadable answer: ledger entry: field `amount` is missing");
        for (int column = 0; column < 6; ++column)
            QCOMPARE(cell(table, 1, column), problem);
        QCOMPARE(cell(table, 2, 1), QStringLiteral("Opening balance"));

        // The kind filter shows only rows that are of that kind: the unreadable one is none.
        auto *kind = page.findChild<QComboBox *>(QStringLiteral("ledgerKind"));
        kind->setCurrentIndex(kind->findData(QStringLiteral("topup")));
        QCOMPARE(table->model()->rowCount(), 1);
        QCOMPARE(cell(table, 0, 2), QStringLiteral("₹5,000.00"));
        kind->setCurrentIndex(0);
        QCOMPARE(table->model()->rowCount(), 3);
    }

    void auditEntryWithoutActorSaysSo()
    {
        CannedShop shop;
        const QJsonObject entry{{QStringLiteral("entity"), QStringLiteral("audit_entry")},
                                {QStringLiteral("id"), 7},
                                {QStringLiteral("actor"), QStringLiteral("user:Owner")},
                                {QStringLiteral("action"), QStringLiteral("user.create")},
                                {QStringLiteral("detail"), QStringLiteral("added clerk Asha")},
                                {QStringLiteral("datetime"), QStringLiteral("2026-11-24 10:01:45")}};
        QJsonObject noActor = entry;
        noActor.remove(QStringLiteral("actor"));
        QJsonObject numberAction = entry;
        numberAction.insert(QStringLiteral("action"), 5);
        shop.server.answers.insert(UsersApi::auditLogPath(), collection({entry, noActor, numberAction}));
        UsersPage page(shop.context);
        showPage(page);
        auto *table = page.findChild<QTableView *>(QStringLiteral("auditTable"));
        QVERIFY(table);
        QTRY_COMPARE_WITH_TIMEOUT(table->model()->rowCount(), 3, kTimeoutMs);
        QCOMPARE(cell(table, 0, 1), QStringLiteral("Owner"));
        QCOMPARE(cell(table, 0, 2), QStringLiteral("Added a user"));
        QCOMPARE(cell(table, 1, 1), QStringLiteral("Unreadable answer: audit entry: field `actor` is missing"));
        QCOMPARE(cell(table, 2, 2), QStringLiteral("Unreadable answer: audit entry: field `action` is not a string"));
    }
};

QTEST_MAIN(TestUiTypedTables)
#include "tst_ui_typedtables.moc"
